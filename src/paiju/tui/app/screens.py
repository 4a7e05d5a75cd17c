"""The terminal's modal screens: the settlement of a hand and the key help."""

from __future__ import annotations

from typing import ClassVar

from rich.console import RenderableType
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from paiju.tui.i18n import text


class ResultScreen(ModalScreen[bool]):
    """The settlement of one hand and the match ledger. Enter: go on; q: quit."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("enter", "next", show=False),
        Binding("space", "next", show=False),
        Binding("q", "quit_game", show=False),
        Binding("escape", "quit_game", show=False),
    ]
    DEFAULT_CSS = """
    ResultScreen { align: center middle; }
    #result-box {
        width: 96; max-width: 100%; height: auto; max-height: 100%;
        border: double #f5c542; background: #1b2a22; padding: 0 1;
    }
    """

    def __init__(self, body: RenderableType, title: str, last: bool) -> None:
        super().__init__()
        self.body = body
        self.box_title = title
        self.last = last

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="result-box") as box:
            box.border_title = self.box_title
            yield Static(self.body, id="result")

    def action_next(self) -> None:
        if not self.last:
            self.dismiss(True)

    def action_quit_game(self) -> None:
        self.dismiss(False)


class HelpScreen(ModalScreen[None]):
    """The keys of ``paiju play``. Esc, ?, Enter or q close it."""

    BINDINGS: ClassVar[list[Binding | tuple[str, str] | tuple[str, str, str]]] = [
        Binding("escape", "close", show=False),
        Binding("question_mark", "close", show=False),
        Binding("enter", "close", show=False),
        Binding("q", "close", show=False),
    ]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    #help-box { width: 90; max-width: 100%; height: auto; border: round #f5c542;
                background: #1b2a22; padding: 1 2; }
    """

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang

    def compose(self) -> ComposeResult:
        box = Static(text("help.body", self.lang), id="help-box")
        box.border_title = text("help.title", self.lang)
        yield box

    def action_close(self) -> None:
        self.dismiss(None)
