"""The two simple bots that drive games: uniformly random, and shanten-greedy.

Both decide from ``legal_actions(seat)``, the seat's own tiles and public information
(melds and discards); neither looks at another seat's concealed tiles or the wall.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from paiju.components.analysis import MAHJONG
from paiju.engine import actions as A
from paiju.engine.mahjong import MahjongHand
from paiju.variants.taixing.scoring import dropping_suit


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self._choice = random.Random(seed).choice

    def __call__(self, hand: MahjongHand, seat: int) -> int:
        return self._choice(hand.legal_actions(seat))


class GreedyBot:
    """Wins whenever it can; otherwise keeps the hand closest to ready (exact shanten),
    breaking ties by how many unseen tiles would improve it. Where feeding one player
    too many sets seals the feeder (Jiaxing 封胡), a discard that player could pong for
    its last allowed set is avoided among equally good ones."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def __call__(self, hand: MahjongHand, seat: int) -> int:
        legal = hand.legal_actions(seat)
        for win in (A.ZIMO, A.HU, A.DECLARE):
            # a ready declaration (天听) is offered only to a ready hand: always take it
            if win in legal:
                return win
        if hand.rules.wild_kinds:
            return wild_greedy(hand, seat, legal, self._rng)
        counts = bytearray(hand.counts[seat])
        declared = len(hand.melds[seat])
        if A.PASS in legal:
            return self._claim(hand, seat, legal, counts, declared)
        unseen = unseen_counts(hand, seat)
        # shanten first for every candidate; ukeire (the costly part) only for the best
        scored: list[tuple[int, int]] = []
        for action in legal:
            if action < 34:
                counts[action] -= 1
                scored.append((MAHJONG.shanten(bytes(counts), declared), action))
                counts[action] += 1
            elif action < 102:
                tile = action - 34 if action < 68 else action - 68
                take = 4 if action < 68 else 1
                counts[tile] -= take
                # an added kong turns a declared pong into a kong: no new set
                sh = MAHJONG.shanten(bytes(counts), declared + (action < 68))
                counts[tile] += take
                # a kong that keeps the shanten is worth it (kong money, a free draw)
                scored.append((sh - 1, action))
        best_sh = min(sh for sh, _ in scored)
        top = [a for sh, a in scored if sh == best_sh]
        kongs = [a for a in top if a >= 34]
        if kongs:
            return kongs[0]
        if len(top) > 1 and hand.rules.feeding_limit is not None:
            safe = [a for a in top if not _would_seal(hand, seat, a, unseen)]
            top = safe or top
        if len(top) == 1:
            return _declaring(top[0], legal)
        best_key: tuple[float, float] | None = None
        choice = top[0]
        for action in top:
            counts[action] -= 1
            key = (-_ukeire(counts, declared, best_sh, unseen), self._rng.random())
            counts[action] += 1
            if best_key is None or key < best_key:
                best_key, choice = key, action
        return _declaring(choice, legal)

    def _claim(
        self, hand: MahjongHand, seat: int, legal: list[int], counts: bytearray, declared: int
    ) -> int:
        tile = hand.claim_tile
        now = MAHJONG.shanten(bytes(counts), declared)
        for action in (A.KONG, A.PONG):
            if action in legal:
                take = 3 if action == A.KONG else 2
                counts[tile] -= take
                # after a pong one tile must still go: look at the best discard
                if action == A.PONG:
                    after = min(
                        _shanten_without(counts, k, declared + 1) for k in range(34) if counts[k]
                    )
                else:
                    after = MAHJONG.shanten(bytes(counts), declared + 1)
                counts[tile] += take
                if after < now:
                    return action
        for action in (A.CHI_LOW, A.CHI_MID, A.CHI_HIGH):
            if action in legal:
                low = tile - (action - A.CHI_LOW)
                used = [t for t in (low, low + 1, low + 2) if t != tile]
                for t in used:
                    counts[t] -= 1
                after = min(
                    _shanten_without(counts, k, declared + 1) for k in range(34) if counts[k]
                )
                for t in used:
                    counts[t] += 1
                if after < now:
                    return action
        return A.PASS


