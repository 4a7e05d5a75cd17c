"""An exact expectimax over a seat's own next draws, for hands ready or one tile from ready.

Greedy ranks discards by shanten and then by how many unseen tiles improve the hand: one
step ahead, every win worth the same. This search looks to the win itself and weighs it
by what the variant's scorer pays for it:

* A ready hand (shanten 0) wins on its waits: by self-draw with the chance of drawing one
  on a go-round, or on a discard with the chance that one of the three others lets a wait
  go (each discards one tile, a given kind in proportion to its unseen copies, scaled by
  :data:`DISCARD_RATE`). Each way is valued by the real scorer (``MahjongRules.score``:
  patterns, 门清, the self-draw / discard columns, acceptance rules such as Taixing's
  缺门 and flower minimums); a wait the rules would not accept is worth nothing.
* A hand one from ready is worth what its improving draws lead to: each drawn tile that
  makes it ready is followed by the best discard, and so on to the ready hands above;
  other draws leave it as it was (the drawn tile goes straight out).
* Another seat ends the hand first with probability :data:`HAZARD` on each go-round. With
  that constant hazard the horizon is geometric and a hand's value solves in closed form,
  ``V = (1 - h) * gain / (1 - (1 - h) * stay)``: no turn counter, so every hand is valued
  once per decision (memoized).

Everything is computed, nothing sampled: two discards a few hundredths of a point apart
are told apart, where a Monte Carlo estimate at the same budget is noise (see
docs/bots.md). Hands two or more from ready keep greedy's shanten with a pong-aware
tie-break (:func:`_far_discard`): a measured depth-two search was worse.

With wild tiles (Jiaxing 混儿) the same search reads the hand with the rules' wild-aware
shanten and waits (:func:`paiju.bots.simple.reader`): a drawn 混儿 completes every ready
hand but no other seat ever discards one to win on, a 混儿 is never the discard kept after
a draw when the rules forbid it, and each win is scored with the indicator, so the 混儿
fans (混儿吊, 没混儿, 捉伍儿, 龙, 本混儿龙, 杠开) are weighed like any other item. Two
things change with wilds because the game does: hands end about twice as fast (the
hazard is :data:`WILD_HAZARD`), and a ready concealed hand wins often by its own draw (every
混儿 completes it, and a self-draw is paid by all three, 门清 too), so a discard win is
passed when playing on is worth more, less what losing the hand to another seat costs
(:data:`BEATEN_COST`; :attr:`Model.wait_for_self_draw`). For the same reason every hand is
ranked net of that cost times its chance of not winning (:attr:`Model.count_beaten`): a
win spares the payment to another winner, so a quicker wait may beat a bigger one.

What it reads: the seat's own tiles and melds, the unseen counts (the whole set minus
everything the seat sees), whose turn, the tile on offer, the indicator, and the rules (to
score).
"""

from __future__ import annotations

import dataclasses
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.bots.determinize import shaped_deal
from paiju.bots.simple import Reader, _ukeire, reader, unseen_counts
from paiju.bots.values import Evaluation, Value
from paiju.components.tiles import Tile
from paiju.engine import actions as A
from paiju.engine.mahjong import ACT, CLAIM, MahjongHand, MahjongRules
from paiju.engine.types import MahjongWin, Meld, MeldType, WinType

HAZARD = 0.12
"""Chance that another seat ends the hand on one go-round (greedy Jiaxing hands last about
ten go-rounds; arena runs from 0.08 to 0.18 all gave the same ranking)."""

DISCARD_RATE = 0.8
"""How likely an opponent's discard is a given kind, relative to that kind's share of the
unseen tiles (players keep what they need, so a little under 1)."""

MAX_SHANTEN = 1
"""Deepest hand searched by default: ready (0) or one from ready (1)."""

WILD_HAZARD = 0.22
""":data:`HAZARD` with wild tiles (Jiaxing 混儿): greedy hands then end after about five
go-rounds (300 hands: 5.2, every one won) against about ten without, so the chance that
another seat ends the hand on a go-round is nearly doubled."""

