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

What it reads: the seat's own tiles and melds, the unseen counts (the whole set minus
everything the seat sees), whose turn, the tile on offer, and the rules (to score).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from paiju.bots.simple import _ukeire, unseen_counts
from paiju.components.analysis import MAHJONG
from paiju.components.tiles import Tile
from paiju.engine import actions as A
from paiju.engine.mahjong import ACT, CLAIM, MahjongHand
from paiju.engine.types import MahjongWin, Meld, MeldType, WinType

HAZARD = 0.12
"""Chance that another seat ends the hand on one go-round (greedy Jiaxing hands last about
ten go-rounds; arena runs from 0.08 to 0.18 all gave the same ranking)."""

DISCARD_RATE = 0.8
"""How likely an opponent's discard is a given kind, relative to that kind's share of the
unseen tiles (players keep what they need, so a little under 1)."""

MAX_SHANTEN = 1
"""Deepest hand searched by default: ready (0) or one from ready (1)."""


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

    def __post_init__(self) -> None:
        if not 0 < self.hazard < 1:
            raise ValueError(f"hazard must lie strictly between 0 and 1, not {self.hazard}")
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
    ) -> None:
        self.hand = hand
        self.seat = seat
        self.melds = tuple(melds)
        self.declared = len(self.melds)
        self.unseen = list(unseen if unseen is not None else unseen_counts(hand, seat))
        self.total = max(1, sum(self.unseen))
        self.hazard = model.hazard
        self.discard_rate = model.discard_rate
        self.depth = model.depth
        self.can_win = hand.rules.may_win(hand, seat)
        self._memo: dict[bytes, float] = {}
        self._gain: dict[tuple[bytes, int, bool], float] = {}
        self._flags = frozenset([hand.rules.ready_flag] if hand.ready[seat] else [])
        self._flowers = tuple(Tile(f) for f in hand.flowers[seat])
        n = len(hand.counts)
        self._payer = (seat + 1) % n

    # -- values ------------------------------------------------------------------------
    def win_gain(self, key: bytes, tile: int, self_drawn: bool) -> float:
        """Net points ``seat`` takes for winning with the complete concealed counts
        ``key`` (winning tile included): 0 when the rules would not accept the win."""
        ck = (key, tile, self_drawn)
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
                win_type=WinType.SELF_DRAW if self_drawn else WinType.DISCARD,
                source=None if self_drawn else self._payer,
                flags=self._flags,
                flowers=self._flowers,
                draw_streak=hand.rules.draw_streak,
                leopard=hand.leopard,
                n_seats=len(hand.counts),
            )
            if hand.rules.accepts(hand, win):
                result = hand.rules.score(win)
                if result is not None and result.valid:
                    seat = self.seat
                    gain = float(
                        sum(p.amount for p in result.payments if p.payee == seat)
                        - sum(p.amount for p in result.payments if p.payer == seat)
                    )
        self._gain[ck] = gain
        return gain

    def value(self, key: bytes) -> float:
        """Expected points from winning, for concealed counts ``key`` one tile short of a
        complete hand (3n + 1 tiles with the melds); 0 beyond the model's depth."""
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._value(key)
        return got

    def _value(self, key: bytes) -> float:
        declared = self.declared
        sh = MAHJONG.shanten(key, declared)
        if sh > self.depth:
            return 0.0
        unseen, total, keep = self.unseen, self.total, 1.0 - self.hazard
        counts = bytearray(key)
        if sh == 0:
            p_draw = 0.0
            draw_gain = 0.0
            ron_gain = 0.0
            for w in MAHJONG.waits(key, declared):
                if not unseen[w]:
                    continue
                p = unseen[w] / total
                counts[w] += 1
                full = bytes(counts)
                counts[w] -= 1
                p_draw += p
                draw_gain += p * self.win_gain(full, w, True)
                ron_gain += p * self.win_gain(full, w, False)
            if p_draw == 0.0:
                return 0.0
            p_ron = 1.0 - (1.0 - self.discard_rate * p_draw) ** 3
            gain = p_ron * ron_gain / p_draw + (1.0 - p_ron) * draw_gain
            stay = (1.0 - p_ron) * (1.0 - p_draw)
            return keep * gain / (1.0 - keep * stay)
        gain = 0.0
        p_better = 0.0
        target = sh - 1
        for k in range(34):
            if not unseen[k] or counts[k] >= 4:
                continue
            counts[k] += 1
            if MAHJONG.shanten(bytes(counts), declared) == target:
                best = 0.0
                for d in range(34):
                    if counts[d] and (d != k or counts[d] > 1):
                        counts[d] -= 1
                        after = bytes(counts)
                        counts[d] += 1
                        if MAHJONG.shanten(after, declared) == target:
                            best = max(best, self.value(after))
                p = unseen[k] / total
                gain += p * best
                p_better += p
            counts[k] -= 1
        return keep * gain / (1.0 - keep * (1.0 - p_better))


