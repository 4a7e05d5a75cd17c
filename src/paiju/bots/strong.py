"""The strong bot: determinized Monte Carlo over the tiles its seat cannot see.

At a decision with more than one sensible option the bot repeatedly

1. *determinizes*: deals the unseen multiset (the whole tile set minus its own concealed
   tiles, every meld, every discard and every flower shown) at random into the other
   seats' hands, each keeping its public size, and into the rest of the wall;
2. plays every candidate action on that same sample and finishes the hand with the
   rollout policy (``greedy`` by default) for all four seats;

and picks the candidate with the best mean net score for its seat. All candidates share
the samples and the rollout players' seeds (common random numbers), so their difference is
measured with far less noise than their values. The loop stops at the time budget
(default 0.3 s per decision) or after a fixed number of samples (``rollouts``, which makes
decisions reproducible whatever the machine's speed).

What the bot reads of the real hand: ``legal_actions(seat)``, its own tiles, and public
state (melds, discards, flowers, wall size, whose turn, the tile on offer, feeding counts,
ready declarations). The copy it searches is rebuilt from those alone; the claim window
of the copy is recomputed from the sampled hands, so who else may claim is not read
either.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from paiju.components.analysis import MAHJONG
from paiju.engine import actions as A
from paiju.engine.mahjong import ACT, CLAIM, DECLARE, ROB, MahjongHand
from paiju.engine.match import Decide, play_hand
from paiju.variants.base import Meld, WinType

DEFAULT_BUDGET = 0.3
"""Seconds of search per decision."""

DEFAULT_CANDIDATES = 4
"""Discards searched at one decision (the greedy ranking's best few)."""

MIN_SAMPLES = 2
"""Samples taken even when the budget is already spent (a slow machine still searches)."""

Determinizer = Callable[[Any, int, random.Random], Any]


def meld_tiles(meld: Meld) -> int:
    """How many tiles a meld shows (three for a pong, four for any kong)."""
    return meld.type.size


def unseen_tiles(hand: MahjongHand, seat: int) -> list[int]:
    """The tiles ``seat`` cannot see, ascending: every tile of the set minus its own
    concealed tiles, all melds, all discards, all flowers set aside, and an added kong's
    tile on offer (shown, though still counted in the konger's hand)."""
    tiles = hand.rules.tiles()
    left = [0] * (max(tiles) + 1)
    for t in tiles:
        left[t] += 1
    for k, n in enumerate(hand.counts[seat]):
        left[k] -= n
    for s in range(len(hand.counts)):
        for m in hand.melds[s]:
            left[m.tile] -= meld_tiles(m)
        for t in hand.discards[s]:
            left[t] -= 1
        for f in hand.flowers[s]:
            left[f] -= 1
    if hand.phase == ROB and hand.rob_seat != seat:
        left[hand.claim_tile] -= 1
    if min(left) < 0:  # pragma: no cover - the engine conserves tiles
        raise AssertionError("more tiles seen than the set holds")
    return [t for t, n in enumerate(left) for _ in range(n)]


def determinize_mahjong(hand: MahjongHand, seat: int, rng: random.Random) -> MahjongHand:
    """A copy of ``hand`` consistent with what ``seat`` sees, the hidden tiles resampled.

    Other seats keep their concealed counts' sizes; flowers (never held) go to the wall.
    The pending claim window (or 抢杠 / 天听 window) is rebuilt from the sampled hands and
    holds no answer yet except that ``seat`` still has to give its own."""
    pool = unseen_tiles(hand, seat)
    rng.shuffle(pool)
    playing = [t for t in pool if t < 34]
    flowers = [t for t in pool if t >= 34]
    det = hand.copy()
    n_seats = len(hand.counts)
    pos = 0
    for s in range(n_seats):
        if s == seat:
            continue
        size = sum(hand.counts[s])
        counts = bytearray(34)
        if hand.phase == ROB and s == hand.rob_seat:
            counts[hand.claim_tile] += 1
            size -= 1
        for t in playing[pos : pos + size]:
            counts[t] += 1
        pos += size
        det.counts[s] = counts
    rest = playing[pos:] + flowers
    rng.shuffle(rest)
    if len(rest) != hand.tail - hand.head:  # pragma: no cover - conservation again
        raise AssertionError("the unseen tiles do not fill the hands and the wall")
    det.wall = hand.wall[: hand.head] + rest + hand.wall[hand.tail :]
    det._waits = [None] * n_seats
    det._legal = {}
    current = hand.current
    if current != seat and det.drawn >= 0 and not det.counts[current][det.drawn]:
        # the seat to move drew a tile nobody else saw: any tile of its sampled hand
        det.drawn = next(k for k in range(34) if det.counts[current][k])
    if hand.phase in (CLAIM, ROB, DECLARE):
        det.pending = _rebuilt_window(hand, det, seat)
        det.answers = {}
    return det


def _rebuilt_window(hand: MahjongHand, det: MahjongHand, seat: int) -> dict[int, list[int]]:
    """The window's options for every seat, ``seat``'s own as the real hand offers them
    and the others' as the engine would offer them on the sampled hands."""
    own = list(hand.legal_actions(seat))
    pending: dict[int, list[int]] = {}
    tile = hand.claim_tile
    if hand.phase == CLAIM:
        source = hand.claim_from
        for s in _after(source, len(hand.counts)):
            opts = own if s == seat else _claim_options(det, s, tile)
            if opts:
                pending[s] = opts
    elif hand.phase == ROB:
        for s in _after(hand.rob_seat, len(hand.counts)):
            if s == seat:
                pending[s] = own
            elif det._can_take(s, tile, WinType.ROBBED_KONG):
                pending[s] = [A.PASS, A.HU]
    else:
        for s in _after(hand.dealer, len(hand.counts)):
            if s == seat:
                pending[s] = own
            elif det.rules.is_ready(det, s, bytes(det.counts[s])):
                pending[s] = [A.PASS, A.DECLARE]
    return pending


def _claim_options(det: MahjongHand, s: int, tile: int) -> list[int]:
    """The engine's claim options (pass / pong / kong / win) for ``s`` on ``tile``."""
    n = det.counts[s][tile]
    opts: list[int] = []
    if n >= 2 and det.tail > det.head and not det.ready[s]:
        opts.append(A.PONG)
        if n == 3:
            opts.append(A.KONG)
    if det._can_take(s, tile, WinType.DISCARD):
        opts.append(A.HU)
    if opts:
        opts.insert(0, A.PASS)
    return opts


def _after(seat: int, n: int) -> list[int]:
    return [(seat + i) % n for i in range(1, n)]


def determinize(hand: Any, seat: int, rng: random.Random) -> Any:
    """A sample of ``hand`` as ``seat`` may imagine it. A game whose hand class offers
    ``determinize(seat, rng)`` supplies its own; mahjong hands use
    :func:`determinize_mahjong`."""
    own = getattr(hand, "determinize", None)
    if own is not None:
        return own(seat, rng)
    if isinstance(hand, MahjongHand):
        return determinize_mahjong(hand, seat, rng)
    raise TypeError(f"no determinization for {type(hand).__name__}")


def can_search(hand: Any) -> bool:
    return hasattr(hand, "determinize") or isinstance(hand, MahjongHand)


def mahjong_candidates(hand: MahjongHand, seat: int, legal: Sequence[int], keep: int) -> list[int]:
    """The actions worth searching, best first by the greedy measure: every window answer;
    in a turn the ``keep`` discards leaving the lowest shanten (then most improving unseen
    tiles), their ready declarations, and every kong."""
    if hand.phase != ACT:
        return list(legal)
    from paiju.bots.simple import _ukeire, _unseen

    counts = bytearray(hand.counts[seat])
    declared = len(hand.melds[seat])
    discards = [a for a in legal if a < 34]
    ranked: list[tuple[int, int, int]] = []
    for a in discards:
        counts[a] -= 1
        ranked.append((MAHJONG.shanten(bytes(counts), declared), 0, a))
        counts[a] += 1
    ranked.sort()
    if len(ranked) > keep:
        unseen = _unseen(hand, seat)
        cut = ranked[keep - 1][0]
        close = [r for r in ranked if r[0] <= cut]
        scored = []
        for sh, _, a in close:
            counts[a] -= 1
            scored.append((sh, -_ukeire(counts, declared, sh, unseen), a))
            counts[a] += 1
        ranked = sorted(scored)[:keep]
    top = [a for _, _, a in ranked]
    out = list(top)
    for a in legal:
        if a >= 34 and (a < A.TING or a - A.TING in top):
            out.append(a)
    return out


class StrongBot:
    """Determinized Monte Carlo with greedy rollouts (see the module's docstring).

    ``budget``: seconds per decision; ``rollouts``: a fixed number of samples instead (the
    decision then depends only on the seed and what the seat sees); ``candidates``:
    discards searched per turn; ``rollout``: the bot name used to finish sampled hands.
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
    ) -> None:
        if budget <= 0:
            raise ValueError(f"budget must be positive, not {budget}")
        if rollouts is not None and rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        if candidates < 1:
            raise ValueError(f"candidates must be at least 1, not {candidates}")
        from paiju.bots.simple import make_bot

        self.seed = seed
        self.variant = variant
        self.budget = budget
        self.rollouts = rollouts
        self.candidates = candidates
        self._make_policy: Callable[[int], Decide] = lambda s: make_bot(rollout, s, variant)
        self._fallback = make_bot(rollout, seed, variant)
        self._decisions = 0
        self.samples: list[int] = []
        """Samples taken at each searched decision (for the bench and for tuning)."""

    def __call__(self, hand: Any, seat: int) -> int:
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return int(legal[0])
        default = int(self._fallback(hand, seat))
        if not can_search(hand):
            return default
        if isinstance(hand, MahjongHand):
            if A.ZIMO in legal:
                return A.ZIMO
            cands = mahjong_candidates(hand, seat, legal, self.candidates)
        else:
            cands = list(legal)
        # the greedy choice first: ties keep it
        cands = [default] + [a for a in cands if a != default]
        if len(cands) == 1:
            return default
        return self._search(hand, seat, cands)

    def _search(self, hand: Any, seat: int, cands: list[int]) -> int:
        self._decisions += 1
        # a fresh stream per decision: one decision's sample count (which follows the
        # clock) never shifts the samples of the next
        rng = random.Random(self.seed * 1_000_003 + self._decisions)
        n_seats = _n_seats(hand)
        totals = [0.0] * len(cands)
        deadline = time.perf_counter() + self.budget
        samples = 0
        while True:
            det = determinize(hand, seat, rng)
            seeds = [rng.getrandbits(32) for _ in range(n_seats)]
            for i, action in enumerate(cands):
                totals[i] += self._rollout(det, seat, action, seeds)
            samples += 1
            if self.rollouts is not None:
                if samples >= self.rollouts:
                    break
            elif samples >= MIN_SAMPLES and time.perf_counter() >= deadline:
                break
        self.samples.append(samples)
        best = max(range(len(cands)), key=lambda i: (totals[i], -i))
        return cands[best]

    def _rollout(self, det: Any, seat: int, action: int, seeds: list[int]) -> float:
        h = det.copy()
        h.apply(action, seat)
        players: list[Decide] = [self._make_policy(s) for s in seeds]
        play_hand(h, players)
        return float(h.net()[seat])


def _n_seats(hand: Any) -> int:
    counts = getattr(hand, "counts", None)
    if counts is not None:
        return len(counts)
    return int(getattr(hand, "n_seats", 4))


def make_player(
    name: str, seed: int = 0, variant: str = "jiaxing", *, budget: float | None = None
) -> Decide:
    """Any bot by name: ``strong`` (with ``budget`` seconds per decision if given) or one
    of :func:`paiju.bots.simple.make_bot`'s."""
    if name == "strong":
        return StrongBot(seed, variant, budget=budget or DEFAULT_BUDGET)
    from paiju.bots.simple import make_bot

    return make_bot(name, seed, variant)