BEATEN_COST = 2.2
"""Points a seat loses, on average, when another seat wins the hand (greedy with 混儿,
300 hands: 2.23): what playing on risks, beside the win it hopes for."""


@dataclass(frozen=True)
class Model:
    """The search's assumptions about the table, and its depth."""

    hazard: float = HAZARD
    discard_rate: float = DISCARD_RATE
    depth: int = MAX_SHANTEN
    """Deepest shanten searched (0–2); hands further from ready are left to greedy."""
    danger_samples: int = 0
    """Samples of the other seats' hands (shaped as in the Monte Carlo search) used to
    weigh each discard's chance of dealing in; 0: no defence."""
    deal_in_cost: float = 2.5
    """Points a deal-in costs, on average, when danger is weighed."""
    wild_hazard: float = WILD_HAZARD
    """The hazard used instead of ``hazard`` when the hand has wild kinds."""
    wait_for_self_draw: bool = True
    """With wild kinds: pass a discard win when playing the ready hand on is worth more
    (a drawn 混儿 completes it, and a self-draw pays from all three, 门清 too), less
    ``beaten_cost`` times the chance another seat wins first."""
    beaten_cost: float = BEATEN_COST
    count_beaten: bool = True
    """With wild kinds: value each hand net of ``beaten_cost`` times the chance that
    another seat wins it first (with 混儿 every hand is won by someone), so that a win
    counts for the payment it spares as well as for what it pays. Without it the search
    weighs only its own wins, and a slow wide wait for a few points more beats a quick one."""

    def __post_init__(self) -> None:
        for name in ("hazard", "wild_hazard"):
            if not 0 < getattr(self, name) < 1:
                raise ValueError(
                    f"{name} must lie strictly between 0 and 1, not {getattr(self, name)}"
                )
        if not 0 <= self.discard_rate <= 1:
            raise ValueError(f"discard_rate must lie in [0, 1], not {self.discard_rate}")
        if not 0 <= self.depth <= 2:
            raise ValueError(f"depth must be 0, 1 or 2, not {self.depth}")


DEFAULT_MODEL = Model()


