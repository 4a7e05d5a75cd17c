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
from paiju.engine import mahjong as MJ
from paiju.engine.types import MeldType
from paiju.variants.qinger import hand as QH
from paiju.variants.qinger.scoring import jian_pai_ranks

F32 = np.float32
Planes = npt.NDArray[np.float32]

_THERMO = np.arange(1, 5, dtype=np.int16)[None, :, None]
"""Thermometer row i of a count vector is 1 where the count is at least i + 1."""


_BASE = 9
"""The public counts are kept times ``_BASE`` (``_PublicTables._pub9``): own + that is
one lookup index for both the hand's and the seen thermometers (counts stay below 9)."""
_THERMO_LUT = np.array(
    [[float(x % _BASE > i) for x in range(_BASE * _BASE)] for i in range(4)]
    + [[float(x % _BASE + x // _BASE > i) for x in range(_BASE * _BASE)] for i in range(4)],
    dtype=F32,
)
"""Rows 0-3, column own + 9·public: the hand's thermometer rows (own ≥ i + 1); rows 4-7:
the seen ones (own + public ≥ i + 1)."""
_add = np.add
_zeros = np.zeros


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


def _plane_names(seats: int, shared: list[str], per_seat: list[str]) -> list[str]:
    """Both games' plane layout: the hand and seen thermometers, every seat's discard
    thermometers, the planes of the table (``shared``), every seat's block."""
    return [
        *_thermo_names("hand"),
        *_thermo_names("seen"),
        *[n for r in range(seats) for n in _thermo_names(f"seat{r}.discards")],
        *shared,
        *_names("seat", seats, per_seat),
    ]


MAHJONG_PLANES: list[str] = _plane_names(4, ["drawn", "on_offer"], _MAHJONG_SEAT_PLANES)
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
    *[f"phase_{p}" for p in MJ.PHASES],
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
QINGER_PLANES: list[str] = _plane_names(
    3, ["drawn", "on_offer", "jian_zhang", "jian_pai"], _QINGER_SEAT_PLANES
)
"""Plane names of the Qing'er encoding (columns: the 36 card kinds, ``Card`` order)."""

QINGER_ORACLE_PLANES: list[str] = [
    *[f"seat{r}.hand>={i}" for r in (1, 2) for i in (1, 2, 3, 4)],
    "jian_zhang_face_down",
    *[f"stock_next{i}" for i in range(4)],
]

QINGER_SCALARS: list[str] = [
    "stock_left/126",
    *[f"dealer_is_seat{r}" for r in range(3)],
    *[f"phase_{p}" for p in QH.PHASES],
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
_ORDERS = tuple(np.array([(seat + r) % 4 for r in range(4)]) for seat in range(4))
"""Absolute seats in the order of the relative seats 0-3, per observer."""
_RECIPROCALS = (1.0 / np.arange(1, 200, dtype=np.float32))[::-1].copy()
_RECENCY_TAILS = tuple(_RECIPROCALS[len(_RECIPROCALS) - n :] for n in range(len(_RECIPROCALS) + 1))
"""``_RECIPROCALS[-n:]`` made once per n (n = 0: empty): a slice costs more than the lookup."""

_MJ_PHASE = {p: i for i, p in enumerate(MJ.PHASES)}
"""Each mahjong phase's index among the ``phase_*`` scalars."""
_QG_PHASE = {p: i for i, p in enumerate(QH.PHASES)}


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


class _PublicTables:
    """What both encoders keep between calls, in absolute seats: each seat's discard
    counts, thermometer rows (``_disc_rows``, four a seat) and recency row (row 0 of
    its nine-row block in ``_blocks``), and the counts of every tile shown to all
    (``_pub9``, uint8, times ``_BASE``), kept up to date by differences so that a discard
    costs a few cells."""

    _discarded: list[list[int]]
    _disc_rows: Planes
    _blocks: Planes
    _disc_idx: list[npt.NDArray[np.intp]]
    _pub9: npt.NDArray[np.uint8]
    _pub9_cells: memoryview[int]
    """``_pub9`` as a memoryview: one cell changed through it costs a third of numpy's."""
    _index: npt.NDArray[np.uint8]
    _thermo: Planes
    _cells: memoryview[float]
    """``_disc_rows`` as one flat float view: a cell set through it costs a third of
    numpy's two-index assignment."""
    _recency: list[Planes]
    """Each seat's recency row (a view, made once)."""
    _own_src: list[Any]
    _own: list[Any]
    _sc_key: tuple[Any, ...]
    _sc_base: list[Planes | None]

    def _new_tables(self, n: int, k: int, rows: int, disc_at: int) -> None:
        """Fresh tables for a new hand of ``n`` seats and ``k`` kinds: ``_src`` of
        ``rows`` rows (row 0 zeros; rows 1-8 the observer's hand and seen thermometers,
        refilled per call; from ``disc_at``: four discard-thermometer rows a seat, then
        a nine-row block a seat, its recency first)."""
        self._src = np.zeros((rows, k), dtype=F32)
        self._thermo = self._src[1:9]
        self._disc_rows = self._src[disc_at : disc_at + 4 * n]
        self._blocks = self._src[disc_at + 4 * n :]
        self._cells = self._disc_rows.data.cast("B").cast("f")
        self._recency = [self._blocks[9 * s] for s in range(n)]
        self._pub9 = np.zeros(k, dtype=np.uint8)
        self._pub9_cells = self._pub9.data.cast("B")
        self._index = np.empty(k, dtype=np.uint8)
        self._discarded = [[0] * k for _ in range(n)]
        # each seat's discards as index arrays: numpy indexes with an intp array
        # several times faster than with a list
        self._disc_idx = [np.zeros(len(_RECIPROCALS), dtype=np.intp) for _ in range(n)]
        # numpy views of the hand's count bytearrays (no copy; the engine mutates
        # them in place), renewed if a count vector is replaced
        self._own_src = [None] * n
        self._own = [None] * n
        self._sc_key = ()
        self._sc_base = [None] * n

    def _shift_public(self, before: list[int], after: list[int]) -> None:
        public = self._pub9_cells
        for t, (b, a) in enumerate(zip(before, after, strict=True)):
            if a != b:
                public[t] += (a - b) * _BASE

    def _thermometers(self, seat: int, own_src: bytearray) -> npt.NDArray[np.uint8]:
        """Rows 1-8 of the source table: ``seat``'s hand and seen thermometers (its
        counts ``own_src``); returns the counts as numpy (a view kept per seat)."""
        own = self._own[seat]
        if own_src is not self._own_src[seat]:
            own = self._own[seat] = np.frombuffer(own_src, dtype=np.uint8)
            self._own_src[seat] = own_src
        _add(own, self._pub9, self._index)
        _THERMO_LUT.take(self._index, 1, self._thermo, "clip")
        return own  # type: ignore[no-any-return]

    def _base(self, key: tuple[Any, ...], seat: int, make: Any) -> Planes:
        """A copy of ``seat``'s cached scalar base, made again by ``make()`` when ``key``
        (what the bases depend on) changed since the last call."""
        if key != self._sc_key:
            self._sc_key = key
            self._sc_base = [None] * len(self._sc_base)
        base = self._sc_base[seat]
        if base is None:
            base = self._sc_base[seat] = make()
        return base.copy()

    def _seen(self, own: npt.NDArray[np.uint8]) -> npt.NDArray[np.int16]:
        """Each kind's copies the observer has seen (own + public)."""
        return own.astype(np.int16) + self._pub9 // _BASE

    def _follow_discards(self, s: int, d: list[int], snaps: list[list[int]]) -> None:
        """Seat ``s``'s discards are now ``d`` (its copy from the last call: ``snaps[s]``)."""
        snap = snaps[s]
        n = len(d)
        counted = self._discarded[s]
        idx = self._disc_idx[s]
        if n == len(snap) + 1 and d[:-1] == snap:
            # the common change, one discard more
            t = d[-1]
            snap.append(t)
            c = counted[t] + 1
            counted[t] = c
            if c <= 4:
                self._cells[(4 * s + c - 1) * len(counted) + t] = 1.0
            idx[n - 1] = t
            self._recency[s][idx[:n]] = _RECENCY_TAILS[n]
            self._pub9_cells[t] += _BASE
            return
        row = self._recency[s]
        row[:] = 0.0
        if n == len(snap) - 1 and snap[:-1] == d:
            # a claimed discard left the list
            t = snap.pop()
            c = counted[t]
            counted[t] = c - 1
            if c <= 4:
                self._cells[(4 * s + c - 1) * len(counted) + t] = 0.0
            self._pub9_cells[t] -= _BASE
        else:
            snaps[s] = list(d)
            now = [0] * len(counted)
            for t in d:
                now[t] += 1
            self._shift_public(counted, now)
            self._discarded[s] = now
            idx[:n] = d
            self._disc_rows[4 * s : 4 * s + 4] = np.array(now) >= _THERMO[0]
        if n:
            row[idx[:n]] = _RECENCY_TAILS[n]


class MahjongEncoder(_PublicTables):
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
        self._hand: Any = None
        self._rows = tuple(self._gather_rows(seat) for seat in range(4))

    def _gather_rows(self, seat: int) -> npt.NDArray[np.intp]:
        """For each plane of ``seat``'s observation, its row of the source table (see
        :meth:`_sync`); 0 (zeros) where the plane is filled per call."""
        rows = [*range(1, 9)]
        for r in range(4):
            rows += range(9 + 4 * ((seat + r) % 4), 13 + 4 * ((seat + r) % 4))
        rows += [0, 0]
        for r in range(4):
            rows += range(25 + 9 * ((seat + r) % 4), 34 + 9 * ((seat + r) % 4))
        rows += [0] * (self.n_planes - len(rows))
        return np.array(rows, dtype=np.intp)

    def _sync(self, hand: Any) -> None:
        """Bring the public tables of ``hand`` up to date. They are kept in absolute seats
        and rebuilt per seat only where its discards or melds differ from the copies
        taken at the last call (two list comparisons when nothing changed, a few cells
        for one discard more)."""
        if hand is not self._hand:
            self._hand = hand
            # every row an observation copies, in one table so that one ``take`` turns
            # them to the observer's relative seats: row 0 zeros; rows 1-8 the
            # observer's hand and seen thermometers (refilled per call); rows 9 + 4s …:
            # seat s's discards as thermometers; rows 25 + 9s …: seat s's discard
            # recency, five meld kinds, melds fed by the next / across / previous seat
            # (relative to the meld's owner)
            self._new_tables(4, 34, 61, 9)
            self._melded = [[0] * 34 for _ in range(4)]
            self._disc_snap: list[list[int]] = [[] for _ in range(4)]
            self._meld_snap: list[list[Any]] = [[] for _ in range(4)]
        discards, snaps = hand.discards, self._disc_snap
        if discards != snaps:
            # most steps change one seat's discards and no meld
            for s in range(4):
                d = discards[s]
                if d != snaps[s]:
                    self._follow_discards(s, d, snaps)
        if hand.melds == self._meld_snap:
            return
        for s in range(4):
            ms = hand.melds[s]
            if ms != self._meld_snap[s]:
                self._meld_snap[s] = list(ms)
                block = self._blocks[9 * s : 9 * s + 9]
                block[1:] = 0.0
                melded = [0] * 34
                for m in ms:
                    t = int(m.tile)
                    row = _MJ_MELD_ROW[m.type]
                    if m.type is MeldType.CHI:
                        block[row, t : t + 3] = 1.0
                        for u in (t, t + 1, t + 2):
                            melded[u] += 1
                    else:
                        block[row, t] = 1.0
                        melded[t] += m.type.size
                    if m.source is not None:
                        block[5 + (m.source - s) % 4, t] = 1.0
                self._shift_public(self._melded[s], melded)
                self._melded[s] = melded

    def encode(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        """``seat``'s observation of ``hand``: (planes, scalars), float32. Equal to
        :meth:`encode_reference`: filled by the C module where it was built, else from
        public tables kept between calls and gathered in the observer's relative seats
        by one ``take``."""
        if _C is not None:
            return self._encode_c(hand, seat)
        self._sync(hand)
        own_src = hand.counts[seat]
        own = self._thermometers(seat, own_src)
        planes = self._src.take(self._rows[seat], 0)
        phase = _MJ_PHASE[hand.phase]
        if phase == 0 and hand.current == seat and hand.drawn >= 0:
            planes[24, hand.drawn] = 1.0
        offer_from = -1
        if phase in (1, 2):
            planes[25, hand.claim_tile] = 1.0
            offer_from = hand.claim_from if phase == 1 else hand.rob_seat
        melds = hand.melds[seat]
        declared = len(melds)
        if self.shanten and phase == 0 and hand.current == seat:
            self._discard_planes(planes, hand, seat, self._seen(own))
        # what changes only with payments, flowers, melds and declarations: one base
        # vector per observer, rebuilt when one of those changed
        fl = hand.flowers
        key = (
            len(hand.ledger),
            len(fl[0]) + len(fl[1]) + len(fl[2]) + len(fl[3]),
            *hand.ready,
            len(self._meld_snap[0]) + len(self._meld_snap[1]),
            len(self._meld_snap[2]) + len(self._meld_snap[3]),
        )
        sc = self._base(key, seat, lambda: self._scalar_base(hand, seat))
        if phase == 3:
            counts = hand.counts
            for r in range(4):
                sc[72 + r] = sum(counts[(seat + r) % 4]) / 14.0
        elif phase != 1:
            # the base holds each seat's 13 − 3 per meld; the seat to move holds one
            # more (in a claim window nobody does)
            cur = hand.current
            sc[72 + (cur - seat) % 4] = (14 - 3 * len(hand.melds[cur])) / 14.0
        sc[82] = MAHJONG.shanten(bytes(own_src), declared) / 8.0
        sc[0] = (hand.tail - hand.head) / 136.0
        sc[13 + phase] = 1.0
        if hand.after_kong == seat:
            sc[76] = 1.0
        if hand.kong_chain:
            sc[77] = hand.kong_chain / 4.0
        if offer_from >= 0:
            sc[78 + (offer_from - seat) % 4] = 1.0
        if self.oracle:
            self._oracle(planes, hand, seat)
        return planes, sc

    def _encode_c(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        assert _C is not None
        planes = _zeros(self.shape, F32)
        sc = _zeros(self.n_scalars, F32)
        own_src = hand.counts[seat]
        declared = len(hand.melds[seat])
        if self.shanten and hand.phase is MJ.ACT and hand.current == seat:
            seen = _zeros(34, np.int16)
            _C.mahjong(hand, seat, planes, sc, self.round_wind, seen)
            self._discard_planes(planes, hand, seat, seen)
        else:
            _C.mahjong(hand, seat, planes, sc, self.round_wind, None)
        sc[82] = MAHJONG.shanten(bytes(own_src), declared) / 8.0
        if self.oracle:
            self._oracle(planes, hand, seat)
        return planes, sc

    @staticmethod
    def _discard_planes(planes: Planes, hand: Any, seat: int, seen: Any) -> None:
        """The ``shanten=True`` planes of the seat to move (``seen``: the copies of each
        kind it has seen, numpy)."""
        own = hand.counts[seat]
        _shanten_planes(
            planes,
            62,
            shanten=MAHJONG.shanten,
            kinds=own,
            declared=len(hand.melds[seat]),
            candidates=[(k, k) for k in range(34) if own[k]],
            unseen=(4 - seen).tolist(),
        )

    def _scalar_base(self, hand: Any, seat: int) -> Planes:
        """The scalars that stay put between payments, flowers, melds and declarations
        (a seat's concealed count: 13 − 3 per meld before the end; the counts' sums
        without summing them, checked against them by :meth:`encode_reference`)."""
        sc = np.zeros(self.n_scalars, dtype=F32)
        fed, ready, flowers, melds = hand.fed, hand.ready, hand.flowers, hand.melds
        net = hand.net()
        for r in range(4):
            s = (seat + r) % 4
            sc[72 + r] = (13 - 3 * len(melds[s])) / 14.0
            if net[s]:
                sc[18 + r] = net[s] / 100.0
            if ready[s]:
                sc[22 + r] = 1.0
            fl = flowers[s]
            if fl:
                sc[26 + r] = len(fl) / 8.0
                for f in fl:
                    sc[30 + 8 * r + (f - 34)] = 1.0
            if fed[seat][s]:
                sc[62 + r] = fed[seat][s] / 4.0
            if fed[s][seat]:
                sc[66 + r] = fed[s][seat] / 4.0
        sc[1 + (hand.dealer - seat) % 4] = 1.0
        sc[5 + (seat - hand.dealer) % 4] = 1.0
        sc[9 + self.round_wind % 4] = 1.0
        if hand.rules.draw_streak:
            sc[70] = hand.rules.draw_streak / 4.0
        if hand.leopard:
            sc[71] = 1.0
        return sc

    def encode_reference(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        """The encoding written plainly, from the hand alone: the specification that
        :meth:`encode` (incremental, several times faster) must match exactly."""
        planes = np.zeros(self.shape, dtype=F32)
        sc = np.zeros(self.n_scalars, dtype=F32)
        counts = np.zeros((6, 34), dtype=np.int16)
        counts[0] = _counts(hand.counts[seat])
        melded = counts[1]
        phase = _MJ_PHASE[hand.phase]
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
            self._discard_planes(planes, hand, seat, counts[1])
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
            self._oracle(planes, hand, seat)
        return planes, sc

    def _oracle(self, planes: Planes, hand: Any, seat: int) -> None:
        """The hidden planes (``oracle=True``), after the normal ones."""
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


class QingerEncoder(_PublicTables):
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
        self._hand: Any = None

    def _sync(self, hand: Any) -> None:
        """Bring the public tables of ``hand`` up to date (as the mahjong encoder does):
        per absolute seat, its discard thermometers and recency, and its block of meld,
        takeoff, flower and fed-by rows, rebuilt only where the seat's discards, melds,
        takeoffs or flowers differ from the copies taken at the last call."""
        k = N_CARD_KINDS
        if hand is not self._hand:
            self._hand = hand
            n = len(hand.counts)
            # row 0 zeros; rows 1-8 the hand's and the seen thermometers; row 9 the
            # 见张, row 10 the 见牌 ranks; rows 11 + 4s …: seat s's discards as
            # thermometers; rows 11 + 4n + 9s …: seat s's block (recency, four meld
            # kinds, takeoffs, flowers, fed by the next / previous player)
            self._new_tables(n, k, 11 + 13 * n, 11)
            self._shown = [[0] * k for _ in range(n)]
            self._snaps: list[list[list[Any]]] = [[[] for _ in range(n)] for _ in range(4)]
            self._indicator = (False, -1)
            self._orders: list[list[int] | None] = [None] * n
            self._rows: list[npt.NDArray[np.intp] | None] = [None] * n
        d_snap, m_snap, t_snap, f_snap = self._snaps
        if (
            hand.discards == d_snap
            and hand.melds == m_snap
            and hand.takeoffs == t_snap
            and hand.flowers == f_snap
            and (hand.revealed, hand.indicator) == self._indicator
        ):
            return
        if (hand.revealed, hand.indicator) != self._indicator:
            was_shown, before = self._indicator
            if was_shown:
                self._pub9_cells[before] -= _BASE
            self._indicator = (hand.revealed, hand.indicator)
            self._src[9:11] = 0.0
            if hand.revealed:
                self._src[9, hand.indicator] = 1.0
                self._src[10] = _JIAN_PAI[hand.indicator]
                self._pub9_cells[hand.indicator] += _BASE
        for s in hand.players:
            d = hand.discards[s]
            if d != d_snap[s]:
                self._follow_discards(s, d, d_snap)
            ms, ts, fs = hand.melds[s], hand.takeoffs[s], hand.flowers[s]
            if ms == m_snap[s] and ts == t_snap[s] and fs == f_snap[s]:
                continue
            snap = m_snap[s]
            if len(ms) == len(snap) + 1 and ms[:-1] == snap and ts == t_snap[s] and fs == f_snap[s]:
                # the common change, one meld more (a pong or kong of a discard, a
                # concealed kong): its cells only
                m = ms[-1]
                snap.append(m)
                block = self._blocks[9 * s : 9 * s + 9]
                cards = [int(c) for c in m.cards]
                block[_QG_MELD_ROW[m.type], cards] = 1.0
                shown = self._shown[s]
                for c in cards:
                    shown[c] += 1
                    self._pub9_cells[c] += _BASE
                if m.source is not None:
                    block[7 if m.source == hand.next_seat[s] else 8, cards] = 1.0
            else:
                m_snap[s], t_snap[s], f_snap[s] = list(ms), list(ts), list(fs)
                block = self._blocks[9 * s : 9 * s + 9]
                block[1:] = 0.0
                shown = [0] * k
                nxt = hand.next_seat[s]
                for m in ms:
                    cards = [int(c) for c in m.cards]
                    block[_QG_MELD_ROW[m.type], cards] = 1.0
                    for c in cards:
                        shown[c] += 1
                    if m.source is not None:
                        block[7 if m.source == nxt else 8, cards] = 1.0
                for tk in ts:
                    for c in tk:
                        block[5, c] += 0.25
                        shown[c] += 1
                for c in fs:
                    block[6, c] += 1.0 / 3.0
                    shown[c] += 1
                self._shift_public(self._shown[s], shown)
                self._shown[s] = shown

    def _gather_rows(self, hand: Any, seat: int) -> npt.NDArray[np.intp]:
        n = len(hand.counts)
        rows = [*range(1, 9)]
        order = self._order(hand, seat)
        for s in order:
            rows += range(11 + 4 * s, 15 + 4 * s)
        rows += [0, 0, 9, 10]
        for s in order:
            rows += range(11 + 4 * n + 9 * s, 20 + 4 * n + 9 * s)
        rows += [0] * (self.n_planes - len(rows))
        return np.array(rows, dtype=np.intp)

    def encode(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        """``seat``'s observation of ``hand``: (planes, scalars), float32. Equal to
        :meth:`encode_reference`: filled by the C module where it was built, else from
        public tables kept between calls and gathered by one ``take``."""
        if _C is not None:
            return self._encode_c(hand, seat)
        self._sync(hand)
        order = self._orders[seat]
        rows = self._rows[seat]
        if order is None or rows is None:
            order = self._orders[seat] = self._order(hand, seat)
            rows = self._rows[seat] = self._gather_rows(hand, seat)
        own_src = hand.counts[seat]
        own = self._thermometers(seat, own_src)
        planes = self._src.take(rows, 0)
        phase = _QG_PHASE[hand.phase]
        if phase == 2 and hand.current == seat and hand.drawn >= 0:
            planes[20, hand.drawn] = 1.0
        kinds = hand.kinds[seat]
        declared = hand.declared[seat]
        if self.shanten and phase == 2 and hand.current == seat:
            self._discard_planes(planes, hand, seat, self._seen(own))
        key = (len(hand.ledger), *hand.knocked, hand.revealed, *hand.declared)
        sc = self._base(key, seat, lambda: self._scalar_base(hand, seat, order))
        counts = hand.counts
        sc[22] = sum(counts[order[0]]) / 23.0
        sc[23] = sum(counts[order[1]]) / 23.0
        sc[24] = sum(counts[order[2]]) / 23.0
        if phase == 3:
            planes[21, hand.claim_card] = 1.0
            sc[29 + order.index(hand.claim_from)] = 1.0
        sc[32] = QINGER.shanten(bytes(kinds), declared) / 8.0
        sc[0] = hand.stock_left / 126.0
        sc[4 + phase] = 1.0
        if hand.after_pong and hand.current == seat:
            sc[28] = 1.0
        if self.oracle:
            self._oracle(planes, hand, seat, order)
        return planes, sc

    def _encode_c(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        assert _C is not None
        planes = _zeros(self.shape, F32)
        sc = _zeros(self.n_scalars, F32)
        kinds = hand.kinds[seat]
        declared = hand.declared[seat]
        if self.shanten and hand.phase is QH.ACT and hand.current == seat:
            seen = _zeros(N_CARD_KINDS, np.int16)
            _C.qinger(hand, seat, planes, sc, 0, seen)
            self._discard_planes(planes, hand, seat, seen)
        else:
            _C.qinger(hand, seat, planes, sc, 0, None)
        sc[32] = QINGER.shanten(bytes(kinds), declared) / 8.0
        if self.oracle:
            self._oracle(planes, hand, seat, self._order(hand, seat))
        return planes, sc

    @staticmethod
    def _discard_planes(planes: Planes, hand: Any, seat: int, seen: Any) -> None:
        """The ``shanten=True`` planes of the seat to move, over meld kinds (``seen``:
        the copies of each card kind it has seen, numpy)."""
        own = hand.counts[seat]
        left = (_COPIES - seen).tolist()
        unseen = [0] * 30
        for c in range(27 + 6):
            unseen[_MELD_KIND[c]] += left[c]
        _shanten_planes(
            planes,
            51,
            shanten=QINGER.shanten,
            kinds=hand.kinds[seat],
            declared=hand.declared[seat],
            candidates=[(c, _MELD_KIND[c]) for c in range(N_CARD_KINDS) if own[c]],
            unseen=unseen,
        )

    def _scalar_base(self, hand: Any, seat: int, order: list[int]) -> Planes:
        """The scalars that stay put between payments, knocks, the 见张 and new sets."""
        sc = np.zeros(self.n_scalars, dtype=F32)
        net = hand.net()
        for r, s in enumerate(order):
            knock = hand.knocked[s]
            sc[9 + 3 * r + (0 if knock is None else 1 if knock else 2)] = 1.0
            sc[18 + r] = net[s] / 100.0
            sc[25 + r] = hand.declared[s] / 7.0
        sc[1 + order.index(hand.dealer)] = 1.0
        sc[21] = hand.revealed
        return sc

    def _oracle(self, planes: Planes, hand: Any, seat: int, order: list[int]) -> None:
        """The hidden planes (``oracle=True``), after the normal ones."""
        k = N_CARD_KINDS
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

    def encode_reference(self, hand: Any, seat: int) -> tuple[Planes, Planes]:
        """The encoding written plainly, from the hand alone: the specification that
        :meth:`encode` (incremental) must match exactly."""
        planes = np.zeros(self.shape, dtype=F32)
        sc = np.zeros(self.n_scalars, dtype=F32)
        k = N_CARD_KINDS
        counts = np.zeros((5, k), dtype=np.int16)
        counts[0] = _counts(hand.counts[seat])
        shown = counts[1]
        phase = _QG_PHASE[hand.phase]
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
            self._discard_planes(planes, hand, seat, counts[1])
        sc[32] = QINGER.shanten(bytes(kinds), declared) / 8.0
        _thermometers(planes, counts)
        sc[0] = hand.stock_left / 126.0
        sc[1 + self._rel(hand, seat, hand.dealer)] = 1.0
        sc[4 + phase] = 1.0
        sc[21] = hand.revealed
        sc[28] = hand.after_pong and hand.current == seat
        if self.oracle:
            self._oracle(planes, hand, seat, order)
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


_INT8 = np.dtype(np.int8)


def action_mask(n_actions: int, legal: list[int]) -> npt.NDArray[np.int8]:
    """The int8 mask of ``n_actions`` codes with 1 at each of ``legal``."""
    if _C is not None:
        out = _zeros(n_actions, _INT8)
        _C.mask(out, legal)
        return out
    # a bytearray filled in Python and viewed by numpy: a handful of legal codes cost
    # less this way than numpy's fancy assignment from a list
    buf = bytearray(n_actions)
    for a in legal:
        buf[a] = 1
    return np.frombuffer(buf, _INT8)


def _load_c() -> Any:
    """The C module (``_cencode.c``, built at install where a C compiler is found),
    configured with the objects it compares against; None where it was not built or
    ``PAIJU_PURE_PYTHON`` is set (the tests run both)."""
    import os

    if os.environ.get("PAIJU_PURE_PYTHON"):
        return None
    try:
        from paiju.rl import _cencode
    except ImportError:
        return None
    kinds = (
        MeldType.PONG,
        MeldType.KONG,
        MeldType.ADDED_KONG,
        MeldType.CONCEALED_KONG,
        MeldType.CHI,
    )
    _cencode.configure(kinds, tuple(MJ.PHASES), tuple(QH.PHASES), _JIAN_PAI.tobytes())
    return _cencode


_C: Any = _load_c()
