"""The game log (``paiju.tui.app.log``): public events only, in the person's words."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from paiju.components.tiles import Tile
from paiju.engine.events import Event
from paiju.tui.app.log import PRIVATE_EVENTS, describe, payment_line
from paiju.tui.app.words import Words
from paiju.tui.render import PieceStyle

FIVE_MAN = int(Tile(4))


def words(lang: str = "zh") -> Words:
    return Words("jiaxing", lang, 0, 4, PieceStyle("jiaxing", lang, "code"))


@pytest.mark.parametrize("kind", sorted(PRIVATE_EVENTS))
def test_private_events_are_never_logged(kind: str) -> None:
    assert describe(words(), Event(kind, 1, FIVE_MAN)) is None


def test_a_discard_names_the_seat_and_the_tile() -> None:
    line = describe(words(), Event("discard", 3, FIVE_MAN))
    assert line is not None
    assert line.plain.startswith("上家")
    assert "5m" in line.plain or "五万" in line.plain


def test_another_seats_concealed_kong_hides_its_tile_but_ones_own_shows_it() -> None:
    w = words()
    other = describe(w, Event("concealed_kong", 1, FIVE_MAN))
    own = describe(w, Event("concealed_kong", 0, FIVE_MAN))
    assert other is not None and own is not None
    name = w.pieces.name("5m")
    assert name not in other.plain
    assert name in own.plain


def test_payments_name_their_reason_from_the_item_table() -> None:
    data = {"payer": 1, "payee": 0, "amount": 4, "reason": "zi_mo"}
    assert "自摸" in payment_line(words(), data)
    assert "self-drawn" in payment_line(words("en"), data)
    line = describe(words(), Event("payment", 0, data=data))
    assert line is not None and "4" in line.plain


@pytest.mark.parametrize(("lang", "words_in"), [("zh", "翻混"), ("en", "wild")])
def test_hun_indicator_names_the_wild_kinds(lang: str, words_in: str) -> None:
    from paiju.components.tiles import TILE_TEXT
    from paiju.variants.jiaxing.options import JiaxingOptions
    from paiju.variants.jiaxing.variant import JIAXING

    hand = JIAXING.new_hand(JiaxingOptions(hun=True), seed=1, dealer=0, carry={})
    (event,) = [e for e in hand.log if e.type == "indicator"]
    line = describe(words(lang), event)
    assert line is not None
    assert words_in in line.plain and "见牌" not in line.plain
    w = words(lang)
    for kind in hand.rules.wild_kinds:
        assert w.pieces.name(TILE_TEXT[kind]) in line.plain