class WinLookahead:
    """The value of ``seat``'s possible hands, given its melds (one instance per meld
    list; :meth:`value` is memoized)."""

    def __init__(
        self,
        hand: MahjongHand,
        seat: int,
        melds: Sequence[Meld],
        *,
        unseen: Sequence[int] | None = None,
        model: Model = DEFAULT_MODEL,
        shared: WinLookahead | None = None,
        read: Reader | None = None,
    ) -> None:
        self.hand = hand
        self.seat = seat
        self.melds = tuple(melds)
        self.declared = len(self.melds)
        self.unseen = list(unseen if unseen is not None else unseen_counts(hand, seat))
        self.total = max(1, sum(self.unseen))
        self.model = model
        self.hazard = model.wild_hazard if hand.rules.wild_kinds else model.hazard
        self.discard_rate = model.discard_rate
        self.depth = model.depth
        self.can_win = hand.rules.may_win(hand, seat)
        self.bonus = model.beaten_cost if hand.rules.wild_kinds and model.count_beaten else 0.0
        """What each win is worth beyond its payment: the loss it spares (0 without wilds)."""
        self.reader: Reader = read or (shared.reader if shared is not None else reader(hand, seat))
        self._hun = Tile(hand.indicator) if hand.indicator >= 0 else None
        self._memo: dict[bytes, float] = {}
        # what does not depend on the model's depth or mode is shared with ``shared``
        # (the same hand, seat, melds and unseen counts): each hand's shanten, its ways
        # on (a ready hand's waits, the improving draws and the discards kept after
        # them) and each win's score
        self._gain: dict[tuple[bytes, int, bool, WinType, int | None], float] = (
            shared._gain if shared is not None else {}
        )
        self._nodes: dict[bytes, _Node] = shared._nodes if shared is not None else {}
        self._drops: dict[bytes, tuple[int, tuple[bytes, ...] | None]] = (
            shared._drops if shared is not None else {}
        )
        self._chance: dict[bytes, float] = {}
        self._utility: dict[bytes, float] = {}
        self._scores = _scores_of(hand.rules)
        self._flags = frozenset([hand.rules.ready_flag] if hand.ready[seat] else [])
        self._flowers = tuple(Tile(f) for f in hand.flowers[seat])
        n = len(hand.counts)
        self._payer = (seat + 1) % n

    # -- values ------------------------------------------------------------------------
    def win_gain(
        self,
        key: bytes,
        tile: int,
        self_drawn: bool,
        *,
        how: WinType | None = None,
        source: int | None = None,
    ) -> float:
        """Net points ``seat`` takes for winning with the complete concealed counts
        ``key`` (winning tile included): 0 when the rules would not accept the win. A
        discard win is paid by the next seat unless ``source`` says who (``how``: the
        kind of win, when not a plain self-draw or discard)."""
        how = how or (WinType.SELF_DRAW if self_drawn else WinType.DISCARD)
        payer = None if self_drawn else (self._payer if source is None else source)
        ck = (key, tile, self_drawn, how, payer)
        got = self._gain.get(ck)
        if got is not None:
            return got
        gain = 0.0
        if self.can_win:
            hand = self.hand
            win = MahjongWin(
                dealer=hand.dealer,
                winner=self.seat,
                concealed=tuple(key),
                melds=self.melds,
                win_tile=Tile(tile),
                win_type=how,
                source=payer,
                flags=self._flags,
                flowers=self._flowers,
                draw_streak=hand.rules.draw_streak,
                leopard=hand.leopard,
                n_seats=len(hand.counts),
                hun=self._hun,
            )
            scores = self._scores
            got = scores.get(win)
            if got is None:
                got = 0.0
                if hand.rules.accepts(hand, win):
                    result = hand.rules.score(win)
                    if result is not None and result.valid:
                        seat = self.seat
                        got = float(
                            sum(p.amount for p in result.payments if p.payee == seat)
                            - sum(p.amount for p in result.payments if p.payer == seat)
                        )
                if len(scores) >= _SCORES_KEPT:
                    scores.clear()
                scores[win] = got
            gain = got
        self._gain[ck] = gain
        return gain

    def value(self, key: bytes) -> float:
        """Expected points from winning, for concealed counts ``key`` one tile short of a
        complete hand (3n + 1 tiles with the melds); 0 beyond the model's depth."""
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._value(key, _POINTS)
        return got

    def net(self, key: bytes) -> float:
        """What the search ranks hands by: :meth:`value` less :attr:`bonus` times the
        chance of not winning, where each step (the discard kept after a draw) maximizes
        that same figure. Equal to :meth:`value` without wilds."""
        if not self.bonus:
            return self.value(key)
        got = self._utility.get(key)
        if got is None:
            got = self._utility[key] = self._value(key, _UTILITY)
        return got - self.bonus

    def chance(self, key: bytes) -> float:
        """The chance of winning at all from ``key``, in the same model as :meth:`value`
        (a win the rules would refuse does not count; after a draw the discard kept is
        the one that keeps the chance highest)."""
        got = self._chance.get(key)
        if got is None:
            got = self._chance[key] = self._value(key, _CHANCE)
        return got

    def _gain_of(self, full: bytes, tile: int, self_drawn: bool, mode: int) -> float:
        gain = self.win_gain(full, tile, self_drawn)
        if mode == _CHANCE:
            return float(gain > 0)
        if mode == _UTILITY and gain > 0:
            return gain + self.bonus
        return gain

    def _of(self, key: bytes, mode: int) -> float:
        if mode == _CHANCE:
            return self.chance(key)
        if mode == _UTILITY:
            return self.net(key) + self.bonus
        return self.value(key)

    def ways(self, key: bytes) -> _Node:
        """``key``'s shanten and its ways on (see :meth:`_node`): for a ready hand
        ``(chance, complete counts, wait, may be won off a discard)`` per wait, for a hand
        one from ready ``(chance, the ready hands its discards leave)`` per improving
        draw; None beyond the model's depth. For features built on the search's model
        (:func:`paiju.bots.learned.value_rows`)."""
        return self._node(key)

    def _node(self, key: bytes) -> _Node:
        """``key``'s shanten and its ways on, found once for every mode and depth: for a
        ready hand each wait with copies unseen (its chance, the complete counts, the
        kind, whether another seat may let it go); for a hand further out each improving
        draw (its chance, the hands one step nearer that the discards after it leave)."""
        node = self._nodes.get(key)
        if node is not None and (node[1] is not None or node[0] > self.depth):
            return node
        declared = self.declared
        read = self.reader
        sh = node[0] if node is not None else read.shanten(key, declared)
        if sh > self.depth:
            node = self._nodes[key] = (sh, None)
            return node
        unseen, total = self.unseen, self.total
        counts = bytearray(key)
        ways: list[tuple[float, bytes, int, bool]] | list[tuple[float, tuple[bytes, ...]]]
        if sh == 0:
            ready: list[tuple[float, bytes, int, bool]] = []
            for w in read.waits(key, declared):
                if not unseen[w]:
                    continue
                counts[w] += 1
                full = bytes(counts)
                counts[w] -= 1
                # a 混儿 is drawn, never won off another seat (it is not discarded, and
                # where a dead hand may let one go nobody may claim it)
                ready.append((unseen[w] / total, full, w, w not in read.wild))
            ways = ready
        else:
            steps: list[tuple[float, tuple[bytes, ...]]] = []
            target = sh - 1
            for k in range(34):
                if not unseen[k] or counts[k] >= 4:
                    continue
                counts[k] += 1
                full = bytes(counts)
                counts[k] -= 1
                drop = self._drops.get(full)
                if drop is None or (drop[1] is None and drop[0] == target):
                    drop = self._drops[full] = self._drops_of(full, target)
                if drop[0] == target:
                    steps.append((unseen[k] / total, drop[1] or ()))
            ways = steps
        node = self._nodes[key] = (sh, tuple(ways))
        return node

    def _drops_of(self, full: bytes, target: int) -> tuple[int, tuple[bytes, ...] | None]:
        """The shanten of ``full`` (a hand just drawn to) and, if it is ``target``, the
        hands its discards leave at that shanten (None otherwise: not an improving draw).
        The drawn kind is among the discards tried: throwing it back leaves the hand as
        it was, which is further out and so never kept."""
        declared = self.declared
        read = self.reader
        shanten = read.shanten
        sh = shanten(full, declared)
        if sh != target:
            return sh, None
        counts = bytearray(full)
        kept: list[bytes] = []
        for d in range(34):
            if counts[d] and read.discardable[d]:
                counts[d] -= 1
                after = bytes(counts)
                counts[d] += 1
                if shanten(after, declared) == target:
                    kept.append(after)
        return sh, tuple(kept)

    def _value(self, key: bytes, mode: int) -> float:
        sh, ways = self._node(key)
        if ways is None:
            return 0.0
        keep = 1.0 - self.hazard
        if sh == 0:
            p_draw = 0.0
            p_discard = 0.0
            draw_gain = 0.0
            ron_gain = 0.0
            for p, full, w, ron_too in ways:
                p_draw += p
                draw_gain += p * self._gain_of(full, w, True, mode)
                if ron_too:
                    p_discard += p
                    ron_gain += p * self._gain_of(full, w, False, mode)
            if p_draw == 0.0:
                return 0.0
            p_ron = 1.0 - (1.0 - self.discard_rate * p_discard) ** 3
            ron = p_ron * ron_gain / p_discard if p_discard else 0.0
            gain = ron + (1.0 - p_ron) * draw_gain
            stay = (1.0 - p_ron) * (1.0 - p_draw)
            return keep * gain / (1.0 - keep * stay)
        gain = 0.0
        p_better = 0.0
        of = self._of
        for p, afters in ways:
            best = 0.0
            for after in afters:
                best = max(best, of(after, mode))
            gain += p * best
            p_better += p
        return keep * gain / (1.0 - keep * (1.0 - p_better))


