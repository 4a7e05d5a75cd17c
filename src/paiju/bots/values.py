"""What a bot says about one decision: every candidate's value, and its own choice.

The same object serves play (the bot takes :attr:`Evaluation.choice`) and review (which
sets the choice made beside the bot's and reads the values).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Value:
    """One candidate as the bot sees it from the seat's information. Each figure is None
    where the bot's search does not know it.

    ``points``: expected net points for the seat from here (the lookahead: from its own
    win; Monte Carlo: the whole hand's result, payments already made excluded);
    ``win``: the chance the seat wins the hand; ``deal_in``: the chance this discard
    lets another seat win on it."""

    points: float | None = None
    win: float | None = None
    deal_in: float | None = None
    stderr: float | None = None
    """Sampled values only: the standard error of this candidate's points minus the
    bot's choice's, on the same samples (how far apart the two are known to be)."""


@dataclass(frozen=True)
class Evaluation:
    """A decision: ``choice`` is the bot's; ``values`` holds every candidate it valued
    (its choice always); ``ties`` the candidates it finds exactly as good as its choice
    (its own tie-breaks aside); ``search`` names what decided: ``forced`` (one legal
    action), ``greedy``, ``lookahead``, ``montecarlo`` or ``rule`` (a win taken, a ready
    declaration made)."""

    choice: int
    search: str
    values: dict[int, Value] = field(default_factory=dict)
    ties: frozenset[int] = frozenset()

    def points(self, action: int) -> float | None:
        value = self.values.get(action)
        return None if value is None else value.points
