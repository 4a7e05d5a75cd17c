"""The settlement (``paiju.tui.app.settlement``) reads only events and the view."""

from __future__ import annotations

import io
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.console import Console
from rich.table import Table

from paiju.components.tiles import Tile
from paiju.engine.events import Event
from paiju.engine.match import HandSummary
from paiju.tui.app.settlement import LEDGER_ROWS, items_table, ledger_table, settlement, win_heading
from paiju.tui.app.words import Words
from paiju.tui.render import PieceStyle
from paiju.tui.session import PlaySession


def words(variant: str = "jiaxing", lang: str = "zh", n: int = 4) -> Words:
    return Words(variant, lang, 0, n, PieceStyle(variant, lang, "code"))


def plain(renderable: Any) -> str:
    console = Console(width=1000, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def finished_hand(variant: str, seed: int) -> tuple[dict[str, Any], list[Event]]:
    """The person's view and the events of one whole hand (everyone plays greedy or
    the hand's own timeout move)."""
    session = PlaySession(variant, seed=seed)
    session.start_hand()
    while (seat := session.next_seat()) is not None:
        if session.human_to_act:
            session.human_act(session.hand.default_action(seat))
        else:
            session.bot_step()
    return session.hand.view(session.human), list(session.hand_events)


@pytest.mark.parametrize("variant", ["jiaxing", "taixing", "qinger"])
def test_a_finished_hand_shows_every_score_item_payment_and_the_explanation(
    variant: str,
) -> None:
    view, events = finished_hand(variant, seed=3)
    w = words(variant, n=len(view["players"]))
    text = plain(settlement(w, view, events, ledger=Table(), saved_path=None, last=False))
    for ev in events:
        if ev.type == "score":
            for item in ev.data["items"]:
                assert item["name"] in text
        if ev.type == "payment":
            assert f"{ev.data['amount']} 分" in text
    explained = events[-1].data["explanation"]["text"]["zh"]
    assert all(line.strip() in text for line in explained.splitlines())
    assert "回车 下一局" in text


def test_a_win_that_counts_as_a_self_draw_is_paid_by_each() -> None:
    """Jiaxing: the scorer's ``counts_as`` decides the label, not how the tile came."""
    w = words()
    score = {"items": [{"id": "zi_mo", "name": "自摸", "value": 3}], "per_payer": 3}
    discard_win = {"how": "discard"}
    assert "牌值 3 分" in plain(items_table(w, score, discard_win))
    assert "每家付 3 分" in plain(items_table(w, {**score, "counts_as": "self_draw"}, discard_win))
    assert "每家付 3 分" in plain(items_table(w, score, {"how": "self_draw"}))


def test_the_heading_names_the_discarder_or_the_robbed_seat() -> None:
    w = words()
    five = int(Tile(4))
    discard = win_heading(w, 0, {"how": "discard", "tile": "5m"}, source=1)
    assert "下家放炮" in discard.plain
    robbed = win_heading(w, 0, {"how": "robbed_kong", "tile": "5m"}, source=3)
    assert "抢上家的杠" in robbed.plain
    assert "自摸" in win_heading(w, 2, {"how": "self_draw", "tile": "5m"}, source=-1).plain
    events = [Event("discard", 2, five), Event("added_kong", 3, five)]
    from paiju.tui.app.board import last_actor

    assert last_actor(events) == 3


def test_the_ledger_lists_the_last_hands_and_the_totals() -> None:
    w = words()
    hands = [
        HandSummary(i, i % 4, i, [], False, True, [1, -1, 0, 0], 0) for i in range(LEDGER_ROWS + 2)
    ]
    text = plain(ledger_table(w, hands, [10, -10, 0, 0]))
    assert "…" in text
    assert f" {LEDGER_ROWS + 2} " in text
    assert "+10" in text and "-10" in text


def test_english_item_names_keep_their_count_and_factor() -> None:
    """The score event names an item in 简体 with its count (见牌碰 ×2); the English table
    says the same count (Pong, seen rank ×2), a doubling its factor."""
    from paiju.variants import find_variant

    rows = find_variant("qinger").item_rows()
    pong = rows["jian_pai_peng"].scored(8, count=2).to_json()
    once = rows["peng"].scored().to_json()
    score = {"items": [pong, once], "score": 9}
    text = plain(items_table(words("qinger", "en", 3), score, {"how": "discard"}))
    assert "Pong, seen rank ×2" in text
    assert "Pong, unseen rank " in text and "Pong, unseen rank ×" not in text
    zh = plain(items_table(words("qinger", "zh", 3), score, {"how": "discard"}))
    assert "见牌碰 ×2" in zh
    doubled = rows["san_hong"].multiplier(40, 2)
    shown = plain(items_table(words("qinger", "en", 3), {"items": [doubled.to_json()]}, {}))
    assert "Three reds: J, Q and K as sets ×2" in shown
