"""The candidates a search weighs at one decision: the few that greedy's own measure
ranks best (every answer outside a turn), so that the search's time goes where the
choice is real."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from paiju.bots.simple import _ukeire, reader, unseen_counts
from paiju.components.analysis import QINGER
from paiju.engine import actions as A
from paiju.engine.mahjong import ACT, MahjongHand
from paiju.variants.qinger import hand as Q

DEFAULT_CANDIDATES = 4
"""Discards searched at one decision (the greedy ranking's best few)."""


def mahjong_candidates(hand: MahjongHand, seat: int, legal: Sequence[int], keep: int) -> list[int]:
    """The actions worth searching, best first by the greedy measure: every window answer;
    in a turn the ``keep`` discards leaving the lowest shanten (then most improving unseen
    tiles), their ready declarations, and every kong."""
    if hand.phase != ACT:
        return list(legal)
    counts = bytearray(hand.counts[seat])
    declared = len(hand.melds[seat])
    discards = [a for a in legal if a < 34]
    shanten = reader(hand, seat).shanten
    ranked: list[tuple[int, float, int]] = []
    for a in discards:
        counts[a] -= 1
        ranked.append((shanten(bytes(counts), declared), 0, a))
        counts[a] += 1
    ranked.sort()
    if len(ranked) > keep:
        unseen = unseen_counts(hand, seat)
        cut = ranked[keep - 1][0]
        close = [r for r in ranked if r[0] <= cut]
        scored = []
        for sh, _, a in close:
            counts[a] -= 1
            scored.append((sh, -_ukeire(counts, declared, sh, unseen, shanten=shanten), a))
            counts[a] += 1
        ranked = sorted(scored)[:keep]
    top = [a for _, _, a in ranked]
    out = list(top)
    for a in legal:
        if a >= 34 and (a < A.TING or a - A.TING in top):
            out.append(a)
    return out


def qinger_candidates(hand: Any, seat: int, legal: Sequence[int], keep: int) -> list[int]:
    """Qing'er's actions worth searching: every answer outside a turn (knock or pass,
    takeoffs, claims); in a turn the ``keep`` discards leaving the hand closest to
    complete, and every kong or win."""
    if hand.phase != Q.ACT:
        return list(legal)
    kinds = bytearray(hand.kinds[seat])
    declared = hand.declared[seat]
    ranked = []
    for a in legal:
        if a < Q.CONCEALED_KONG:
            kind = Q.MELD_KIND[a]
            if kind >= 0:
                kinds[kind] -= 1
            ranked.append((QINGER.shanten_standard(bytes(kinds), declared), a))
            if kind >= 0:
                kinds[kind] += 1
    ranked.sort()
    return [a for _, a in ranked[:keep]] + [a for a in legal if a >= Q.CONCEALED_KONG]
