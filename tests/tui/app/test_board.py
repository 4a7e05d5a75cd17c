"""The table on screen (``paiju.tui.app.board``), drawn from views and events only."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("textual")

from paiju.components.tiles import Tile
from paiju.engine.events import Event
from paiju.tui.app.board import (
    ACTION_KEYS,
    action_group,
    actions_markup,
    last_discarder,
    meld_text,
    prompt,
    seat_title,
    wait_hint,
)
from paiju.tui.app.words import Words
from paiju.tui.render import PieceStyle

FIVE = int(Tile(4))


def words(variant: str = "jiaxing") -> Words:
    return Words(variant, "zh", 0, 4, PieceStyle(variant, "zh", "code"))


@pytest.mark.parametrize(
    ("action", "group"),
    [
        ("d5m", None),
        ("zimo", "hu"),
        ("hu", "hu"),
        ("an5m", "kong"),
        ("jia5m", "kong"),
        ("kong", "kong"),
        ("wuxi", "qifei"),
        ("qifei9c", "qifei"),
        ("chi2", "chi"),
        ("ting5m", "ting"),
        ("knock", "knock"),
        ("pass", "pass"),
    ],
)
def test_every_action_has_its_key_group(action: str, group: str | None) -> None:
    assert action_group(action) == group
    assert group is None or group in {g for _, g in ACTION_KEYS}


def test_the_action_bar_offers_only_legal_groups_and_numbers_a_choice() -> None:
    w = words()
    bar = actions_markup(w, ["d5m", "an5m", "an6m", "zimo"], choices=None, claim=None)
    assert "app.press('k')" in bar and "app.press('h')" in bar
    assert "app.press('p')" not in bar
    menu = actions_markup(w, [], choices=["an5m", "an6m"], claim=None)
    assert "app.press('1')" in menu and "app.press('2')" in menu and "Esc" in menu


def test_the_river_loses_its_highlight_once_its_discard_is_claimed() -> None:
    assert last_discarder([Event("discard", 2, FIVE)]) == 2
    assert last_discarder([Event("discard", 2, FIVE), Event("pong", 1, FIVE)]) == -1


def view(**extra: Any) -> dict[str, Any]:
    player = {"seat": 0, "melds": [], "discards": "", "concealed_count": 13}
    return {"dealer": 0, "phase": "act", "players": [player], "net": [3], **extra}


def test_the_seat_title_adds_this_hands_money_to_the_match_total() -> None:
    title = seat_title(words(), 0, view(), sealed=True, match_total=-5)
    assert title.split(" · ") == ["我", "东", "庄", "封胡", "-2"]


def test_a_claim_prompt_shows_the_tile_and_who_offered_it() -> None:
    out = prompt(
        words(),
        view(phase="claim", claim_tile="5m"),
        ["pong", "pass"],
        mode="normal",
        waiting_for=0,
        offered_by=3,
        hint=None,
    )
    assert "上家" in out.plain and "5m" in out.plain
    waiting = prompt(words(), view(), [], mode="normal", waiting_for=1, offered_by=-1, hint=None)
    assert "下家" in waiting.plain


def test_the_wait_hint_reads_the_views_ready_discards() -> None:
    assert wait_hint(words(), view(ready_discards={"5m": ["3p", "6p"]}), "5m") is not None
    assert wait_hint(words(), view(ready_discards={"5m": ["3p"]}), "6m") is None
    assert wait_hint(words("qinger"), view(ready_discards={"5s": ["3s"]}), "5s") is None


def test_a_meld_names_the_seat_that_fed_it() -> None:
    assert "← 上家" in meld_text(words(), {"type": "pong", "tile": "5m", "from": 3}).plain
    assert "←" not in meld_text(words(), {"type": "concealed_kong", "tile": "5m"}).plain