def lookahead_action(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    default: int,
    model: Model = DEFAULT_MODEL,
) -> int:
    """The search's choice for ``seat``, or ``default`` (greedy's) where it does not reach:
    a win is always taken and kongs are left to greedy; a hand two or more from ready
    discards by greedy's shanten with a pong-aware tie-break (:func:`_far_discard`).
    Ties keep ``default``."""
    if A.ZIMO in legal or A.HU in legal or (A.DECLARE in legal and default == A.DECLARE):
        return default
    if hand.phase == ACT:
        return _discard(hand, seat, legal, default, model)
    if hand.phase == CLAIM and (A.PONG in legal or A.KONG in legal):
        return _claim(hand, seat, legal, default, model)
    return default


def _discard(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    default: int,
    model: Model,
) -> int:
    if default < 34:
        base = default
    elif default >= A.TING:
        base = default - A.TING
    else:  # greedy chose a kong: keep it
        return default
    counts = bytearray(hand.counts[seat][:34])
    declared = len(hand.melds[seat])
    options = sorted({a for a in legal if a < 34})
    after: dict[int, bytes] = {}
    for a in options:
        counts[a] -= 1
        after[a] = bytes(counts)
        counts[a] += 1
    shanten = {a: MAHJONG.shanten(k, declared) for a, k in after.items()}
    if min(shanten.values()) > model.depth:
        return _far_discard(
            hand,
            seat,
            legal,
            after=after,
            shanten=shanten,
            base=base,
            default=default,
            discard_rate=model.discard_rate,
        )
    look = WinLookahead(hand, seat, hand.melds[seat], model=model)
    values = {a: look.value(k) for a, k in after.items()}
    if model.danger_samples:
        risk = deal_in_chances(hand, seat, options, model.danger_samples)
        values = {a: (1.0 - risk[a]) * v - risk[a] * model.deal_in_cost for a, v in values.items()}
    best = max(options, key=lambda a: (values[a], a == base))
    if values[best] <= values.get(base, 0.0):
        return default
    return A.TING + best if A.TING + best in legal else best


def deal_in_chances(
    hand: MahjongHand, seat: int, tiles: Sequence[int], samples: int
) -> dict[int, float]:
    """For each of ``tiles``, the share of ``samples`` determinizations (the other seats'
    hands dealt again from what ``seat`` cannot see, shaped by their discards and melds)
    in which some other seat could win on it. The samples' stream is seeded from public
    state only, so the answer depends on nothing hidden."""
    import random

    from paiju.bots.strong import determinize_mahjong

    public = len(hand.log) * 131 + seat
    rng = random.Random(public)
    hits = dict.fromkeys(tiles, 0)
    for _ in range(samples):
        det = determinize_mahjong(hand, seat, rng)
        waits: set[int] = set()
        for s in range(len(det.counts)):
            if s != seat and det.rules.may_win(det, s):
                waits.update(MAHJONG.waits(bytes(det.counts[s][:34]), len(det.melds[s])))
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
) -> int:
    """Two or more from ready: greedy's lowest shanten, but its tie-break (ukeire) counts
    an improving tile the hand holds a pair of as also coming from the three others'
    discards (a pong), as the lookahead's discard model has it: ``1 + 3 * discard_rate``
    times its unseen copies. A pair moves on from any seat, a run only from the wall."""
    best = min(shanten.values())
    top = [a for a in after if shanten[a] == best]
    if len(top) < 2 or shanten.get(base, best + 1) != best:
        return default
    unseen = unseen_counts(hand, seat)
    declared = len(hand.melds[seat])
    pong = 1.0 + 3.0 * discard_rate
    score = {a: _ukeire(bytearray(after[a]), declared, best, unseen, pong) for a in top}
    choice = max(top, key=lambda a: (score[a], a == base))
    if score[choice] <= score[base]:
        return default
    return A.TING + choice if A.TING + choice in legal else choice


def _claim(
    hand: MahjongHand,
    seat: int,
    legal: Sequence[int],
    default: int,
    model: Model,
) -> int:
    """Pong (or kong) the tile on offer, or pass: whichever leaves the better hand."""
    counts = bytearray(hand.counts[seat][:34])
    declared = len(hand.melds[seat])
    if MAHJONG.shanten(bytes(counts), declared) > model.depth:
        return default
    unseen = unseen_counts(hand, seat)

    def search(melds: Sequence[Meld]) -> WinLookahead:
        return WinLookahead(hand, seat, melds, unseen=unseen, model=model)

    stay = search(hand.melds[seat])
    values = {A.PASS: stay.value(bytes(counts))}
    tile = hand.claim_tile
    source = hand.claim_from
    if A.PONG in legal:
        melds = [*hand.melds[seat], Meld(MeldType.PONG, Tile(tile), source)]
        look = search(melds)
        counts[tile] -= 2
        best = 0.0
        for d in range(34):
            if counts[d]:
                counts[d] -= 1
                best = max(best, look.value(bytes(counts)))
                counts[d] += 1
        counts[tile] += 2
        values[A.PONG] = best
    if A.KONG in legal:
        # a kong draws a replacement at once: about as good as the pong it contains
        melds = [*hand.melds[seat], Meld(MeldType.KONG, Tile(tile), source)]
        look = search(melds)
        counts[tile] -= 3
        values[A.KONG] = look.value(bytes(counts))
        counts[tile] += 3
    choice = max(values, key=lambda a: (values[a], a == default))
    if values[choice] <= values.get(default, 0.0):
        return default
    return choice
