"""Hand analysis with wild tiles (混儿): completeness, readings, waits, exact shanten.

A hand is given as the count vector of its *natural* tiles (every tile that is not a wild)
plus the number ``wilds`` of wild tiles it holds. Each wild either keeps its own face or
stands in for any one tile; both are the same thing to the analyser (a wild keeping its
face is a stand-in for that face), so a wild is simply a joker. Stand-ins are not bound by
the four-copies rule: four natural 1万 and a wild may read as 111万 + 11万.

Like :mod:`paiju.components.analysis`, every query is answered group by group (the three
suits and the honours) from tables keyed by the group's count vector. For one group vector
the table holds, for each number m = 0…4 of sets and with or without the pair, the fewest
tiles that must be added so that the group holds m sets (and the pair), any surplus natural
tile left over; additions are unbounded per kind. From that one row follow:

* the *wilds spent* when the group is covered exactly (every natural tile used): the row's
  entries with ``added == 3m + 2p − tiles``. The smallest such number without the pair
  (``w0``) and with it (``w1``) is the group's win-check code. A hand of 14 − 3·declared
  tiles is complete iff the groups' ``w0`` plus the smallest ``w1 − w0`` is at most the
  wilds held (surplus wilds form triplets of their own, three at a time; the tile count
  makes the surplus a multiple of three);
* the exact shanten: the standard distance of the whole hand (the rows combined like
  :mod:`analysis` combines its profiles) less the wilds held, minus one. A wild fills any
  slot, so it saves exactly one addition.

The readings (every split into sets and a pair, with the face each wild stands for and
the shape of the block the winning tile completed) are enumerated per group and wilds
spent, memoised, and combined on demand; they serve scoring, not the hot path.

Seven pairs with wilds: each wild pairs with a lone natural tile or with another wild.
With ``quad_as_two_pairs`` off, pairs must be of distinct kinds (a natural kind held three
or four times cannot be read).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import product
from typing import NamedTuple

from paiju.components.analysis import Counts, Group, Shape, relax_state

INF = 99
"""Distance of an impossible target (more than four sets needed, say)."""

N_SETS = 4
MAX_WILDS = 14
"""Up to a whole hand: three wild kinds (HA3) put eleven wilds in play."""


class WildWait(IntEnum):
    """How the winning tile completed its block in a reading."""

    SINGLE = 0
    """单钓: it paired a natural tile."""
    EDGE = 1
    """边张: 1-2 waiting on 3, or 8-9 waiting on 7."""
    CLOSED = 2
    """嵌张: the middle of a run."""
    TWO_SIDED = 3
    """两面: either end of an open two."""
    PAIR_TO_TRIPLET = 4
    """对倒: a pair became the triplet."""
    ANY = 5
    """混儿吊: the rest of the block is wilds only, so any tile would have won (the pair
    with one wild: 单混儿吊; a set with two wilds: 双混儿吊)."""


class WildBlock(NamedTuple):
    """A set or the pair of a reading. ``kind`` is the lowest kind of a run. ``wild``
    lists the faces the wilds in this block stand for (sorted; empty: all natural)."""

    kind: int
    shape: Shape
    wild: tuple[int, ...] = ()

    @property
    def faces(self) -> tuple[int, ...]:
        """Every tile face in the block, natural or stood in."""
        if self.shape is Shape.RUN:
            return (self.kind, self.kind + 1, self.kind + 2)
        n = 3 if self.shape is Shape.TRIPLET else 2
        return (self.kind,) * n

    @property
    def naturals(self) -> tuple[int, ...]:
        """The faces held as natural tiles (``faces`` less ``wild``)."""
        rest = list(self.faces)
        for face in self.wild:
            rest.remove(face)
        return tuple(rest)


@dataclass(frozen=True, slots=True)
class WildReading:
    """One reading of a complete hand's concealed part, and where the winning tile sits.

    ``win_face`` is the face the winning tile shows in the reading (its own kind for a
    natural tile, the stood-in face for a wild); ``win_wild`` says which it was.
    """

    sets: tuple[WildBlock, ...]
    pair: WildBlock
    block: WildBlock
    win_face: int
    win_wild: bool
    wait: WildWait

    @property
    def blocks(self) -> tuple[WildBlock, ...]:
        return (*self.sets, self.pair)

    @property
    def stand_ins(self) -> tuple[int, ...]:
        """The face of every wild in the reading, sorted."""
        return tuple(sorted(f for b in self.blocks for f in b.wild))

    @property
    def all_triplets(self) -> bool:
        return all(b.shape is Shape.TRIPLET for b in self.sets)

    def runs(self) -> tuple[WildBlock, ...]:
        return tuple(b for b in self.sets if b.shape is Shape.RUN)


@dataclass(frozen=True, slots=True)
class SevenPairsReading:
    """Seven pairs with wilds: the pairs' faces (a kind twice for four alike), which of
    them hold a wild, and whether the winning tile paired a wild (混儿吊)."""

    pairs: tuple[WildBlock, ...]
    win_face: int
    win_wild: bool
    wait: WildWait

    @property
    def has_quad(self) -> bool:
        kinds = [p.kind for p in self.pairs]
        return len(set(kinds)) < len(kinds)

    @property
    def stand_ins(self) -> tuple[int, ...]:
        return tuple(sorted(f for b in self.pairs for f in b.wild))


_Row = tuple[tuple[int, ...], tuple[int, ...]]
"""Distances without and with the pair, for m = 0…4 sets."""


class _WildTable:
    """Memoised per-vector answers for one group shape (size, runs or not)."""

    def __init__(self, size: int, runs: bool) -> None:
        self.size = size
        self.runs = runs
        self.rows: dict[bytes, _Row] = {}
        self.w0: dict[bytes, int] = {}
        """Wilds spent covering the vector exactly with sets only (INF: impossible)."""
        self.delta: dict[bytes, int] = {}
        """``w1 − w0``: the extra wilds when the vector also holds the pair."""
        self.profile: dict[bytes, int] = {}
        self._decomps: dict[tuple[bytes, int, bool], tuple[tuple[WildBlock, ...], ...]] = {}

    def row(self, key: bytes) -> _Row:
        found = self.rows.get(key)
        if found is None:
            found = self._distances(key)
            self.rows[key] = found
            tiles = sum(key)
            w = [INF, INF]
            for p in (0, 1):
                for m in range(N_SETS + 1):
                    need = 3 * m + 2 * p - tiles
                    if need >= 0 and found[p][m] == need:
                        w[p] = need
                        break
            self.w0[key] = w[0]
            self.delta[key] = w[1] - w[0] if w[0] < INF else (w[1] - INF if w[1] < INF else 0)
        return found

    def exact(self, key: bytes) -> tuple[int, int]:
        """``(w0, w1)``: wilds spent covering ``key`` exactly without and with the pair."""
        self.row(key)
        w0 = self.w0[key]
        return w0, w0 + self.delta[key]

    def _distances(self, key: bytes) -> _Row:
        size, top = self.size, N_SETS
        # state: (runs started one back, two back, pair used) -> cost per number of sets
        states: dict[tuple[int, int, int], list[int]] = {(0, 0, 0): [0] + [INF] * top}
        for i in range(size):
            have = key[i]
            can_start = self.runs and i + 2 < size
            nxt: dict[tuple[int, int, int], list[int]] = {}
            for (r1, r2, p), costs in states.items():
                carried = r1 + r2
                low = next((m for m in range(top + 1) if costs[m] < INF), top + 1)
                room = top - low
                max_new = room if can_start else 0
                for r0 in range(max_new + 1):
                    for t in range(min(2, room - r0) + 1):
                        for q in (0, 1) if p == 0 else (0,):
                            need = carried + r0 + 3 * t + 2 * q
                            step = need - have if need > have else 0
                            relax_state(nxt, (r0, r1, p + q), costs, r0 + t, step)
            states = nxt
        no_pair = [INF] * (top + 1)
        with_pair = [INF] * (top + 1)
        for (r1, r2, p), costs in states.items():
            if r1 or r2:
                continue
            target = with_pair if p else no_pair
            for m in range(top + 1):
                target[m] = min(target[m], costs[m])
        # holding m sets, one can always hold fewer
        for arr in (no_pair, with_pair):
            for m in range(top - 1, -1, -1):
                arr[m] = min(arr[m], arr[m + 1])
        return tuple(no_pair), tuple(with_pair)

    # -- readings --------------------------------------------------------------------
    def decompositions(
        self, key: bytes, wilds: int, pair: bool
    ) -> tuple[tuple[WildBlock, ...], ...]:
        """Every multiset of blocks covering ``key`` exactly with ``wilds`` stand-ins (and
        the pair iff ``pair``); local kinds."""
        mkey = (key, wilds, pair)
        found = self._decomps.get(mkey)
        if found is None:
            out: set[tuple[WildBlock, ...]] = set()
            if (sum(key) + wilds - (2 if pair else 0)) % 3 == 0:
                self._enumerate(list(key), wilds, pair, [], out)
            found = tuple(sorted(out))
            self._decomps[mkey] = found
        return found

    def _enumerate(
        self,
        c: list[int],
        wilds: int,
        need_pair: bool,
        acc: list[WildBlock],
        out: set[tuple[WildBlock, ...]],
    ) -> None:
        size = self.size
        i = 0
        while i < size and c[i] == 0:
            i += 1
        if i == size:
            self._pure(wilds, need_pair, acc, out)
            return
        # the lowest natural tile i joins a pair, a triplet or a run; every other slot of
        # that block is a natural tile (when one is left) or a wild
        c[i] -= 1
        shapes: list[tuple[Shape, int, tuple[int, ...]]] = []
        if need_pair:
            shapes.append((Shape.PAIR, i, (i,)))
        shapes.append((Shape.TRIPLET, i, (i, i)))
        if self.runs:
            for start in (i - 2, i - 1, i):
                if start >= 0 and start + 2 < size:
                    others = tuple(k for k in (start, start + 1, start + 2) if k != i)
                    shapes.append((Shape.RUN, start, others))
        for shape, start, others in shapes:
            for use_wild in product((False, True), repeat=len(others)):
                n_wild = sum(use_wild)
                if n_wild > wilds:
                    continue
                taken: list[int] = []
                ok = True
                for k, w in zip(others, use_wild, strict=True):
                    if w:
                        continue
                    if c[k] == 0:
                        ok = False
                        break
                    c[k] -= 1
                    taken.append(k)
                if ok:
                    faces = tuple(sorted(k for k, w in zip(others, use_wild, strict=True) if w))
                    acc.append(WildBlock(start, shape, faces))
                    self._enumerate(
                        c, wilds - n_wild, need_pair and shape is not Shape.PAIR, acc, out
                    )
                    acc.pop()
                for k in taken:
                    c[k] += 1
        c[i] += 1

    def _pure(
        self, wilds: int, need_pair: bool, acc: list[WildBlock], out: set[tuple[WildBlock, ...]]
    ) -> None:
        """Blocks made of wilds only: any triplet or run of this group, any pair."""
        if need_pair:
            if wilds < 2:
                return
            for k in range(self.size):
                acc.append(WildBlock(k, Shape.PAIR, (k, k)))
                self._pure(wilds - 2, False, acc, out)
                acc.pop()
            return
        if wilds == 0:
            out.add(tuple(sorted(acc)))
            return
        if wilds < 3:
            return
        # keep pure sets in non-decreasing order so that each multiset is built once
        last = max((b for b in acc if len(b.wild) == 3), default=None)
        for k in range(self.size):
            options = [WildBlock(k, Shape.TRIPLET, (k, k, k))]
            if self.runs and k + 2 < self.size:
                options.append(WildBlock(k, Shape.RUN, (k, k + 1, k + 2)))
            for blk in options:
                if last is not None and blk < last:
                    continue
                acc.append(blk)
                self._pure(wilds - 3, False, acc, out)
                acc.pop()


_DIST_ZERO: _Row = ((0,) + (INF,) * N_SETS, (INF,) * (N_SETS + 1))


class WildAnalyser:
    """Wild-tile queries for the 34 playing kinds of mahjong (three suits, seven honours).

    * ``is_complete(counts, wilds, declared=0, *, seven_pairs=True,
      quad_as_two_pairs=True) -> bool``;
    * ``shanten(counts, wilds, declared=0, *, seven_pairs=True, quad_as_two_pairs=True)``:
      exact tiles-to-swap minus one (−1 complete, 0 ready);
    * ``waits(counts, wilds, declared=0, ...)``: the natural kinds that complete a ready
      hand (a drawn wild always completes one: see :meth:`any_wait`);
    * ``readings(counts, wilds, win, win_wild, declared=0)`` and
      ``seven_pairs_readings(...)``: every reading with the wilds' faces.

    ``counts`` holds the natural tiles only (34 counts, bytes or a sequence of ints);
    ``wilds`` is 0…14.

    >>> from paiju.components.notation import parse_tiles, tile_counts
    >>> c = bytes(tile_counts(parse_tiles("123m456p789s1122z"))[:34])
    >>> WILD.is_complete(c, 1), WILD.shanten(c, 0)
    (True, 0)
    """

    def __init__(self) -> None:
        self.groups = (
            Group(0, 9, True),
            Group(9, 9, True),
            Group(18, 9, True),
            Group(27, 7, False),
        )
        suits = _WildTable(9, True)
        honours = _WildTable(7, False)
        self._tables = (suits, suits, suits, honours)
        self._slices = tuple((g.start, g.start + g.size) for g in self.groups)
        self._split = struct.Struct("9s9s9s7s").unpack
        self._profile_ids: dict[_Row, int] = {}
        self._profiles: list[_Row] = []
        self._combined: dict[int, int] = {}
        self._intern(_DIST_ZERO)

    # -- helpers ---------------------------------------------------------------------
    @staticmethod
    def _key(counts: Counts) -> bytes:
        if counts.__class__ is bytes:
            key: bytes = counts
        else:
            try:
                key = bytes(counts)
            except (TypeError, ValueError) as exc:
                raise ValueError(
                    f"counts must be a sequence of small non-negative ints, got {counts!r}"
                ) from exc
        if len(key) != 34:
            raise ValueError(f"expected 34 counts, got {len(key)}")
        if max(key) > 4:
            raise ValueError("a natural kind is held at most four times")
        return key

    @staticmethod
    def _check(wilds: int, declared: int) -> None:
        if not 0 <= wilds <= MAX_WILDS:
            raise ValueError(f"wilds must be 0…{MAX_WILDS}, got {wilds}")
        if not 0 <= declared <= N_SETS:
            raise ValueError(f"declared must be 0…{N_SETS}, got {declared}")

    def _intern(self, row: _Row) -> int:
        pid = self._profile_ids.get(row)
        if pid is None:
            pid = len(self._profiles)
            self._profile_ids[row] = pid
            self._profiles.append(row)
        return pid

    def _profile(self, table: _WildTable, part: bytes) -> int:
        pid = table.profile.get(part)
        if pid is None:
            pid = self._intern(table.row(part))
            table.profile[part] = pid
        return pid

    def _combine(self, left: int, right: int) -> int:
        ck = left * 1_000_003 + right
        pid = self._combined.get(ck)
        if pid is None:
            (a0, a1), (b0, b1) = self._profiles[left], self._profiles[right]
            e0 = [INF] * (N_SETS + 1)
            e1 = [INF] * (N_SETS + 1)
            for i in range(N_SETS + 1):
                for j in range(N_SETS + 1 - i):
                    m = i + j
                    e0[m] = min(e0[m], a0[i] + b0[j])
                    e1[m] = min(e1[m], a0[i] + b1[j], a1[i] + b0[j])
            pid = self._intern((tuple(min(v, INF) for v in e0), tuple(min(v, INF) for v in e1)))
            self._combined[ck] = pid
        return pid

    # -- completeness ----------------------------------------------------------------
    def is_complete(
        self,
        counts: Counts,
        wilds: int,
        declared: int = 0,
        *,
        seven_pairs: bool = True,
        quad_as_two_pairs: bool = True,
    ) -> bool:
        """Whether the natural tiles and ``wilds`` stand-ins make 4 − declared sets and a
        pair (or, with nothing declared, seven pairs)."""
        try:
            parts = self._split(counts)  # type: ignore[arg-type]
            w0s = self._tables[0].w0
            hon = self._tables[3]
            spent = w0s[parts[0]] + w0s[parts[1]] + w0s[parts[2]] + hon.w0[parts[3]]
            ds = self._tables[0].delta
            spent += min(ds[parts[0]], ds[parts[1]], ds[parts[2]], hon.delta[parts[3]])
            total = len(counts) and sum(counts)
        except (KeyError, TypeError, struct.error):
            key = self._key(counts)
            self._check(wilds, declared)
            parts = self._split(key)
            spent = 0
            best = INF
            for table, part in zip(self._tables, parts, strict=True):
                w0, w1 = table.exact(part)
                spent += w0
                best = min(best, w1 - w0)
            spent += best
            total = sum(key)
        if total + wilds != 14 - 3 * declared:
            return False
        if spent <= wilds:
            return True
        if declared or not seven_pairs:
            return False
        return self.is_seven_pairs(counts, wilds, quad_as_two_pairs=quad_as_two_pairs)

    def is_complete_standard(self, counts: Counts, wilds: int, declared: int = 0) -> bool:
        return self.is_complete(counts, wilds, declared, seven_pairs=False)

    def is_seven_pairs(self, counts: Counts, wilds: int, *, quad_as_two_pairs: bool = True) -> bool:
        key = self._key(counts)
        if sum(key) + wilds != 14:
            return False
        if quad_as_two_pairs:
            lone = sum(n & 1 for n in key)
        else:
            if any(n > 2 for n in key):
                return False
            lone = key.count(1)
        return lone <= wilds

    # -- shanten ---------------------------------------------------------------------
    def shanten(
        self,
        counts: Counts,
        wilds: int,
        declared: int = 0,
        *,
        seven_pairs: bool = True,
        quad_as_two_pairs: bool = True,
    ) -> int:
        """Exact shanten: the fewest tiles to swap for a complete hand, minus one. A
        swap may bring a wild, so no target is ruled out by the four-copies rule."""
        try:
            tabs = self._tables
            k0, k1, k2, k3 = self._split(counts)  # type: ignore[arg-type]
            comb = self._combined
            p = comb[
                comb[
                    comb[tabs[0].profile[k0] * 1_000_003 + tabs[1].profile[k1]] * 1_000_003
                    + tabs[2].profile[k2]
                ]
                * 1_000_003
                + tabs[3].profile[k3]
            ]
            if not 0 <= wilds <= MAX_WILDS or not 0 <= declared <= N_SETS:
                self._check(wilds, declared)
        except (KeyError, TypeError, struct.error):
            key = self._key(counts)
            self._check(wilds, declared)
            parts = self._split(key)
            acc = self._profile(self._tables[0], parts[0])
            for table, part in zip(self._tables[1:], parts[1:], strict=True):
                acc = self._combine(acc, self._profile(table, part))
            p = acc
        best = self._profiles[p][1][N_SETS - declared] - wilds - 1
        if declared == 0 and seven_pairs:
            other = self.shanten_seven_pairs(counts, wilds, quad_as_two_pairs=quad_as_two_pairs)
            best = min(best, other)
        return best if best > -1 else -1

    def shanten_standard(self, counts: Counts, wilds: int, declared: int = 0) -> int:
        return self.shanten(counts, wilds, declared, seven_pairs=False)

    def shanten_seven_pairs(
        self, counts: Counts, wilds: int, *, quad_as_two_pairs: bool = True
    ) -> int:
        """Seven-pairs shanten: wilds pair lone tiles first, then each other."""
        key = self._key(counts)
        if quad_as_two_pairs:
            pairs = sum(n >> 1 for n in key)
            lone = sum(n & 1 for n in key)
            used = min(wilds, lone)
            pairs += used + (wilds - used) // 2
            return 6 - min(pairs, 7)
        doubled = sum(1 for n in key if n >= 2)
        lone = key.count(1)
        kinds = doubled + lone
        best = INF
        for a in range(min(wilds, lone) + 1):
            rest = wilds - a
            for b in range(rest // 2 + 1):
                c = rest - 2 * b
                pairs = min(doubled + a + b, 7)
                distinct = min(kinds + b + c, 7)
                best = min(best, 6 - pairs + (7 - distinct))
        return best

    # -- waits -----------------------------------------------------------------------
    def waits(
        self,
        counts: Counts,
        wilds: int,
        declared: int = 0,
        *,
        seven_pairs: bool = True,
        quad_as_two_pairs: bool = True,
    ) -> list[int]:
        """Natural kinds whose draw completes the hand (a kind held four times excluded).
        A drawn wild completes every ready hand too; 34 kinds means "any tile"."""
        key = self._key(counts)
        self._check(wilds, declared)
        if sum(key) + wilds != 13 - 3 * declared:
            return []
        lst = bytearray(key)
        found = []
        for k in range(34):
            if lst[k] < 4:
                lst[k] += 1
                if self.is_complete(
                    bytes(lst),
                    wilds,
                    declared,
                    seven_pairs=seven_pairs,
                    quad_as_two_pairs=quad_as_two_pairs,
                ):
                    found.append(k)
                lst[k] -= 1
        return found

    def any_wait(self, counts: Counts, wilds: int, declared: int = 0) -> bool:
        """Whether every tile completes the hand (a wild wait: 混儿吊's shape)."""
        key = self._key(counts)
        drawable = [k for k in range(34) if key[k] < 4]
        return len(self.waits(key, wilds, declared)) == len(drawable)

    # -- readings --------------------------------------------------------------------
    def _group_readings(self, key: bytes, wilds: int) -> list[tuple[WildBlock, ...]]:
        """Every block multiset covering the hand exactly (global kinds)."""
        parts = [key[a:b] for a, b in self._slices]
        spend: list[list[tuple[int, bool]]] = []
        for table, part in zip(self._tables, parts, strict=True):
            w0, w1 = table.exact(part)
            choices = []
            for base, pair in ((w0, False), (w1, True)):
                w = base
                while w <= wilds:
                    choices.append((w, pair))
                    w += 3
            spend.append(choices)
        out: set[tuple[WildBlock, ...]] = set()
        for combo in product(*spend):
            if sum(w for w, _ in combo) != wilds or sum(p for _, p in combo) != 1:
                continue
            locals_ = [
                table.decompositions(part, w, pair)
                for table, part, (w, pair) in zip(self._tables, parts, combo, strict=True)
            ]
            for pick in product(*locals_):
                blocks: list[WildBlock] = []
                for (start, _end), local in zip(self._slices, pick, strict=True):
                    for b in local:
                        blocks.append(
                            WildBlock(b.kind + start, b.shape, tuple(f + start for f in b.wild))
                        )
                out.add(tuple(sorted(blocks)))
        return sorted(out)

    def readings(
        self, counts: Counts, wilds: int, win: int, win_wild: bool, declared: int = 0
    ) -> list[WildReading]:
        """Every standard reading of a complete hand, each with every block the winning
        tile may sit in: a natural tile of kind ``win`` (``win_wild`` false; it must be in
        ``counts``), or one of the wilds (``win_wild`` true; ``win`` is then ignored)."""
        key = self._key(counts)
        self._check(wilds, declared)
        if not self.is_complete_standard(key, wilds, declared):
            return []
        if win_wild and wilds == 0:
            raise ValueError("a wild winning tile needs a wild in the hand")
        if not win_wild and key[win] == 0:
            raise ValueError("the winning kind is not among the natural tiles")
        out: list[WildReading] = []
        for blocks in self._group_readings(key, wilds):
            pair = next(b for b in blocks if b.shape is Shape.PAIR)
            sets = tuple(b for b in blocks if b.shape is not Shape.PAIR)
            seen: set[tuple[WildBlock, int]] = set()
            for blk in blocks:
                faces = blk.wild if win_wild else tuple(f for f in blk.naturals if f == win)
                for face in faces:
                    if (blk, face) in seen:
                        continue
                    seen.add((blk, face))
                    wait = self._wait_of(blk, face, win_wild)
                    out.append(WildReading(sets, pair, blk, face, win_wild, wait))
        return out

    @staticmethod
    def _wait_of(blk: WildBlock, face: int, win_wild: bool) -> WildWait:
        size = 3 if blk.shape is not Shape.PAIR else 2
        wild_others = len(blk.wild) - (1 if win_wild else 0)
        if wild_others == size - 1:
            return WildWait.ANY
        if blk.shape is Shape.PAIR:
            return WildWait.SINGLE
        if blk.shape is Shape.TRIPLET:
            return WildWait.PAIR_TO_TRIPLET
        pos = face - blk.kind
        if pos == 1:
            return WildWait.CLOSED
        local = blk.kind % 9
        if (pos == 2 and local == 0) or (pos == 0 and local == 6):
            return WildWait.EDGE
        return WildWait.TWO_SIDED

    def seven_pairs_readings(
        self,
        counts: Counts,
        wilds: int,
        win: int,
        win_wild: bool,
        *,
        quad_as_two_pairs: bool = True,
    ) -> list[SevenPairsReading]:
        """The seven-pairs readings that differ in what scoring can see: with or without
        four alike, and whether the winning tile paired a wild."""
        key = self._key(counts)
        if not self.is_seven_pairs(key, wilds, quad_as_two_pairs=quad_as_two_pairs):
            return []
        base: list[WildBlock] = []
        lone: list[int] = []
        for k, n in enumerate(key):
            base.extend([WildBlock(k, Shape.PAIR)] * (n // 2))
            if n & 1:
                lone.append(k)
        spare = wilds - len(lone)
        out: list[SevenPairsReading] = []
        held = {b.kind for b in base} | set(lone)
        free = [k for k in range(34) if k not in held]
        for quad in (False, True):
            pairs = list(base) + [WildBlock(k, Shape.PAIR, (k,)) for k in lone]
            if quad:
                if not quad_as_two_pairs or spare < 2:
                    continue
                # the spare wilds double an existing pair (four alike)
                if not pairs:
                    continue
                face = pairs[0].kind
                pairs.append(WildBlock(face, Shape.PAIR, (face, face)))
                rest = spare - 2
            else:
                rest = spare
            # remaining wild pairs take faces not held (distinct pairs)
            for k in free[: rest // 2]:
                pairs.append(WildBlock(k, Shape.PAIR, (k, k)))
            pairs.sort()
            has_quad = len({p.kind for p in pairs}) < len(pairs)
            if has_quad and not quad_as_two_pairs:
                continue
            candidates: set[tuple[int, WildWait]] = set()
            for p in pairs:
                if win_wild and p.wild:
                    wait = WildWait.ANY
                    candidates.add((p.wild[0], wait))
                elif not win_wild and p.kind == win and len(p.wild) < 2:
                    candidates.add((win, WildWait.ANY if p.wild else WildWait.SINGLE))
            for face, wait in sorted(candidates):
                out.append(SevenPairsReading(tuple(pairs), face, win_wild, wait))
        return out


WILD = WildAnalyser()
"""The wild-tile analyser for the 34 kinds of Jiaxing mahjong."""


def split_wilds(counts: Sequence[int], wild_kinds: Sequence[int]) -> tuple[bytes, int]:
    """A 34-count hand cut into its natural counts and the number of wilds it holds."""
    natural = bytearray(counts[:34])
    n = 0
    for k in wild_kinds:
        n += natural[k]
        natural[k] = 0
    return bytes(natural), n
