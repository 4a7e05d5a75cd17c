"""Greedy's candidate values: its own measure (shanten, then the unseen tiles that improve
the hand) turned into an estimate of the points each candidate is worth.

The greedy bot ranks by how far a hand is from ready and how wide it is; this module reads
the same two numbers as a chance to win, with the lookahead's table model
(:data:`paiju.bots.lookahead.HAZARD`: another seat ends the hand on a go-round with that
chance; :data:`~paiju.bots.lookahead.DISCARD_RATE` for a ready hand's discard wins):

* a hand ``s`` from ready with ``u`` of the ``T`` unseen tiles improving it improves on one
  go-round with ``p = u / T`` (a ready hand also wins on another seat's discard), so before
  the hand ends with ``q(p) = k p / (1 - k (1 - p))``, ``k = 1 - HAZARD``; the steps after
  this one are as wide as a greedy hand typically is at each distance (:data:`TYPICAL_STEP`),
  so it wins with ``q(p) * q(typical[s - 1]) * ... * q(typical[0])``, and not at all when
  fewer draws are left than the ``s + 1`` steps;
* Taixing's 缺门: each tile of the suit being dropped still held is one more go-round the
  hand must survive before it may win (and never an improving tile);
* expected points are that chance times :data:`WIN_POINTS` (what a greedy winner nets on
  average in each game); a win on the table is worth its exact score (the rules' scorer)
  in mahjong.

:meth:`GreedyJudge.evaluate` is the one function: ``make_bot("greedy")`` is a judge and
plays its choice (the greedy bot's own, unchanged, so records do not move), review reads
its values too. Search rollouts and the strong bot's fallback call the greedy bot
directly, which is the same choice without the values. Ties are the
candidates valued exactly as the choice. Qing'er's knock and takeoff answers are valued
by what they do to the stakes and to the seat's running score (:func:`knock_values`,
:func:`takeoff_values`).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

from paiju.bots.greedy import greedy_bot
from paiju.bots.lookahead import DISCARD_RATE, HAZARD, WinLookahead
from paiju.bots.simple import _ukeire, reader, unseen_counts, void_suit
from paiju.bots.values import Evaluation, Value
from paiju.components.analysis import QINGER
from paiju.components.cards import N_CARD_KINDS
from paiju.engine import actions as A
from paiju.engine.mahjong import CLAIM, MahjongHand
from paiju.engine.types import WinType
from paiju.variants.qinger import hand as Q
from paiju.variants.qinger.hand import QingerHand
from paiju.variants.qinger.scoring import FIVE_JOKERS

WIN_POINTS = {"jiaxing": 6.4, "taixing": 7.8, "qinger": 257.0}
"""Mean net points of a hand's winner when greedy plays every seat (measured over six
greedy matches of each game, seed 0: 144, 124 and 48 wins)."""


TYPICAL_STEP = {
    "mahjong": (0.054, 0.14, 0.24, 0.37, 0.52, 0.69),
    "qinger": (0.056, 0.083, 0.13, 0.2, 0.27, 0.35),
}
"""The share of the unseen tiles (cards) that improve a greedy hand, by its shanten after
the discard (0: ready), measured over greedy's discards in the same matches."""


class GreedyJudge:
    """The greedy bot of ``variant`` as a player (what ``make_bot("greedy")`` gives) with
    its candidates valued (see the module). Play and review both call :meth:`evaluate`."""

    name = "greedy"

    def __init__(self, variant: str, seed: int = 0) -> None:
        from paiju.bots.facts import bot_facts

        self.variant = variant
        self.bot = greedy_bot(variant, seed)
        self.win_points = WIN_POINTS.get(variant, WIN_POINTS["jiaxing"])
        self.drops_suit = bot_facts(variant).greedy_bot == "taixing_greedy"

    def __call__(self, hand: Any, seat: int) -> int:
        return self.evaluate(hand, seat, detail=False).choice

    def evaluate(self, hand: Any, seat: int, *, detail: bool = True) -> Evaluation:
        """Greedy's choice for ``seat`` and, with ``detail`` (review), every legal
        candidate's value. Play passes ``detail=False``: the values are skipped, and the
        choice is the greedy bot's own call either way (asked on forced decisions too,
        so its tie-break stream runs as it always has and records do not move)."""
        choice = int(self.bot(hand, seat))
        if not detail:
            return Evaluation(choice, "greedy", {}, frozenset([choice]))
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            return Evaluation(choice, "forced", {}, frozenset(legal))
        if isinstance(hand, MahjongHand):
            values = mahjong_values(hand, seat, legal, self.win_points, self.drops_suit)
        elif isinstance(hand, QingerHand):
            values = qinger_values(hand, seat, legal, self.win_points)
        else:
            values = {}
        mine = values.get(choice)
        ties = {choice}
        if mine is not None and mine.points is not None:
            ties.update(
                a
                for a, v in values.items()
                if v.points is not None and abs(v.points - mine.points) < 1e-9
            )
        return Evaluation(choice, "greedy", values, frozenset(ties))