class TaixingGreedyBot(GreedyBot):
    """Greedy for Taixing, where a hand must lack a suit (缺门) to win: it picks the suit
    it holds fewest of (never one it has melded) as the one to drop, throws that suit's
    tiles first (the least connected first) and never claims them; once a suit is
    missing it plays as greedy. While its flowers (flower tiles and the flowers its melds
    are worth) are short of the discard-win minimum, it also pongs a wind or dragon that
    does not set it back (a 风碰 is a flower)."""

    chase_flowers = True

    def __call__(self, hand: MahjongHand, seat: int) -> int:
        legal = hand.legal_actions(seat)
        if A.ZIMO in legal or A.HU in legal or A.DECLARE in legal:
            return super().__call__(hand, seat)
        void = void_suit(hand, seat)
        if A.PASS in legal:
            if void is not None and hand.claim_tile // 9 == void:
                return A.PASS
            if A.PONG in legal and self.chase_flowers and _flower_pong(hand, seat):
                return A.PONG
            return super().__call__(hand, seat)
        if void is None:
            return super().__call__(hand, seat)
        drop = [a for a in legal if a < 27 and a // 9 == void]
        if not drop:
            return super().__call__(hand, seat)
        counts = hand.counts[seat]

        def connected(k: int) -> int:
            pos = k % 9
            near = sum(counts[k + d] for d in (-2, -1, 1, 2) if 0 <= pos + d < 9)
            return 3 * (counts[k] - 1) + near

        return _declaring(min(drop, key=lambda k: (connected(k), k)), legal)


def _flower_pong(hand: MahjongHand, seat: int) -> bool:
    """Whether ponging the tile on offer is worth a flower (a 风碰) that ``seat`` still
    needs for the discard-win minimum, and leaves the hand no further from ready."""
    rules = hand.rules
    if not rules.is_flower_meld(hand.claim_tile) or not rules.flowers_short(hand, seat):
        return False
    counts = bytearray(hand.counts[seat][:34])
    declared = len(hand.melds[seat])
    now = MAHJONG.shanten(bytes(counts), declared)
    counts[hand.claim_tile] -= 2
    after = min(_shanten_without(counts, k, declared + 1) for k in range(34) if counts[k])
    return after <= now


def void_suit(hand: MahjongHand, seat: int) -> int | None:
    """The number suit (0 万, 1 筒, 2 索) ``seat`` should give up for 缺门: the rules' own
    choice (the one it holds fewest tiles of, melds included, among suits it has not
    melded); None when a suit is already missing (or every suit is melded)."""
    suit = dropping_suit(hand.counts[seat], hand.melds[seat])
    if suit is None:
        return None
    held = sum(hand.counts[seat][suit * 9 : suit * 9 + 9])
    return suit if held else None


def _would_seal(hand: MahjongHand, seat: int, tile: int, unseen: list[int]) -> bool:
    """Whether discarding ``tile`` could let a seat that ``seat`` has already fed one set
    short of the limit pong it (2 or more copies unseen, so it may hold a pair)."""
    limit = hand.rules.feeding_limit
    if limit is None or tile >= 34 or unseen[tile] < 2:
        return False
    fed = hand.fed[seat]
    return any(fed[s] == limit - 1 and not hand.ready[s] for s in range(len(fed)) if s != seat)


def _declaring(discard: int, legal: list[int]) -> int:
    """The discard, made as a 天听 declaration when that is offered with it."""
    return A.TING + discard if A.TING + discard in legal else discard


def _shanten_without(counts: bytearray, k: int, declared: int) -> int:
    counts[k] -= 1
    sh = MAHJONG.shanten(bytes(counts), declared)
    counts[k] += 1
    return sh


def unseen_counts(hand: MahjongHand, seat: int) -> list[int]:
    """Copies of each of the 34 kinds that ``seat`` has not seen (own tiles, every meld,
    every discard, a turned-up indicator set aside)."""
    seen = [0] * 34
    for k, n in enumerate(hand.counts[seat][:34]):
        seen[k] += n
    for t in hand.set_aside:
        seen[t] += 1
    for s in range(len(hand.counts)):
        for t in hand.discards[s]:
            seen[t] += 1
        for m in hand.melds[s]:
            for t in m.tiles:
                seen[t] += 1
    return [max(0, 4 - n) for n in seen]


def _ukeire(
    counts: bytearray,
    declared: int,
    sh: int,
    unseen: list[int],
    pair_weight: float = 1,
    *,
    shanten: Callable[[bytes, int], int] = MAHJONG.shanten,
) -> float:
    """Unseen tiles that would lower the shanten below ``sh``; one the hand holds a pair
    of counts ``pair_weight`` times (it may also come as a pong of another's discard)."""
    total: float = 0
    for k in range(34):
        if unseen[k] and counts[k] < 4:
            counts[k] += 1
            if shanten(bytes(counts), declared) < sh:
                total += unseen[k] * (pair_weight if counts[k] == 3 else 1)
            counts[k] -= 1
    return total


# -- wild tiles (Jiaxing 混儿) ------------------------------------------------------------


@dataclass(frozen=True)
class Reader:
    """How the bots read one seat's concealed counts: exact shanten, the waits of a hand
    one tile short, and which kinds it may discard and still win. Without wild kinds this
    is the plain analyser; with them (Jiaxing 混儿) the rules' wild-aware one, where a
    drawn 混儿 completes every ready hand and a 混儿 is never discarded (the rules forbid
    it by default, and where they allow it the hand is dead)."""

    shanten: Callable[[bytes, int], int]
    waits: Callable[[bytes, int], list[int]]
    discardable: tuple[bool, ...]
    wild: frozenset[int]


PLAIN = Reader(MAHJONG.shanten, MAHJONG.waits, (True,) * 34, frozenset())


def reader(hand: MahjongHand, seat: int) -> Reader:
    """The :class:`Reader` of ``seat`` in ``hand`` (:data:`PLAIN` without wild kinds)."""
    rules = hand.rules
    # the rules' own analysis where the plain tables do not answer (混儿, or Jiaxing's
    # seven pairs switched off)
    if rules.standard_analysis():
        return PLAIN
    memo: dict[tuple[bytes, int], int] = {}

    def shanten(key: bytes, declared: int) -> int:
        got = memo.get((key, declared))
        if got is None:
            got = memo[key, declared] = rules.shanten(hand, seat, key, declared)
        return got

    def waits(key: bytes, declared: int) -> list[int]:
        return rules.waits_of(hand, seat, key, declared)

    wild = frozenset(rules.wild_kinds)
    # a 混儿 let go (where ``hun_discard`` is ``dead_hand``) ends the seat's chance to win:
    # never a discard the search keeps a hand alive by
    return Reader(shanten, waits, tuple(k not in wild for k in range(34)), wild)


def wild_greedy(hand: MahjongHand, seat: int, legal: list[int], rng: random.Random) -> int:
    """Greedy's choice when the hand has wild kinds: the same shanten-first rule, with the
    rules' wild-aware shanten (a 混儿 fills any gap). Claims pong or kong only when that
    lowers the shanten; ties go to the most unseen tiles that would lower it."""
    rules = hand.rules
    counts = bytearray(hand.counts[seat])
    declared = len(hand.melds[seat])

    def shanten(c: bytearray, d: int) -> int:
        return rules.shanten(hand, seat, bytes(c), d)

    if A.PASS in legal:
        tile = hand.claim_tile
        now = shanten(counts, declared)
        for action, take in ((A.KONG, 3), (A.PONG, 2)):
            if action in legal:
                counts[tile] -= take
                after = shanten(counts, declared + 1)
                counts[tile] += take
                # after a pong a discard is still due: the shanten may not rise by it
                if after < now:
                    return action
        return A.PASS
    unseen = unseen_counts(hand, seat)
    wild = set(rules.wild_kinds)
    # where a dead hand may let a 混儿 go (hun_discard dead_hand), doing so ends the seat's
    # chance to win: only when nothing else is left
    keep = [a for a in legal if a not in wild] or legal
    scored: list[tuple[int, int]] = []
    for action in keep:
        if action < 34:
            counts[action] -= 1
            scored.append((shanten(counts, declared), action))
            counts[action] += 1
        elif action < 102:
            tile = action - 34 if action < 68 else action - 68
            take = 4 if action < 68 else 1
            counts[tile] -= take
            sh = shanten(counts, declared + (action < 68))
            counts[tile] += take
            scored.append((sh - 1, action))
    if not scored:
        return legal[0]
    best = min(sh for sh, _ in scored)
    top = [a for sh, a in scored if sh == best]
    kongs = [a for a in top if a >= 34]
    if kongs or len(top) == 1:
        return _declaring((kongs or top)[0], legal)
    best_key: tuple[float, float] | None = None
    choice = top[0]
    for action in top:
        counts[action] -= 1
        gain = 0
        for k in range(34):
            if unseen[k] and counts[k] < 4:
                counts[k] += 1
                if shanten(counts, declared) < best:
                    gain += unseen[k]
                counts[k] -= 1
        counts[action] += 1
        key = (-float(gain), rng.random())
        if best_key is None or key < best_key:
            best_key, choice = key, action
    return _declaring(choice, legal)
