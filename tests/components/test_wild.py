"""The wild-tile analyser against brute force.

Two independent references, neither sharing code with :mod:`paiju.components.wild`:

* completeness by *substitution*: every multiset of faces the wilds could stand for is
  tried, and the substituted vector is decomposed by plain recursion (no copy limit, as
  H4 says stand-ins are not bound by four copies);
* distance (for shanten) by *overlap search*: a recursion that lets each natural tile be
  left over or join a pair-block or one of the 4 − declared set-blocks, maximising the
  tiles that land in blocks. Every block's missing tiles are additions, and a wild fills
  one addition, so shanten = 3·(4 − declared) + 2 − overlap − wilds − 1.

The group-level sweep covers every suit and honour vector up to a tile budget with 0–4
wilds (the full budget behind ``slow``); the whole-hand check runs 2,000 random hands by
default and 100,000 behind ``slow``.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from functools import cache
from itertools import combinations_with_replacement, product

import pytest

from paiju.components.analysis import MAHJONG, Shape, iter_suit_vectors
from paiju.components.notation import parse_tiles, tile_counts
from paiju.components.wild import WILD, WildWait, _WildTable, split_wilds

# -- references ------------------------------------------------------------------------


@cache
def decomposable(vec: bytes, runs: bool, need_pair: bool) -> bool:
    """Sets (and one pair iff ``need_pair``) cover ``vec`` exactly; any counts."""
    i = next((k for k, n in enumerate(vec) if n), -1)
    if i < 0:
        return not need_pair
    c = bytearray(vec)
    if need_pair and c[i] >= 2:
        c[i] -= 2
        if decomposable(bytes(c), runs, False):
            return True
        c[i] += 2
    if c[i] >= 3:
        c[i] -= 3
        if decomposable(bytes(c), runs, need_pair):
            return True
        c[i] += 3
    if runs and i + 2 < len(c) and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        if decomposable(bytes(c), runs, need_pair):
            return True
    return False


def substitutable(vec: bytes, runs: bool, wilds: int, need_pair: bool) -> bool:
    """Some faces for the wilds (within this group) make ``vec`` decomposable."""
    for faces in combinations_with_replacement(range(len(vec)), wilds):
        c = bytearray(vec)
        for f in faces:
            c[f] += 1
        if decomposable(bytes(c), runs, need_pair):
            return True
    return False


def ref_complete(counts: bytes, wilds: int, declared: int = 0) -> bool:
    """Whole-hand substitution, factored by group (no block crosses a group)."""
    if sum(counts) + wilds != 14 - 3 * declared:
        return False
    parts = [(counts[0:9], True), (counts[9:18], True), (counts[18:27], True)]
    parts.append((counts[27:34], False))
    for alloc in product(range(wilds + 1), repeat=4):
        if sum(alloc) != wilds:
            continue
        for pair_at in range(4):
            if all(
                substitutable(v, runs, w, g == pair_at)
                for g, ((v, runs), w) in enumerate(zip(parts, alloc, strict=True))
            ):
                return True
    lone = sum(n & 1 for n in counts)
    return declared == 0 and lone <= wilds


def _suit_of(k: int) -> int:
    return k // 9 if k < 27 else -1


@cache
def max_overlap(vec: bytes, sets: int, pair: int) -> int:
    """The most natural tiles that fit in ``sets`` set-blocks and ``pair`` pair-blocks."""
    i = next((k for k, n in enumerate(vec) if n), -1)
    if i < 0:
        return 0
    c = bytearray(vec)
    c[i] -= 1
    best = max_overlap(bytes(c), sets, pair)  # tile i left over
    options: list[tuple[tuple[int, ...], bool]] = []
    if pair:
        options += [((i,), True), ((i, i), True)]
    if sets:
        options += [((i,), False), ((i, i), False), ((i, i, i), False)]
        if i < 27 and i % 9 <= 6:
            options += [((i, i + 1), False), ((i, i + 2), False), ((i, i + 1, i + 2), False)]
        elif i < 27 and i % 9 == 7:
            options += [((i, i + 1), False)]
    for tiles, is_pair in options:
        d = bytearray(vec)
        ok = True
        for t in tiles:
            if d[t] == 0:
                ok = False
                break
            d[t] -= 1
        if ok:
            rest = max_overlap(bytes(d), sets - (not is_pair), pair - is_pair)
            best = max(best, len(tiles) + rest)
    return best


def ref_shanten(counts: bytes, wilds: int, declared: int = 0) -> int:
    target = 3 * (4 - declared) + 2
    standard = target - max_overlap(counts, 4 - declared, 1) - wilds - 1
    if declared == 0:
        best_sp = 99
        # seven pairs by substitution over what each wild may do: pair a lone tile or
        # join another wild
        lone = sum(n & 1 for n in counts)
        pairs = sum(n >> 1 for n in counts)
        for used in range(min(wilds, lone) + 1):
            best_sp = min(best_sp, 6 - min(7, pairs + used + (wilds - used) // 2))
        standard = min(standard, best_sp)
    return max(standard, -1)


# -- group-level sweep -----------------------------------------------------------------


def _vectors(size: int, budget: int) -> Iterator[bytes]:
    return iter_suit_vectors(size, 4, budget)


def _sweep(size: int, runs: bool, budget: int) -> None:
    table = _WildTable(size, runs)
    for vec in _vectors(size, budget):
        w0, w1 = table.exact(vec)
        tiles = sum(vec)
        for wilds in range(5):
            if tiles + wilds > 14:
                break
            for pair, least in ((False, w0), (True, w1)):
                sets = tiles + wilds - (2 if pair else 0)
                fits = sets % 3 == 0 and sets // 3 <= 4
                ours = fits and wilds >= least and (wilds - least) % 3 == 0
                assert ours == (fits and substitutable(vec, runs, wilds, pair)), (
                    vec,
                    wilds,
                    pair,
                )


@pytest.mark.parametrize(("size", "runs"), [(9, True), (7, False)])
def test_group_codes_against_substitution(size: int, runs: bool) -> None:
    _sweep(size, runs, 5)


@pytest.mark.slow
@pytest.mark.parametrize(("size", "runs"), [(9, True), (7, False)])
def test_group_codes_against_substitution_full(size: int, runs: bool) -> None:
    _sweep(size, runs, 14)


# -- whole hands -----------------------------------------------------------------------


def _random_hand(rng: random.Random) -> tuple[bytes, int, int]:
    """A random natural hand with 0–4 wilds (half of them near-complete)."""
    wilds = rng.choice((0, 1, 1, 2, 2, 3, 4))
    declared = rng.choice((0, 0, 0, 1, 2))
    size = 14 - 3 * declared - wilds - (rng.random() < 0.3)
    counts = [0] * 34
    if rng.random() < 0.5:
        pool = [k for k in range(34) for _ in range(4)]
        for k in rng.sample(pool, size):
            counts[k] += 1
    else:
        while sum(counts) < size:
            start = rng.randrange(34)
            if start < 27 and start % 9 <= 6 and rng.random() < 0.6:
                blk = [start, start + 1, start + 2]
            else:
                blk = [start] * rng.choice((2, 3))
            for k in blk[: size - sum(counts)]:
                if counts[k] < 4:
                    counts[k] += 1
    return bytes(counts), wilds, declared


def _check_hands(n: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(n):
        counts, wilds, declared = _random_hand(rng)
        expect = (
            ref_complete(counts, wilds, declared)
            if sum(counts) + wilds == 14 - 3 * declared
            else False
        )
        assert WILD.is_complete(counts, wilds, declared) == expect, (counts, wilds, declared)
        assert WILD.shanten(counts, wilds, declared) == ref_shanten(counts, wilds, declared), (
            counts,
            wilds,
            declared,
        )


def test_random_hands_against_references() -> None:
    _check_hands(2_000, 16)


@pytest.mark.slow
def test_random_hands_against_references_100k() -> None:
    _check_hands(100_000, 1616)


def test_no_wilds_agrees_with_the_plain_analyser() -> None:
    rng = random.Random(3)
    pool = [k for k in range(34) for _ in range(4)]
    for _ in range(500):
        counts = [0] * 34
        for k in rng.sample(pool, 14):
            counts[k] += 1
        key = bytes(counts)
        assert WILD.is_complete(key, 0) == MAHJONG.is_complete(key)


# -- readings, waits -------------------------------------------------------------------


def _hand(text: str) -> bytes:
    return bytes(tile_counts(parse_tiles(text))[:34])


def test_single_wild_wait_reads_as_any() -> None:
    # 123m 456p 789s 111z + 5m and a wild: the wild pairs the 5m (单混儿吊)
    counts = _hand("123m456p789s111z5m")
    readings = WILD.readings(counts, 1, win=4, win_wild=False)
    assert any(r.wait is WildWait.ANY and r.block.shape is Shape.PAIR for r in readings)
    ready = _hand("123m456p789s111z")
    assert WILD.any_wait(ready, 1)
    assert len(WILD.waits(ready, 1)) == 34


def test_zhuo_wu_er_reading() -> None:
    # 4m 6m natural, the winning 5m closes the run
    counts = _hand("456m123p789s11122z")
    readings = WILD.readings(counts, 0, win=4, win_wild=False)
    assert any(
        r.block == (3, Shape.RUN, ()) and r.wait is WildWait.CLOSED and r.win_face == 4
        for r in readings
    )
    # the 6m is a wild: still the middle of 4-5-6
    counts = _hand("45m123p789s11122z")
    readings = WILD.readings(counts, 1, win=4, win_wild=False)
    assert any(r.block == (3, Shape.RUN, (5,)) and r.wait is WildWait.CLOSED for r in readings)


def test_dragon_with_wild_gap() -> None:
    counts = _hand("12345689m111p22z")  # 7m missing: a wild fills it
    readings = WILD.readings(counts, 1, win=0, win_wild=False)
    runs = {b.kind for r in readings for b in r.runs()}
    assert {0, 3, 6} <= runs
    assert any(b.wild == (6,) for r in readings for b in r.runs())


def test_wild_winning_tile_faces() -> None:
    counts = _hand("123m456p789s111z5m")
    readings = WILD.readings(counts, 1, win=0, win_wild=True)
    assert readings and all(r.win_wild for r in readings)
    # the drawn wild became the 5m's partner: a plain single wait, not 混儿吊
    assert any(r.win_face == 4 and r.wait is WildWait.SINGLE for r in readings)
    assert not any(r.wait is WildWait.ANY for r in readings)


def test_four_naturals_and_a_wild_exceed_four_copies() -> None:
    # four natural 1m and a wild read as 111m + 11m (H4: stand-ins ignore four copies)
    counts = _hand("1111m456p789s111z")
    assert WILD.is_complete(counts, 1)
    assert any(
        r.pair == (0, Shape.PAIR, (0,)) for r in WILD.readings(counts, 1, win=0, win_wild=False)
    )


def test_seven_pairs_with_wilds() -> None:
    counts = _hand("1133m55p77s1122z6z")
    assert WILD.is_complete(counts, 1)
    sp = WILD.seven_pairs_readings(counts, 1, win=32, win_wild=False)
    assert sp and sp[0].wait is WildWait.ANY


def test_bad_input_is_named() -> None:
    with pytest.raises(ValueError, match="34 counts"):
        WILD.is_complete([0] * 10, 0)
    with pytest.raises(ValueError, match="wilds"):
        WILD.shanten([0] * 34, 15)


def test_split_wilds() -> None:
    counts = tile_counts(parse_tiles("123m456p789s1122z"))
    natural, n = split_wilds(counts, [27, 28])
    assert n == 4 and natural[27] == natural[28] == 0