def win_chance(p: float, shanten: int, draws: float, typical: Sequence[float], seats: int) -> float:
    """The chance that a hand ``shanten`` from ready whose next step comes with chance
    ``p`` a go-round wins before the hand ends (see the module); 0 when fewer draws are
    left than steps."""
    if shanten + 1 > draws or p <= 0.0:
        return 0.0
    keep = 1.0 - HAZARD

    def q(x: float) -> float:
        return keep * x / (1.0 - keep * (1.0 - x))

    chance = q(p)
    for t in range(shanten):
        x = typical[min(t, len(typical) - 1)]
        chance *= q(_with_discards(x, seats) if t == 0 else x)
    return float(chance)


def _with_discards(p: float, seats: int) -> float:
    """A ready hand's chance a go-round when a share ``p`` of the tiles wins it: its own
    draw, or one of the others' discards."""
    return 1.0 - (1.0 - p) * (1.0 - DISCARD_RATE * p) ** (seats - 1)


def mahjong_values(
    hand: MahjongHand, seat: int, legal: Sequence[int], win_points: float, drops_suit: bool
) -> dict[int, Value]:
    """Every legal action of ``seat`` valued by greedy's measure (see the module)."""
    read = reader(hand, seat)
    unseen = unseen_counts(hand, seat)
    total = max(1, sum(unseen))
    n = len(hand.counts)
    draws = hand.wall_left / n
    void = void_suit(hand, seat) if drops_suit else None
    useful = list(unseen)
    if void is not None:
        for k in range(void * 9, void * 9 + 9):
            useful[k] = 0
    counts = bytearray(hand.counts[seat][:34])
    declared = len(hand.melds[seat])

    def value(c: bytearray, d: int) -> Value:
        key = bytes(c)
        sh = read.shanten(key, d)
        if sh < 0:
            return Value(points=win_points, win=1.0)
        u = _ukeire(bytearray(key), d, sh, useful, shanten=read.shanten)
        p = u / total
        if sh == 0:
            # a ready hand also wins off the others' discards (never off a 混儿)
            ron = sum(useful[w] for w in read.waits(key, d) if w not in read.wild) / total
            p = 1.0 - (1.0 - p) * (1.0 - DISCARD_RATE * ron) ** (n - 1)
        held = sum(c[void * 9 : void * 9 + 9]) if void is not None else 0
        typical = TYPICAL_STEP["mahjong"]
        chance = win_chance(p, sh, draws - held, typical, n) * (1.0 - HAZARD) ** held
        return Value(points=win_points * chance, win=chance)

    def best_discard(c: bytearray, d: int) -> Value:
        best: Value | None = None
        for k in range(34):
            if c[k] and read.discardable[k]:
                c[k] -= 1
                v = value(c, d)
                c[k] += 1
                if best is None or (v.points or 0.0) > (best.points or 0.0):
                    best = v
        return best or Value(0.0, 0.0)

    look: WinLookahead | None = None

    def exact(tile: int, self_drawn: bool, how: WinType, source: int | None) -> Value:
        nonlocal look
        if look is None:
            look = WinLookahead(hand, seat, hand.melds[seat], unseen=unseen)
        full = bytearray(counts)
        if not self_drawn:
            full[tile] += 1
        gain = look.win_gain(bytes(full), tile, self_drawn, how=how, source=source)
        return Value(points=gain, win=1.0)

    out: dict[int, Value] = {}
    for a in legal:
        if a < 34 or A.TING <= a < A.TING + 34:
            tile = a if a < 34 else a - A.TING
            if tile in read.wild:
                out[a] = Value(0.0, 0.0)  # a 混儿 let go leaves a dead hand
                continue
            counts[tile] -= 1
            out[a] = value(counts, declared)
            counts[tile] += 1
        elif a < 68:
            tile = a - 34
            counts[tile] -= 4
            out[a] = value(counts, declared + 1)
            counts[tile] += 4
        elif a < 102:
            tile = a - 68
            counts[tile] -= 1
            out[a] = value(counts, declared)
            counts[tile] += 1
        elif a == A.ZIMO:
            out[a] = exact(hand.drawn, True, WinType.SELF_DRAW, None)
        elif a in (A.PASS, A.DECLARE):
            out[a] = value(counts, declared)
        elif a == A.HU:
            robbed = hand.phase != CLAIM
            out[a] = exact(
                hand.claim_tile,
                False,
                WinType.ROBBED_KONG if robbed else WinType.DISCARD,
                hand.rob_seat if robbed else hand.claim_from,
            )
        elif a == A.PONG:
            counts[hand.claim_tile] -= 2
            out[a] = best_discard(counts, declared + 1)
            counts[hand.claim_tile] += 2
        elif a == A.KONG:
            counts[hand.claim_tile] -= 3
            out[a] = value(counts, declared + 1)
            counts[hand.claim_tile] += 3
        elif a in (A.CHI_LOW, A.CHI_MID, A.CHI_HIGH):
            tile = hand.claim_tile
            low = tile - (a - A.CHI_LOW)
            used = [t for t in (low, low + 1, low + 2) if t != tile]
            for t in used:
                counts[t] -= 1
            out[a] = best_discard(counts, declared + 1)
            for t in used:
                counts[t] += 1
    return out


