"""Hand analysis: the table of cases in notation, readings and wait shapes, options."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from paiju.bench import random_complete
from paiju.components.analysis import (
    MAHJONG,
    QINGER,
    Block,
    Group,
    HandAnalyser,
    Shape,
    Wait,
)
from paiju.components.cards import Card
from paiju.components.notation import card_counts, parse_cards, parse_tiles, tile_counts
from paiju.components.tiles import Tile

CASES = json.loads(
    (Path(__file__).parents[1] / "data" / "components" / "analysis_cases.json").read_text("utf-8")
)["cases"]


def mahjong(text: str) -> bytes:
    return bytes(tile_counts(parse_tiles(text))[:34])


def qinger(text: str) -> bytes:
    """Meld-kind counts (30) of a Qing'er hand: ♥K and ♣K are both kind 29."""
    counts = [0] * 30
    for card, n in enumerate(card_counts(parse_cards(text))):
        if n:
            kind = Card(card).meld_kind
            assert kind >= 0, f"{Card(card)} never sits in a hand"
            counts[kind] += n
    return bytes(counts)


def kinds(game: str, text: str) -> list[int]:
    if game == "mahjong":
        return sorted({int(t) for t in parse_tiles(text)})
    return sorted({Card(c).meld_kind for c in parse_cards(text)})


def setup(case: dict[str, Any]) -> tuple[HandAnalyser, bytes]:
    if case["game"] == "mahjong":
        return MAHJONG, mahjong(case["hand"])
    return QINGER, qinger(case["hand"])


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_case(case: dict[str, Any]) -> None:
    analyser, key = setup(case)
    declared = case["declared"]
    n_sets = analyser.n_sets - declared
    assert sum(key) in (3 * n_sets + 1, 3 * n_sets + 2), "malformed case"
    assert analyser.is_complete(key, declared) is case["complete"]
    decompositions = analyser.decompositions(key, declared)
    assert len(decompositions) == case["decompositions"]
    assert analyser.is_complete_standard(key, declared) is bool(decompositions)
    if case["waits"] is None:
        assert sum(key) == 3 * n_sets + 2
        assert analyser.waits(key, declared) == []
    else:
        assert analyser.waits(key, declared) == kinds(case["game"], case["waits"])
    assert analyser.shanten(key, declared) == case["shanten"]
    if case["seven_pairs_shanten"] is None:
        assert analyser.shanten(key, declared) == analyser.shanten_standard(key, declared)
    else:
        assert analyser.shanten_seven_pairs(key) == case["seven_pairs_shanten"]
        assert case["shanten"] == min(
            analyser.shanten_standard(key, declared), case["seven_pairs_shanten"]
        )
    # the same answers from a plain list of counts
    assert analyser.is_complete(list(key), declared) is case["complete"]
    assert analyser.shanten(list(key), declared) == case["shanten"]


def test_decompositions_are_exact() -> None:
    (dec,) = MAHJONG.decompositions(mahjong("123m456p789s11122z"))
    assert dec.pair == Tile.Z2
    assert sorted(dec.sets) == [
        Block(Tile.M1, Shape.RUN),
        Block(Tile.P4, Shape.RUN),
        Block(Tile.S7, Shape.RUN),
        Block(Tile.Z1, Shape.TRIPLET),
    ]
    assert dec.runs == (Tile.M1, Tile.P4, Tile.S7)
    assert dec.triplets == (Tile.Z1,)
    assert not dec.all_triplets
    readings = {
        tuple(sorted(d.sets)): d.pair for d in MAHJONG.decompositions(mahjong("11223344556677m"))
    }
    run = Shape.RUN
    assert readings == {
        ((1, run), (1, run), (4, run), (4, run)): 0,
        ((0, run), (0, run), (4, run), (4, run)): 3,
        ((0, run), (0, run), (3, run), (3, run)): 6,
    }


