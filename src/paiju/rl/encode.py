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

from paiju.components.cards import N_CARD_KINDS, Card
from paiju.variants.base import MeldType
from paiju.variants.qinger.scoring import jian_pai_ranks

F32 = np.float32
Planes = npt.NDArray[np.float32]

_THERMO = np.arange(1, 5, dtype=np.uint8)[:, None]
"""Row i of a thermometer is 1 where the count is at least i + 1."""


def _thermometer(out: Planes, row: int, counts: bytes | bytearray | list[int]) -> None:
    c = np.frombuffer(bytes(counts), dtype=np.uint8)
    out[row : row + 4] = c[None, :] >= _THERMO


def _names(prefix: str, seats: int, per_seat: list[str]) -> list[str]:
    return [f"{prefix}{r}.{name}" for r in range(seats) for name in per_seat]


_MAHJONG_SEAT_PLANES = [
    "discards>=1",
    "discards>=2",
    "discards>=3",
    "discards>=4",
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
    "hand>=1",
    "hand>=2",
    "hand>=3",
    "hand>=4",
    "drawn",
    "on_offer",
    "seen>=1",
    "seen>=2",
    "seen>=3",
    "seen>=4",
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
]

_QINGER_SEAT_PLANES = [
    "discards>=1",
    "discards>=2",
    "discards>=3",
    "discards>=4",
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
    "hand>=1",
    "hand>=2",
    "hand>=3",
    "hand>=4",
    "drawn",
    "on_offer",
    "seen>=1",
    "seen>=2",
    "seen>=3",
    "seen>=4",
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
]

_MJ_MELD_ROW = {
    MeldType.PONG: 5,
    MeldType.KONG: 6,
    MeldType.ADDED_KONG: 7,
    MeldType.CONCEALED_KONG: 8,
    MeldType.CHI: 9,
}
_QG_MELD_ROW = {
    MeldType.PONG: 5,
    MeldType.KONG: 6,
    MeldType.ADDED_KONG: 7,
    MeldType.CONCEALED_KONG: 8,
}


def _recency(out: Planes, row: int, discards: list[int]) -> None:
    """1 for the kind discarded last, 1/2 for the one before, … (each kind's latest)."""
    n = len(discards)
    line = out[row]
    for i, k in enumerate(discards):
        line[k] = 1.0 / (n - i)


