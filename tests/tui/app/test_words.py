"""How the terminal names seats and actions (``paiju.tui.app.words``)."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from paiju.tui.app.words import Words
from paiju.tui.render import PieceStyle


def words(variant: str = "jiaxing", lang: str = "zh", human: int = 0, n: int = 4) -> Words:
    return Words(variant, lang, human, n, PieceStyle(variant, lang, "code"))


def test_seats_are_named_from_the_persons_seat() -> None:
    w = words(human=2)
    assert [w.who(s) for s in range(4)] == ["对家", "上家", "我", "下家"]
    three = words("qinger", human=0, n=3)
    assert [three.who(s) for s in range(3)] == ["我", "下家", "上家"]
    assert words(lang="en").who(1) == "Right"


def test_winds_count_from_the_dealer() -> None:
    w = words()
    assert [w.wind(s, dealer=1) for s in range(4)] == ["北", "东", "南", "西"]


def test_actions_are_named_with_their_piece_and_the_variants_own_word() -> None:
    w = words(lang="en")
    assert w.action_name("zimo") == "Self-draw win"
    assert w.action_name("an5m").startswith("Concealed kong ")
    assert w.action_name("chi1", "5m").split()[1:] == [w.pieces.name(t) for t in ("4m", "5m", "6m")]
    assert words("qinger").action_name("anK") == "暗笃 K"
    assert words().action_name("anK".replace("K", "5m")).startswith("暗杠")
