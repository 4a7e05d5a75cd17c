"""Hand analysis by per-group tables: completeness, every decomposition, waits, shanten.

A component set is split into *groups* of at most nine kinds. A group either forms runs
(number suits: 1-2-3 … 7-8-9) or does not (honours; Qing'er J/Q/K by rank). Every query
is answered group by group from tables keyed by the group's count vector as ``bytes``, and
the per-group answers are combined. The same code serves the 14-tile mahjong hands
(4 sets + pair) and Qing'er's 23-card hands (7 sets + pair): only the layout differs.

What each table holds, per group vector:

* a *code* for the win check: the vector's tile count, plus ``_PAIR`` if it decomposes into
  sets and one pair, or ``_BAD`` if it does not decompose at all. A hand is complete iff
  the codes of its groups add up to ``_PAIR + 3·sets + 2`` — one addition per group, no
  branching on which group holds the pair;
* a *profile* id for shanten: the fewest tiles the group needs to hold m sets (and the
  pair), and its pair and kind counts for seven pairs, interned so that combining two
  groups is one dict lookup keyed by two small ints (combined profiles are interned and
  memoised the same way; the last combination gives a row with the standard shanten for
  every number of declared sets and both seven-pairs shanten);
* every decomposition, and the local kinds that complete it (waits), filled on demand.

The decomposable vectors of a mahjong group (up to four sets and a pair) are generated at
import (about 50 ms on an idle core). Everything else (the codes of non-decomposable
vectors, profiles, Qing'er's seven-set groups, decompositions) is computed on the first
query of that group vector and kept: a table only ever holds vectors that occur, and a
group vector has at most 5^9 values, so memory stays bounded (a 9-kind group with at most
14 tiles has 405,350 vectors, the 7 honours 43,130).

The hot queries cut a hand into its group vectors with one ``struct`` unpack (which also
checks the length) and subscript plain dicts: a hit is the cheapest lookup Python has, and
a miss raises (``KeyError`` for a vector not seen yet; ``TypeError`` or ``struct.error``
for input that is not a bytes-like hand of the right length), whose handler validates the
input, fills the tables and answers.

Counts are accepted as ``bytes`` (fastest: slicing yields hashable keys directly) or any
sequence of small ints, and must not exceed the physical copies of a kind (the notation
layer rejects such multisets). ``declared`` is the number of sets already melded (pong,
kong, takeoff…); they are not in ``counts``.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import product
from typing import Any, NamedTuple, Protocol, TypeVar

_INF = 99
_PAIR_SHIFT = 16
_PAIR = 1 << _PAIR_SHIFT
"""Added to a group's code when its decomposition holds the pair (above any tile count)."""
_TILES = _PAIR - 1
"""The tile count in a code or in a sum of good groups' codes."""
_BAD = -(1 << 40)
"""Code of a vector with no decomposition: drives any sum of codes negative."""
_MUL = 1 << 20
"""Key of a profile combination: ``left * _MUL + right`` (ids stay far below this)."""
_MISS = (KeyError, TypeError, struct.error)
"""What a hot path raises on a group vector not seen yet or on input that is not a
bytes-like hand of the right length: the handler validates, fills the tables, retries."""
"""Key of a profile combination: ``left * _MUL + right`` (ids stay far below this)."""

