"""The strong bot: search on top of greedy. Two searches, chosen per game (``search``):

* ``lookahead`` (mahjong): the exact expectimax of :mod:`paiju.bots.lookahead` over the
  seat's own next draws and the others' discards, each win valued by the variant's
  scorer; it decides discards and claims once the hand is within one tile of ready, and
  greedy decides before that;
* ``montecarlo``: determinized Monte Carlo (:mod:`paiju.bots.montecarlo`) over the tiles
  (cards) the seat cannot see, on the candidates :mod:`paiju.bots.candidates` picks;
* ``both``: the lookahead's choice is the default that Monte Carlo may overrule.

Each game's Variant names its default search (``strong_search``). One function,
:meth:`StrongBot.evaluate`, values the candidates and makes the choice: play takes the
choice, review (:mod:`paiju.review`) reads the values too.

What the bot reads of the real hand: ``legal_actions(seat)``, its own tiles, and public
state (melds, discards, flowers, wall size, whose turn, the tile on offer, feeding counts,
ready declarations, the indicator). With wild tiles (Jiaxing 混儿) both searches read the
hand with the rules' wild-aware shanten and waits, and every win is scored with its 混儿
fans. The copies it searches are the hand's own determinizations, whose
claim windows the hand rebuilds from the sampled tiles: who else may claim is not read.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from paiju.bots.candidates import DEFAULT_CANDIDATES, mahjong_candidates, qinger_candidates
from paiju.bots.greedy import greedy_bot
from paiju.bots.greedy_values import WIN_POINTS, mahjong_values
from paiju.bots.lookahead import DEFAULT_MODEL, Model, lookahead_evaluation
from paiju.bots.montecarlo import RolloutBot, pick, sample
from paiju.bots.simple import RandomBot
from paiju.bots.values import Evaluation, Value
from paiju.engine import actions as A
from paiju.engine.mahjong import ACT, MahjongHand
from paiju.engine.match import Decide
from paiju.variants.qinger import hand as Q
from paiju.variants.qinger.hand import QingerHand

DEFAULT_BUDGET = 0.3
"""Seconds of Monte Carlo search per decision."""

SEARCHES = ("lookahead", "montecarlo", "both")

DEFAULT_MARGIN = 3.0
"""Standard errors by which a candidate discard must beat the greedy choice to replace
it. Most discards differ by a few hundredths of a point while one sample's outcome
spreads over tens of points: with a small margin the search mostly follows noise (the
best of four noisy estimates), which measurably loses to greedy."""

DEFAULT_CLAIM_MARGIN = 3.0
"""The same for answers outside one's turn (pass / pong / kong / win). A smaller margin
here (1.0) measured worse than greedy on Jiaxing too."""


class StrongBot:
    """Search on top of greedy (see the module's docstring).

    ``search``: ``lookahead``, ``montecarlo`` or ``both`` (default: the game's, from its
    Variant); a game without the lookahead (Qing'er) always uses Monte Carlo.
    ``lookahead``: the lookahead's :class:`~paiju.bots.lookahead.Model`. ``budget``:
    seconds of Monte Carlo per decision; ``rollouts``: a fixed number of samples instead
    (the decision then depends only on the seed and what the seat sees); ``candidates``:
    discards searched per turn; ``rollout``: the policy that finishes sampled hands (a bot
    name, ``greedy`` by default, or ``rollout`` for :class:`RolloutBot` in mahjong and
    greedy elsewhere); ``margin`` and ``claim_margin``: see :data:`DEFAULT_MARGIN` and
    :data:`DEFAULT_CLAIM_MARGIN`.
    """

    name = "strong"

    def __init__(
        self,
        seed: int = 0,
        variant: str = "jiaxing",
        *,
        budget: float = DEFAULT_BUDGET,
        rollouts: int | None = None,
        candidates: int = DEFAULT_CANDIDATES,
        rollout: str = "greedy",
        margin: float | None = None,
        claim_margin: float | None = None,
        search: str | None = None,
        lookahead: Model | None = None,
    ) -> None:
        from paiju.bots.facts import bot_facts

        search = search or bot_facts(variant).strong_search
        if search not in SEARCHES:
            raise ValueError(f"unknown search {search!r} (known: {', '.join(SEARCHES)})")
        if budget <= 0:
            raise ValueError(f"budget must be positive, not {budget}")
        if rollouts is not None and rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {candidates}")
        if rollout not in ("greedy", "random", "rollout"):
            raise ValueError(f"unknown rollout policy {rollout!r} (known: greedy, random, rollout)")
        self.seed = seed
        self.variant = variant
        self.search = search
        self.lookahead = lookahead or DEFAULT_MODEL
        self.budget = budget
        self.rollouts = rollouts
        self.candidates = candidates
        self.rollout = rollout
        self.margin = DEFAULT_MARGIN if margin is None else margin
        self.claim_margin = DEFAULT_CLAIM_MARGIN if claim_margin is None else claim_margin
        # the real decision's default and ranking come from greedy, whatever finishes
        # the sampled hands
        self._fallback = greedy_bot(variant, seed)
        self._drops_suit = bot_facts(variant).greedy_bot == "taixing_greedy"
        self._decisions = 0
        self.samples: list[int] = []
        """Samples taken at each searched decision (for the bench and for tuning)."""

    def __call__(self, hand: Any, seat: int) -> int:
        return self.evaluate(hand, seat).choice

    def evaluate(
        self,
        hand: Any,
        seat: int,
        *,
        detail: bool = False,
        include: Sequence[int] = (),
        default: int | None = None,
    ) -> Evaluation:
        """The bot's choice for ``seat`` and the values behind it, from what the seat may
        see. Play reads the choice; ``detail`` (review) values more than play needs: the
        lookahead's wins, kongs and far hands, and the deal-in chance of each discard;
        ``include`` names actions Monte Carlo must value too (the one a player chose),
        without letting them compete for the choice. ``default``: the greedy action the
        search starts from and ties keep (another greedy's, as ``paiju train`` asks with
        its hint's); by default the bot's own greedy fallback's."""
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return Evaluation(int(legal[0]), "forced", {}, frozenset(legal))
        if default is None:
            default = int(self._fallback(hand, seat))
        base = Evaluation(default, "greedy", {}, frozenset([default]))
        in_turn = False
        if isinstance(hand, MahjongHand):
            if A.ZIMO in legal:
                if self.search == "montecarlo" and not detail:
                    return Evaluation(A.ZIMO, "rule", {}, frozenset([A.ZIMO]))
                ev = lookahead_evaluation(hand, seat, legal, A.ZIMO, self.lookahead, detail=detail)
                return Evaluation(A.ZIMO, "rule", ev.values, frozenset([A.ZIMO]))
            if self.search != "montecarlo":
                base = lookahead_evaluation(
                    hand, seat, legal, default, self.lookahead, detail=detail
                )
                if detail:
                    base = self._far_values(hand, seat, legal, base)
                default = base.choice
                if self.search == "lookahead":
                    return base
            cands = mahjong_candidates(hand, seat, legal, self.candidates)
            in_turn = hand.phase == ACT
        elif isinstance(hand, QingerHand):
            cands = qinger_candidates(hand, seat, legal, self.candidates)
            in_turn = hand.phase == Q.ACT
        else:
            return base
        # the default first (greedy's, or the lookahead's): ties keep it
        cands = [default] + [a for a in cands if a != default]
        if len(cands) == 1:
            return base
        extra = [a for a in include if a in legal and a not in cands]
        return self._search(hand, seat, cands, extra, in_turn)

    def _far_values(
        self, hand: MahjongHand, seat: int, legal: Sequence[int], ev: Evaluation
    ) -> Evaluation:
        """A hand too far from ready for the lookahead (every candidate worth 0 in its
        model, the choice greedy's shanten with its tie-break): valued instead by greedy's
        measure (:mod:`paiju.bots.greedy_values`), the lookahead's deal-in chances kept.
        Review only: the choice stays the lookahead's."""
        if ev.search != "greedy" or any(v.points for v in ev.values.values()):
            return ev
        points = WIN_POINTS.get(self.variant, WIN_POINTS["jiaxing"])
        estimate = mahjong_values(hand, seat, legal, points, self._drops_suit)
        values = {
            a: Value(v.points, v.win, ev.values[a].deal_in if a in ev.values else None)
            for a, v in estimate.items()
        }
        mine = values.get(ev.choice)
        ties = set(ev.ties)
        if mine is not None and mine.points is not None:
            ties.update(
                a
                for a, v in values.items()
                if v.points is not None and abs(v.points - mine.points) < 1e-9
            )
        return Evaluation(ev.choice, "greedy", values, frozenset(ties))

    def _search(
        self, hand: Any, seat: int, cands: list[int], extra: list[int], in_turn: bool
    ) -> Evaluation:
        self._decisions += 1
        # a fresh stream per decision: one decision's sample count (which follows the
        # clock) never shifts the samples of the next
        rng = random.Random(self.seed * 1_000_003 + self._decisions)
        policy: Callable[[int], Decide]
        if self.rollout == "rollout" and isinstance(hand, MahjongHand):
            policy = RolloutBot
        else:
            name = "greedy" if self.rollout == "rollout" else self.rollout
            variant = self.variant
            policy = lambda s: _simple(name, s, variant)  # noqa: E731
        everything = cands + extra
        got = sample(
            hand, seat, everything, policy, rng, budget=self.budget, rollouts=self.rollouts
        )
        self.samples.append(got.n)
        chosen = pick(got.points, self.margin if in_turn else self.claim_margin, len(cands))
        values: dict[int, Value] = {a: got.value(i, chosen) for i, a in enumerate(everything)}
        return Evaluation(cands[chosen], "montecarlo", values, frozenset([cands[chosen]]))


def _simple(name: str, seed: int, variant: str) -> Decide:
    if name == "random":
        return RandomBot(seed)
    return greedy_bot(variant, seed)
