"""Observation encoders: channels × kinds planes plus a vector of scalars, per seat.

Every plane is one row of ``kinds`` columns (34 tile kinds for the mahjong games, 36 card
kinds for Qing'er); seats are *relative* to the observer (row block 0 is the observer, 1
the next seat in play order, …), so one network plays every seat. The layouts are
listed in :data:`MAHJONG_PLANES` / :data:`QINGER_PLANES` (and the scalars in
``*_SCALARS``) and documented with their shapes in ``docs/rl.md``.

An encoder reads only what its seat may see: its own concealed tiles, the tile it drew,
every seat's melds (with the seat that fed each), discards in order, flowers, takeoffs,
knocks, the turned-up 见张, the wall/stock count, the points paid so far and the
dealer. With ``oracle=True`` it appends planes of what the seat cannot see (the other
seats' concealed tiles and the next draws), for oracle guiding; the normal encoding
never reads them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from paiju.components.analysis import MAHJONG, QINGER
from paiju.components.cards import N_CARD_KINDS, Card
from paiju.variants.base import MeldType
from paiju.variants.qinger.scoring import jian_pai_ranks

F32 = np.float32
Planes = npt.NDArray[np.float32]

_THERMO = np.arange(1, 5, dtype=np.int16)[None, :, None]
"""Thermometer row i of a count vector is 1 where the count is at least i + 1."""


def _thermometers(out: Planes, counts: npt.NDArray[np.int16]) -> None:
    """Rows ``0 … 4·len(counts) − 1`` of ``out``: four thermometer rows per count vector."""
    n, k = counts.shape
    out[: 4 * n] = (counts[:, None, :] >= _THERMO).reshape(4 * n, k)


def _names(prefix: str, seats: int, per_seat: list[str]) -> list[str]:
    return [f"{prefix}{r}.{name}" for r in range(seats) for name in per_seat]


def _thermo_names(what: str) -> list[str]:
    return [f"{what}>={i}" for i in (1, 2, 3, 4)]


_MAHJONG_SEAT_PLANES = [
    "discard_recency",
    "pong",
    "kong",
    "added_kong",
    "concealed_kong",
    "chi",
    "fed_by_next",
    "fed_by_across",
    "fed_by_previous",
]
MAHJONG_PLANES: list[str] = [
    *_thermo_names("hand"),
    *_thermo_names("seen"),
    *[n for r in range(4) for n in _thermo_names(f"seat{r}.discards")],
    "drawn",
    "on_offer",
    *_names("seat", 4, _MAHJONG_SEAT_PLANES),
]
"""Plane names of the mahjong encoding, in row order (``seatR.*``: relative seat R)."""

MAHJONG_ORACLE_PLANES: list[str] = [
    *[f"seat{r}.hand>={i}" for r in (1, 2, 3) for i in (1, 2, 3, 4)],
    *[f"wall_next{i}" for i in range(4)],
    "wall_tail_next",
]
"""What the seat cannot see, appended with ``oracle=True``."""

MAHJONG_SCALARS: list[str] = [
    "wall_left/136",
    *[f"dealer_is_seat{r}" for r in range(4)],
    *[f"seat_wind_{w}" for w in ("east", "south", "west", "north")],
    *[f"round_wind_{w}" for w in ("east", "south", "west", "north")],
    *[f"phase_{p}" for p in ("act", "claim", "rob", "end", "declare")],
    *[f"seat{r}.net/100" for r in range(4)],
    *[f"seat{r}.ready" for r in range(4)],
    *[f"seat{r}.flowers/8" for r in range(4)],
    *[f"seat{r}.flower{f}" for r in range(4) for f in range(8)],
    *[f"fed_seat{r}/4" for r in range(4)],
    *[f"fed_by_seat{r}/4" for r in range(4)],
    "draw_streak/4",
    "leopard",
    *[f"seat{r}.concealed/14" for r in range(4)],
    "after_own_kong",
    "kong_chain/4",
    *[f"offer_from_seat{r}" for r in range(4)],
    "shanten/8",
]

_QINGER_SEAT_PLANES = [
    "discard_recency",
    "pong",
    "kong",
    "added_kong",
    "concealed_kong",
    "takeoffs/4",
    "flowers/3",
    "fed_by_next",
    "fed_by_previous",
]
QINGER_PLANES: list[str] = [
    *_thermo_names("hand"),
    *_thermo_names("seen"),
    *[n for r in range(3) for n in _thermo_names(f"seat{r}.discards")],
    "drawn",
    "on_offer",
    "jian_zhang",
    "jian_pai",
    *_names("seat", 3, _QINGER_SEAT_PLANES),
]
"""Plane names of the Qing'er encoding (columns: the 36 card kinds, ``Card`` order)."""

