"""Bots by name: the levels a game offers (its Variant's ``bot_levels``) made into players."""

from __future__ import annotations

from paiju.bots.greedy_values import GreedyJudge
from paiju.bots.simple import RandomBot
from paiju.bots.strong import DEFAULT_BUDGET, StrongBot
from paiju.engine.match import Decide

LEVELS = ("random", "greedy", "strong", "learned")
"""Every bot level there is; a game offers those of its Variant's ``bot_levels``
(``learned`` only where weights ship, ``paiju/bots/weights/<variant>.npz``). ``learned``
is made for any game, so that a training run can be evaluated before it ships
(``PAIJU_LEARNED_WEIGHTS``)."""


def make_bot(name: str, seed: int = 0, variant: str = "jiaxing") -> Decide:
    """The bot ``name`` for ``variant`` with its defaults: ``random`` (any game),
    ``greedy`` (the game's own greedy bot), ``strong`` (search, see
    :mod:`paiju.bots.strong`) or ``learned`` (trained weights, :mod:`paiju.bots.learned`).
    Raises ValueError for a level the game does not offer."""
    return make_player(name, seed, variant)


def make_player(
    name: str,
    seed: int = 0,
    variant: str = "jiaxing",
    *,
    budget: float | None = None,
    search: str | None = None,
) -> Decide:
    """Any bot by name: ``strong`` (with ``budget`` seconds of Monte Carlo per decision
    and the ``search`` if given) or one of the simple bots."""
    from paiju.bots.facts import bot_facts

    levels = bot_facts(variant).bot_levels
    if name == "learned":
        # numpy and the rl encoders load only for this level
        from paiju.bots.learned import LearnedBot

        return LearnedBot(seed, variant)
    if name not in levels:
        known = (*levels, "learned") if "learned" not in levels else levels
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(known)})")
    if name == "strong":
        return StrongBot(seed, variant, budget=budget or DEFAULT_BUDGET, search=search)
    if name == "greedy":
        # the greedy level plays through the function review reads (its values skipped)
        return GreedyJudge(variant, seed)
    return RandomBot(seed)