KNOCK_RATE = 0.75
"""The share of knock decisions greedy answers with a knock (108 of 144 over six greedy
Qing'er matches, seed 0): how a seat that has not answered yet is taken to knock."""

WON_SHARE = 0.71
"""The share of Qing'er hands greedy plays to a win (34 of 48 in the same matches; the
others run the stock out)."""

KNOCK_CHANCE = 0.043
"""The mean chance to win greedy's measure gives a hand at its knock decision (the same
matches, 144 decisions; median 0.037, highest 0.15): a hand this likely to win is an
average one, which knocking neither helps nor hurts."""


def qinger_values(
    hand: QingerHand, seat: int, legal: Sequence[int], win_points: float
) -> dict[int, Value]:
    """Every legal action of ``seat`` valued by greedy's measure over the 30 meld kinds
    (see the module): discards, kongs, claims, wins, and the knock and takeoff answers."""
    if hand.phase == Q.KNOCK_PHASE:
        return knock_values(hand, seat, legal, win_points)
    if hand.phase == Q.TAKEOFF_PHASE:
        return takeoff_values(hand, seat, legal, win_points)
    if hand.phase not in (Q.ACT, Q.CLAIM):
        return {}
    value = _qinger_measure(hand, seat, win_points)
    kinds = bytearray(hand.kinds[seat])
    declared = hand.declared[seat]

    out: dict[int, Value] = {}
    for a in legal:
        if a in (Q.ZIMO, Q.HU):
            out[a] = Value(points=win_points, win=1.0)
        elif a < N_CARD_KINDS:
            kind = Q.MELD_KIND[a]
            if kind < 0:
                out[a] = value(kinds, declared)  # a dead 广告 only blocks the hand
                continue
            kinds[kind] -= 1
            out[a] = value(kinds, declared)
            kinds[kind] += 1
        elif Q.CONCEALED_KONG <= a < Q.TAKEOFF:
            kind = (a - Q.CONCEALED_KONG) % 30
            take = 4 if a < Q.ADDED_KONG else 1
            kinds[kind] -= take
            out[a] = value(kinds, declared + (take == 4))
            kinds[kind] += take
        elif a == Q.PASS:
            out[a] = value(kinds, declared)
        elif a in (Q.PONG, Q.KONG):
            kind = Q.MELD_KIND[hand.claim_card]
            take = 2 if a == Q.PONG else 3
            kinds[kind] -= take
            if a == Q.KONG:
                out[a] = value(kinds, declared + 1)
            else:
                best: Value | None = None
                for k in range(len(kinds)):
                    if kinds[k]:
                        kinds[k] -= 1
                        v = value(kinds, declared + 1)
                        kinds[k] += 1
                        if best is None or (v.points or 0.0) > (best.points or 0.0):
                            best = v
                out[a] = best or Value(0.0, 0.0)
            kinds[kind] += take
    return out


def _qinger_measure(
    hand: QingerHand, seat: int, win_points: float
) -> Callable[[bytearray, int], Value]:
    """Greedy's measure of a Qing'er hand of meld-kind counts and declared sets: its
    chance to win from the seat's unseen cards, and that chance times ``win_points``."""
    unseen = hand.unseen_counts(seat)
    useful = [0] * len(hand.kinds[seat])
    for card in range(N_CARD_KINDS):
        kind = Q.MELD_KIND[card]
        if kind >= 0:
            useful[kind] += unseen[card]
    total = max(1, sum(unseen))
    n = len(hand.counts)
    draws = hand.stock_left / n
    shanten = QINGER.shanten_standard

    def value(c: bytearray, d: int) -> Value:
        sh = shanten(bytes(c), d)
        if sh < 0:
            return Value(points=win_points, win=1.0)
        u = 0
        for k, left in enumerate(useful):
            if left and c[k] < 4:
                c[k] += 1
                if shanten(bytes(c), d) < sh:
                    u += left
                c[k] -= 1
        p = u / total
        if sh == 0:
            p = _with_discards(p, n)
        chance = win_chance(p, sh, draws, TYPICAL_STEP["qinger"], n)
        return Value(points=win_points * chance, win=chance)

    return value