def test_all_triplets_and_full_straight() -> None:
    (dec,) = MAHJONG.decompositions(mahjong("111z222z333z44z555z"))
    assert dec.all_triplets
    (dec,) = MAHJONG.decompositions(mahjong("123456789p123s55z"))
    assert dec.full_straight(MAHJONG.run_group_starts)
    (dec,) = MAHJONG.decompositions(mahjong("123m456p789s123s55z"))
    assert not dec.full_straight(MAHJONG.run_group_starts)
    (dec,) = MAHJONG.decompositions(mahjong("123456m789p123s55z"))
    assert not dec.full_straight(MAHJONG.run_group_starts)


def test_wen_qian_counts_spade_123_runs() -> None:
    decs = QINGER.decompositions(qinger("111222333s 456h 789c KhKhKc QhQh JhJhJc"))
    assert sorted(d.runs_at(0) for d in decs) == [0, 3]
    decs = QINGER.decompositions(qinger("123s 123s 123h 123c 456789s JJJh 99c"))
    assert [d.runs_at(0) for d in decs] == [2]
    # ♥1-2-3 (kind 9) is no 文钱
    assert [d.runs_at(9) for d in decs] == [1]


def test_qinger_face_cards_meld_by_rank() -> None:
    assert qinger("Kh") == qinger("Kc")
    assert QINGER.is_complete(qinger("JhJhJc KhKc"), 6)
    assert not QINGER.is_complete(qinger("JhQhKh KhKc"), 6)
    assert not QINGER.is_complete(qinger("JcQcKc KhKh"), 6)
    # 9-J-Q is no run either: the face group is its own group
    assert not QINGER.is_complete(qinger("9hJhQh KhKc"), 6)


def readings_of(hand: str, win: str) -> list[tuple[Block, Wait]]:
    return sorted(
        (r.block, r.wait) for r in MAHJONG.readings(mahjong(hand), int(parse_tiles(win)[0]))
    )


@pytest.mark.parametrize(
    ("hand", "win", "expected"),
    [
        ("123m456p789s111z55z", "5z", [(Block(Tile.Z5, Shape.PAIR), Wait.SINGLE)]),
        ("123m456p789s111z55z", "1z", [(Block(Tile.Z1, Shape.TRIPLET), Wait.PAIR_TO_TRIPLET)]),
        ("123m456p789s111z55z", "3m", [(Block(Tile.M1, Shape.RUN), Wait.EDGE)]),
        ("123m456p789s111z55z", "1m", [(Block(Tile.M1, Shape.RUN), Wait.TWO_SIDED)]),
        ("123m456p789s111z55z", "2m", [(Block(Tile.M1, Shape.RUN), Wait.CLOSED)]),
        ("123m456p789s111z55z", "7s", [(Block(Tile.S7, Shape.RUN), Wait.EDGE)]),
        ("123m456p789s111z55z", "9s", [(Block(Tile.S7, Shape.RUN), Wait.TWO_SIDED)]),
        ("123m456p789s111z55z", "8s", [(Block(Tile.S7, Shape.RUN), Wait.CLOSED)]),
        ("123m456p789s111z55z", "4p", [(Block(Tile.P4, Shape.RUN), Wait.TWO_SIDED)]),
        ("123m456p789s111z55z", "6p", [(Block(Tile.P4, Shape.RUN), Wait.TWO_SIDED)]),
        ("123m456p789s111z55z", "9m", []),
        # the winning 3m may have made the pair or closed the edge
        (
            "123m33m456p789s111z",
            "3m",
            [
                (Block(Tile.M1, Shape.RUN), Wait.EDGE),
                (Block(Tile.M3, Shape.PAIR), Wait.SINGLE),
            ],
        ),
        # three triplets, or three identical runs (one reading, not three)
        (
            "111222333m456p11s",
            "3m",
            [
                (Block(Tile.M1, Shape.RUN), Wait.EDGE),
                (Block(Tile.M3, Shape.TRIPLET), Wait.PAIR_TO_TRIPLET),
            ],
        ),
        # 4m ends 234 or starts 456: two two-sided readings of one decomposition
        (
            "234456m789p111s22z",
            "4m",
            [
                (Block(Tile.M2, Shape.RUN), Wait.TWO_SIDED),
                (Block(Tile.M4, Shape.RUN), Wait.TWO_SIDED),
            ],
        ),
    ],
)
def test_readings(hand: str, win: str, expected: list[tuple[Block, Wait]]) -> None:
    assert readings_of(hand, win) == expected