_Node = tuple[int, tuple[Any, ...] | None]
"""A hand's shanten and its ways on (:meth:`WinLookahead._node`); None beyond the depth
of the search that first met it."""


_SCORES: weakref.WeakKeyDictionary[MahjongRules, dict[MahjongWin, float]] = (
    weakref.WeakKeyDictionary()
)
"""What each win pays its winner, by rules: a win names everything the rules score it by
(``MahjongRules.accepts`` and ``score`` read the win and the rules' options, nothing of
the hand's state), so the next decision, which meets most of the same wins, scores them
once."""

_SCORES_KEPT = 100_000
"""Wins kept per rules before the cache starts again (a long-lived worker's bound)."""


def _scores_of(rules: MahjongRules) -> dict[MahjongWin, float]:
    got = _SCORES.get(rules)
    if got is None:
        got = _SCORES[rules] = {}
    return got


_POINTS, _CHANCE, _UTILITY = 0, 1, 2
"""What :meth:`WinLookahead._value` sums: points, the chance of a win, or points plus
:attr:`WinLookahead.bonus` for each win."""


class _Looks:
    """The searches of one decision, one per meld list and model, made on demand: one
    asked for twice (a review values each discard, then play ranks them) is the same
    search, and searches of the same melds at another depth share what does not depend
    on it (:class:`WinLookahead`'s ``shared``)."""

    def __init__(self, hand: MahjongHand, seat: int) -> None:
        self.hand = hand
        self.seat = seat
        self.unseen = unseen_counts(hand, seat)
        self.reader = reader(hand, seat)
        self._made: dict[tuple[tuple[Meld, ...], Model], WinLookahead] = {}
        self._first: dict[tuple[Meld, ...], WinLookahead] = {}

    def get(self, melds: Sequence[Meld], model: Model) -> WinLookahead:
        melds = tuple(melds)
        got = self._made.get((melds, model))
        if got is None:
            first = self._first.get(melds)
            got = WinLookahead(
                self.hand,
                self.seat,
                melds,
                unseen=self.unseen,
                model=model,
                shared=first,
                read=self.reader,
            )
            self._made[melds, model] = got
            self._first.setdefault(melds, got)
        return got