Counts = bytes | Sequence[int]
_Distances = tuple[tuple[int, ...], tuple[int, ...]]
_Profile = tuple[tuple[int, ...], tuple[int, ...], tuple[int, int, int]]
"""Distances without and with the pair per number of sets, then for seven pairs: pairs
(a quad counting twice), kinds held at least twice, kinds held (each capped at 7)."""


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
        self.code: dict[bytes, int] = {}
        """Win-check code per vector seen (non-decomposable ones too, as ``_BAD``)."""
        self.complete = False
        """True when every decomposable vector a hand can present has been generated."""
        self.profile: dict[bytes, int] = {}
        """Shanten profile id per vector seen (ids belong to the owning analyser)."""
        self._decomps: dict[bytes, tuple[tuple[Block, ...], ...]] = {}
        self._completions: dict[bytes, tuple[int, ...]] = {}
        self._lefts: dict[bytes, _Left] = {}
        self._rights: dict[bytes, _Right] = {}

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
        status, code = self.status, self.code
        for vec in seen:
            tiles = sum(vec)
            key = bytes(vec)
            status[key] = 1
            code[key] = tiles
            for k in range(size):
                if vec[k] + 2 <= copies:
                    lst = list(vec)
                    lst[k] += 2
                    key = bytes(lst)
                    status[key] = 2
                    code[key] = tiles + 2 + _PAIR
        self.complete = max_sets >= self.max_sets

    def get_status(self, key: bytes) -> int:
        st = self.status.get(key)
        if st is None:
            if self.complete and sum(key) <= 3 * self.max_sets + 2 and max(key) <= self.copies:
                st = 0
            else:
                st = self._compute_status(key)
            self.status[key] = st
        return st

    def code_of(self, key: bytes) -> int:
        """The win-check code of ``key`` (see the module docstring), memoised."""
        found = self.code.get(key)
        if found is None:
            st = self.get_status(key)
            found = _BAD if st == 0 else sum(key) + (_PAIR if st == 2 else 0)
            self.code[key] = found
        return found

    def _compute_status(self, key: bytes) -> int:
        rem = sum(key) % 3
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
    def distances(self, key: bytes) -> _Distances:
        """``(no_pair, with_pair)``: for m = 0…max_sets, the fewest tiles to add so that
        the group holds m sets (and the pair), never exceeding ``copies`` of a kind.

        A long group is solved in two halves met at the runs crossing between them: the
        left half forward from nothing, the right half backward to the end for every
        crossing state, each half memoised by its own counts (at most ``(copies + 1) **
        half`` of them), so a vector not seen before costs only their meeting instead of
        a pass over every kind (the cold misses of a search's new hands)."""
        if self.size < _SPLIT_AT or not self.runs:
            return self._finish(self._forward(key, 0, _start(self.max_sets)))
        half = self.size // 2
        part = key[:half]
        left = self._lefts.get(part)
        if left is None:
            states = self._forward(part, 0, _start(self.max_sets))
            left = self._lefts[part] = tuple(
                ((r1, r2) if not p else None, (r1, r2, p), _finite(costs))
                for (r1, r2, p), costs in states.items()
            )
        part = key[half:]
        right = self._rights.get(part)
        if right is None:
            back0, back1 = self._backward(part, half)
            right = self._rights[part] = (
                {state: _finite(costs) for state, costs in back0.items()},
                {state: _finite(costs) for state, costs in back1.items()},
            )
        ends0, ends1 = right
        top = self.max_sets
        no_pair = [_INF] * (top + 1)
        with_pair = [_INF] * (top + 1)
        # target[m + n] = min(target[m + n], costs[m] + ends[n]) over the finite entries
        # (both sorted by sets), m + n at most top; inline and with comparisons, not
        # min(): this is where a cold hand's shanten goes
        for key0, key1, costs in left:
            for target, ends in (
                (no_pair, ends0.get(key0) if key0 is not None else None),
                (with_pair, ends1.get(key1)),
            ):
                if ends is None:
                    continue
                for m, x in costs:
                    room = top - m
                    for n, y in ends:
                        if n > room:
                            break
                        v = x + y
                        if v < target[m + n]:  # noqa: PLR1730
                            target[m + n] = v
        return tuple(no_pair), tuple(with_pair)

    def _forward(
        self, part: bytes, lo: int, states: dict[tuple[int, int, int], list[int]]
    ) -> dict[tuple[int, int, int], list[int]]:
        """The costs per sets made after kinds ``lo``… (``part``), by state: (runs started
        one back, runs started two back, pair used)."""
        size, copies = self.size, self.copies
        for i in range(lo, lo + len(part)):
            have = part[i - lo]
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
                            relax_state(nxt, (r0, r1, p + q), costs, r0 + t, step)
            states = nxt
        return states

    def _finish(self, states: dict[tuple[int, int, int], list[int]]) -> _Distances:
        top = self.max_sets
        no_pair = [_INF] * (top + 1)
        with_pair = [_INF] * (top + 1)
        for (r1, r2, p), costs in states.items():
            if r1 or r2:
                continue
            target = with_pair if p else no_pair
            for m in range(top + 1):
                target[m] = min(target[m], costs[m])
        return tuple(no_pair), tuple(with_pair)

    def _backward(
        self, part: bytes, lo: int
    ) -> tuple[dict[tuple[int, int], list[int]], dict[tuple[int, int, int], list[int]]]:
        """From each state entering kind ``lo`` (runs started one and two back, pair
        used), the costs per sets made from there to the group's end: without any pair
        (by runs), and ending with the pair (by runs and pair used)."""
        size, copies, top = self.size, self.copies, self.max_sets
        unit = _start(top)[(0, 0, 0)]
        ends0: dict[tuple[int, int], list[int]] = {(0, 0): unit}
        ends1: dict[tuple[int, int, int], list[int]] = {(0, 0, 1): unit}
        carries = [(r1, r2) for r1 in range(copies + 1) for r2 in range(copies + 1 - r1)]
        for i in range(lo + len(part) - 1, lo - 1, -1):
            have = part[i - lo]
            can_start = self.runs and i + 2 < size
            n0: dict[tuple[int, int], list[int]] = {}
            n1: dict[tuple[int, int, int], list[int]] = {}
            for r1, r2 in carries:
                carried = r1 + r2
                max_new = copies - carried if can_start else 0
                for p in (0, 1):
                    out1: list[int] | None = None
                    out0: list[int] | None = None
                    for r0 in range(max_new + 1):
                        for t in (0, 1):
                            add = r0 + t
                            for q in (0, 1) if p == 0 else (0,):
                                need = carried + r0 + 3 * t + 2 * q
                                if need > copies:
                                    continue
                                step = need - have if need > have else 0
                                after = ends1.get((r0, r1, p + q))
                                if after is not None:
                                    if out1 is None:
                                        out1 = [_INF] * (top + 1)
                                    _relax(out1, after, add, step, top)
                                if p == 0 and q == 0:
                                    after = ends0.get((r0, r1))
                                    if after is not None:
                                        if out0 is None:
                                            out0 = [_INF] * (top + 1)
                                        _relax(out0, after, add, step, top)
                    if out1 is not None:
                        n1[(r1, r2, p)] = out1
                    if out0 is not None and p == 0:
                        n0[(r1, r2)] = out0
            ends0, ends1 = n0, n1
        return ends0, ends1


