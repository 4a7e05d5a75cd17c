"""``paiju play`` through Textual's pilot: a person plays Jiaxing hands against bots.

The bots act with no delay, so every key press settles synchronously: the tests are
deterministic and never sleep.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("textual")

from rich.console import Console
from textual.pilot import Pilot

from paiju.components.notation import parse_tiles
from paiju.engine.record import parse_lines, replay
from paiju.tui.app.board import SLOT_KEYS, action_group
from paiju.tui.app.play import PlayApp
from paiju.tui.app.screens import ResultScreen
from paiju.tui.session import PlaySession
from paiju.variants import find_variant

SEED = 1
"""A match whose first hand offers the person a pong and is won by a bot."""


def make_app(tmp_path: Path, lang: str = "zh", seed: int = SEED) -> PlayApp:
    session = PlaySession("jiaxing", seed=seed, record_path=str(tmp_path / "game.jsonl"))
    return PlayApp(session, lang=lang, bot_delay=0)


def run(app: PlayApp, scenario: Callable[[Pilot[Any]], Awaitable[None]]) -> None:
    async def main() -> None:
        async with app.run_test(size=(110, 40)) as pilot:
            await scenario(pilot)

    asyncio.run(main())


def plain(renderable: Any, width: int = 100) -> str:
    console = Console(width=width, file=io.StringIO(), record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def snapshot(app: PlayApp) -> tuple[Any, ...]:
    session = app.session
    return (
        len(session.hand.log),
        len(session.lines),
        repr(session.hand.view(session.human)),
        session.next_seat(),
    )


def offered_groups(app: PlayApp) -> set[str]:
    """The action keys shown in the action bar (parsed from its click links)."""
    markup = str(app.query_one("#actions").content)
    groups = set()
    for key, group in (
        ("h", "hu"),
        ("p", "pong"),
        ("k", "kong"),
        ("c", "chi"),
        ("t", "ting"),
        ("space", "pass"),
    ):
        if f"app.press('{key}')" in markup:
            groups.add(group)
    return groups


def legal_groups(app: PlayApp) -> set[str]:
    return {g for a in app.legal() if (g := action_group(a)) is not None}


def next_key(app: PlayApp, *, enter: bool = False) -> str:
    """A simple strategy: win when possible, pass claims, discard the drawn tile (by its
    key, or with Enter: the cursor starts on it)."""
    legal = app.legal()
    if "hu" in legal or "zimo" in legal:
        return "h"
    if "pass" in legal:
        return "space"
    return "enter" if enter else SLOT_KEYS[len(app.slots) - 1]


async def play_to_result(
    pilot: Pilot[Any],
    app: PlayApp,
    on_turn: Callable[[], str | None] | None = None,
    *,
    enter: bool = False,
) -> int:
    """Press keys until the settlement shows; returns the number of decisions made."""
    for decisions in range(200):
        await pilot.pause()
        if isinstance(app.screen, ResultScreen):
            return decisions
        assert app.session.human_to_act, "the app waits although the person need not act"
        # only legal actions are ever offered
        assert offered_groups(app) == legal_groups(app)
        key = (on_turn() if on_turn else None) or next_key(app, enter=enter)
        before = snapshot(app)
        await pilot.press(key)
        assert snapshot(app) != before, f"{key!r} was legal but changed nothing"
    raise AssertionError("the hand did not end")


def test_hand_is_shown_sorted_with_the_drawn_tile_apart(tmp_path: Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        session = app.session
        assert session.human_to_act
        view = session.hand.view(session.human)
        held = [str(t) for t in parse_tiles(view["players"][0]["hand"])]
        drawn = view["drawn"]
        held.remove(drawn)
        assert app.slots == [*sorted(held, key=lambda p: int(parse_tiles(p)[0])), drawn]
        assert app.has_drawn
        buttons = [b for b in app.query("TileButton") if b.display]
        assert [b.piece for b in buttons] == app.slots
        assert buttons[-1].has_class("-drawn")
        assert not any(b.has_class("-drawn") for b in buttons[:-1])
        # faces are hanzi: 五 over 万, 东 over 风 …
        faces = [plain(b.content).split() for b in buttons]
        for piece, face in zip(app.slots, faces, strict=True):
            tile = parse_tiles(piece)[0]
            if tile.is_number:
                assert "".join(face) == tile.zh
        status = plain(app.query_one("#status").content)
        assert "嘉兴麻将" in status
        assert "东风圈" in status
        assert "庄家" in status
        assert f"牌墙剩 {view['wall_left']} 张" in status

    run(app, scenario)


def test_a_whole_hand_to_the_settlement_with_a_pong(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    ponged: list[bool] = []

    def take_first_pong() -> str | None:
        if not ponged and "pong" in app.legal():
            ponged.append(True)
            return "p"
        return None

    async def scenario(pilot: Pilot[Any]) -> None:
        decisions = await play_to_result(pilot, app, take_first_pong)
        assert decisions > 5
        assert ponged, "the seed no longer offers the person a pong"
        hand = app.session.hand
        assert hand.melds[0] and hand.melds[0][0].type.value == "pong"
        screen = app.screen
        assert isinstance(screen, ResultScreen)
        text = plain(screen.body)
        assert "第 1 局结算" in screen.box_title
        if hand.winners:
            for seat in hand.winners:
                for item in hand.win_results[seat].items:
                    assert item.zh in text
                    assert f"{item.value} 分" in text
        else:
            assert "荒庄" in text
        for payment in hand.ledger:
            assert f"{payment.amount} 分" in text
        assert "总账" in text
        assert "合计" in text
        # the settlement's explanation (the end event's) is shown as it is written
        explained = hand.log[-1].data["explanation"]["text"]["zh"]
        assert "怎么算的" in text
        assert all(line.strip() in text for line in explained.splitlines())
        # the record of the finished hand is on disk and verifies
        path = tmp_path / "game.jsonl"
        with open(path, encoding="utf-8") as fh:
            result = replay(parse_lines(fh), find_variant)
        assert result.ok, result.message
        assert result.hands == 1
        # Enter starts the next hand; the person is dealt again
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, ResultScreen)
        assert app.session.hand_number == 2

    run(app, scenario)


def test_illegal_keys_change_nothing(tmp_path: Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        legal = app.legal()
        assert all(a.startswith("d") for a in legal), legal
        before = snapshot(app)
        # no pong, kong, win or pass on one's own turn; no tile under key "f"
        for key in ("p", "k", "h", "space", "c", "t", "f", "x"):
            await pilot.press(key)
            assert snapshot(app) == before, key
        assert "现在不能这样做" in plain(app.query_one("#prompt").content)
        # a claim prompt: discarding is not allowed
        for _ in range(100):
            if "pass" in app.legal():
                break
            await pilot.press(SLOT_KEYS[len(app.slots) - 1])
            await pilot.pause()
        else:
            raise AssertionError("no claim prompt came")
        assert "space" in str(app.query_one("#actions").content)
        before = snapshot(app)
        for key in ("1", "enter", "left", "k" if "kong" not in app.legal() else "x"):
            await pilot.press(key)
            assert snapshot(app) == before, key
        await pilot.press("space")
        assert snapshot(app) != before

    run(app, scenario)


def test_english(tmp_path: Path) -> None:
    app = make_app(tmp_path, lang="en")

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        status = plain(app.query_one("#status").content)
        assert "Jiaxing mahjong" in status
        assert "tiles left" in status
        # code-style faces by default in English: 5 over m
        button = next(b for b in app.query("TileButton") if b.display)
        tile = parse_tiles(button.piece)[0]
        if tile.is_number:
            assert plain(button.content).split() == [str(tile.rank), tile.suit]
        # Enter discards; the Enter that ends the hand must not also skip the settlement
        await play_to_result(pilot, app, enter=True)
        assert app.session.hand.is_over
        screen = app.screen
        assert isinstance(screen, ResultScreen)
        text = plain(screen.body)
        hand = app.session.hand
        for seat in hand.winners:
            for item in hand.win_results[seat].items:
                assert item.en in text
                assert item.zh not in text
        assert "Match ledger" in text
        assert screen.box_title == "Hand 1: result"

    run(app, scenario)


def test_quitting_mid_hand_keeps_a_verifiable_record(tmp_path: Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[Any]) -> None:
        await play_to_result(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press(SLOT_KEYS[len(app.slots) - 1])
        await pilot.press("q")
        assert app.is_running
        await pilot.press("q")

    run(app, scenario)
    assert app.return_value == str(tmp_path / "game.jsonl")
    with open(tmp_path / "game.jsonl", encoding="utf-8") as fh:
        records = parse_lines(fh)
    assert records[0]["options"]["hands"] == 1
    result = replay(records, find_variant)
    assert result.ok, result.message
    assert result.hands == 1


def test_clicking_a_tile_discards_it(tmp_path: Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        piece = app.slots[0]
        count = app.session.hand.discards[0].count(int(parse_tiles(piece)[0]))
        await pilot.click("#slot-0")
        await pilot.pause()
        assert app.session.hand.discards[0].count(int(parse_tiles(piece)[0])) == count + 1

    run(app, scenario)


def generic_key(app: PlayApp) -> str:
    """A strategy for any variant, from the legal action strings alone."""
    legal = app.legal()
    if "hu" in legal or "zimo" in legal:
        return "h"
    if "knock" in legal:
        return "n"
    if "pass" in legal:
        return "space"
    for i in reversed(range(len(app.slots))):
        if "d" + app.slots[i] in legal:
            return SLOT_KEYS[i]
    raise AssertionError(f"no key for {legal}")


@pytest.mark.parametrize("variant", ["taixing", "qinger"])
def test_other_variants_play_a_hand_through_the_screen(variant: str, tmp_path: Path) -> None:
    from paiju.variants import VARIANTS

    if variant not in VARIANTS:
        pytest.skip(f"{variant} has no match flow yet")
    session = PlaySession(variant, seed=5, record_path=str(tmp_path / "game.jsonl"))
    app = PlayApp(session, bot_delay=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        title = {"taixing": "泰兴麻将", "qinger": "青儿"}[variant]
        assert title in plain(app.query_one("#status").content)
        for _ in range(300):
            await pilot.pause()
            if isinstance(app.screen, ResultScreen):
                break
            assert offered_groups(app) == legal_groups(app) - {"knock", "qifei"}
            view = session.hand.view(session.human)
            me = view["players"][session.human]
            # every piece the person holds is on screen, in order
            held = sorted(app.pieces.split(me.get("hand", "")), key=app.pieces.sort_key)
            assert sorted(app.slots, key=app.pieces.sort_key) == held
            for seat_info in view["players"]:
                body = plain(app.query_one(f"#seat-{seat_info['seat']}").content, width=200)
                for piece in app.pieces.split(seat_info.get("flowers", "")):
                    assert app.pieces.name(piece) in body
            before = snapshot(app)
            await pilot.press(generic_key(app))
            assert snapshot(app) != before
        else:
            raise AssertionError("the hand did not end")
        text = plain(app.screen.body) if isinstance(app.screen, ResultScreen) else ""
        assert "总账" in text
        for payment in session.hand.ledger:
            assert f"{payment.amount} 分" in text

    run(app, scenario)


def test_help_opens_and_closes(tmp_path: Path) -> None:
    app = make_app(tmp_path)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        before = snapshot(app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, ResultScreen)
        assert type(app.screen).__name__ != "HelpScreen"
        assert snapshot(app) == before

    run(app, scenario)


def test_several_kongs_open_a_numbered_choice(tmp_path: Path) -> None:
    from paiju.engine.mahjong import MahjongHand, arrange_wall
    from paiju.variants.jiaxing.rules import JiaxingRules

    def tiles(text: str) -> list[int]:
        return [int(t) for t in parse_tiles(text)]

    hands = [
        tiles("1111m9999p123s555z"),
        tiles("2345678m2345p12z"),
        tiles("2345678p2345s34z"),
        tiles("2345678s3456m67z"),
    ]
    wall = arrange_wall(hands, draws=tiles("1z2z3z4z"), dealer=0)
    session = PlaySession("jiaxing", seed=1, record_path=None)
    arranged = MahjongHand(JiaxingRules(session.options), wall=wall, dealer=0)
    session.match.new_hand = lambda: arranged  # type: ignore[method-assign]
    app = PlayApp(session, bot_delay=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        assert {"an1m", "an9p"} <= set(app.legal())
        assert "kong" in offered_groups(app)
        before = snapshot(app)
        await pilot.press("k")
        assert app.mode == "choose"
        assert app.choices == ["an1m", "an9p"]
        actions = str(app.query_one("#actions").content)
        assert "暗杠 一万" in actions and "暗杠 九筒" in actions
        assert snapshot(app) == before
        await pilot.press("7")  # not on the menu
        assert snapshot(app) == before
        await pilot.press("escape")
        assert app.mode == "normal"
        await pilot.press("k")
        await pilot.press("2")
        melds = session.hand.melds[0]
        assert [(m.type.value, str(m.tile)) for m in melds] == [("concealed_kong", "9p")]
        assert app.mode == "normal"
        # one kong left: k makes it at once
        assert "an1m" in app.legal()
        await pilot.press("k")
        assert [str(m.tile) for m in session.hand.melds[0]] == ["9p", "1m"]
        log = "\n".join(app.log_lines)
        assert "我暗杠 九筒" in log
        assert "杠钱" in log

    run(app, scenario)


def test_the_dealer_declares_ready_with_a_chosen_discard(tmp_path: Path) -> None:
    """Taixing 天听: t switches to declaring, then the discard key declares with it."""
    from paiju.engine.mahjong import MahjongHand, arrange_wall
    from paiju.variants.taixing.rules import TaixingRules

    def tiles(text: str) -> list[int]:
        return [int(t) for t in parse_tiles(text)]

    hands = [
        tiles("123m456m789m1122p5z"),  # ready on 1p/2p once 5z goes
        tiles("2345678s3456p12z"),
        tiles("2345678p2345s34z"),
        tiles("3456789s3456m67z"),
    ]
    deck = [k for k in range(42) for _ in range(4 if k < 34 else 1)]
    wall = arrange_wall(hands, draws=tiles("7z7z6z6z"), dealer=0, tiles=deck)
    session = PlaySession("taixing", seed=1, record_path=None)
    arranged = MahjongHand(TaixingRules(session.options), wall=wall, dealer=0, dice=(1, 2))
    session.match.new_hand = lambda: arranged  # type: ignore[method-assign]
    app = PlayApp(session, bot_delay=0)

    async def scenario(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        legal = app.legal()
        assert "ting5z" in legal, legal
        assert "ting" in offered_groups(app)
        await pilot.press("t")
        assert app.mode == "ting"
        assert "报听" in plain(app.query_one("#prompt").content)
        five = app.slots.index("5z")
        # tiles that would not leave the hand ready are dimmed and refused
        other = next(i for i, p in enumerate(app.slots) if "ting" + p not in legal)
        buttons = [b for b in app.query("TileButton") if b.display]
        assert buttons[other].has_class("-dim")
        assert not buttons[five].has_class("-dim")
        before = snapshot(app)
        await pilot.press(SLOT_KEYS[other])
        assert snapshot(app) == before
        await pilot.press(SLOT_KEYS[five])
        assert session.hand.ready[0]
        assert session.hand.discards[0] == [int(parse_tiles("5z")[0])]
        await pilot.pause()
        assert "听" in app.query_one("#seat-0").border_title

    run(app, scenario)
