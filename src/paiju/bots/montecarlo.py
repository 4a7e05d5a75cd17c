"""Determinized Monte Carlo: every candidate played on the same sampled hands and finished
by a rollout policy; the values are each candidate's mean result for the seat.

At a decision the search repeatedly

1. *determinizes* (:func:`paiju.bots.determinize.determinize`): deals what the seat cannot
   see at random into the other seats' hands and the rest of the wall (stock);
2. plays every candidate on that same sample and finishes the hand with the rollout
   policy for all seats (the variant's greedy bot by default; for mahjong
   :class:`RolloutBot` is a faster option without ukeire).

All candidates share the samples and the rollout players' seeds (common random numbers),
so their difference is measured with far less noise than their values. The loop stops at
the time budget or after a fixed number of samples.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from paiju.bots.determinize import determinize
from paiju.bots.values import Value
from paiju.components.analysis import MAHJONG
from paiju.engine import actions as A
from paiju.engine.mahjong import MahjongHand
from paiju.engine.match import Decide, play_hand
from paiju.engine.qinger import QingerHand

MIN_SAMPLES = 4
"""Samples taken even when the budget is already spent (a slow machine still searches)."""


@dataclass
class Samples:
    """Each candidate's results on the shared samples: ``points[i][j]`` is candidate
    ``i``'s net for the seat on sample ``j``; ``wins`` and ``deal_ins`` count the samples
    in which the seat won, or dealt in."""

    points: list[list[float]]
    wins: list[int]
    deal_ins: list[int]

    @property
    def n(self) -> int:
        return len(self.points[0]) if self.points else 0

    def value(self, i: int, against: int = 0) -> Value:
        """Candidate ``i``'s value, its spread measured against candidate ``against``."""
        n = self.n
        diffs = [a - b for a, b in zip(self.points[i], self.points[against], strict=True)]
        mean = sum(diffs) / n
        spread = (sum((d - mean) ** 2 for d in diffs) / (n - 1) / n) ** 0.5 if n > 1 else None
        return Value(
            points=sum(self.points[i]) / n,
            win=self.wins[i] / n,
            deal_in=self.deal_ins[i] / n,
            stderr=spread,
        )


def sample(
    hand: Any,
    seat: int,
    cands: Sequence[int],
    policy: Callable[[int], Decide],
    rng: random.Random,
    *,
    budget: float,
    rollouts: int | None,
) -> Samples:
    """Play every candidate on shared determinizations until ``rollouts`` samples (or,
    without it, the ``budget`` in seconds, at least :data:`MIN_SAMPLES`)."""
    n_seats = len(hand.net())
    out = Samples([[] for _ in cands], [0] * len(cands), [0] * len(cands))
    deadline = time.perf_counter() + budget
    samples = 0
    while True:
        det = determinize(hand, seat, rng)
        seeds = [rng.getrandbits(32) for _ in range(n_seats)]
        for i, action in enumerate(cands):
            h = det.copy()
            h.apply(action, seat)
            play_hand(h, [policy(s) for s in seeds])
            out.points[i].append(float(h.net()[seat]))
            won, dealt_in = outcome(h, seat)
            out.wins[i] += won
            out.deal_ins[i] += dealt_in
        samples += 1
        if rollouts is not None:
            if samples >= rollouts:
                break
        elif samples >= MIN_SAMPLES and time.perf_counter() >= deadline:
            break
    return out


def outcome(hand: Any, seat: int) -> tuple[bool, bool]:
    """Of a finished hand: did ``seat`` win, and did another seat win on its discard."""
    won = seat in hand.winners
    if not hand.winners or hand.self_drawn:
        return won, False
    if isinstance(hand, MahjongHand):
        return won, any(hand.win_info[w].source == seat for w in hand.winners)
    if isinstance(hand, QingerHand):
        return won, hand.win_source == seat
    return won, False


def pick(points: list[list[float]], margin: float, among: int | None = None) -> int:
    """The candidate whose mean beats the default's (index 0) by the most, counted only
    when the paired difference is ``margin`` standard errors above zero; only the first
    ``among`` candidates compete (the others were valued for review only)."""
    base = points[0]
    n = len(base)
    best, best_gain = 0, 0.0
    for i in range(1, len(points) if among is None else among):
        diffs = [a - b for a, b in zip(points[i], base, strict=True)]
        gain = sum(diffs) / n
        if gain <= best_gain:
            continue
        if n > 1:
            var = sum((d - gain) ** 2 for d in diffs) / (n - 1)
            if gain <= margin * (var / n) ** 0.5:
                continue
        best, best_gain = i, gain
    return best


def _closeness(counts: bytearray, k: int) -> int:
    """How much of the hand sits near kind ``k``: copies count most, then neighbours in
    the same suit. A cheap stand-in for ukeire when the rollouts choose a discard."""
    score = 4 * (counts[k] - 1)
    if k < 27:
        pos = k % 9
        base = k - pos
        for d, w in ((1, 2), (2, 1)):
            if pos - d >= 0:
                score += w * counts[base + pos - d]
            if pos + d < 9:
                score += w * counts[base + pos + d]
    return score


class RolloutBot:
    """The fast mahjong policy that finishes sampled hands: it wins when it can, keeps the
    lowest shanten (ties: the discard with the least of the hand around it, then at
    random), takes a kong that keeps the shanten and a pong that lowers it. Unlike
    ``greedy`` it never counts unseen tiles (ukeire), which makes it several times
    faster; ``greedy`` still ranks the candidates of the real decision. Select it with
    ``StrongBot(rollout="rollout")``."""

    name = "rollout"

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed).random

    def __call__(self, hand: MahjongHand, seat: int) -> int:
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        for win in (A.ZIMO, A.HU, A.DECLARE):
            if win in legal:
                return win
        counts = bytearray(hand.counts[seat])
        declared = len(hand.melds[seat])
        shanten = MAHJONG.shanten
        if A.PASS in legal:
            tile = hand.claim_tile
            if A.PONG not in legal:
                return A.PASS
            now = shanten(bytes(counts), declared)
            counts[tile] -= 2
            after = 99
            for k in range(34):
                if counts[k]:
                    counts[k] -= 1
                    after = min(after, shanten(bytes(counts), declared + 1))
                    counts[k] += 1
            return A.PONG if after < now else A.PASS
        best: tuple[int, int, float] | None = None
        choice = legal[0]
        for action in legal:
            if action < 34:
                counts[action] -= 1
                sh = shanten(bytes(counts), declared)
                counts[action] += 1
                key = (sh, _closeness(counts, action), self._random())
            elif action < 102:
                tile = action - 34 if action < 68 else action - 68
                take = 4 if action < 68 else 1
                counts[tile] -= take
                sh = shanten(bytes(counts), declared + (action < 68))
                counts[tile] += take
                key = (sh - 1, -1, 0.0)
            else:
                continue
            if best is None or key < best:
                best, choice = key, action
        if A.TING + choice in legal:
            return A.TING + choice
        return choice
