"""Tile and card kinds: stable indices, names in three languages, the physical counts."""

from __future__ import annotations

from collections import Counter

import pytest

from paiju.components.cards import ALL_CARDS, DECK_SIZE, N_CARD_KINDS, Card, full_deck
from paiju.components.tiles import (
    ALL_TILES,
    FLOWER_TILES,
    N_PLAYING_KINDS,
    N_TILE_KINDS,
    PLAYING_TILES,
    Tile,
)


def test_tile_kinds_and_indices() -> None:
    assert N_TILE_KINDS == len(ALL_TILES) == 42
    assert N_PLAYING_KINDS == len(PLAYING_TILES) == 34
    assert len(FLOWER_TILES) == 8
    assert [int(t) for t in ALL_TILES] == list(range(42))
    # the public identity of a kind: these never move
    assert (Tile.M1, Tile.M9, Tile.P1, Tile.S1, Tile.Z1, Tile.Z5, Tile.Z7, Tile.F1, Tile.F8) == (
        0,
        8,
        9,
        18,
        27,
        31,
        33,
        34,
        41,
    )


@pytest.mark.parametrize(
    ("tile", "zh", "zh_hant", "en", "text"),
    [
        (Tile.M1, "一万", "一萬", "1 Characters", "1m"),
        (Tile.P5, "五筒", "五筒", "5 Dots", "5p"),
        (Tile.S9, "九索", "九索", "9 Bamboo", "9s"),
        (Tile.Z1, "东", "東", "East", "1z"),
        (Tile.Z5, "中", "中", "Red Dragon", "5z"),
        (Tile.Z6, "发", "發", "Green Dragon", "6z"),
        (Tile.Z7, "白", "白", "White Dragon", "7z"),
        (Tile.F1, "春", "春", "Spring", "1f"),
        (Tile.F6, "兰", "蘭", "Orchid", "6f"),
        (Tile.F8, "菊", "菊", "Chrysanthemum", "8f"),
    ],
)
def test_tile_names(tile: Tile, zh: str, zh_hant: str, en: str, text: str) -> None:
    assert (tile.zh, tile.zh_hant, tile.en, str(tile)) == (zh, zh_hant, en, text)


def test_tile_names_are_distinct() -> None:
    for attr in ("zh", "zh_hant", "en"):
        names = [getattr(t, attr) for t in ALL_TILES]
        assert len(set(names)) == 42, attr


def test_tile_properties() -> None:
    assert [t for t in ALL_TILES if t.is_terminal] == [
        Tile.M1,
        Tile.M9,
        Tile.P1,
        Tile.P9,
        Tile.S1,
        Tile.S9,
    ]
    assert sum(t.is_number for t in ALL_TILES) == 27
    assert sum(t.is_wind for t in ALL_TILES) == 4
    assert sum(t.is_dragon for t in ALL_TILES) == 3
    assert sum(t.is_honour for t in ALL_TILES) == 7
    assert sum(t.is_flower for t in ALL_TILES) == 8
    # Jiaxing sets: 136 playing tiles; Taixing adds one of each flower (144)
    assert sum(t.copies for t in PLAYING_TILES) == 136
    assert sum(t.copies for t in ALL_TILES) == 144
    for t in ALL_TILES:
        assert Tile.of(t.suit, t.rank) is t


@pytest.mark.parametrize(("suit", "rank"), [("m", 0), ("m", 10), ("z", 8), ("f", 9), ("x", 1)])
def test_tile_of_rejects(suit: str, rank: int) -> None:
    with pytest.raises(ValueError, match="no tile"):
        Tile.of(suit, rank)


def test_card_kinds_and_indices() -> None:
    assert N_CARD_KINDS == len(ALL_CARDS) == 36
    assert [int(c) for c in ALL_CARDS] == list(range(36))
    assert (Card.S1, Card.H1, Card.C1, Card.HJ, Card.HK, Card.CJ, Card.CK) == (
        0,
        9,
        18,
        27,
        29,
        30,
        32,
    )
    assert (Card.BJ, Card.SJ, Card.AD) == (33, 34, 35)


def test_full_deck_counts() -> None:
    deck = full_deck()
    assert len(deck) == DECK_SIZE == 126
    count = Counter(deck)
    for card in ALL_CARDS[:27]:
        assert count[card] == 4, card
    for card in (Card.HJ, Card.HQ, Card.HK):
        assert count[card] == 3
    for card in (Card.CJ, Card.CQ, Card.CK):
        assert count[card] == 1
    assert (count[Card.BJ], count[Card.SJ], count[Card.AD]) == (3, 2, 1)
    assert deck == sorted(deck)


@pytest.mark.parametrize(
    ("card", "expected"),
    [
        (Card.S1, ("黑桃1", "黑桃1", "1 of Spades", "1s", 0)),
        (Card.H5, ("红桃5", "紅桃5", "5 of Hearts", "5h", 13)),
        (Card.C9, ("草花9", "草花9", "9 of Clubs", "9c", 26)),
        (Card.HJ, ("红桃J", "紅桃J", "Jack of Hearts", "Jh", 27)),
        (Card.CJ, ("草花J", "草花J", "Jack of Clubs", "Jc", 27)),
        (Card.HK, ("红桃K", "紅桃K", "King of Hearts", "Kh", 29)),
        (Card.CK, ("草花K", "草花K", "King of Clubs", "Kc", 29)),
        (Card.BJ, ("大鬼", "大鬼", "Big Joker", "BJ", -1)),
        (Card.SJ, ("小鬼", "小鬼", "Small Joker", "SJ", -1)),
        (Card.AD, ("广告", "廣告", "Advertisement", "AD", -1)),
    ],
)
def test_card_names(card: Card, expected: tuple[str, str, str, str, int]) -> None:
    """(简体, 繁體, English, notation, meld kind)."""
    assert (card.zh, card.zh_hant, card.en, str(card), card.meld_kind) == expected


def test_card_names_are_distinct_and_meld_kinds_cover_thirty() -> None:
    for attr in ("zh", "zh_hant", "en"):
        assert len({getattr(c, attr) for c in ALL_CARDS}) == 36, attr
    assert {c.meld_kind for c in ALL_CARDS} == set(range(30)) | {-1}
    # by meld kind, each J/Q/K rank has four cards, like a number kind
    per_kind = Counter(c.meld_kind for c in full_deck())
    assert all(per_kind[k] == 4 for k in range(30))
    assert sum(c.is_flower for c in ALL_CARDS) == 3
    assert sum(c.is_face for c in ALL_CARDS) == 6
    assert sum(c.is_joker for c in ALL_CARDS) == 2
