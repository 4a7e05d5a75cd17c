"""Agreement with the ``mahjong`` package (PyPI) on 100,000 seeded 14-tile hands.

Compared separately: the win check (our standard form or seven distinct pairs against
``Agari.is_agari``, whose thirteen-orphans form is not a hand in our games), the regular
shanten and the seven-pairs shanten (``quad_as_two_pairs=False``, the package's rule).
Half the hands are plain draws from a shuffled 136-tile wall; the other half are complete
hands (standard or seven pairs) with zero to three tiles swapped for random ones, so that
wins and low shanten are common rather than rare.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from paiju.bench import random_complete
from paiju.components.analysis import MAHJONG

mahjong_agari = pytest.importorskip("mahjong.agari")
mahjong_shanten = pytest.importorskip("mahjong.shanten")
Agari = mahjong_agari.Agari
Shanten = mahjong_shanten.Shanten

N_HANDS = 100_000
SEED = 2026


def complete_hand(rng: random.Random) -> list[int]:
    """Seven pairs now and then, otherwise four sets and a pair."""
    if rng.random() < 0.15:
        counts = [0] * 34
        for kind in rng.sample(range(34), 7):
            counts[kind] = 2
        return counts
    return random_complete(rng)


def hands(rng: random.Random, n: int, n_tiles: int = 14) -> list[list[int]]:
    out = []
    for i in range(n):
        if i % 2:
            counts = [0] * 34
            for tile in rng.sample(range(136), n_tiles):
                counts[tile // 4] += 1
        else:
            counts = complete_hand(rng)
            held = [k for k in range(34) for _ in range(counts[k])]
            rng.shuffle(held)
            drop = 14 - n_tiles + rng.randrange(4)
            for k in held[:drop]:
                counts[k] -= 1
            # refill from what is left of the wall
            wall = [k for k in range(34) for _ in range(4 - counts[k])]
            for k in rng.sample(wall, n_tiles - sum(counts)):
                counts[k] += 1
        assert sum(counts) == n_tiles and max(counts) <= 4
        out.append(counts)
    return out


def is_thirteen_orphans(counts: list[int]) -> bool:
    return bool(Shanten.calculate_shanten_for_kokushi_hand(counts) == -1)


def test_hundred_thousand_hands() -> None:
    rng = random.Random(SEED)
    agari, regular = Agari.is_agari, Shanten.calculate_shanten_for_regular_hand
    seven = Shanten.calculate_shanten_for_chiitoitsu_hand
    standard, pairs = MAHJONG.is_complete_standard, MAHJONG.is_seven_pairs
    shanten, shanten7 = MAHJONG.shanten_standard, MAHJONG.shanten_seven_pairs
    stats: Counter[str] = Counter()
    for counts in hands(rng, N_HANDS):
        key = bytes(counts)
        ours_win = standard(key) or pairs(key, quad_as_two_pairs=False)
        if not is_thirteen_orphans(counts):
            assert ours_win is agari(counts), counts
        ours = shanten(key)
        assert ours == regular(counts), counts
        assert shanten7(key, quad_as_two_pairs=False) == seven(counts), counts
        stats["win"] += ours_win
        stats[f"shanten {min(ours, 2)}"] += 1
    # the near-complete half really does exercise wins and low shanten
    assert stats["win"] > N_HANDS // 20
    assert stats["shanten 0"] > N_HANDS // 20
    assert stats["shanten 1"] > N_HANDS // 20


def test_thirteen_tile_hands_and_waits() -> None:
    rng = random.Random(SEED + 1)
    agari, regular = Agari.is_agari, Shanten.calculate_shanten_for_regular_hand
    ready = 0
    for counts in hands(rng, 10_000, 13):
        key = bytes(counts)
        assert MAHJONG.shanten_standard(key) == regular(counts), counts
        ours = MAHJONG.waits(key, quad_as_two_pairs=False)
        theirs = []
        for kind in range(34):
            if counts[kind] < 4:
                counts[kind] += 1
                if agari(counts) and not is_thirteen_orphans(counts):
                    theirs.append(kind)
                counts[kind] -= 1
        assert ours == theirs, counts
        ready += bool(ours)
    assert ready > 1000