_SPLIT_AT = 6
"""Groups with runs this long or longer are solved in two halves
(:meth:`_GroupTable.distances`); without runs a single pass is cheaper."""


_Costs = tuple[tuple[int, int], ...]
"""The finite entries of a cost row (tiles per sets made), as (sets, tiles)."""
_Left = tuple[tuple[tuple[int, int] | None, tuple[int, int, int], _Costs], ...]
"""A left half's states: the right half's keys to meet them (runs carried, and the pair
used; None where a pair is used, so no pairless ending meets it) and the costs."""
_Right = tuple[dict[tuple[int, int], _Costs], dict[tuple[int, int, int], _Costs]]


def _finite(costs: list[int]) -> _Costs:
    # an unreachable entry (>= _INF) never lowers a meeting's minimum, which starts at _INF
    return tuple((m, x) for m, x in enumerate(costs) if x < _INF)


def _start(top: int) -> dict[tuple[int, int, int], list[int]]:
    return {(0, 0, 0): [0] + [_INF] * top}


def _relax(out: list[int], after: list[int], add: int, step: int, top: int) -> None:
    for m in range(top + 1 - add):
        c = after[m]
        if c < _INF and c + step < out[m + add]:
            out[m + add] = c + step


def relax_state(
    states: dict[tuple[int, int, int], list[int]],
    state: tuple[int, int, int],
    costs: list[int],
    add: int,
    step: int,
) -> None:
    """One step of the forward group tables (this module's and :mod:`.wild`'s): reaching
    ``state`` from ``costs`` (tiles per sets made so far) makes ``add`` sets more for
    ``step`` tiles more; keep the cheaper of that and what ``state`` already holds."""
    top = len(costs) - 1
    row = states.get(state)
    if row is None:
        row = states[state] = [_INF] * (top + 1)
    _relax(row, costs, add, step, top)