QINGER_ORACLE_PLANES: list[str] = [
    *[f"seat{r}.hand>={i}" for r in (1, 2) for i in (1, 2, 3, 4)],
    "jian_zhang_face_down",
    *[f"stock_next{i}" for i in range(4)],
]

QINGER_SCALARS: list[str] = [
    "stock_left/126",
    *[f"dealer_is_seat{r}" for r in range(3)],
    *[f"phase_{p}" for p in ("knock", "takeoff", "act", "claim", "end")],
    *[f"seat{r}.knock_{k}" for r in range(3) for k in ("undecided", "knocked", "passed")],
    *[f"seat{r}.net/100" for r in range(3)],
    "jian_zhang_revealed",
    *[f"seat{r}.concealed/23" for r in range(3)],
    *[f"seat{r}.sets_shown/7" for r in range(3)],
    "after_pong",
    *[f"offer_from_seat{r}" for r in range(3)],
    "shanten/8",
]

_MJ_MELD_ROW = {
    MeldType.PONG: 1,
    MeldType.KONG: 2,
    MeldType.ADDED_KONG: 3,
    MeldType.CONCEALED_KONG: 4,
    MeldType.CHI: 5,
}
_QG_MELD_ROW = {
    MeldType.PONG: 1,
    MeldType.KONG: 2,
    MeldType.ADDED_KONG: 3,
    MeldType.CONCEALED_KONG: 4,
}
_RECIPROCALS = (1.0 / np.arange(1, 200, dtype=np.float32))[::-1].copy()


def _recency(out: Planes, row: int, discards: list[int]) -> None:
    """1 for the kind discarded last, 1/2 for the one before, … (each kind's latest:
    numpy's assignment keeps the last of repeated indices)."""
    n = len(discards)
    out[row, discards] = _RECIPROCALS[-n:]


SHANTEN_PLANES: list[str] = [
    "discard_keeps_shanten",
    "shanten_after_discard/8",
    "ukeire_after_best_discard/40",
]
"""Appended after the normal planes (before any oracle planes) with ``shanten=True``."""


def _counts(values: bytes | bytearray) -> npt.NDArray[np.uint8]:
    return np.frombuffer(bytes(values), dtype=np.uint8)


def _shanten_planes(
    planes: Planes,
    row: int,
    *,
    shanten: Any,
    kinds: bytes | bytearray,
    declared: int,
    candidates: list[tuple[int, int]],
    unseen: list[int],
) -> int:
    """Rows ``row`` (1 where discarding the column's kind keeps the best shanten),
    ``row + 1`` (shanten after that discard / 8) and ``row + 2`` (for the best discards:
    unseen tiles that would then lower the shanten, / 40) for ``candidates`` = (column,
    analyser kind, or −1 for a card that forms no sets); ``unseen`` per analyser kind.
    Returns the best shanten. From the seat's own tiles and what it has seen only: what a
    player works out at the table."""
    key = bytearray(kinds)
    after: list[tuple[int, int, int]] = []
    for col, kind in candidates:
        if kind < 0:
            after.append((col, kind, -1))
            continue
        key[kind] -= 1
        after.append((col, kind, shanten(bytes(key), declared)))
        key[kind] += 1
    known = [v for _, _, v in after if v >= 0]
    best = min(known) if known else 8
    n_kinds = len(key)
    cache: dict[int, float] = {}
    for col, kind, raw in after:
        v = best if raw < 0 else raw
        planes[row + 1, col] = min(v, 8) / 8.0
        if v != best:
            continue
        planes[row, col] = 1.0
        if kind not in cache:
            if kind >= 0:
                key[kind] -= 1
            total = 0
            for t in range(n_kinds):
                if unseen[t] > 0:
                    key[t] += 1
                    if shanten(bytes(key), declared) < best:
                        total += unseen[t]
                    key[t] -= 1
            if kind >= 0:
                key[kind] += 1
            cache[kind] = min(total, 40) / 40.0
        planes[row + 2, col] = cache[kind]
    return best