def lookahead_action(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    default: int,
    model: Model = DEFAULT_MODEL,
) -> int:
    """The search's choice for ``seat``, or ``default`` (greedy's) where it does not reach
    (see :func:`lookahead_evaluation`)."""
    return lookahead_evaluation(hand, seat, legal, default, model).choice


def lookahead_evaluation(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    default: int,
    model: Model = DEFAULT_MODEL,
    *,
    detail: bool = False,
) -> Evaluation:
    """The search's choice for ``seat`` with the values behind it, or ``default``
    (greedy's) where it does not reach: a win is always taken and kongs are left to
    greedy; a hand two or more from ready discards by greedy's shanten with a pong-aware
    tie-break (:func:`_far_discard`). Ties keep ``default``.

    Play reads only the choice. ``detail`` (review) also values what play need not: the
    win taken and its alternatives, the kongs, the discards of a hand two from ready
    (with a depth-two model, though the choice stays the tie-break's), and each discard's
    deal-in chance (``model.danger_samples`` or 24 samples)."""
    looks = _Looks(hand, seat)
    if (
        A.HU in legal
        and hand.phase == CLAIM
        and hand.rules.wild_kinds
        and model.wait_for_self_draw
        and A.ZIMO not in legal
    ):
        return _win_or_wait(hand, seat, legal, model, looks=looks)
    if A.ZIMO in legal or A.HU in legal or (A.DECLARE in legal and default == A.DECLARE):
        values = _all_values(hand, seat, legal, model, detail, looks=looks) if detail else {}
        return Evaluation(default, "rule", values, frozenset([default]))
    if hand.phase == ACT:
        return _discard(hand, seat, legal, default, model, looks=looks, detail=detail)
    if hand.phase == CLAIM and (A.PONG in legal or A.KONG in legal):
        return _claim(hand, seat, legal, default, model, looks=looks, detail=detail)
    return Evaluation(default, "greedy", {}, frozenset([default]))


