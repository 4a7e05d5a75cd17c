"""The browser client against the real server in Debian's chromium: a whole hand played by
clicking, a drop and reconnect mid-hand, and a spectator who never sees a concealed tile."""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from paiju.server.protocol import ROOM_CODE_LENGTH

ServerThread = Any
"""The ``server`` fixture (tests/e2e/conftest.py): ``.url`` is its address."""

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1100, "height": 820}
HAND_SECONDS = 120


def new_page(browser: Any, viewport: dict[str, int] = DESKTOP) -> Any:
    context = browser.new_context(viewport=viewport, locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def create_room(page: Any, server: ServerThread, variant: str, seats: list[str], name: str) -> str:
    """Create a room from the lobby; ``seats``: "person" or a bot level per seat."""
    page.goto(server.url + "/#/")
    page.get_by_test_id(f"variant-{variant}").click()
    page.get_by_test_id("hands").select_option("1")
    page.get_by_test_id("name").fill(name)
    for i, choice in enumerate(seats):
        page.get_by_test_id(f"seat-choice-{i}").select_option(choice)
    page.get_by_test_id("create").click()
    code: str = page.get_by_test_id("room-code").inner_text(timeout=10_000)
    assert len(code) == ROOM_CODE_LENGTH
    return code


def client_state(page: Any) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("() => window.__paiju.state()")
    return state


def act_once(page: Any) -> bool:
    """Click one legal thing if this page may act now: a win, else pass, else a discard
    (the drawn tile first). Returns whether it clicked."""
    state = client_state(page)
    game = state.get("game") or {}
    legal: list[str] = game.get("legal") or []
    if not legal or state.get("settlement"):
        return False
    turn = game.get("turn")
    for pick in ("zimo", "hu", "pass", "knock"):
        if pick in legal:
            target = page.get_by_test_id(f"action-{pick}")
            break
    else:
        drawn = page.locator(".hand-piece.drawn.playable")
        target = drawn if drawn.count() else page.locator(".hand-piece.playable").first
        if not target.count():
            buttons = page.locator("[data-testid^=action-]:not([data-testid=action-tingmode])")
            target = buttons.first
    try:
        target.click(timeout=2_000)
    except Exception:
        # the table moved on under the click (another seat's claim); look again
        return False
    # wait until the server has answered: every move is acknowledged with nothing left to
    # decide (what follows may wait for someone else's claim answer)
    page.wait_for_function(
        "t => { const g = window.__paiju.state().game;"
        " return !g || g.turn !== t || !(g.legal || []).length; }",
        arg=turn,
        timeout=10_000,
    )
    return True


def play_until_settled(pages: list[Any], seconds: float = HAND_SECONDS) -> int:
    """Every page acts whenever it may, until each shows the settlement; returns clicks."""
    clicks = 0
    deadline = time.monotonic() + seconds
    while True:
        if all(client_state(p).get("settlement") for p in pages):
            return clicks
        assert time.monotonic() < deadline, "the hand did not finish in time"
        moved = False
        for p in pages:
            if act_once(p):
                clicks += 1
                moved = True
        if not moved:
            time.sleep(0.05)


def hand_pieces(page: Any) -> list[str]:
    return [
        str(el.get_attribute("data-piece"))
        for el in page.get_by_test_id("hand-tile").element_handles()
    ]


@pytest.mark.parametrize("variant", ["taixing", "jiaxing", "qinger"])
def test_person_plays_a_whole_hand_by_clicking_and_sees_the_settlement(
    server: ServerThread, browser: Any, output_dir: Path, variant: str
) -> None:
    page = new_page(browser, PHONE if variant == "jiaxing" else DESKTOP)
    n = 3 if variant == "qinger" else 4
    create_room(page, server, variant, ["person"] + ["greedy"] * (n - 1), "小明")
    page.get_by_test_id("board").wait_for()
    page.get_by_test_id("my-hand").wait_for()
    assert page.get_by_test_id("hand-tile").count() >= 13
    # every tile or card face is our own SVG, named by its notation
    first = page.get_by_test_id("hand-tile").first.locator("svg.piece")
    assert first.get_attribute("data-piece")
    page.screenshot(path=str(output_dir / "01-deal.png"))
    readme_shot = os.environ.get("PAIJU_README_SCREENSHOT")
    clicks = 0
    # play a few decisions, take a mid-hand picture, then play the hand out
    while clicks < 4 and not client_state(page).get("settlement"):
        if act_once(page):
            clicks += 1
        else:
            time.sleep(0.05)
    page.screenshot(path=str(output_dir / "02-mid-hand.png"))
    if readme_shot and variant == "taixing":
        # the README's picture: the table when it is the person's turn to discard
        page.wait_for_function(
            "() => (window.__paiju.state().game?.legal ?? []).some(a => a.startsWith('d'))"
        )
        page.set_viewport_size({"width": 1000, "height": 640})
        page.locator(".hand-piece.playable").first.wait_for()
        page.screenshot(path=readme_shot)
        page.set_viewport_size(DESKTOP)
    clicks += play_until_settled([page])
    assert clicks > 0
    settlement = page.get_by_test_id("settlement")
    settlement.wait_for()
    assert "结算" in settlement.inner_text()
    state = client_state(page)
    net = state["settlement"]["net"]
    assert len(net) == n and sum(net) == 0
    # the match ledger has the hand, and the totals on the table agree with the settlement
    ledger = page.get_by_test_id("ledger")
    ledger.wait_for()
    assert "战绩" in ledger.inner_text()
    for seat in range(n):
        assert page.get_by_test_id(f"total-{seat}").inner_text().lstrip("+") == str(net[seat])
    page.get_by_test_id("match-over").wait_for()
    page.screenshot(path=str(output_dir / "03-settlement.png"), full_page=True)
    # the English switch
    page.get_by_test_id("lang-switch").click()
    assert "Settlement" in page.get_by_test_id("settlement").inner_text()
    page.get_by_test_id("lang-switch").click()
    # the finished game replays step by step from its stored record
    page.get_by_test_id("replay-link").click()
    step = page.get_by_test_id("replay-step")
    step.wait_for()
    before = step.inner_text()
    page.get_by_test_id("replay-next").click()
    assert step.inner_text() != before
    page.get_by_test_id("replay-last").click()
    page.screenshot(path=str(output_dir / "04-replay-end.png"), full_page=True)
    page.context.close()


def test_second_player_drops_and_reconnects_mid_hand(
    server: ServerThread, browser: Any, output_dir: Path
) -> None:
    host = new_page(browser)
    code = create_room(host, server, "taixing", ["person", "person", "greedy", "greedy"], "甲")
    friend_context = browser.new_context(viewport=PHONE, locale="zh-CN")
    friend = friend_context.new_page()
    friend.set_default_timeout(15_000)
    # join by code from the lobby, as a friend would
    friend.goto(server.url + "/#/")
    friend.get_by_test_id("join-code").fill(code.lower())
    friend.get_by_test_id("join").click()
    friend.get_by_test_id("waiting").wait_for()
    friend.get_by_test_id("seat-name").fill("乙")
    friend.get_by_test_id("take-1").click()
    friend.get_by_test_id("my-hand").wait_for()
    host.get_by_test_id("my-hand").wait_for()
    # play a little so that the drop happens in the middle of the hand
    friend_moves = 0
    deadline = time.monotonic() + 60
    while friend_moves < 2 and not client_state(friend).get("settlement"):
        assert time.monotonic() < deadline
        act_once(host)
        if act_once(friend):
            friend_moves += 1
    if client_state(friend).get("settlement"):
        pytest.fail("the hand ended before the drop could be tested; change the seed")
    # wait for a moment when the friend has nothing to decide (so no clock is running)
    while client_state(friend)["game"]["legal"]:
        act_once(friend)
        act_once(host)
    before = Counter(hand_pieces(friend))
    friend.screenshot(path=str(output_dir / "01-before-drop.png"))
    friend.close()
    host.locator("[data-testid=seat-1] .tag").first.wait_for()
    assert "离线" in host.get_by_test_id("seat-1").inner_text()
    host.screenshot(path=str(output_dir / "02-host-sees-away.png"))
    # the friend comes back in a new tab: the stored seat token takes the seat back
    friend = friend_context.new_page()
    friend.set_default_timeout(15_000)
    friend.goto(f"{server.url}/#/room/{code}")
    friend.get_by_test_id("my-hand").wait_for()
    state = client_state(friend)
    assert state["seat"] == 1
    assert friend.get_by_test_id("spectating").count() == 0
    after = Counter(hand_pieces(friend))
    # nothing was played for the friend while away (a draw may have come in)
    assert not before - after, (before, after)
    friend.get_by_test_id("seat-1").locator(".tag").filter(has_text="离线").wait_for(
        state="detached"
    )
    friend.screenshot(path=str(output_dir / "03-after-reconnect.png"))
    # leaving on purpose hands the seat to a bot; the same token takes it back
    friend.get_by_test_id("leave").click()
    friend.get_by_test_id("rejoin").click()
    friend.get_by_test_id("left").wait_for(state="detached")
    friend.get_by_test_id("my-hand").wait_for()
    assert client_state(friend)["seat"] == 1
    play_until_settled([host, friend])
    assert friend.get_by_test_id("settlement").is_visible()
    friend.screenshot(path=str(output_dir / "04-settlement.png"), full_page=True)
    host.context.close()
    friend_context.close()


def _spectator_frames_hide_tiles(frames: list[dict[str, Any]]) -> None:
    for msg in frames:
        state = msg.get("state") or {}
        if msg.get("type") in ("update", "snapshot") and state.get("phase") != "end":
            for player in state.get("players", []):
                assert "hand" not in player, msg
        for event in msg.get("events") or []:
            if event.get("type") in ("deal", "draw", "replacement_draw"):
                assert "tile" not in event and "card" not in event, event
                for key in ("tiles", "cards"):
                    assert key not in event or isinstance(event[key], int), event


@pytest.mark.parametrize("variant", ["jiaxing", "qinger"])
def test_spectator_sees_no_concealed_tile(
    server: ServerThread, browser: Any, output_dir: Path, variant: str
) -> None:
    n = 3 if variant == "qinger" else 4
    host = new_page(browser)
    code = create_room(host, server, variant, ["random"] * n, "主持")
    watcher = new_page(browser, PHONE)
    frames: list[dict[str, Any]] = []
    watcher.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda payload: (
                frames.append(json.loads(payload)) if isinstance(payload, str) else None
            ),
        ),
    )
    watcher.goto(f"{server.url}/#/room/{code}")
    watcher.get_by_test_id("board").wait_for()
    watcher.get_by_test_id("spectating").wait_for()
    checked = 0
    deadline = time.monotonic() + 60
    while not client_state(watcher).get("settlement"):
        assert time.monotonic() < deadline
        assert watcher.get_by_test_id("my-hand").count() == 0
        assert watcher.get_by_test_id("hand-tile").count() == 0
        # concealed tiles are drawn face down; a face-up row of them would be a leak
        seen = watcher.evaluate(
            """() => [...document.querySelectorAll('[data-testid^=seat-]')].map(el => ({
                backs: el.querySelectorAll('.concealed svg.back').length,
                faces: el.querySelectorAll('.row > .pieces:not(.concealed) svg.piece').length,
            }))"""
        )
        if not client_state(watcher).get("settlement"):
            assert len(seen) == n and all(s["backs"] > 0 and s["faces"] == 0 for s in seen), seen
        if checked == 3:
            watcher.screenshot(path=str(output_dir / "01-spectator.png"))
        checked += 1
        time.sleep(0.1)
    assert checked > 0
    watcher.screenshot(path=str(output_dir / "02-spectator-settlement.png"), full_page=True)
    assert frames
    _spectator_frames_hide_tiles(frames)
    host.context.close()
    watcher.context.close()