def test_readings_keep_their_decomposition() -> None:
    key = mahjong("111222333m456p11s")
    for reading in MAHJONG.readings(key, Tile.M3):
        assert reading.block in reading.decomposition.sets
    assert MAHJONG.readings(mahjong("111222333m456p1s2s"), Tile.M3) == []


def test_qinger_readings() -> None:
    key = qinger("123456789s 123456789h 123c 55c")
    readings = QINGER.readings(key, Card.C2.meld_kind)
    assert [(r.block, r.wait) for r in readings] == [
        (Block(Card.C1.meld_kind, Shape.RUN), Wait.CLOSED)
    ]
    key = qinger("123456789s 456789h KhKhKc 123c 55c")
    readings = QINGER.readings(key, Card.CK.meld_kind)
    assert [r.wait for r in readings] == [Wait.PAIR_TO_TRIPLET]


def test_quad_as_two_pairs() -> None:
    key = mahjong("1111m2233p5566s77z")
    assert MAHJONG.is_seven_pairs(key)
    assert not MAHJONG.is_seven_pairs(key, quad_as_two_pairs=False)
    assert MAHJONG.is_complete(key)
    assert not MAHJONG.is_complete(key, quad_as_two_pairs=False)
    assert not MAHJONG.is_complete(key, seven_pairs=False)
    assert MAHJONG.shanten_seven_pairs(key) == -1
    assert MAHJONG.shanten_seven_pairs(key, quad_as_two_pairs=False) == 1
    assert MAHJONG.shanten(key, quad_as_two_pairs=False) == 1
    one_short = mahjong("111m2233p5566s77z")
    assert MAHJONG.waits(one_short) == [Tile.M1]
    assert MAHJONG.waits(one_short, quad_as_two_pairs=False) == []
    assert MAHJONG.waits(one_short, seven_pairs=False) == []
    one_short = mahjong("1111m2233p5566s7z")
    assert MAHJONG.waits(one_short) == [Tile.Z7]
    assert MAHJONG.waits(one_short, quad_as_two_pairs=False) == []


def test_seven_pairs_needs_a_concealed_hand() -> None:
    key = mahjong("11223344556677m")
    assert MAHJONG.is_seven_pairs(key)
    assert not MAHJONG.is_seven_pairs(mahjong("1122334455m"), 1)
    assert not QINGER.seven_pairs_allowed
    assert not MAHJONG.is_seven_pairs(mahjong("112233445566m"))


def test_no_wait_on_a_kind_held_four_times() -> None:
    # 1111m + 23m: the 1m that would make 11m + 123m... is the fifth copy
    key = mahjong("1111m23m456p789s11z")
    assert sum(key) == 14
    assert MAHJONG.is_complete(key)
    key = mahjong("1111m456p789s11z2m")
    assert MAHJONG.waits(key) == [Tile.M3]
    key = mahjong("1111m234p567s789s")
    assert MAHJONG.waits(key) == []
    assert MAHJONG.shanten(key) == 1


@pytest.mark.parametrize("bad", [b"\x00" * 33, [0] * 35, [-1] + [0] * 33, ["x"] * 34])
def test_bad_counts_are_rejected(bad: Any) -> None:
    for query in (MAHJONG.is_complete, MAHJONG.shanten, MAHJONG.waits, MAHJONG.decompositions):
        with pytest.raises(ValueError, match="counts"):
            query(bad)