def _win_or_wait(
    hand: MahjongHand, seat: int, legal: Sequence[int], model: Model, *, looks: _Looks
) -> Evaluation:
    """With wild kinds, a discard win against playing the ready hand on: passing keeps
    the hand's value (its self-draws, a drawn 混儿 among them, and later discard wins)
    less :attr:`Model.beaten_cost` times the chance of not winning it."""
    values = _window_values(hand, seat, legal, model, looks=looks, wide=True)
    win, stay = values[A.HU], values[A.PASS]
    later = stay.points or 0.0
    if not model.count_beaten:  # the values do not count it yet
        later -= (1.0 - (stay.win or 0.0)) * model.beaten_cost
    if later > (win.points or 0.0):
        return Evaluation(A.PASS, "lookahead", values, frozenset([A.PASS]))
    return Evaluation(A.HU, "rule", values, frozenset([A.HU]))


def _all_values(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    model: Model,
    detail: bool,
    *,
    looks: _Looks,
) -> dict[int, Value]:
    """Every legal action's value where the model reaches (for review)."""
    if hand.phase == ACT:
        return _turn_values(hand, seat, legal, model, detail, looks=looks, wide=True)
    return _window_values(hand, seat, legal, model, looks=looks, wide=True)


def _chance_value(look: WinLookahead, key: bytes) -> Value:
    return Value(points=look.net(key), win=look.chance(key))


def _turn_values(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    model: Model,
    detail: bool,
    *,
    looks: _Looks,
    wide: bool,
) -> dict[int, Value]:
    """The values of ``seat``'s actions in its turn: each discard (and its ready
    declaration) by the hand it leaves; with ``wide`` (review) also each kong (by the hand
    after it, before its replacement draw) and a self-drawn win (its exact score)."""
    counts = bytearray(hand.counts[seat][:34])
    declared = len(hand.melds[seat])
    look = looks.get(hand.melds[seat], model)
    if detail and model.depth < 2:
        keys = {a: _after(counts, a) for a in legal if a < 34}
        shanten = look.reader.shanten
        if keys and min(shanten(k, declared) for k in keys.values()) > model.depth:
            look = looks.get(hand.melds[seat], _deeper(model))
    values: dict[int, Value] = {}
    for a in legal:
        if a < 34 or a >= A.TING:
            tile = a if a < 34 else a - A.TING
            values[a] = _chance_value(look, _after(counts, tile))
        elif not wide:
            continue
        elif a < 68:
            tile = a - 34
            melds = [*hand.melds[seat], Meld(MeldType.CONCEALED_KONG, Tile(tile), None)]
            counts[tile] -= 4
            after = bytes(counts)
            counts[tile] += 4
            kong = looks.get(melds, look.model)
            values[a] = _chance_value(kong, after)
        elif a < 102:
            tile = a - 68
            melds = [
                Meld(MeldType.ADDED_KONG, m.tile, m.source)
                if m.type is MeldType.PONG and m.tile == tile
                else m
                for m in hand.melds[seat]
            ]
            kong = looks.get(melds, look.model)
            values[a] = _chance_value(kong, _after(counts, tile))
        elif a == A.ZIMO:
            gain = look.win_gain(bytes(counts), hand.drawn, True)
            values[a] = Value(points=gain, win=1.0)
    if detail:
        discards = sorted({a if a < 34 else a - A.TING for a in values if a < 34 or a >= A.TING})
        if discards:
            risk = deal_in_chances(hand, seat, discards, model.danger_samples or 24)
            values = {
                a: Value(v.points, v.win, risk[a if a < 34 else a - A.TING])
                if a < 34 or a >= A.TING
                else v
                for a, v in values.items()
            }
    return values


def _deeper(model: Model) -> Model:
    return dataclasses.replace(model, depth=2)


def _after(counts: bytearray, tile: int) -> bytes:
    counts[tile] -= 1
    out = bytes(counts)
    counts[tile] += 1
    return out


