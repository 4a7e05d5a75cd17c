"""The 验证 (verify) panel in Debian's chromium (issue 13 item 6): the room's commitment is
on the table before the first deal, and once the match ends the page checks the revealed
server seed and every wall of the record by itself; a record that does not match the seeds
is shown as failing, naming the first wall that does not."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from test_e2e_browser import DESKTOP, PHONE, client_state, create_room, new_page, play_match

ServerThread = Any


def room_info(server: ServerThread, code: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/rooms/{code}", timeout=10) as r:
        room: dict[str, Any] = json.load(r)
    return room.get("room", room)


def open_panel(page: Any) -> Any:
    panel = page.get_by_test_id("fair-panel")
    panel.wait_for()
    if panel.get_attribute("open") is None:
        panel.locator("summary").click()
    return panel


def play_one_hand_match(page: Any, server: ServerThread, out: Path) -> tuple[str, str]:
    """A one-hand Jiaxing match against three bots; returns (room code, commitment shown)."""
    code = create_room(page, server, "jiaxing", ["person", "greedy", "greedy", "greedy"], "验证")
    page.get_by_test_id("my-hand").wait_for()
    panel = open_panel(page)
    commitment = str(panel.get_by_test_id("fair-commitment").get_attribute("title"))
    # the commitment shown at the start is the room's, and the seed is not out yet
    assert commitment == room_info(server, code)["fair"]["commitment"]
    assert len(commitment) == 64
    assert panel.get_by_test_id("fair-reveal").inner_text() == "终局后公开"
    assert panel.get_by_test_id("fair-myseed").inner_text() not in ("", "—")
    page.screenshot(path=str(out / "01-commitment.png"))
    assert play_match([page], 4, out, "02") == 1
    page.get_by_test_id("close-settlement").click()
    return code, commitment


def test_verify_panel_shows_the_commitment_then_checks_the_match_and_again_deals_anew(
    server: ServerThread, browser: Any, output_dir: Path
) -> None:
    page = new_page(browser, DESKTOP)
    code, commitment = play_one_hand_match(page, server, output_dir)
    panel = open_panel(page)
    result = panel.get_by_test_id("fair-result")
    result.wait_for()
    assert "验证通过" in result.inner_text(), result.inner_text()
    assert "✓ 通过" in panel.locator("summary").inner_text()
    reveal = client_state(page)["matchEnd"]["fair"]
    assert panel.get_by_test_id("fair-reveal").get_attribute("title") == reveal["server_seed"]
    # the commitment shown before the deal did not change
    assert panel.get_by_test_id("fair-commitment").get_attribute("title") == commitment
    page.screenshot(path=str(output_dir / "03-verified.png"))
    # the same in English
    page.get_by_test_id("lang-switch").click()
    assert "Verified" in panel.get_by_test_id("fair-result").inner_text()
    page.get_by_test_id("lang-switch").click()
    # 再来一场: a new room of the same game and seats, this person seated, a new commitment
    page.get_by_test_id("again").click()
    page.wait_for_function(
        "old => { const r = window.__paiju.state().room; return r && r.code !== old; }",
        arg=code,
    )
    page.get_by_test_id("my-hand").wait_for()
    state = client_state(page)
    new_room = state["room"]
    assert new_room["variant"] == "jiaxing" and state["seat"] == 0
    assert [s["kind"] for s in new_room["seats"]] == ["person", "bot", "bot", "bot"]
    assert f"#/room/{new_room['code']}" in page.url
    panel = open_panel(page)
    fresh = panel.get_by_test_id("fair-commitment").get_attribute("title")
    assert fresh == room_info(server, new_room["code"])["fair"]["commitment"] != commitment
    assert panel.get_by_test_id("fair-reveal").inner_text() == "终局后公开"
    page.context.close()


def test_verify_panel_shows_a_record_that_does_not_match_as_failing(
    server: ServerThread, browser: Any, output_dir: Path
) -> None:
    page = new_page(browser, PHONE)
    tampered: list[str] = []

    def swap_two_wall_pieces(route: Any) -> None:
        # the record as the server sent it, with two different pieces of the first wall
        # swapped: a wall the seeds did not deal
        lines = [json.loads(x) for x in route.fetch().text().splitlines() if x.strip()]
        for line in lines:
            if line.get("type") == "hand_end" and line.get("walls"):
                wall = line["walls"][0]
                k = next(i for i, p in enumerate(wall) if p != wall[0])
                wall[0], wall[k] = wall[k], wall[0]
                tampered.append(route.request.url)
                break
        body = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"
        route.fulfill(status=200, content_type="application/x-ndjson", body=body)

    page.route("**/api/games/*/record*", swap_two_wall_pieces)
    play_one_hand_match(page, server, output_dir)
    panel = open_panel(page)
    result = panel.get_by_test_id("fair-result")
    result.wait_for()
    text = result.inner_text()
    assert tampered, "the page did not fetch the record"
    assert "验证未通过" in text and "第 1 局的第 1 副牌墙" in text, text
    assert "✗ 未通过" in panel.locator("summary").inner_text()
    assert "bad" in str(result.get_attribute("class"))
    page.screenshot(path=str(output_dir / "03-failed.png"), full_page=True)
    page.context.close()