def test_declared_out_of_range() -> None:
    with pytest.raises(ValueError, match="declared"):
        MAHJONG.shanten(mahjong("11m"), 5)
    with pytest.raises(ValueError, match="declared"):
        MAHJONG.shanten_standard(mahjong("11m"), -1)


def test_groups_must_tile_the_kinds() -> None:
    with pytest.raises(ValueError, match="start at kind 9"):
        HandAnalyser([Group(0, 9, True), Group(10, 9, True)], 4)


SPLIT_HONOURS = HandAnalyser(
    [
        Group(0, 9, True),
        Group(9, 9, True),
        Group(18, 9, True),
        Group(27, 4, False),
        Group(31, 3, False),
    ],
    4,
    prefill=False,
)
"""The mahjong kinds in five groups, no prefilled tables: exercises the generic paths."""


def random_hand(rng: random.Random, n_tiles: int) -> bytes:
    counts = [0] * 34
    for tile in rng.sample(range(136), n_tiles):
        counts[tile // 4] += 1
    return bytes(counts)


def near_complete(rng: random.Random, n_tiles: int) -> bytes:
    counts = random_complete(rng, run_share=0.5)
    held = [k for k in range(34) for _ in range(counts[k])]
    rng.shuffle(held)
    for k in held[: 14 - n_tiles + rng.randrange(2)]:
        counts[k] -= 1
    while sum(counts) < n_tiles:
        k = rng.randrange(34)
        if counts[k] < 4:
            counts[k] += 1
    return bytes(counts)


def test_generic_paths_agree_with_the_fast_ones() -> None:
    rng = random.Random(7)
    for i in range(4000):
        n = 14 if i % 2 else 13
        key = random_hand(rng, n) if i % 4 < 2 else near_complete(rng, n)
        assert SPLIT_HONOURS.is_complete(key) is MAHJONG.is_complete(key), key
        assert SPLIT_HONOURS.shanten(key) == MAHJONG.shanten(key), key
        assert SPLIT_HONOURS.waits(key) == MAHJONG.waits(key), key
        assert len(SPLIT_HONOURS.decompositions(key)) == len(MAHJONG.decompositions(key))
        for declared in (1, 2):
            assert SPLIT_HONOURS.shanten(key, declared) == MAHJONG.shanten(key, declared)


def test_waits_are_exactly_the_completing_kinds() -> None:
    rng = random.Random(11)
    for i in range(3000):
        key = near_complete(rng, 13) if i % 2 else random_hand(rng, 13)
        expected = []
        for kind in range(34):
            if key[kind] < 4:
                grown = bytearray(key)
                grown[kind] += 1
                if MAHJONG.is_complete(bytes(grown)):
                    expected.append(kind)
        assert MAHJONG.waits(key) == expected
        assert (MAHJONG.shanten(key) == 0) is bool(expected) or (
            # ready on the fifth copy only: shanten counts it as one away
            MAHJONG.shanten(key) == 1 and not expected
        )


def test_fast_waits_agree_with_the_generic_path() -> None:
    # waits4 reads the four group codes' sum; the generic path walks the groups: every
    # number of melds, both flags, bytes and bytearray, hands near and far from ready
    rng = random.Random(13)
    for i in range(6000):
        declared = i % 5
        n = 13 - 3 * declared + (1 if i % 23 == 0 else 0)  # now and then a wrong size
        key = near_complete(rng, n) if i % 3 else random_hand(rng, n)
        for seven_pairs, quad in ((True, True), (True, False), (False, True)):
            expected = MAHJONG._waits(
                key, declared, seven_pairs=seven_pairs, quad_as_two_pairs=quad
            )
            for counts in (key, bytearray(key)):
                got = MAHJONG.waits(
                    counts, declared, seven_pairs=seven_pairs, quad_as_two_pairs=quad
                )
                assert got == expected, (key, declared, seven_pairs, quad)


@pytest.mark.parametrize("bad", [b"\x00" * 35, b"\x02" + b"\x00" * 32, b"", bytes(range(34))])
def test_bad_bytes_on_the_fast_paths(bad: bytes) -> None:
    if len(bad) == 34:
        # right length, counts far above four: outside the contract, but no crash
        assert MAHJONG.is_complete(bad) is False
        return
    for query in (
        MAHJONG.is_complete,
        MAHJONG.is_complete_standard,
        MAHJONG.shanten,
        MAHJONG.waits,
    ):
        with pytest.raises(ValueError, match="expected 34 counts"):
            query(bad)


def test_other_sequences_are_accepted() -> None:
    key = mahjong("123m456p789s11122z")
    for counts in (list(key), tuple(key), bytearray(key)):
        assert MAHJONG.is_complete(counts)
        assert MAHJONG.is_complete_standard(counts)
        assert MAHJONG.shanten(counts) == -1
        assert MAHJONG.waits(counts) == []
    hand = qinger("123456789s 123456789h JJJh 55c")
    assert QINGER.is_complete(list(hand)) and QINGER.shanten(tuple(hand)) == -1


def test_shanten_is_the_distance_to_a_complete_hand() -> None:
    """Shanten by its recursive definition, checked one step at a time: −1 exactly on
    complete hands; a one-short hand is one more than its best draw (a kind held four
    times cannot be drawn); a one-over hand that is not complete is its best discard.
    Together these pin every value down, so this is a brute force one level deep."""
    rng = random.Random(5)
    for i in range(1000):
        declared = (0, 0, 1, 2)[i % 4]
        n_tiles = 14 - 3 * declared
        key = near_complete(rng, 14) if i % 2 else random_hand(rng, 14)
        held = [k for k in range(34) for _ in range(key[k])]
        trimmed = bytearray(key)
        for k in rng.sample(held, 14 - n_tiles):
            trimmed[k] -= 1
        full = bytes(trimmed)
        for shanten, complete in (
            (MAHJONG.shanten_standard, MAHJONG.is_complete_standard),
            (
                lambda c, d: MAHJONG.shanten(c, d, quad_as_two_pairs=False),
                lambda c, d: MAHJONG.is_complete(c, d, quad_as_two_pairs=False),
            ),
        ):
            value = shanten(full, declared)
            assert (value == -1) is complete(full, declared), full
            discards = []
            for k in range(34):
                if full[k]:
                    short = bytearray(full)
                    short[k] -= 1
                    below = shanten(bytes(short), declared)
                    draws = []
                    for j in range(34):
                        if short[j] < 4:
                            short[j] += 1
                            draws.append(shanten(bytes(short), declared))
                            short[j] -= 1
                    assert below == 1 + min(draws), (bytes(short), declared)
                    discards.append(below)
            if value != -1:
                assert value == min(discards), full


def test_bad_declared_type_is_a_plain_error() -> None:
    key = mahjong("123m456p789s11122z")
    with pytest.raises(TypeError):
        MAHJONG.is_complete(key, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        MAHJONG.shanten(key, "1")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("size", "max_sets", "copies"), [(9, 4, 4), (9, 7, 4), (6, 4, 3), (10, 5, 4)]
)
def test_a_long_group_solved_in_halves_matches_one_pass(
    size: int, max_sets: int, copies: int
) -> None:
    from paiju.components.analysis import _GroupTable, _start

    table = _GroupTable(size, True, max_sets, copies)
    rng = random.Random(size * 31 + max_sets)
    for _ in range(400):
        key = [0] * size
        for _ in range(rng.randint(0, 3 * max_sets + 2)):
            k = rng.randrange(size)
            key[k] = min(copies, key[k] + 1)
        part = bytes(key)
        one_pass = table._finish(table._forward(part, 0, _start(max_sets)))
        assert table.distances(part) == one_pass, part
