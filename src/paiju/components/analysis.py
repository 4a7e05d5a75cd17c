"""Hand analysis by per-group tables: completeness, every decomposition, waits, shanten.

A component set is split into *groups* of at most nine kinds. A group either forms runs
(number suits: 1-2-3 … 7-8-9) or does not (honours; Qing'er J/Q/K by rank). Every query
is answered group by group from tables keyed by the group's count vector as ``bytes``, and
the per-group answers are combined. The same code serves the 14-tile mahjong hands
(4 sets + pair) and Qing'er's 23-card hands (7 sets + pair): only the layout differs.

Tables are filled two ways. The complete patterns a mahjong suit can hold (up to four sets
and a pair) are generated at import (well under a tenth of a second); anything else is
computed on the first query of that group vector and kept, so a table only ever holds
vectors that occur. A group vector has at most 5^9 values, so the memory stays bounded.

Counts are accepted as ``bytes`` (fastest: slicing yields hashable keys directly) or any
sequence of small ints. ``declared`` is the number of sets already melded (pong, kong,
takeoff…); they are not in ``counts``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import product
from typing import NamedTuple

_INF = 99


class Shape(IntEnum):
    TRIPLET = 0
    RUN = 1
    PAIR = 2


class Block(NamedTuple):
    """A set or the pair inside a decomposition. ``kind`` is the lowest kind of a run."""

    kind: int
    shape: Shape


class Wait(IntEnum):
    """How the winning tile completed its block."""

    SINGLE = 0
    """单钓: the winning tile completed the pair."""
    EDGE = 1
    """边张: 1-2 waiting on 3, or 8-9 waiting on 7."""
    CLOSED = 2
    """嵌张: the middle of a run."""
    TWO_SIDED = 3
    """两面: either end of an open two."""
    PAIR_TO_TRIPLET = 4
    """对倒 / 双碰: a pair became the triplet."""


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One way to read the concealed part of a complete hand: sets plus exactly one pair."""

    sets: tuple[Block, ...]
    pair: int

    @property
    def runs(self) -> tuple[int, ...]:
        return tuple(b.kind for b in self.sets if b.shape is Shape.RUN)

    @property
    def triplets(self) -> tuple[int, ...]:
        return tuple(b.kind for b in self.sets if b.shape is Shape.TRIPLET)

    @property
    def all_triplets(self) -> bool:
        """No run among the concealed sets (melds are the caller's to check)."""
        return all(b.shape is Shape.TRIPLET for b in self.sets)

    def runs_at(self, kind: int) -> int:
        """How many runs start at ``kind`` (Qing'er 文钱 counts ♠1-2-3: ``runs_at(0)``)."""
        return sum(1 for b in self.sets if b.shape is Shape.RUN and b.kind == kind)

    def full_straight(self, group_starts: Sequence[int]) -> bool:
        """1-2-3, 4-5-6 and 7-8-9 of one suit (一条龙) among the sets."""
        runs = set(self.runs)
        return any({s, s + 3, s + 6} <= runs for s in group_starts)


@dataclass(frozen=True, slots=True)
class Reading:
    """A decomposition together with the block the winning kind completed, and how."""

    decomposition: Decomposition
    block: Block
    wait: Wait