def _window_values(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    model: Model,
    *,
    looks: _Looks,
    wide: bool,
) -> dict[int, Value]:
    """The values of ``seat``'s answers to the tile on offer: pass (the hand as it is),
    pong (the best discard after it), kong; with ``wide`` (review) a win too (its exact
    score) and the answers of a 抢杠 or 天听 window."""
    counts = bytearray(hand.counts[seat][:34])

    def search(melds: Sequence[Meld]) -> WinLookahead:
        return looks.get(melds, model)

    stay = search(hand.melds[seat])
    values = {A.PASS: _chance_value(stay, bytes(counts))}
    tile = hand.claim_tile
    source = hand.claim_from
    if A.PONG in legal:
        melds = [*hand.melds[seat], Meld(MeldType.PONG, Tile(tile), source)]
        look = search(melds)
        counts[tile] -= 2
        best: Value | None = None
        for d in range(34):
            if counts[d] and stay.reader.discardable[d]:
                v = _chance_value(look, _after(counts, d))
                if best is None or (v.points or 0.0) > (best.points or 0.0):
                    best = v
        counts[tile] += 2
        values[A.PONG] = best or Value(0.0, 0.0)
    if A.KONG in legal:
        # a kong draws a replacement at once: about as good as the pong it contains
        melds = [*hand.melds[seat], Meld(MeldType.KONG, Tile(tile), source)]
        look = search(melds)
        counts[tile] -= 3
        values[A.KONG] = _chance_value(look, bytes(counts))
        counts[tile] += 3
    if wide and A.HU in legal:
        robbed = hand.phase != CLAIM
        counts[tile] += 1
        gain = stay.win_gain(
            bytes(counts),
            tile,
            False,
            how=WinType.ROBBED_KONG if robbed else WinType.DISCARD,
            source=hand.rob_seat if robbed else source,
        )
        counts[tile] -= 1
        values[A.HU] = Value(points=gain, win=1.0)
    return {a: v for a, v in values.items() if a in legal}


def _discard(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    default: int,
    model: Model,
    *,
    looks: _Looks,
    detail: bool,
) -> Evaluation:
    if default < 34:
        base = default
    elif default >= A.TING:
        base = default - A.TING
    else:  # greedy chose a kong: keep it
        kong = (
            _turn_values(hand, seat, legal, model, detail, looks=looks, wide=True) if detail else {}
        )
        return Evaluation(default, "greedy", kong, frozenset([default]))
    counts = bytearray(hand.counts[seat][:34])
    declared = len(hand.melds[seat])
    options = sorted({a for a in legal if a < 34})
    after = {a: _after(counts, a) for a in options}
    read = looks.reader
    shanten = {a: read.shanten(k, declared) for a, k in after.items()}
    wide = _turn_values(hand, seat, legal, model, detail, looks=looks, wide=True) if detail else {}
    if min(shanten.values()) > model.depth:
        choice, ties = _far_discard(
            hand,
            seat,
            legal,
            after=after,
            shanten=shanten,
            base=base,
            default=default,
            discard_rate=model.discard_rate,
            read=read,
        )
        return Evaluation(choice, "greedy", wide, ties)
    look = looks.get(hand.melds[seat], model)
    # a 混儿 discard (only where a dead hand may make one) leaves a hand that cannot win
    values = {a: -look.bonus if a in read.wild else look.net(k) for a, k in after.items()}
    if model.danger_samples:
        risk = deal_in_chances(hand, seat, options, model.danger_samples)
        values = {a: (1.0 - risk[a]) * v - risk[a] * model.deal_in_cost for a, v in values.items()}
    best = max(options, key=lambda a: (values[a], a == base))
    top = values[best]
    ties = frozenset(t for a in options if values[a] == top for t in (a, A.TING + a) if t in legal)
    shown = wide or {
        a: Value(points=values[a if a < 34 else a - A.TING]) for a in legal if a < 34 or a >= A.TING
    }
    if values[best] <= values.get(base, 0.0):
        return Evaluation(default, "lookahead", shown, ties | {default})
    choice = A.TING + best if A.TING + best in legal else best
    return Evaluation(choice, "lookahead", shown, ties)