class MahjongEncoder:
    """The Jiaxing / Taixing encoding (both use :class:`paiju.engine.mahjong.MahjongHand`)."""

    kinds = 34
    n_seats = 4
    oracle_plane_names = MAHJONG_ORACLE_PLANES
    scalar_names = MAHJONG_SCALARS

    def __init__(self, *, oracle: bool = False, shanten: bool = False, round_wind: int = 0):
        self.oracle = oracle
        self.shanten = shanten
        self.round_wind = round_wind
        self.plane_names = MAHJONG_PLANES + (SHANTEN_PLANES if shanten else [])
        self.n_planes = len(self.plane_names) + (len(MAHJONG_ORACLE_PLANES) if oracle else 0)
        self.n_scalars = len(MAHJONG_SCALARS)
        self.shape = (self.n_planes, self.kinds)

    def encode(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        planes = np.zeros(self.shape, dtype=F32)
        sc = np.zeros(self.n_scalars, dtype=F32)
        counts = np.zeros((6, 34), dtype=np.int16)
        counts[0] = _counts(hand.counts[seat])
        melded = counts[1]
        phase = hand.phase
        if phase == 0 and hand.current == seat and hand.drawn >= 0:
            planes[24, hand.drawn] = 1.0
        offer_from = -1
        if phase in (1, 2):
            planes[25, hand.claim_tile] = 1.0
            offer_from = hand.claim_from if phase == 1 else hand.rob_seat
        fed, ready = hand.fed, hand.ready
        for r in range(4):
            s = (seat + r) % 4
            base = 26 + 9 * r
            d = hand.discards[s]
            if d:
                counts[2 + r] = np.bincount(d, minlength=34)
                _recency(planes, base, d)
            for m in hand.melds[s]:
                t = int(m.tile)
                row = base + _MJ_MELD_ROW[m.type]
                if m.type is MeldType.CHI:
                    planes[row, t : t + 3] = 1.0
                    melded[t : t + 3] += 1
                else:
                    # every seat's view names a concealed kong's kind too
                    planes[row, t] = 1.0
                    melded[t] += m.type.size
                if m.source is not None:
                    planes[base + 5 + (m.source - s) % 4, t] = 1.0
            sc[22 + r] = ready[s]
            fl = hand.flowers[s]
            if fl:
                sc[26 + r] = len(fl) / 8.0
                for f in fl:
                    sc[30 + 8 * r + (f - 34)] = 1.0
            sc[62 + r] = fed[seat][s] / 4.0
            sc[66 + r] = fed[s][seat] / 4.0
            sc[72 + r] = sum(hand.counts[s]) / 14.0
        own = hand.counts[seat]
        declared = len(hand.melds[seat])
        # seen: own tiles, every meld and every discard (a claimed discard left the
        # discard list and is counted once, in its meld)
        counts[1] = counts[0] + melded + counts[2:].sum(axis=0)
        if self.shanten and phase == 0 and hand.current == seat:
            unseen = (4 - counts[1]).tolist()
            _shanten_planes(
                planes,
                62,
                shanten=MAHJONG.shanten,
                kinds=own,
                declared=declared,
                candidates=[(k, k) for k in range(34) if own[k]],
                unseen=unseen,
            )
        sc[82] = MAHJONG.shanten(bytes(own), declared) / 8.0
        _thermometers(planes, counts)
        sc[0] = hand.wall_left / 136.0
        sc[1 + (hand.dealer - seat) % 4] = 1.0
        sc[5 + (seat - hand.dealer) % 4] = 1.0
        sc[9 + self.round_wind % 4] = 1.0
        sc[13 + phase] = 1.0
        net = hand.net()
        for r in range(4):
            sc[18 + r] = net[(seat + r) % 4] / 100.0
        sc[70] = hand.rules.draw_streak / 4.0
        sc[71] = hand.leopard
        sc[76] = hand.after_kong == seat
        sc[77] = hand.kong_chain / 4.0
        if offer_from >= 0:
            sc[78 + (offer_from - seat) % 4] = 1.0
        if self.oracle:
            o = len(self.plane_names)
            hidden = np.zeros((3, 34), dtype=np.int16)
            for i, r in enumerate((1, 2, 3)):
                hidden[i] = _counts(hand.counts[(seat + r) % 4])
            _thermometers(planes[o:], hidden)
            o += 12
            head = hand.head
            for i in range(4):
                if head + i < hand.tail:
                    t = hand.wall[head + i]
                    if t < 34:
                        planes[o + i, t] = 1.0
            if hand.tail > head and hand.wall[hand.tail - 1] < 34:
                planes[o + 4, hand.wall[hand.tail - 1]] = 1.0
        return planes, sc


_JIAN_PAI = np.array(
    [
        [float(Card(c).rank in jian_pai_ranks(Card(ind))) for c in range(N_CARD_KINDS)]
        for ind in range(N_CARD_KINDS)
    ],
    dtype=F32,
)
"""Row i: the card kinds of the 见牌 ranks when card i is the 见张."""
_MELD_KIND = tuple(Card(c).meld_kind for c in range(N_CARD_KINDS))
_COPIES = np.array([Card(c).copies for c in range(N_CARD_KINDS)], dtype=np.int16)


class QingerEncoder:
    """The Qing'er encoding: 36 card-kind columns, the three players in play order."""

    kinds = N_CARD_KINDS
    n_seats = 3
    oracle_plane_names = QINGER_ORACLE_PLANES
    scalar_names = QINGER_SCALARS

    def __init__(self, *, oracle: bool = False, shanten: bool = False, round_wind: int = 0):
        self.oracle = oracle
        self.shanten = shanten
        self.plane_names = QINGER_PLANES + (SHANTEN_PLANES if shanten else [])
        self.n_planes = len(self.plane_names) + (len(QINGER_ORACLE_PLANES) if oracle else 0)
        self.n_scalars = len(QINGER_SCALARS)
        self.shape = (self.n_planes, self.kinds)

    def encode(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        planes = np.zeros(self.shape, dtype=F32)
        sc = np.zeros(self.n_scalars, dtype=F32)
        k = N_CARD_KINDS
        counts = np.zeros((5, k), dtype=np.int16)
        counts[0] = _counts(hand.counts[seat])
        shown = counts[1]
        phase = hand.phase
        if phase == 2 and hand.current == seat and hand.drawn >= 0:
            planes[20, hand.drawn] = 1.0
        if phase == 3:
            planes[21, hand.claim_card] = 1.0
            sc[29 + self._rel(hand, seat, hand.claim_from)] = 1.0
        if hand.revealed:
            planes[22, hand.indicator] = 1.0
            shown[hand.indicator] += 1
            planes[23] = _JIAN_PAI[hand.indicator]
        order = self._order(hand, seat)
        net = hand.net()
        for r, s in enumerate(order):
            base = 24 + 9 * r
            d = hand.discards[s]
            if d:
                counts[2 + r] = np.bincount(d, minlength=k)
                _recency(planes, base, d)
            for m in hand.melds[s]:
                row = base + _QG_MELD_ROW[m.type]
                cards = [int(c) for c in m.cards]
                planes[row, cards] = 1.0
                np.add.at(shown, cards, 1)
                if m.source is not None:
                    planes[base + 6 + self._rel(hand, s, m.source), cards] = 1.0
            for t in hand.takeoffs[s]:
                for c in t:
                    planes[base + 5, c] += 0.25
                    shown[c] += 1
            for c in hand.flowers[s]:
                planes[base + 6, c] += 1.0 / 3.0
                shown[c] += 1
            knock = hand.knocked[s]
            sc[9 + 3 * r + (0 if knock is None else 1 if knock else 2)] = 1.0
            sc[18 + r] = net[s] / 100.0
            sc[22 + r] = sum(hand.counts[s]) / 23.0
            sc[25 + r] = hand.declared[s] / 7.0
        kinds = hand.kinds[seat]
        declared = hand.declared[seat]
        # seen: own cards, the 见张, every meld, takeoff, flower and discard
        counts[1] = counts[0] + shown + counts[2:].sum(axis=0)
        if self.shanten and phase == 2 and hand.current == seat:
            own = hand.counts[seat]
            left = (_COPIES - counts[1]).tolist()
            unseen = [0] * 30
            for c in range(27 + 6):
                unseen[_MELD_KIND[c]] += left[c]
            _shanten_planes(
                planes,
                51,
                shanten=QINGER.shanten,
                kinds=kinds,
                declared=declared,
                candidates=[(c, _MELD_KIND[c]) for c in range(k) if own[c]],
                unseen=unseen,
            )
        sc[32] = QINGER.shanten(bytes(kinds), declared) / 8.0
        _thermometers(planes, counts)
        sc[0] = hand.stock_left / 126.0
        sc[1 + self._rel(hand, seat, hand.dealer)] = 1.0
        sc[4 + phase] = 1.0
        sc[21] = hand.revealed
        sc[28] = hand.after_pong and hand.current == seat
        if self.oracle:
            o = len(self.plane_names)
            hidden = np.zeros((2, k), dtype=np.int16)
            for i, s in enumerate(order[1:]):
                hidden[i] = _counts(hand.counts[s])
            _thermometers(planes[o:], hidden)
            o += 8
            if not hand.revealed:
                planes[o, hand.indicator] = 1.0
            stock, head = hand.stock, hand.head
            for i in range(4):
                if head + i < len(stock):
                    planes[o + 1 + i, stock[head + i]] = 1.0
        return planes, sc

    @staticmethod
    def _order(hand: Any, seat: int) -> list[int]:
        """The three players in play order from ``seat`` (a seat sitting the hand out
        sees the table from the dealer)."""
        start = seat if seat in hand.players else hand.dealer
        nxt = hand.next_seat
        return [start, nxt[start], nxt[nxt[start]]]

    @classmethod
    def _rel(cls, hand: Any, seat: int, other: int) -> int:
        return cls._order(hand, seat).index(other)
