"""Notation (``docs/spec/notation.md``): examples, round trips, hanzi, errors, counts."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.components.cards import ALL_CARDS, Card
from paiju.components.notation import (
    NotationError,
    TooManyCopiesError,
    card_counts,
    format_cards,
    format_tile_counts,
    format_tiles,
    parse_card,
    parse_cards,
    parse_tile,
    parse_tiles,
    tile_counts,
)
from paiju.components.tiles import ALL_TILES, Tile

T = Tile
C = Card


@pytest.mark.parametrize(
    ("text", "tiles"),
    [
        (
            "123m456p789s11z",
            [T.M1, T.M2, T.M3, T.P4, T.P5, T.P6, T.S7, T.S8, T.S9, T.Z1, T.Z1],
        ),
        ("55z", [T.Z5, T.Z5]),
        ("1f2f", [T.F1, T.F2]),
        ("12f", [T.F1, T.F2]),
        ("123m 55z 1f", [T.M1, T.M2, T.M3, T.Z5, T.Z5, T.F1]),
        (" 1 2m  3 m ", [T.M1, T.M2, T.M3]),
        ("", []),
        # the seed's honour order: 東1 南2 西3 北4 中5 發6 白7 (5z is 中, not riichi's 7z)
        ("1234567z", [T.Z1, T.Z2, T.Z3, T.Z4, T.Z5, T.Z6, T.Z7]),
        ("東南西北中發白", [T.Z1, T.Z2, T.Z3, T.Z4, T.Z5, T.Z6, T.Z7]),
        ("东发", [T.Z1, T.Z6]),
        ("中中中 19m", [T.Z5, T.Z5, T.Z5, T.M1, T.M9]),
        ("春夏秋冬梅蘭竹菊", list(T)[34:]),
        ("兰", [T.F6]),
        ("12m中3m", [T.M1, T.M2, T.Z5, T.M3]),
    ],
)
def test_parse_tiles_examples(text: str, tiles: list[Tile]) -> None:
    assert parse_tiles(text) == tiles


@pytest.mark.parametrize(
    ("tiles", "text"),
    [
        ([T.M1, T.M2, T.M3, T.P4, T.P5, T.P6, T.S7, T.S8, T.S9, T.Z1, T.Z1], "123m456p789s11z"),
        ([T.Z5, T.Z5], "55z"),
        ([T.F1, T.F2], "12f"),
        ([T.M1, T.Z5, T.M2], "1m5z2m"),
        ([], ""),
    ],
)
def test_format_tiles_examples(tiles: list[Tile], text: str) -> None:
    assert format_tiles(tiles) == text


def test_formatter_writes_digits_for_hanzi_input() -> None:
    assert format_tiles(parse_tiles("東南中發白")) == "12567z"


def test_format_tile_counts() -> None:
    counts = tile_counts(parse_tiles("5z 1m 9s 1m 春"))
    assert format_tile_counts(counts) == "11m9s5z1f"


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        ("123s456h789c", [C.S1, C.S2, C.S3, C.H4, C.H5, C.H6, C.C7, C.C8, C.C9]),
        ("JJJh", [C.HJ, C.HJ, C.HJ]),
        ("KhKhKc", [C.HK, C.HK, C.CK]),
        ("BJ SJ AD", [C.BJ, C.SJ, C.AD]),
        ("JQKh JQKc", [C.HJ, C.HQ, C.HK, C.CJ, C.CQ, C.CK]),
        ("1sBJ2s", [C.S1, C.BJ, C.S2]),
        ("9sSJ", [C.S9, C.SJ]),
        ("", []),
    ],
)
def test_parse_cards_examples(text: str, cards: list[Card]) -> None:
    assert parse_cards(text) == cards


@pytest.mark.parametrize(
    ("cards", "text"),
    [
        ([C.S1, C.S2, C.S3, C.H4, C.H5, C.H6, C.C7, C.C8, C.C9], "123s456h789c"),
        ([C.HJ, C.HJ, C.HJ], "JJJh"),
        ([C.HK, C.HK, C.CK], "KKhKc"),
        ([C.BJ, C.SJ, C.AD], "BJSJAD"),
        ([C.S1, C.BJ, C.S2], "1sBJ2s"),
    ],
)
def test_format_cards_examples(cards: list[Card], text: str) -> None:
    assert format_cards(cards) == text


@given(st.lists(st.sampled_from(ALL_TILES), max_size=30))
def test_tiles_round_trip(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tiles


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=30))
def test_cards_round_trip(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards


@given(st.lists(st.sampled_from(ALL_TILES), max_size=20), st.integers(0, 3))
def test_tiles_round_trip_with_spaces(tiles: list[Tile], every: int) -> None:
    # spaces between tokens change nothing
    text = format_tiles(tiles)
    spaced = " ".join(text) if every else text
    assert parse_tiles(spaced) == tiles


def test_single_parsers() -> None:
    assert parse_tile("5z") is T.Z5
    assert parse_tile("中") is T.Z5
    assert parse_card("Kc") is C.CK
    assert parse_card(" AD ") is C.AD
    with pytest.raises(NotationError, match="expected one tile"):
        parse_tile("11m")
    with pytest.raises(NotationError, match="expected one card"):
        parse_card("")


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("m", 0),  # suit letter without digits
        ("123", 0),  # digits without a suit letter
        ("11m 22", 4),
        ("0m", 0),  # no zero
        ("18z", 1),  # no 8z
        ("9f", 0),  # eight flowers only
        ("12mx", 3),
        ("123m 4q", 6),
        ("1中", 0),  # a digit waiting for a letter when a hanzi comes
        ("123M", 3),  # letters are lower case
    ],
)
def test_bad_tiles_name_the_position(text: str, position: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_tiles(text)
    assert isinstance(info.value, ValueError)
    assert info.value.position == position
    assert f"position {position}" in str(info.value)
    assert info.value.text == text


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("s", 0),
        ("123", 0),
        ("Js", 0),  # spades have no face cards
        ("12sJs", 3),
        ("0h", 0),
        ("1h 2x", 4),
        ("BK", 0),
        ("12BJ", 0),  # ranks still waiting for their suit
        ("AD1", 2),
    ],
)
def test_bad_cards_name_the_position(text: str, position: int) -> None:
    with pytest.raises(NotationError) as info:
        parse_cards(text)
    assert info.value.position == position
    assert f"position {position}" in str(info.value)


def test_counts_accept_the_physical_limits() -> None:
    counts = tile_counts(parse_tiles("1111m 春"))
    assert counts[T.M1] == 4 and counts[T.F1] == 1 and len(counts) == 42
    cards = card_counts(parse_cards("1111s JJJh Jc BJBJBJ SJSJ AD"))
    assert cards[C.HJ] == 3 and cards[C.CJ] == 1 and cards[C.BJ] == 3 and len(cards) == 36


@pytest.mark.parametrize("text", ["11111m", "春春", "5555z5z", "1f 1f"])
def test_tile_counts_reject_too_many(text: str) -> None:
    with pytest.raises(TooManyCopiesError) as info:
        tile_counts(parse_tiles(text))
    assert isinstance(info.value, ValueError)
    assert "only" in str(info.value)


@pytest.mark.parametrize(
    "text", ["KcKcKc", "KcKcKcKc", "Kc Kc", "JJJJh", "BJBJBJBJ", "SJSJSJ", "ADAD", "11111c"]
)
def test_card_counts_reject_too_many(text: str) -> None:
    with pytest.raises(TooManyCopiesError):
        card_counts(parse_cards(text))


def test_unchecked_counts() -> None:
    assert tile_counts(parse_tiles("11111m"), check=False)[0] == 5
