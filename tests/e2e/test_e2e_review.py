"""复盘 and 我的对局 in Debian's chromium against the real server: a person plays a Jiaxing
match, opens 复盘 from the settlement, steps through the decisions by keys, buttons and
the costliest list, sees the table as that seat saw it (the others' tiles face down), reads
it in English and on a 390 px phone with swipes; the same record pasted is reviewed alike,
and 我的对局 lists the game with its statistics and chart."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from test_e2e_browser import PHONE, create_room, new_page, play_match

ServerThread = Any


def step_of(page: Any) -> tuple[int, int]:
    text = page.get_by_test_id("review-step").inner_text()
    found = re.search(r"(\d+)\s*/\s*(\d+)", text)
    assert found, text
    return int(found.group(1)), int(found.group(2))


def wait_step(page: Any, k: int) -> None:
    page.wait_for_function(
        "k => { const el = document.querySelector('[data-testid=review-step]');"
        " return el && new RegExp('\\\\b' + k + '\\\\s*/').test(el.textContent); }",
        arg=k,
    )


def _random_record() -> str:
    """A one-hand Jiaxing record in which seat 0 is a random bot (so it makes mistakes)."""
    import json

    from paiju.bots import make_player
    from paiju.engine.match import Match
    from paiju.engine.record import record_match
    from paiju.variants import VARIANTS

    flow = VARIANTS["jiaxing"]
    players = [make_player("random", 0, "jiaxing")] + [
        make_player("greedy", s, "jiaxing") for s in range(1, 4)
    ]
    names = ["阿明", "bot:greedy", "bot:greedy", "bot:greedy"]
    lines = record_match(Match(flow, flow.options_type(hands=1), 9), players, names)
    return "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)


def check_board_as_seat_saw_it(page: Any, seat: int, n: int) -> None:
    board = page.get_by_test_id("review-board")
    assert board.get_by_test_id("review-tile").count() > 0
    for s in range(n):
        hidden = board.get_by_test_id(f"concealed-{s}").count()
        assert hidden == (0 if s == seat else 1), (s, hidden)


def test_review_after_a_match_steps_through_every_decision(
    server: ServerThread, browser: Any, output_dir: Path
) -> None:
    page = new_page(browser)
    create_room(page, server, "jiaxing", ["person", "greedy", "greedy", "greedy"], "复盘者")
    play_match([page], 4, output_dir, "match")
    # after the match: the player's record so far and the way into 复盘
    page.get_by_test_id("match-stats").wait_for()
    assert "你的战绩" in page.get_by_test_id("match-stats").inner_text()
    game_id = page.evaluate("() => window.__paiju.state().room.game_id")
    page.get_by_test_id("review-link").first.click()
    page.wait_for_url(re.compile(rf"#/review/{game_id}/0$"))
    page.get_by_test_id("review-summary").wait_for(timeout=60_000)
    doc = page.evaluate(
        "id => fetch(`/api/games/${id}/review?seat=0`).then(r => r.json())", game_id
    )
    decisions = doc["decisions"]
    n = len(decisions)
    assert n > 0
    # nothing of another seat's concealed hand in any decision's table
    for d in decisions:
        assert all("hand" not in p for s, p in enumerate(d["view"]["players"]) if s != 0)
    summary = page.get_by_test_id("review-summary").inner_text()
    assert f"{doc['n_decisions']} 个决策" in summary and "复盘者" in summary
    assert page.get_by_test_id("review-timeline").locator("button").count() == n
    page.screenshot(path=str(output_dir / "01-review.png"), full_page=True)

    # it opens on the costliest decision
    costliest = [
        k
        for k, d in enumerate(decisions)
        if doc["mistakes"]
        and (d["hand"], d["turn"]) == (doc["mistakes"][0]["hand"], doc["mistakes"][0]["turn"])
    ]
    assert step_of(page) == ((costliest[0] if costliest else 0) + 1, n)

    # keys: Home, → , End, ←
    page.keyboard.press("Home")
    wait_step(page, 1)
    panel = page.get_by_test_id("review-decision")
    assert "实际" in panel.inner_text() and "强机器人" in panel.inner_text()
    check_board_as_seat_saw_it(page, 0, 4)
    if n > 1:
        page.keyboard.press("ArrowRight")
        wait_step(page, 2)
        page.get_by_test_id("review-prev").click()
        wait_step(page, 1)
    page.keyboard.press("End")
    wait_step(page, n)
    page.keyboard.press("ArrowLeft")
    wait_step(page, max(1, n - 1))

    # every step shows that decision's own choice and the bot's
    page.keyboard.press("Home")
    wait_step(page, 1)
    for k, d in enumerate(decisions):
        wait_step(page, k + 1)
        verdict = page.get_by_test_id("review-verdict").inner_text()
        if d["agree"]:
            assert "一致" in verdict, (k, verdict)
        elif d["given_up"] > 0:
            assert f"{d['given_up']:.2f}" in verdict, (k, verdict, d)
        rows = page.get_by_test_id("review-candidates").locator("tbody tr")
        if d["candidates"]:
            assert rows.count() == len(d["candidates"])
        if k < n - 1:
            page.get_by_test_id("review-next").click()

    # the costliest list and the mistake buttons jump to mistakes
    if doc["mistakes"]:
        page.get_by_test_id("review-first").click()
        wait_step(page, 1)
        page.get_by_test_id("review-worst-item").first.click()
        wait_step(page, costliest[0] + 1)
        assert (
            f"{doc['mistakes'][0]['given_up']:.2f}"
            in page.get_by_test_id("review-verdict").inner_text()
        )
        page.keyboard.press("Home")
        wait_step(page, 1)
        first = next(k for k, d in enumerate(decisions) if d["given_up"] > 0)
        if first > 0:
            page.get_by_test_id("review-next-mistake").click()
            wait_step(page, first + 1)

    # English
    page.get_by_test_id("lang-switch").click()
    assert "decisions" in page.get_by_test_id("review-summary").inner_text()
    assert "Strong bot" in page.get_by_test_id("review-decision").inner_text()
    page.get_by_test_id("lang-switch").click()

    # the same record, pasted, is reviewed alike
    record = page.evaluate("id => fetch(`/api/games/${id}/record`).then(r => r.text())", game_id)
    page.goto(server.url + "/#/review")
    page.get_by_test_id("review-paste").fill(record)
    page.get_by_test_id("review-paste-go").click()
    page.get_by_test_id("review-seat-0").click()
    page.get_by_test_id("review-summary").wait_for(timeout=60_000)
    assert f"{doc['n_decisions']} 个决策" in page.get_by_test_id("review-summary").inner_text()
    assert step_of(page)[1] == n
    # a record with mistakes (a random bot at seat 0): the costliest list and the mistake
    # buttons lead to them, each marked by its size
    lines = _random_record()
    page.get_by_test_id("review-paste").fill(lines)
    page.get_by_test_id("review-paste-go").click()
    page.get_by_test_id("review-seat-0").click()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=review-worst-item]').length > 0",
        timeout=60_000,
    )
    mine = page.evaluate(
        "t => fetch('/api/review?seat=0', {method: 'POST', body: t}).then(r => r.json())", lines
    )
    worst = mine["mistakes"][0]
    where = next(
        k
        for k, d in enumerate(mine["decisions"])
        if (d["hand"], d["turn"]) == (worst["hand"], worst["turn"])
    )
    assert step_of(page) == (where + 1, len(mine["decisions"]))
    assert f"{worst['given_up']:.2f}" in page.get_by_test_id("review-verdict").inner_text()
    marks = page.get_by_test_id("review-timeline").locator("button")
    assert "sev-large" in (marks.nth(where).get_attribute("class") or "")
    page.keyboard.press("Home")
    wait_step(page, 1)
    costly = [k for k, d in enumerate(mine["decisions"]) if d["given_up"] > 0]
    for k in costly[:3]:
        if k == 0:
            continue
        page.keyboard.press("ArrowDown")
        wait_step(page, k + 1)
        assert "损失" in page.get_by_test_id("review-verdict").inner_text()
    page.get_by_test_id("review-worst-item").nth(1).click()
    second = mine["mistakes"][1]
    wait_step(
        page,
        1
        + next(
            k
            for k, d in enumerate(mine["decisions"])
            if (d["hand"], d["turn"]) == (second["hand"], second["turn"])
        ),
    )
    page.screenshot(path=str(output_dir / "01b-mistakes.png"), full_page=True)

    # a text that is not a record is refused with a reason
    page.get_by_test_id("review-paste").fill("hello")
    page.get_by_test_id("review-paste-go").click()
    assert "不是牌局记录" in page.get_by_test_id("review-error").inner_text()

    # 我的对局: the game, its statistics, the chart and the way back into 复盘
    page.goto(server.url + "/#/mine")
    page.get_by_test_id("mine-game").first.wait_for()
    games = page.get_by_test_id("mine-game")
    assert any("复盘" in games.nth(i).inner_text() for i in range(games.count()))
    hands = int(page.get_by_test_id("mine-hands").locator(".v").inner_text())
    assert hands >= 1
    page.get_by_test_id("mine-chart").wait_for()
    assert "一致" in page.get_by_test_id("mine-agreement").inner_text()
    assert "%" in page.get_by_test_id("mine-agreement").inner_text()  # the review above counts
    page.screenshot(path=str(output_dir / "02-mine.png"), full_page=True)
    page.context.close()

    # a phone: nothing wider than the screen, the hand on one line, swipes step
    context = browser.new_context(viewport=PHONE, locale="zh-CN", has_touch=True, is_mobile=True)
    phone = context.new_page()
    phone.set_default_timeout(15_000)
    phone.goto(f"{server.url}/#/review/{game_id}/0")
    phone.get_by_test_id("review-summary").wait_for(timeout=60_000)
    phone.keyboard.press("Home")
    wait_step(phone, 1)
    width = phone.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    boxes = phone.evaluate(
        "() => [...document.querySelectorAll('[data-testid=review-tile] svg')]"
        ".map(el => { const b = el.getBoundingClientRect(); return [b.x, b.y, b.width]; })"
    )
    assert boxes and all(x >= 0 and x + w <= PHONE["width"] + 0.5 for x, _, w in boxes), boxes
    assert max(y for _, y, _ in boxes) - min(y for _, y, _ in boxes) < 4, boxes
    phone.screenshot(path=str(output_dir / "03-phone.png"), full_page=True)
    if n > 1:
        cdp = context.new_cdp_session(phone)
        phone.get_by_test_id("review-board").scroll_into_view_if_needed()
        box = phone.get_by_test_id("review-board").bounding_box()
        assert box
        y = box["y"] + min(60, box["height"] / 2)
        cdp.send(
            "Input.dispatchTouchEvent",
            {"type": "touchStart", "touchPoints": [{"x": 300, "y": y}]},
        )
        for x in (250, 180, 120):
            cdp.send(
                "Input.dispatchTouchEvent",
                {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]},
            )
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        wait_step(phone, 2)
    context.close()


@pytest.mark.parametrize("variant", ["taixing", "qinger"])
def test_an_uploaded_record_of_each_game_is_reviewed(
    server: ServerThread, browser: Any, output_dir: Path, variant: str
) -> None:
    import json

    from paiju.bots import make_player
    from paiju.engine.match import Match
    from paiju.engine.record import record_match
    from paiju.variants import VARIANTS

    flow = VARIANTS[variant]
    n = 3 if variant == "qinger" else 4
    players = [make_player("random", 0, variant)] + [
        make_player("greedy", s, variant) for s in range(1, n)
    ]
    names = ["上传者"] + ["bot:greedy"] * (n - 1)
    lines = record_match(Match(flow, flow.options_type(hands=1), 5), players, names)
    text = "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines)
    page = new_page(browser, PHONE)
    page.goto(server.url + "/#/review")
    page.get_by_test_id("review-file").set_input_files(
        {"name": f"{variant}.jsonl", "mimeType": "application/x-ndjson", "buffer": text.encode()}
    )
    page.get_by_test_id("review-seat-0").click()
    if variant == "qinger":
        # seconds of Monte Carlo: the page says how far the review got meanwhile
        page.get_by_test_id("review-progress").wait_for()
        said = page.get_by_test_id("review-progress-text").inner_text()
        assert "%" in said or "等待" in said or "排队" in said or "准备" in said, said
    page.get_by_test_id("review-summary").wait_for(timeout=120_000)
    assert "上传者" in page.get_by_test_id("review-summary").inner_text()
    page.keyboard.press("Home")
    wait_step(page, 1)
    check_board_as_seat_saw_it(page, 0, n)
    _, total = step_of(page)
    for k in range(1, min(total, 6)):
        page.keyboard.press("ArrowRight")
        wait_step(page, k + 1)
        check_board_as_seat_saw_it(page, 0, n)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], width
    page.screenshot(path=str(output_dir / f"{variant}-phone.png"), full_page=True)
    page.context.close()