class _GroupTable:
    """Memoised answers for one group shape (size, runs or not, at most ``max_sets``)."""

    def __init__(self, size: int, runs: bool, max_sets: int, copies: int) -> None:
        self.size = size
        self.runs = runs
        self.max_sets = max_sets
        self.copies = copies
        # status: 0 = no decomposition, 1 = sets only, 2 = sets + one pair
        self.status: dict[bytes, int] = {}
        self._decomps: dict[bytes, tuple[tuple[Block, ...], ...]] = {}
        self._completions: dict[bytes, tuple[int, ...]] = {}
        self._dist: dict[bytes, tuple[tuple[int, ...], tuple[int, ...]]] = {}

    # -- completeness -------------------------------------------------------------
    def prefill(self, max_sets: int) -> None:
        """Generate every decomposable vector with up to ``max_sets`` sets (plus a pair)."""
        size, copies = self.size, self.copies
        blocks: list[tuple[int, ...]] = []
        for k in range(size):
            v = [0] * size
            v[k] = 3
            blocks.append(tuple(v))
        if self.runs:
            for k in range(size - 2):
                v = [0] * size
                v[k] = v[k + 1] = v[k + 2] = 1
                blocks.append(tuple(v))
        layer: set[tuple[int, ...]] = {(0,) * size}
        seen: set[tuple[int, ...]] = set(layer)
        for _ in range(max_sets):
            nxt: set[tuple[int, ...]] = set()
            for vec in layer:
                for blk in blocks:
                    new = tuple(a + b for a, b in zip(vec, blk, strict=True))
                    if max(new) <= copies and new not in seen:
                        nxt.add(new)
            seen |= nxt
            layer = nxt
        status = self.status
        for vec in seen:
            status[bytes(vec)] = 1
            for k in range(size):
                if vec[k] + 2 <= copies:
                    lst = list(vec)
                    lst[k] += 2
                    status[bytes(lst)] = 2

    def get_status(self, key: bytes) -> int:
        st = self.status.get(key)
        if st is None:
            st = self._compute_status(key)
            self.status[key] = st
        return st

    def _compute_status(self, key: bytes) -> int:
        total = sum(key)
        rem = total % 3
        if rem == 1:
            return 0
        need_pair = rem == 2
        return (2 if need_pair else 1) if self._decomposable(list(key), need_pair) else 0

    def _decomposable(self, c: list[int], need_pair: bool) -> bool:
        i = 0
        size = self.size
        while i < size and c[i] == 0:
            i += 1
        if i == size:
            return not need_pair
        if need_pair and c[i] >= 2:
            c[i] -= 2
            ok = self._decomposable(c, False)
            c[i] += 2
            if ok:
                return True
        if c[i] >= 3:
            c[i] -= 3
            ok = self._decomposable(c, need_pair)
            c[i] += 3
            if ok:
                return True
        if self.runs and i + 2 < size and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            ok = self._decomposable(c, need_pair)
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1
            if ok:
                return True
        return False

    # -- decompositions -----------------------------------------------------------
    def decompositions(self, key: bytes) -> tuple[tuple[Block, ...], ...]:
        """Every distinct multiset of blocks (sets and at most one pair) covering ``key``."""
        found = self._decomps.get(key)
        if found is None:
            out: set[tuple[Block, ...]] = set()
            if self.get_status(key):
                self._enumerate(list(key), sum(key) % 3 == 2, [], out)
            found = tuple(sorted(out))
            self._decomps[key] = found
        return found

    def _enumerate(
        self, c: list[int], need_pair: bool, acc: list[Block], out: set[tuple[Block, ...]]
    ) -> None:
        i = 0
        size = self.size
        while i < size and c[i] == 0:
            i += 1
        if i == size:
            if not need_pair:
                out.add(tuple(sorted(acc)))
            return
        if need_pair and c[i] >= 2:
            c[i] -= 2
            acc.append(Block(i, Shape.PAIR))
            self._enumerate(c, False, acc, out)
            acc.pop()
            c[i] += 2
        if c[i] >= 3:
            c[i] -= 3
            acc.append(Block(i, Shape.TRIPLET))
            self._enumerate(c, need_pair, acc, out)
            acc.pop()
            c[i] += 3
        if self.runs and i + 2 < size and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            acc.append(Block(i, Shape.RUN))
            self._enumerate(c, need_pair, acc, out)
            acc.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    # -- waits --------------------------------------------------------------------
    def completions(self, key: bytes) -> tuple[int, ...]:
        """Local kinds whose addition makes the group decomposable."""
        found = self._completions.get(key)
        if found is None:
            lst = list(key)
            res = []
            for k in range(self.size):
                if lst[k] < self.copies:
                    lst[k] += 1
                    if self.get_status(bytes(lst)):
                        res.append(k)
                    lst[k] -= 1
            found = tuple(res)
            self._completions[key] = found
        return found

    # -- shanten ------------------------------------------------------------------
    def distances(self, key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """``(no_pair, with_pair)``: for m = 0…max_sets, the fewest tiles to add so that
        the group holds m sets (and the pair), never exceeding ``copies`` of a kind."""
        found = self._dist.get(key)
        if found is None:
            found = self._compute_distances(key)
            self._dist[key] = found
        return found

    def _compute_distances(self, key: bytes) -> tuple[tuple[int, ...], tuple[int, ...]]:
        size, copies, top = self.size, self.copies, self.max_sets
        # state: (runs started one back, runs started two back, pair used) -> costs per m
        states: dict[tuple[int, int, int], list[int]] = {(0, 0, 0): [0] + [_INF] * top}
        for i in range(size):
            have = key[i]
            can_start = self.runs and i + 2 < size
            nxt: dict[tuple[int, int, int], list[int]] = {}
            for (r1, r2, p), costs in states.items():
                carried = r1 + r2
                max_new = copies - carried if can_start else 0
                for r0 in range(max_new + 1):
                    for t in (0, 1):
                        for q in (0, 1) if p == 0 else (0,):
                            need = carried + r0 + 3 * t + 2 * q
                            if need > copies:
                                continue
                            step = need - have if need > have else 0
                            add = r0 + t
                            skey = (r0, r1, p + q)
                            row = nxt.get(skey)
                            if row is None:
                                row = [_INF] * (top + 1)
                                nxt[skey] = row
                            for m in range(top + 1 - add):
                                cost = costs[m]
                                if cost < _INF:
                                    cand = cost + step
                                    if cand < row[m + add]:
                                        row[m + add] = cand
            states = nxt
        no_pair = [_INF] * (top + 1)
        with_pair = [_INF] * (top + 1)
        for (r1, r2, p), costs in states.items():
            if r1 or r2:
                continue
            target = with_pair if p else no_pair
            for m in range(top + 1):
                if costs[m] < target[m]:
                    target[m] = costs[m]
        return tuple(no_pair), tuple(with_pair)


@dataclass(frozen=True, slots=True)
class Group:
    start: int
    size: int
    runs: bool


class HandAnalyser:
    """Answers for one component set: which groups, how many sets make a hand.

    >>> from paiju.components.notation import parse_tiles, tile_counts
    >>> c = bytes(tile_counts(parse_tiles("123m456p789s11122z"))[:34])
    >>> MAHJONG.is_complete(c)
    True
    """

    def __init__(
        self,
        groups: Sequence[Group],
        n_sets: int,
        *,
        copies: int = 4,
        seven_pairs: bool = True,
        prefill: bool = True,
    ) -> None:
        self.groups = tuple(groups)
        self.n_kinds = sum(g.size for g in groups)
        self.n_sets = n_sets
        self.copies = copies
        self.seven_pairs_allowed = seven_pairs and n_sets == 4
        self._tables: list[_GroupTable] = []
        shared: dict[tuple[int, bool], _GroupTable] = {}
        for g in self.groups:
            table = shared.get((g.size, g.runs))
            if table is None:
                table = _GroupTable(g.size, g.runs, n_sets, copies)
                if prefill and n_sets <= 4:
                    table.prefill(n_sets)
                shared[(g.size, g.runs)] = table
            self._tables.append(table)
        self._slices = tuple((g.start, g.start + g.size) for g in self.groups)
        self._parts = tuple(zip(self._tables, self._slices, strict=True))
        self.run_group_starts = tuple(g.start for g in self.groups if g.runs)

    # -- helpers -------------------------------------------------------------------
    def _key(self, counts: bytes | Sequence[int]) -> bytes:
        key = counts if counts.__class__ is bytes else bytes(counts)  # type: ignore[arg-type]
        if len(key) != self.n_kinds:
            raise ValueError(f"expected {self.n_kinds} counts, got {len(key)}")
        return key  # type: ignore[return-value]

    # -- completeness --------------------------------------------------------------
    def is_complete_standard(self, counts: bytes | Sequence[int], declared: int = 0) -> bool:
        """n sets + one pair (n = 4 − declared for mahjong, 7 − declared for Qing'er)."""
        key = self._key(counts)
        if sum(key) != 3 * (self.n_sets - declared) + 2:
            return False
        pairs = 0
        for table, (a, b) in self._parts:
            part = key[a:b]
            st = table.status.get(part)
            if st is None:
                st = table.get_status(part)
            if st == 0:
                return False
            if st == 2:
                pairs += 1
        return pairs == 1

    def is_seven_pairs(
        self, counts: bytes | Sequence[int], declared: int = 0, *, quad_as_two_pairs: bool = True
    ) -> bool:
        """Seven pairs of a 14-tile hand; with ``quad_as_two_pairs`` four alike count twice."""
        if not self.seven_pairs_allowed or declared:
            return False
        key = self._key(counts)
        if sum(key) != 14:
            return False
        if quad_as_two_pairs:
            return all(n in (0, 2, 4) for n in key)
        return all(n in (0, 2) for n in key)

    def is_complete(
        self,
        counts: bytes | Sequence[int],
        declared: int = 0,
        *,
        seven_pairs: bool = True,
        quad_as_two_pairs: bool = True,
    ) -> bool:
        if self.is_complete_standard(counts, declared):
            return True
        return seven_pairs and self.is_seven_pairs(
            counts, declared, quad_as_two_pairs=quad_as_two_pairs
        )

    # -- decompositions ------------------------------------------------------------
    def decompositions(
        self, counts: bytes | Sequence[int], declared: int = 0
    ) -> list[Decomposition]:
        """Every standard reading of a complete hand (empty if not complete)."""
        key = self._key(counts)
        if not self.is_complete_standard(key, declared):
            return []
        per_group: list[list[tuple[Block, ...]]] = []
        for table, (a, _b) in self._parts:
            local = table.decompositions(key[a : a + table.size])
            per_group.append(
                [tuple(Block(blk.kind + a, blk.shape) for blk in d) for d in local] or [()]
            )
        result = []
        for combo in product(*per_group):
            blocks = [blk for part in combo for blk in part]
            pair = next(blk.kind for blk in blocks if blk.shape is Shape.PAIR)
            sets = tuple(blk for blk in blocks if blk.shape is not Shape.PAIR)
            result.append(Decomposition(sets, pair))
        return result

    def readings(
        self, counts: bytes | Sequence[int], win_kind: int, declared: int = 0
    ) -> list[Reading]:
        """Each decomposition paired with every block the winning kind may have completed."""
        out: list[Reading] = []
        for dec in self.decompositions(counts, declared):
            seen: set[Block] = set()
            if dec.pair == win_kind:
                out.append(Reading(dec, Block(win_kind, Shape.PAIR), Wait.SINGLE))
            for blk in dec.sets:
                if blk in seen:
                    continue
                wait = self._wait_of(blk, win_kind)
                if wait is not None:
                    seen.add(blk)
                    out.append(Reading(dec, blk, wait))
        return out

    def _wait_of(self, blk: Block, win: int) -> Wait | None:
        if blk.shape is Shape.TRIPLET:
            return Wait.PAIR_TO_TRIPLET if blk.kind == win else None
        pos = win - blk.kind
        if pos not in (0, 1, 2):
            return None
        if pos == 1:
            return Wait.CLOSED
        start = next(a for a, b in self._slices if a <= blk.kind < b)
        local = blk.kind - start
        if (pos == 2 and local == 0) or (pos == 0 and local == 6):
            return Wait.EDGE
        return Wait.TWO_SIDED

    # -- waits ---------------------------------------------------------------------
    def waits(
        self,
        counts: bytes | Sequence[int],
        declared: int = 0,
        *,
        seven_pairs: bool = True,
        quad_as_two_pairs: bool = True,
    ) -> list[int]:
        """Kinds that would complete a hand one tile short (a kind already held in all
        its copies is never a wait). Sorted by kind."""
        key = self._key(counts)
        found: set[int] = set()
        if sum(key) == 3 * (self.n_sets - declared) + 1:
            statuses = []
            bad = []
            for idx, (table, (a, b)) in enumerate(self._parts):
                st = table.get_status(key[a:b])
                statuses.append(st)
                if st == 0:
                    bad.append(idx)
            if len(bad) <= 1:
                candidates = bad or range(len(self._parts))
                total_pairs = statuses.count(2)
                for idx in candidates:
                    table, (a, b) = self._parts[idx]
                    part = key[a:b]
                    others = total_pairs - (statuses[idx] == 2)
                    grows_pair = (sum(part) + 1) % 3 == 2
                    if (grows_pair and others == 0) or (not grows_pair and others == 1):
                        found.update(a + k for k in table.completions(part))
        if seven_pairs and self.seven_pairs_allowed and declared == 0 and sum(key) == 13:
            lst = list(key)
            for k in range(self.n_kinds):
                if lst[k] and lst[k] < self.copies:
                    lst[k] += 1
                    if self.is_seven_pairs(lst, quad_as_two_pairs=quad_as_two_pairs):
                        found.add(k)
                    lst[k] -= 1
        return sorted(found)

    # -- shanten -------------------------------------------------------------------
    def shanten_standard(self, counts: bytes | Sequence[int], declared: int = 0) -> int:
        """Exact tiles-to-swap minus one for n sets + pair: −1 complete, 0 ready."""
        key = self._key(counts)
        need = self.n_sets - declared
        inf = _INF
        # best[m] over the groups seen so far, without (q0) and with (q1) the pair
        q0 = [0] + [inf] * need
        q1 = [inf] * (need + 1)
        for table, (a, b) in self._parts:
            d0, d1 = table.distances(key[a:b])
            n0 = [inf] * (need + 1)
            n1 = [inf] * (need + 1)
            for i in range(need + 1):
                x0 = q0[i]
                x1 = q1[i]
                for j in range(need + 1 - i):
                    if x0 < inf:
                        v = x0 + d0[j]
                        if v < n0[i + j]:
                            n0[i + j] = v
                        v = x0 + d1[j]
                        if v < n1[i + j]:
                            n1[i + j] = v
                    if x1 < inf:
                        v = x1 + d0[j]
                        if v < n1[i + j]:
                            n1[i + j] = v
            q0, q1 = n0, n1
        return q1[need] - 1

    def shanten_seven_pairs(
        self, counts: bytes | Sequence[int], *, quad_as_two_pairs: bool = True
    ) -> int:
        """Seven-pairs shanten of a 13/14-tile concealed hand."""
        key = self._key(counts)
        if quad_as_two_pairs:
            pairs = sum(n // 2 for n in key)
            return 6 - min(pairs, 7)
        pairs = sum(1 for n in key if n >= 2)
        kinds = sum(1 for n in key if n)
        return 6 - pairs + max(0, 7 - kinds)

    def shanten(
        self,
        counts: bytes | Sequence[int],
        declared: int = 0,
        *,
        seven_pairs: bool = True,
        quad_as_two_pairs: bool = True,
    ) -> int:
        best = self.shanten_standard(counts, declared)
        if seven_pairs and self.seven_pairs_allowed and declared == 0:
            best = min(best, self.shanten_seven_pairs(counts, quad_as_two_pairs=quad_as_two_pairs))
        return best


def iter_suit_vectors(size: int = 9, copies: int = 4, max_total: int = 14) -> Iterator[bytes]:
    """Every count vector of one group with at most ``max_total`` tiles (for tests)."""

    def rec(prefix: list[int], left: int) -> Iterator[bytes]:
        if len(prefix) == size:
            yield bytes(prefix)
            return
        for n in range(min(copies, left) + 1):
            prefix.append(n)
            yield from rec(prefix, left - n)
            prefix.pop()

    return rec([], max_total)


MAHJONG = HandAnalyser(
    [Group(0, 9, True), Group(9, 9, True), Group(18, 9, True), Group(27, 7, False)], 4
)
"""34 playing kinds of Jiaxing/Taixing mahjong; 4 sets + pair, seven pairs."""

QINGER = HandAnalyser(
    [Group(0, 9, True), Group(9, 9, True), Group(18, 9, True), Group(27, 3, False)],
    7,
    seven_pairs=False,
)
"""30 meld kinds of Qing'er (J/Q/K by rank); 7 sets + pair of 23 cards."""