@dataclass(frozen=True, slots=True)
class Group:
    start: int
    size: int
    runs: bool


_R_co = TypeVar("_R_co", covariant=True)


class _Query(Protocol[_R_co]):
    """``is_complete``, ``shanten`` and ``waits``: the same published signature."""

    def __call__(
        self,
        counts: Counts,
        declared: int = 0,
        *,
        seven_pairs: bool = True,
        quad_as_two_pairs: bool = True,
    ) -> _R_co: ...


class _StandardQuery(Protocol[_R_co]):
    def __call__(self, counts: Counts, declared: int = 0) -> _R_co: ...


_CompleteCheck = _Query[bool]
_StandardCheck = _StandardQuery[bool]
_StandardShanten = _StandardQuery[int]
_Shanten = _Query[int]
_Waits = _Query[list[int]]
_WaitEntry = tuple[tuple[int, ...], ...]
"""A group vector's completing kinds, by the pairs the other groups hold (see
:meth:`HandAnalyser._wait_entry`)."""


def _seven_pairs_wait(key: bytes, quad_as_two_pairs: bool) -> tuple[int, ...]:
    """The seven-pairs wait of concealed tiles with no melds that hold exactly one kind
    once or three times (the callers' test, which rules out most hands): when they are
    13 tiles, that kind (a quad counting as two pairs, or not)."""
    if sum(key) != 13:
        return ()
    lone = key.index(1) if 1 in key else key.index(3)
    if quad_as_two_pairs or (key[lone] == 1 and 4 not in key):
        return (lone,)
    return ()