def deal_in_chances(
    hand: MahjongHand, seat: int, tiles: Sequence[int], samples: int
) -> dict[int, float]:
    """For each of ``tiles``, the share of ``samples`` determinizations (the other seats'
    hands dealt again from what ``seat`` cannot see, shaped by their discards and melds)
    in which some other seat could win on it. The samples' stream is seeded from public
    state only, so the answer depends on nothing hidden."""
    import random

    public = len(hand.log) * 131 + seat
    rng = random.Random(public)
    hits = dict.fromkeys(tiles, 0)
    # each sample needs only the other seats' concealed tiles: the hand deals them as
    # its determinization would (the same stream) without copying itself; who may win
    # and how a seat's waits are read are public (discards, melds, the rules), the same
    # in every sample
    deal = shaped_deal(hand)
    pool = hand.unseen_tiles(seat)
    others = [
        (s, reader(hand, s), len(hand.melds[s]))
        for s in range(len(hand.counts))
        if s != seat and hand.rules.may_win(hand, s)
    ]
    for _ in range(samples):
        hidden, _wall = hand.deal_hidden(seat, rng, deal, pool)
        waits: set[int] = set()
        for s, read, declared in others:
            waits.update(read.waits(bytes(hidden[s][:34]), declared))
        for t in tiles:
            if t in waits:
                hits[t] += 1
    return {t: n / samples for t, n in hits.items()}


def _far_discard(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    *,
    after: dict[int, bytes],
    shanten: dict[int, int],
    base: int,
    default: int,
    discard_rate: float,
    read: Reader,
) -> tuple[int, frozenset[int]]:
    """Two or more from ready: greedy's lowest shanten, but its tie-break (ukeire) counts
    an improving tile the hand holds a pair of as also coming from the three others'
    discards (a pong), as the lookahead's discard model has it: ``1 + 3 * discard_rate``
    times its unseen copies. A pair moves on from any seat, a run only from the wall.
    Returns the choice and the discards (with their declarations) it finds as good."""
    best = min(shanten.values())
    top = [a for a in after if shanten[a] == best]
    if len(top) < 2 or shanten.get(base, best + 1) != best:
        return default, frozenset([default])
    unseen = unseen_counts(hand, seat)
    declared = len(hand.melds[seat])
    pong = 1.0 + 3.0 * discard_rate
    wild_aware = read.shanten
    score = {
        a: _ukeire(bytearray(after[a]), declared, best, unseen, pong, shanten=wild_aware)
        for a in top
    }
    choice = max(top, key=lambda a: (score[a], a == base))
    ties = frozenset(
        t for a in top if score[a] == score[choice] for t in (a, A.TING + a) if t in legal
    )
    if score[choice] <= score[base]:
        return default, ties | {default}
    return (A.TING + choice if A.TING + choice in legal else choice), ties


def _claim(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    default: int,
    model: Model,
    *,
    looks: _Looks,
    detail: bool,
) -> Evaluation:
    """Pong (or kong) the tile on offer, or pass: whichever leaves the better hand."""
    counts = bytes(hand.counts[seat][:34])
    if looks.reader.shanten(counts, len(hand.melds[seat])) > model.depth:
        values = (
            _window_values(hand, seat, legal, _deeper(model), looks=looks, wide=True)
            if detail
            else {}
        )
        return Evaluation(default, "greedy", values, frozenset([default]))
    values = _window_values(hand, seat, legal, model, looks=looks, wide=detail)
    points = {a: v.points or 0.0 for a, v in values.items() if a in (A.PASS, A.PONG, A.KONG)}
    choice = max(points, key=lambda a: (points[a], a == default))
    ties = frozenset(a for a in points if points[a] == points[choice])
    if points[choice] <= points.get(default, 0.0):
        return Evaluation(default, "lookahead", values, ties | {default})
    return Evaluation(choice, "lookahead", values, ties)