def test_calculator_page_scores_like_paiju_score(
    server: ServerThread, browser: Any, output_dir: Path
) -> None:
    from paiju.calculator import score

    page = new_page(browser)
    page.goto(server.url + "/#/calc")
    page.get_by_test_id("calc-example-jiaxing").click()
    situation = json.loads(page.get_by_test_id("calc-input").input_value())
    page.get_by_test_id("calc-go").click()
    result = page.get_by_test_id("calc-result")
    result.wait_for()
    _, expected = score(situation)
    text = result.inner_text()
    for item in expected["items"]:
        assert item["name"] in text and str(item["value"]) in text
    page.screenshot(path=str(output_dir / "calculator.png"), full_page=True)
    # the form edits the same situation: a self-drawn win pays differently
    page.get_by_test_id("calc-win_type").select_option("self_draw")
    situation = json.loads(page.get_by_test_id("calc-input").input_value())
    assert situation["win_type"] == "self_draw"
    page.get_by_test_id("calc-go").click()
    page.wait_for_function(
        "want => document.querySelector('[data-testid=calc-result]')?.innerText.includes(want)",
        arg=f"+{score(situation)[1]['payments'][situation['winner']]}",
    )
    page.get_by_test_id("calc-input").fill(json.dumps({**situation, "hand": "5x"}))
    page.get_by_test_id("calc-go").click()
    assert "hand" in page.get_by_test_id("calc-error").inner_text()
    page.context.close()
