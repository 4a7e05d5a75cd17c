"""A simple greedy Qing'er bot: wins when offered, keeps the hand close to complete.

It decides from ``legal_actions(seat)``, its own cards and public information only. The
rules of thumb: knock with a promising hand (close to complete, or with jokers to score);
always show a takeoff (起飞 scores more than the same cards later); claim a pong or kong
when it does not take the hand further from complete; discard so as to stay closest to
complete (exact shanten over the 30 meld kinds), and among equal discards give up a card
that scores nothing before a 见牌 rank and never a ♣ face card while another will do.
"""

from __future__ import annotations

import random

from paiju.components.analysis import QINGER
from paiju.components.cards import N_CARD_KINDS, Card
from paiju.variants.qinger import hand as Q
from paiju.variants.qinger.hand import QingerHand
from paiju.variants.qinger.scoring import jian_pai_ranks, kind_rank

KNOCK_SHANTEN = 4
"""Knock with a hand this close to complete or closer (a typical deal is 4–5 away)."""

_CLUB_FACES = frozenset({Card.CJ, Card.CQ, Card.CK})

# by card code, read on every discard of every rollout (an enum lookup costs more)
_MELD_KIND = tuple(Card(a).meld_kind for a in range(N_CARD_KINDS))
_IS_CLUB_FACE = tuple(Card(a) in _CLUB_FACES for a in range(N_CARD_KINDS))
_KIND_RANK = tuple(kind_rank(k) for k in range(max(_MELD_KIND) + 1))


class QingerGreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def __call__(self, hand: QingerHand, seat: int) -> int:
        legal = hand.legal_actions(seat)
        for win in (Q.ZIMO, Q.HU):
            if win in legal:
                return win
        phase = hand.phase
        if phase == Q.KNOCK_PHASE:
            return self._knock(hand, seat)
        if phase == Q.TAKEOFF_PHASE:
            return Q.TAKEOFF_JOKERS if Q.TAKEOFF_JOKERS in legal else legal[0]
        kinds = bytearray(hand.kinds[seat])
        declared = hand.declared[seat]
        if phase == Q.CLAIM:
            return self._claim(hand, legal, kinds, declared)
        return self._act(hand, seat, legal, kinds, declared)

    def _knock(self, hand: QingerHand, seat: int) -> int:
        counts = hand.counts[seat]
        specials = counts[Card.BJ] + counts[Card.SJ] + counts[Card.AD]
        kinds = hand.kinds[seat]
        # before 补花 the flowers are still in hand: judge the rest one short of a full hand
        sh = QINGER.shanten_standard(bytes(kinds), hand.declared[seat])
        return Q.KNOCK if sh <= KNOCK_SHANTEN or specials >= 2 else Q.PASS

    def _claim(self, hand: QingerHand, legal: list[int], kinds: bytearray, declared: int) -> int:
        kind = Card(hand.claim_card).meld_kind
        now = QINGER.shanten_standard(bytes(kinds), declared)
        if Q.KONG in legal:
            kinds[kind] -= 3
            after = QINGER.shanten_standard(bytes(kinds), declared + 1)
            kinds[kind] += 3
            if after <= now:
                return Q.KONG
        if Q.PONG in legal:
            kinds[kind] -= 2
            best = min(
                _shanten_without(kinds, k, declared + 1) for k in range(len(kinds)) if kinds[k]
            )
            kinds[kind] += 2
            if best < now or (best == now and kind_rank(kind) in _seen(hand)):
                return Q.PONG
        return Q.PASS

    def _act(
        self, hand: QingerHand, seat: int, legal: list[int], kinds: bytearray, declared: int
    ) -> int:
        now = QINGER.shanten_standard(bytes(kinds), declared) if hand.drawn >= 0 else None
        for action in legal:
            if action >= Q.CONCEALED_KONG and now is not None:
                kind = (action - Q.CONCEALED_KONG) % 30
                take = 4 if action < Q.ADDED_KONG else 1
                kinds[kind] -= take
                after = QINGER.shanten_standard(bytes(kinds), declared + (take == 4))
                kinds[kind] += take
                # a kong that keeps the hand as close scores set points and draws a card
                if after <= now:
                    return action
        seen = _seen(hand)
        best_key: tuple[int, int, float] | None = None
        choice = legal[0]
        # two cards of one meld kind (a J of hearts and of clubs) leave the same hand
        left: dict[int, int] = {}
        for action in legal:
            if action >= N_CARD_KINDS:
                continue
            kind = _MELD_KIND[action]
            if kind < 0:
                return action  # a dead 广告 only blocks the hand
            sh = left.get(kind)
            if sh is None:
                kinds[kind] -= 1
                sh = left[kind] = QINGER.shanten_standard(bytes(kinds), declared)
                kinds[kind] += 1
            keep = 2 if _IS_CLUB_FACE[action] else 1 if _KIND_RANK[kind] in seen else 0
            key = (sh, keep, self._rng.random())
            if best_key is None or key < best_key:
                best_key, choice = key, action
        return choice


def _seen(hand: QingerHand) -> frozenset[str]:
    if not hand.revealed:
        return frozenset()
    got = _SEEN.get(hand.indicator)
    if got is None:
        got = _SEEN[hand.indicator] = jian_pai_ranks(Card(hand.indicator))
    return got


_SEEN: dict[int, frozenset[str]] = {}
"""The 见牌 ranks by indicator (asked on every decision of every rollout)."""


def _shanten_without(kinds: bytearray, k: int, declared: int) -> int:
    kinds[k] -= 1
    sh = QINGER.shanten_standard(bytes(kinds), declared)
    kinds[k] += 1
    return sh
