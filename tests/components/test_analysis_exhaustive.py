"""The per-group tables against an independent brute force, over every group vector.

The analyser decides a group by recursion on its lowest held kind (and, for mahjong,
from layers of sets generated at import). The brute force here works the other way
round: it lists every multiset of blocks (up to four sets and at most one pair) and adds
each up into the vector it covers. Every 9-kind run-group vector and every 7-kind honour
vector with at most 14 tiles must get the same status and exactly the same set of
decompositions from both.
"""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import pytest

from paiju.components.analysis import (
    MAHJONG,
    Block,
    Group,
    HandAnalyser,
    Shape,
    iter_suit_vectors,
)

Decomp = tuple[tuple[int, int], ...]


def brute_force(size: int, runs: bool, max_sets: int = 4) -> dict[bytes, set[Decomp]]:
    """Vector → every multiset of blocks covering it (blocks as sorted (kind, shape))."""
    sets = [(k, int(Shape.TRIPLET)) for k in range(size)]
    if runs:
        sets += [(k, int(Shape.RUN)) for k in range(size - 2)]
    pairs: list[tuple[int, int] | None] = [None, *((k, int(Shape.PAIR)) for k in range(size))]
    found: dict[bytes, set[Decomp]] = {}
    for n in range(max_sets + 1):
        for chosen in combinations_with_replacement(sets, n):
            for pair in pairs:
                blocks = [*chosen, pair] if pair else list(chosen)
                vec = [0] * size
                for kind, shape in blocks:
                    if shape == Shape.RUN:
                        for k in range(kind, kind + 3):
                            vec[k] += 1
                    else:
                        vec[kind] += 3 if shape == Shape.TRIPLET else 2
                if max(vec) <= 4:
                    found.setdefault(bytes(vec), set()).add(tuple(sorted(blocks)))
    return found


def expected_status(decomps: set[Decomp] | None) -> int:
    if not decomps:
        return 0
    has_pair = {any(shape == Shape.PAIR for _, shape in d) for d in decomps}
    assert len(has_pair) == 1
    return 2 if has_pair.pop() else 1


def as_pairs(decomps: tuple[tuple[Block, ...], ...]) -> set[Decomp]:
    return {tuple(sorted((b.kind, int(b.shape)) for b in d)) for d in decomps}


LAZY = HandAnalyser(
    [Group(0, 9, True), Group(9, 9, True), Group(18, 9, True), Group(27, 7, False)],
    4,
    prefill=False,
)
"""No prefilled tables: every status comes from the recursive decider."""


@pytest.mark.parametrize(("size", "runs", "part"), [(9, True, 0), (7, False, 3)])
def test_every_group_vector(size: int, runs: bool, part: int) -> None:
    truth = brute_force(size, runs)
    fast = MAHJONG._tables[part]
    lazy = LAZY._tables[part]
    assert fast.runs is runs and fast.size == size
    # the mahjong tables are generated with every decomposable vector of up to 14 tiles
    assert fast.complete
    generated = {
        key for key, code in fast.code.items() if code >= 0 and sum(key) <= 14 and max(key) <= 4
    }
    assert generated == set(truth)
    n_vectors = n_decomposable = 0
    for key in iter_suit_vectors(size):
        n_vectors += 1
        decomps = truth.get(key)
        status = expected_status(decomps)
        assert lazy.get_status(key) == status, key
        assert fast.get_status(key) == status, key
        code = fast.code_of(key)
        if status:
            n_decomposable += 1
            assert code == sum(key) + (1 << 16 if status == 2 else 0)
            assert as_pairs(lazy.decompositions(key)) == decomps, key
            assert as_pairs(fast.decompositions(key)) == decomps, key
        else:
            assert code < 0, key
            assert lazy.decompositions(key) == ()
    assert n_vectors == (405350 if size == 9 else 43130)
    assert n_decomposable == len(truth)


def brute_distances(
    key: bytes, targets: dict[tuple[int, bool], list[bytes]]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Fewest tiles to add so the group holds m sets (and the pair), by trying every
    complete target vector."""
    out: dict[bool, list[int]] = {False: [], True: []}
    for pair in (False, True):
        for m in range(5):
            out[pair].append(
                min(
                    sum(t - h for t, h in zip(target, key, strict=True) if t > h)
                    for target in targets[(m, pair)]
                )
            )
    return tuple(out[False]), tuple(out[True])


@pytest.mark.parametrize(
    ("size", "runs", "part", "samples"), [(9, True, 0, 120), (7, False, 3, 600)]
)
def test_group_distances_against_every_target(
    size: int, runs: bool, part: int, samples: int
) -> None:
    targets: dict[tuple[int, bool], list[bytes]] = {}
    for key, decomps in brute_force(size, runs).items():
        for d in decomps:
            n_sets = sum(1 for _, shape in d if shape != Shape.PAIR)
            pair = len(d) > n_sets
            targets.setdefault((n_sets, pair), []).append(key)
    table = MAHJONG._tables[part]
    rng = random.Random(3)
    vectors = list(iter_suit_vectors(size))
    for key in [*rng.sample(vectors, samples), bytes(size), bytes([4] * 3 + [0] * (size - 3))]:
        assert table.distances(key) == brute_distances(key, targets), key
