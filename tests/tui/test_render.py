"""Tile and card labels, and the UI string table."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("rich")

from rich.cells import cell_len

from paiju.components.cards import Card
from paiju.components.tiles import Tile
from paiju.tui import i18n
from paiju.tui.render import TILE_STYLES, PieceStyle, tile_faces, tile_label


@pytest.mark.parametrize("style", ["hanzi", "code"])
def test_every_tile_label_is_four_cells(style: str) -> None:
    pieces = PieceStyle("taixing", tile_style=style)  # type: ignore[arg-type]
    for tile in Tile:
        assert cell_len(pieces.label(str(tile))) == 4, tile
        top, bottom = tile_faces(tile, style)  # type: ignore[arg-type]
        assert cell_len(top) <= 2 and cell_len(bottom) <= 2


def test_hanzi_and_code_names() -> None:
    assert tile_label(Tile.M5, "hanzi") == "五万"
    assert tile_label(Tile.P1, "hanzi") == "一筒"
    assert tile_label(Tile.Z1, "hanzi") == "东风"
    assert tile_label(Tile.Z5, "hanzi") == "红中"
    assert tile_label(Tile.Z6, "hanzi") == "发财"
    assert tile_label(Tile.F1, "hanzi") == "春"
    assert tile_label(Tile.M5, "code") == "5m"
    assert tile_label(Tile.Z1, "code") == "東"
    assert tile_label(Tile.Z5, "code") == "中"
    assert tile_faces(Tile.S9, "hanzi") == ("九", "索")


def test_glyphs_follow_the_unicode_mahjong_block() -> None:
    assert tile_label(Tile.Z1, "glyph").strip() == "\U0001f000"  # east wind
    assert tile_label(Tile.Z5, "glyph").strip() == "\U0001f004"  # red dragon
    assert tile_label(Tile.Z7, "glyph").strip() == "\U0001f006"  # white dragon
    assert tile_label(Tile.M1, "glyph").strip() == "\U0001f007"  # one of characters
    assert tile_label(Tile.S1, "glyph").strip() == "\U0001f010"  # one of bamboos
    assert tile_label(Tile.P9, "glyph").strip() == "\U0001f021"  # nine of circles
    assert tile_label(Tile.F1, "glyph").strip() == "\U0001f026"  # spring
    assert tile_label(Tile.F5, "glyph").strip() == "\U0001f022"  # plum
    assert tile_label(Tile.F8, "glyph").strip() == "\U0001f025"  # chrysanthemum
    assert "glyph" in TILE_STYLES


def test_cards() -> None:
    zh = PieceStyle("qinger", "zh")
    en = PieceStyle("qinger", "en")
    assert zh.cards
    assert zh.name("6s") == "黑6"
    assert zh.name("Kc") == "花K"
    assert zh.name("BJ") == "大鬼"
    assert zh.name("AD") == "广告"
    assert en.name("Jh") == "Jh"
    for card in Card:
        assert cell_len(zh.label(str(card))) == 4
    assert zh.split("123s BJ") == ["1s", "2s", "3s", "BJ"]
    assert sorted(["BJ", "1s", "9c"], key=zh.sort_key) == ["1s", "9c", "BJ"]


def test_sorting_follows_the_tile_order() -> None:
    pieces = PieceStyle("jiaxing")
    shuffled = ["5z", "1m", "9s", "1z", "5p", "2m"]
    assert sorted(shuffled, key=pieces.sort_key) == ["1m", "2m", "5p", "9s", "1z", "5z"]


def test_every_ui_string_exists_in_both_languages_with_the_same_fields() -> None:
    field = re.compile(r"\{(\w+)\}")
    for key in i18n.all_keys():
        zh = i18n.text(key, "zh")
        en = i18n.text(key, "en")
        assert zh and en, key
        assert set(field.findall(zh)) == set(field.findall(en)), key
    with pytest.raises(KeyError, match="no UI string"):
        i18n.text("no.such.key")
    with pytest.raises(ValueError, match="unknown language"):
        i18n.text("seat.me", "fr")


def test_item_and_reason_names() -> None:
    assert i18n.item_name("jiaxing", "qing_yi_se") == "清一色"
    assert i18n.item_name("jiaxing", "qing_yi_se", "en") == "one suit, no honours"
    assert i18n.item_name("jiaxing", "gang") == "杠钱"
    assert i18n.item_name("taixing", "zi_mo") == "自摸"
    assert i18n.item_name("qinger", "bi_fen", "en") == "score difference"
    assert i18n.item_name("jiaxing", "made_up") == "made_up"


def test_item_values_carry_their_unit() -> None:
    assert i18n.item_value("jiaxing", "qing_yi_se", 9) == "9 分"
    assert i18n.item_value("taixing", "xiao_hu", 1) == "1 番"
    assert i18n.item_value("taixing", "hua", 4) == "4 花"
    assert i18n.item_value("taixing", "bao_zi", 2, "en") == "×2"
    assert i18n.item_value("qinger", "da_gui", 10) == "10 分"


def test_wild_tiles_are_marked() -> None:
    from paiju.tui.render import FACE_BG, WILD_BG, PieceStyle

    style = PieceStyle("jiaxing")
    style.wild = frozenset({"5z", "6z"})
    assert style.chip("6z").style.bgcolor.name == WILD_BG  # type: ignore[union-attr]
    assert style.chip("7z").style.bgcolor.name == FACE_BG  # type: ignore[union-attr]
    assert style.face("5z").style.underline  # type: ignore[union-attr]