class MahjongEncoder:
    """The Jiaxing / Taixing encoding (both use :class:`paiju.engine.mahjong.MahjongHand`)."""

    kinds = 34
    n_seats = 4
    plane_names = MAHJONG_PLANES
    oracle_plane_names = MAHJONG_ORACLE_PLANES
    scalar_names = MAHJONG_SCALARS

    def __init__(self, *, oracle: bool = False, round_wind: int = 0) -> None:
        self.oracle = oracle
        self.round_wind = round_wind
        self.n_planes = len(MAHJONG_PLANES) + (len(MAHJONG_ORACLE_PLANES) if oracle else 0)
        self.n_scalars = len(MAHJONG_SCALARS)
        self.shape = (self.n_planes, self.kinds)

    def encode(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        planes = np.zeros(self.shape, dtype=F32)
        sc = np.zeros(self.n_scalars, dtype=F32)
        own = hand.counts[seat]
        _thermometer(planes, 0, own)
        phase = hand.phase
        if phase == 0 and hand.current == seat and hand.drawn >= 0:
            planes[4, hand.drawn] = 1.0
        offer_from = -1
        if phase in (1, 2):
            planes[5, hand.claim_tile] = 1.0
            offer_from = hand.claim_from if phase == 1 else hand.rob_seat
        seen = bytearray(own)
        for r in range(4):
            s = (seat + r) % 4
            base = 10 + 13 * r
            d = hand.discards[s]
            if d:
                dc = bytearray(34)
                for k in d:
                    dc[k] += 1
                    seen[k] += 1
                _thermometer(planes, base, dc)
                _recency(planes, base + 4, d)
            for m in hand.melds[s]:
                t = int(m.tile)
                row = base + _MJ_MELD_ROW[m.type]
                if m.type is MeldType.CHI:
                    planes[row, t : t + 3] = 1.0
                    for x in (t, t + 1, t + 2):
                        seen[x] += 1
                else:
                    # every seat's view names a concealed kong's kind too
                    planes[row, t] = 1.0
                    seen[t] += m.type.size
                if m.source is not None:
                    planes[base + 9 + (m.source - s) % 4, t] = 1.0
            sc[21 + r] = hand.ready[s]
            fl = hand.flowers[s]
            sc[25 + r] = len(fl) / 8.0
            for f in fl:
                sc[29 + 8 * r + (f - 34)] = 1.0
            sc[61 + r] = hand.fed[seat][s] / 4.0
            sc[65 + r] = hand.fed[s][seat] / 4.0
            sc[71 + r] = sum(hand.counts[s]) / 14.0
        # a claimed discard leaves the discard list and is counted once, in its meld
        _thermometer(planes, 6, bytes(min(4, x) for x in seen))
        sc[0] = hand.wall_left / 136.0
        sc[1 + (hand.dealer - seat) % 4] = 1.0
        sc[5 + (seat - hand.dealer) % 4] = 1.0
        sc[9 + self.round_wind % 4] = 1.0
        sc[13 + phase] = 1.0
        net = hand.net()
        for r in range(4):
            sc[18 + r] = net[(seat + r) % 4] / 100.0
        sc[69] = hand.rules.draw_streak / 4.0
        sc[70] = hand.leopard
        sc[75] = hand.after_kong == seat
        sc[76] = hand.kong_chain / 4.0
        if offer_from >= 0:
            sc[77 + (offer_from - seat) % 4] = 1.0
        if self.oracle:
            o = len(MAHJONG_PLANES)
            for i, r in enumerate((1, 2, 3)):
                _thermometer(planes, o + 4 * i, hand.counts[(seat + r) % 4])
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


_CARD_RANK = tuple(Card(i).rank for i in range(N_CARD_KINDS))


class QingerEncoder:
    """The Qing'er encoding: 36 card-kind columns, the three players in play order."""

    kinds = N_CARD_KINDS
    n_seats = 3
    plane_names = QINGER_PLANES
    oracle_plane_names = QINGER_ORACLE_PLANES
    scalar_names = QINGER_SCALARS

    def __init__(self, *, oracle: bool = False, round_wind: int = 0) -> None:
        self.oracle = oracle
        self.n_planes = len(QINGER_PLANES) + (len(QINGER_ORACLE_PLANES) if oracle else 0)
        self.n_scalars = len(QINGER_SCALARS)
        self.shape = (self.n_planes, self.kinds)

    def encode(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        planes = np.zeros(self.shape, dtype=F32)
        sc = np.zeros(self.n_scalars, dtype=F32)
        own = hand.counts[seat]
        _thermometer(planes, 0, own)
        phase = hand.phase
        if phase == 2 and hand.current == seat and hand.drawn >= 0:
            planes[4, hand.drawn] = 1.0
        if phase == 3:
            planes[5, hand.claim_card] = 1.0
            sc[29 + self._rel(hand, seat, hand.claim_from)] = 1.0
        seen = bytearray(own)
        if hand.revealed:
            planes[10, hand.indicator] = 1.0
            seen[hand.indicator] += 1
            ranks = jian_pai_ranks(Card(hand.indicator))
            line = planes[11]
            for k in range(N_CARD_KINDS):
                if _CARD_RANK[k] in ranks:
                    line[k] = 1.0
        order = self._order(hand, seat)
        net = hand.net()
        for r, s in enumerate(order):
            base = 12 + 13 * r
            d = hand.discards[s]
            if d:
                dc = bytearray(N_CARD_KINDS)
                for k in d:
                    dc[k] += 1
                    seen[k] += 1
                _thermometer(planes, base, dc)
                _recency(planes, base + 4, d)
            for m in hand.melds[s]:
                row = base + _QG_MELD_ROW[m.type]
                for c in m.cards:
                    planes[row, c] = 1.0
                    seen[c] += 1
                if m.source is not None:
                    rel = self._rel(hand, s, m.source)
                    for c in m.cards:
                        planes[base + 10 + rel, c] = 1.0
            for t in hand.takeoffs[s]:
                for c in t:
                    planes[base + 9, c] += 0.25
                    seen[c] += 1
            for c in hand.flowers[s]:
                planes[base + 10, c] += 1.0 / 3.0
                seen[c] += 1
            k = hand.knocked[s]
            sc[9 + 3 * r + (0 if k is None else 1 if k else 2)] = 1.0
            sc[18 + r] = net[s] / 100.0
            sc[22 + r] = sum(hand.counts[s]) / 23.0
            sc[25 + r] = hand.declared[s] / 7.0
        _thermometer(planes, 6, bytes(min(4, x) for x in seen))
        sc[0] = hand.stock_left / 126.0
        sc[1 + self._rel(hand, seat, hand.dealer)] = 1.0
        sc[4 + phase] = 1.0
        sc[21] = hand.revealed
        sc[28] = hand.after_pong and hand.current == seat
        if self.oracle:
            o = len(QINGER_PLANES)
            for i, s in enumerate(order[1:]):
                _thermometer(planes, o + 4 * i, hand.counts[s])
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
