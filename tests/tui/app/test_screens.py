"""The modal screens (``paiju.tui.app.screens``): the settlement's keys and the help."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("textual")

from rich.text import Text
from textual.app import App

from paiju.tui.app.screens import HelpScreen, ResultScreen


def answers(screen: ResultScreen | HelpScreen, key: str) -> list[object]:
    """What ``screen`` dismisses with when ``key`` is pressed (empty: it stays open)."""
    got: list[object] = []

    class Host(App[None]):
        def on_mount(self) -> None:
            self.push_screen(screen, got.append)

    async def main() -> None:
        async with Host().run_test() as pilot:
            await pilot.pause()
            await pilot.press(key)
            await pilot.pause()

    asyncio.run(main())
    return got


def test_the_settlement_goes_on_with_enter_and_quits_with_q() -> None:
    assert answers(ResultScreen(Text("x"), "t", last=False), "enter") == [True]
    assert answers(ResultScreen(Text("x"), "t", last=False), "q") == [False]


def test_after_the_last_hand_enter_does_not_go_on() -> None:
    assert answers(ResultScreen(Text("x"), "t", last=True), "enter") == []


def test_help_closes_with_escape() -> None:
    assert answers(HelpScreen("en"), "escape") == [None]
    assert answers(HelpScreen("en"), "x") == []