def _mean_stake(stakes: Sequence[int]) -> float:
    """A pair's stake on average when each seat knocks at :data:`KNOCK_RATE`."""
    q = KNOCK_RATE
    return (1 - q) ** 2 * stakes[0] + 2 * q * (1 - q) * stakes[1] + q * q * stakes[2]


def knock_values(
    hand: QingerHand, seat: int, legal: Sequence[int], win_points: float
) -> dict[int, Value]:
    """Knock (敲) or pass, valued by what the knock does to the stakes (Q9): each pair
    pays its difference times ``stakes[k]``, ``k`` the pair's knockers. The seat's hand
    nets, per unit of stake, ``W (3 w' - h) / 2``: it wins with ``w'`` (greedy's chance,
    scaled so a hand as likely as the average one at the knock, :data:`KNOCK_CHANCE`,
    wins its third of the :data:`WON_SHARE` hands that have a winner) and a winner nets
    ``W`` (:data:`WIN_POINTS` over the mean stake) paid half by each loser; half of that
    comes through each pair. The seats still to answer knock at :data:`KNOCK_RATE`; if
    nobody knocks the hand is dealt again (worth 0, QA4). The 见张 is face down here, so
    the hand's running score is not read: the seat cannot know its set points yet."""
    stakes = hand.options.stakes
    chance = _qinger_measure(hand, seat, win_points)(
        bytearray(hand.kinds[seat]), hand.declared[seat]
    ).win
    w = min(1.0, (chance or 0.0) * WON_SHARE / 3 / KNOCK_CHANCE)
    per_pair = win_points / _mean_stake(stakes) * (3 * w - WON_SHARE) / 4
    others = [s for s in hand.players if s != seat]
    out: dict[int, Value] = {}
    for a in legal:
        me = 1 if a == Q.KNOCK else 0
        expected = 0.0
        for combo in range(1 << len(others)):
            prob = 1.0
            knocks: list[int] = []
            for i, o in enumerate(others):
                said = hand.knocked[o]
                k = (combo >> i) & 1
                if said is not None:
                    if k != int(said):
                        prob = 0.0
                        break
                else:
                    prob *= KNOCK_RATE if k else 1 - KNOCK_RATE
                knocks.append(k)
            if prob == 0.0:
                continue
            if not me and not any(knocks) and hand.options.redeal_if_nobody_knocks:
                continue  # dealt again: this hand is worth nothing
            expected += prob * sum(per_pair * stakes[me + k] for k in knocks)
        out[a] = Value(points=expected, win=w)
    return out


def takeoff_values(
    hand: QingerHand, seat: int, legal: Sequence[int], win_points: float
) -> dict[int, Value]:
    """Show a takeoff (起飞) or keep the cards, valued by greedy's measure of the hand
    after it (a four-alike takeoff is a declared set with a card drawn in its place, as a
    kong) plus what it adds to the seat's running score (``scoring.running_value``: a
    takeoff's set points, Q23; 五喜起飞 in place of the jokers' own values, Q17) times
    the stakes of the seat's two pairs, which are known by now (every seat has
    answered the knock). Kept cards count as they count now."""
    value = _qinger_measure(hand, seat, win_points)
    kinds = bytearray(hand.kinds[seat])
    declared = hand.declared[seat]
    stakes = hand.options.stakes
    me = int(bool(hand.knocked[seat]))
    weight = sum(stakes[me + int(bool(hand.knocked[o]))] for o in hand.players if o != seat)
    now = hand.running_value(seat) or 0
    kept = value(kinds, declared)
    out: dict[int, Value] = {}
    for a in legal:
        if a == Q.PASS:
            out[a] = kept
            continue
        shown = copy.deepcopy(hand)
        if a == Q.TAKEOFF_JOKERS:
            fl = shown.flowers[seat]
            for card in FIVE_JOKERS:
                fl.remove(card)
            shown.takeoffs[seat].append(tuple(int(c) for c in FIVE_JOKERS))
            shape = kept
        else:
            kind = a - Q.TAKEOFF
            cards = [
                c
                for c in range(N_CARD_KINDS)
                if Q.MELD_KIND[c] == kind
                for _ in range(shown.counts[seat][c])
            ]
            for c in cards:
                shown.counts[seat][c] -= 1
            shown.kinds[seat][kind] -= 4
            shown.takeoffs[seat].append(tuple(sorted(cards)))
            shown.declared[seat] += 1
            kinds[kind] -= 4
            shape = value(kinds, declared + 1)
            kinds[kind] += 4
        gain = ((shown.running_value(seat) or 0) - now) * weight
        out[a] = Value(points=(shape.points or 0.0) + gain, win=shape.win)
    return out