def _seven_pairs_counts(key: bytes) -> tuple[int, int, int]:
    pairs = sum(n // 2 for n in key)
    doubled = sum(1 for n in key if n >= 2)
    kinds = sum(1 for n in key if n)
    return min(pairs, 7), min(doubled, 7), min(kinds, 7)


class HandAnalyser:
    """Answers for one component set: which groups, how many sets make a hand.

    The hot queries are plain functions built per instance (``_build_*``), so a call
    costs no method binding and every table is a closure variable:

    * ``is_complete_standard(counts, declared=0) -> bool``: n sets + one pair
      (n = 4 − declared for mahjong, 7 − declared for Qing'er);
    * ``is_complete(counts, declared=0, *, seven_pairs=True, quad_as_two_pairs=True)``;
    * ``shanten_standard(counts, declared=0) -> int``: exact tiles-to-swap minus one,
      −1 complete, 0 ready;
    * ``shanten(counts, declared=0, *, seven_pairs=True, quad_as_two_pairs=True)``: the
      lower of the standard and the seven-pairs shanten.

    >>> from paiju.components.notation import parse_tiles, tile_counts
    >>> c = bytes(tile_counts(parse_tiles("123m456p789s11122z"))[:34])
    >>> MAHJONG.is_complete(c)
    True
    """

    is_complete_standard: _StandardCheck
    is_complete: _CompleteCheck
    shanten_standard: _StandardShanten
    shanten: _Shanten
    waits: _Waits
    """Kinds that would complete a hand one tile short (a kind already held in all its
    copies is never a wait), sorted; the flags as for :attr:`is_complete`."""

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
        start = 0
        for g in self.groups:
            if g.start != start:
                raise ValueError(f"group {g} should start at kind {start}")
            start += g.size
        self.n_kinds = start
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
        self._cuts = tuple(slice(a, b) for a, b in self._slices)
        # one C call cuts a hand into its group vectors, and checks its length too
        self._split = struct.Struct("".join(f"{g.size}s" for g in self.groups)).unpack
        self.run_group_starts = tuple(g.start for g in self.groups if g.runs)
        # Groups that cannot form runs fail most often on a random hand (any lone honour),
        # so the win check looks at them first.
        self._check_order = tuple(
            sorted(range(len(self._parts)), key=lambda i: self._tables[i].runs)
        )
        self._wait_entries: list[dict[bytes, _WaitEntry]] = [{} for _ in self._parts]
        self._profile_ids: dict[_Profile, int] = {}
        self._profiles: list[_Profile] = []
        self._combined: dict[int, int] = {}
        self._final: dict[int, tuple[int, ...]] = {}
        self.is_complete_standard = self._build_complete_check(standard_only=True)
        self.is_complete = self._build_complete_check(standard_only=False)
        self.shanten_standard = self._build_shanten(standard_only=True)
        self.shanten = self._build_shanten(standard_only=False)
        self.waits = self._build_waits()

    # -- helpers -------------------------------------------------------------------
    def _key(self, counts: Counts) -> bytes:
        if counts.__class__ is bytes:
            key: bytes = counts
        else:
            try:
                key = bytes(counts)
            except (TypeError, ValueError) as exc:
                raise ValueError(
                    f"counts must be a sequence of small non-negative ints, got {counts!r}"
                ) from exc
        if len(key) != self.n_kinds:
            raise ValueError(f"expected {self.n_kinds} counts, got {len(key)}")
        return key

    # -- completeness --------------------------------------------------------------
    def _build_complete_check(self, *, standard_only: bool) -> Any:
        to_key, seven = self._key, self.is_seven_pairs
        allowed = self.seven_pairs_allowed and not standard_only
        target = _PAIR + 3 * self.n_sets + 2
        order = [(self._tables[i], self._cuts[i]) for i in self._check_order]

        def complete(
            counts: Counts,
            declared: int = 0,
            *,
            seven_pairs: bool = True,
            quad_as_two_pairs: bool = True,
        ) -> bool:
            key = to_key(counts)
            # every group's code, a bad one's too (it drives the sum negative): the fast
            # path below sums all the groups, and a group left out would miss there again
            total = 0
            for table, cut in order:
                total += table.code_of(key[cut])
            if total == target - 3 * declared:
                return True
            if declared or not (seven_pairs and allowed) or 1 in key or 3 in key:
                return False
            return seven(key, 0, quad_as_two_pairs=quad_as_two_pairs)

        # The fast path subscripts plain dicts: a hit is the cheapest lookup Python has. A
        # miss (a group vector not seen yet, or input that is no bytes-like hand of the
        # right length) raises, and the generic path above answers, validating and filling.
        if len(order) == 4:
            unpack, miss = self._split, _MISS
            (d0, i0), (d1, i1), (d2, i2), (d3, i3) = (
                (self._tables[i].code, i) for i in self._check_order
            )
            # The first group is looked at alone, so that most random hands are turned
            # down after one slice. If it is the last group its slice is open-ended: a hand
            # with too many or too few counts then gives a vector no table holds.
            first, n_kinds = self._slices[i0], self.n_kinds
            last = first[1] == n_kinds
            cut = slice(first[0], None if last else first[1])

            # the flags are keyword-only in the published signature (``_CompleteCheck``);
            # plain parameters are filled faster from their defaults on every call
            def complete4(
                counts: Counts,
                declared: int = 0,
                seven_pairs: bool = True,
                quad_as_two_pairs: bool = True,
            ) -> bool:
                try:
                    c = d0[counts[cut]]  # type: ignore[index]
                    if c >= 0:
                        parts = unpack(counts)  # type: ignore[arg-type]
                        if (
                            c + d1[parts[i1]] + d2[parts[i2]] + d3[parts[i3]]
                            == target - 3 * declared
                        ):
                            return True
                    elif not last and len(counts) != n_kinds:
                        to_key(counts)
                except miss:
                    # validates the input (or raises a clear error) and fills the tables
                    return complete(
                        counts,
                        declared,
                        seven_pairs=seven_pairs,
                        quad_as_two_pairs=quad_as_two_pairs,
                    )
                # a lone or third copy rules seven pairs out: the cheap test first
                if declared or not (seven_pairs and allowed) or 1 in counts or 3 in counts:
                    return False
                return seven(counts, 0, quad_as_two_pairs=quad_as_two_pairs)

            return complete4

        return complete

    def is_seven_pairs(
        self, counts: Counts, declared: int = 0, *, quad_as_two_pairs: bool = True
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

    # -- decompositions ------------------------------------------------------------
    def decompositions(self, counts: Counts, declared: int = 0) -> list[Decomposition]:
        """Every standard reading of a complete hand (empty if not complete)."""
        key = self._key(counts)
        if not self.is_complete_standard(key, declared):
            return []
        per_group: list[list[tuple[Block, ...]]] = []
        for table, (a, b) in self._parts:
            local = table.decompositions(key[a:b])
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

    def readings(self, counts: Counts, win_kind: int, declared: int = 0) -> list[Reading]:
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
    def _waits(
        self,
        counts: Counts,
        declared: int = 0,
        *,
        seven_pairs: bool = True,
        quad_as_two_pairs: bool = True,
    ) -> list[int]:
        """:attr:`waits` for any layout, validating the input and filling the tables
        (every group's code and the entries the fast path reads next time)."""
        key = counts if counts.__class__ is bytes else self._key(counts)
        if len(key) != self.n_kinds:
            self._key(key)
        found: list[int] = []
        if sum(key) == 3 * (self.n_sets - declared) + 1:
            parts = [key[a:b] for a, b in self._slices]
            codes = [table.code_of(part) for table, part in zip(self._tables, parts, strict=True)]
            bad = [idx for idx, c in enumerate(codes) if c < 0]
            if len(bad) <= 1:
                pairs = sum(c for c in codes if c >= 0) // _PAIR
                for idx in bad or range(len(codes)):
                    others = pairs - max(codes[idx], 0) // _PAIR
                    found.extend(self._wait_entry(idx, parts[idx])[others])
        if (
            seven_pairs
            and self.seven_pairs_allowed
            and declared == 0
            and key.count(1) + key.count(3) == 1
        ):
            found.extend(_seven_pairs_wait(key, quad_as_two_pairs))
        if len(found) > 1:
            return sorted(set(found))
        return found

    def _wait_entry(self, idx: int, part: bytes) -> _WaitEntry:
        """The kinds that complete group ``idx``'s vector ``part``, indexed by how many
        pairs the other groups hold: the new tile lands in this group, which then ends
        with the pair iff it holds 3k+2 tiles, so the others must hold none, else one."""
        entries = self._wait_entries[idx]
        entry = entries.get(part)
        if entry is None:
            start = self._slices[idx][0]
            kinds = tuple(start + k for k in self._tables[idx].completions(part))
            need = 0 if (sum(part) + 1) % 3 == 2 else 1
            entry = entries[part] = tuple(
                kinds if others == need else () for others in range(len(self._parts))
            )
        return entry

    def _build_waits(self) -> Any:
        generic = self._waits
        if len(self._tables) != 4:
            return generic
        unpack, miss = self._split, _MISS
        d0, d1, d2, d3 = (t.code for t in self._tables)
        e0, e1, e2, e3 = self._wait_entries
        short = 3 * self.n_sets + 1
        allowed = self.seven_pairs_allowed

        # flags keyword-only in the published signature, plain here (see complete4)
        def waits4(
            counts: Counts,
            declared: int = 0,
            seven_pairs: bool = True,
            quad_as_two_pairs: bool = True,
        ) -> list[int]:
            found: list[int] = []
            try:
                k0, k1, k2, k3 = unpack(counts)  # type: ignore[arg-type]
                c0, c1, c2, c3 = d0[k0], d1[k1], d2[k2], d3[k3]
                # one sum of the codes says how many groups have no decomposition (each
                # adds _BAD) and what the others hold: their tiles, plus _PAIR per pair
                codes = c0 + c1 + c2 + c3
                if codes >= 0:
                    pairs = codes >> _PAIR_SHIFT
                    if codes & _TILES == short - 3 * declared:
                        found = [
                            *e0[k0][pairs - (c0 >> _PAIR_SHIFT)],
                            *e1[k1][pairs - (c1 >> _PAIR_SHIFT)],
                            *e2[k2][pairs - (c2 >> _PAIR_SHIFT)],
                            *e3[k3][pairs - (c3 >> _PAIR_SHIFT)],
                        ]
                elif codes >= _BAD:
                    # only the group with no decomposition can take the tile
                    good = codes - _BAD
                    if c0 < 0:
                        part, entries = k0, e0
                    elif c1 < 0:
                        part, entries = k1, e1
                    elif c2 < 0:
                        part, entries = k2, e2
                    else:
                        part, entries = k3, e3
                    if (good & _TILES) + sum(part) == short - 3 * declared:
                        found = list(entries[part][good >> _PAIR_SHIFT])
            except miss:
                # a vector not seen yet, or input to validate: the generic path fills
                return generic(
                    counts, declared, seven_pairs=seven_pairs, quad_as_two_pairs=quad_as_two_pairs
                )
            if (
                seven_pairs
                and allowed
                and declared == 0
                # most hands hold two lone tiles or more: one count tells
                and (ones := counts.count(1)) < 2
                and ones + counts.count(3) == 1
            ):
                found.extend(_seven_pairs_wait(counts, quad_as_two_pairs))  # type: ignore[arg-type]
            if len(found) > 1:
                return sorted(set(found))
            return found

        return waits4

    # -- shanten -------------------------------------------------------------------
    def _intern(self, prof: _Profile) -> int:
        pid = self._profile_ids.get(prof)
        if pid is None:
            pid = len(self._profiles)
            self._profile_ids[prof] = pid
            self._profiles.append(prof)
        return pid

    def _profile_id(self, table: _GroupTable, part: bytes) -> int:
        pid = table.profile.get(part)
        if pid is None:
            pid = self._intern((*table.distances(part), _seven_pairs_counts(part)))
            table.profile[part] = pid
        return pid

    def _combine(self, left: int, right: int) -> _Profile:
        (a0, a1, sa), (b0, b1, sb) = self._profiles[left], self._profiles[right]
        top = self.n_sets
        e0 = [_INF] * (top + 1)
        e1 = [_INF] * (top + 1)
        # the entries start at _INF and only fall: none needs clipping to it afterwards;
        # comparisons rather than min() calls, a cold hand's shanten runs through here
        for i in range(top + 1):
            x0, x1 = a0[i], a1[i]
            if x0 >= _INF and x1 >= _INF:
                continue  # every sum from here is _INF or more: nothing falls
            for j in range(top + 1 - i):
                y0, y1 = b0[j], b1[j]
                m = i + j
                v = x0 + y0
                if v < e0[m]:  # noqa: PLR1730
                    e0[m] = v
                v = x0 + y1
                w = x1 + y0
                if w < v:  # noqa: PLR1730
                    v = w
                if v < e1[m]:  # noqa: PLR1730
                    e1[m] = v
        pairs, doubled, kinds = (min(x + y, 7) for x, y in zip(sa, sb, strict=True))
        return tuple(e0), tuple(e1), (pairs, doubled, kinds)

    def _combined_id(self, left: int, right: int) -> int:
        key = left * _MUL + right
        pid = self._combined.get(key)
        if pid is None:
            pid = self._intern(self._combine(left, right))
            self._combined[key] = pid
        return pid

    def _final_row(self, left: int, right: int) -> tuple[int, ...]:
        """Standard shanten for 0…n_sets sets still to make, then the seven-pairs shanten
        with and without a quad counting as two pairs."""
        key = left * _MUL + right
        row = self._final.get(key)
        if row is None:
            _no_pair, with_pair, (pairs, doubled, kinds) = self._combine(left, right)
            row = (*(v - 1 for v in with_pair), 6 - pairs, 6 - doubled + (7 - kinds))
            self._final[key] = row
        return row

    def _row(self, key: bytes) -> tuple[int, ...]:
        """The final row of a validated hand, filling every table on the way."""
        ids = [
            self._profile_id(t, key[cut]) for t, cut in zip(self._tables, self._cuts, strict=True)
        ]
        if len(ids) == 1:
            # a lone group combines with the empty hand
            ids.insert(
                0,
                self._intern(
                    ((0,) + (_INF,) * self.n_sets, (_INF,) * (self.n_sets + 1), (0, 0, 0))
                ),
            )
        acc = ids[0]
        for pid in ids[1:-1]:
            acc = self._combined_id(acc, pid)
        return self._final_row(acc, ids[-1])

    def _build_shanten(self, *, standard_only: bool) -> Any:
        to_key, n_sets, row_of = self._key, self.n_sets, self._row
        allowed = self.seven_pairs_allowed and not standard_only
        quad_at, plain_at = n_sets + 1, n_sets + 2

        def bad_declared(declared: int) -> ValueError:
            return ValueError(f"declared must be 0…{n_sets}, got {declared}")

        if len(self._tables) == 4:
            p0, p1, p2, p3 = (t.profile for t in self._tables)
            combined, final = self._combined, self._final
            unpack, miss = self._split, _MISS

            # flags keyword-only in the published signature, plain here (see complete4)
            def shanten4(
                counts: Counts,
                declared: int = 0,
                seven_pairs: bool = True,
                quad_as_two_pairs: bool = True,
            ) -> int:
                if declared and not 0 < declared <= n_sets:
                    raise bad_declared(declared)
                try:
                    k0, k1, k2, k3 = unpack(counts)  # type: ignore[arg-type]
                    row = final[
                        combined[combined[p0[k0] * _MUL + p1[k1]] * _MUL + p2[k2]] * _MUL + p3[k3]
                    ]
                except miss:
                    row = row_of(to_key(counts))
                best = row[n_sets - declared]
                if declared == 0 and allowed and seven_pairs:
                    other = row[quad_at] if quad_as_two_pairs else row[plain_at]
                    if other < best:
                        return other
                return best

            return shanten4

        def shanten(
            counts: Counts,
            declared: int = 0,
            *,
            seven_pairs: bool = True,
            quad_as_two_pairs: bool = True,
        ) -> int:
            if not 0 <= declared <= n_sets:
                raise bad_declared(declared)
            row = row_of(to_key(counts))
            best = row[n_sets - declared]
            if declared == 0 and allowed and seven_pairs:
                best = min(best, row[quad_at] if quad_as_two_pairs else row[plain_at])
            return best

        return shanten

    def shanten_seven_pairs(self, counts: Counts, *, quad_as_two_pairs: bool = True) -> int:
        """Seven-pairs shanten of a 13/14-tile concealed hand."""
        key = self._key(counts)
        if quad_as_two_pairs:
            pairs = sum(n // 2 for n in key)
            return 6 - min(pairs, 7)
        pairs = sum(1 for n in key if n >= 2)
        kinds = sum(1 for n in key if n)
        return 6 - pairs + max(0, 7 - kinds)


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
