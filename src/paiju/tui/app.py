"""The Textual app of ``paiju play``: one person against bots.

Everything on screen comes from ``hand.view(person)`` (what that seat may know) and the
hand's events; decisions go through :class:`~paiju.tui.session.PlaySession`, which keeps
the record. Bots act after a short pause (``bot_delay``; 0 makes every bot decision
synchronous, which the tests rely on).
"""

from __future__ import annotations

from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import RichLog, Static

from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.events import Event, to_json
from paiju.tui.i18n import has_text, item_name, item_value, text
from paiju.tui.render import FACE_BG, PieceStyle, TileStyle, backs
from paiju.tui.session import PlaySession

SLOT_KEYS = tuple("1234567890abdegijlmorsuvwxyz")
"""Keys of the hand positions, left to right (the drawn tile is always the last one);
the letters skip the action keys and q."""

ROW = 14
"""Pieces per hand row: a Jiaxing hand fits in one, a Qing'er hand takes two."""

CHOICE_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9")

ACTION_KEYS: tuple[tuple[str, str], ...] = (
    ("h", "hu"),
    ("p", "pong"),
    ("k", "kong"),
    ("c", "chi"),
    ("t", "ting"),
    ("n", "knock"),
    ("f", "qifei"),
    ("space", "pass"),
)
"""Key → action group, in the order the action bar lists them."""

LEDGER_ROWS = 8
"""Hands listed in the settlement's ledger (older ones still count in the totals)."""

DELAY_STEPS = (0.0, 0.2, 0.4, 0.7, 1.0, 1.5)


def action_group(action: str) -> str | None:
    """The key group of an action string ("an5m" → "kong"); None for discards."""
    if action in ("hu", "zimo"):
        return "hu"
    if action == "pass":
        return "pass"
    if action == "pong":
        return "pong"
    if action in ("kong", "wuxi") or action.startswith(("an", "jia")):
        return "kong" if action != "wuxi" else "qifei"
    if action.startswith("chi"):
        return "chi"
    if action.startswith("ting"):
        return "ting"
    if action == "knock":
        return "knock"
    if action.startswith("qifei"):
        return "qifei"
    return None


class TileButton(Static):
    """One piece of the person's hand; clicking it discards it."""

    DEFAULT_CSS = f"""
    TileButton {{
        width: 6;
        height: 4;
        margin: 1 0 0 0;
        padding: 0 1;
        border: round #8a7f66;
        background: {FACE_BG};
    }}
    TileButton.-cursor {{
        margin: 0 0 1 0;
        border: round #f5c542;
    }}
    TileButton.-dim {{
        opacity: 55%;
    }}
    TileButton.-drawn {{
        margin-left: 2;
    }}
    """

    def __init__(self, slot: int) -> None:
        super().__init__("", id=f"slot-{slot}")
        self.slot = slot
        self.piece = ""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        app = self.app
        if isinstance(app, PlayApp):
            app.press_slot(self.slot)


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


class PlayApp(App[str | None]):
    """``paiju play``. The return value is the path of the saved record (or None)."""

    TITLE = "paiju"
    CSS = """
    Screen { background: #14241b; layout: vertical; }
    #status { height: 1; background: #0d1a13; color: #e8e0c8; padding: 0 1; }
    #opponents { height: 1fr; min-height: 9; }
    .seat { width: 1fr; height: 100%; border: round #4f6f5a; padding: 0 1; color: #e8e0c8; }
    .seat.-turn { border: round #f5c542; }
    #middle { height: 1fr; min-height: 6; }
    #mine { width: 1fr; }
    #log { width: 42; border: round #4f6f5a; padding: 0 1; color: #cfc8b0;
           background: #14241b; scrollbar-size-vertical: 1; }
    #prompt { height: 1; padding: 0 1; color: #f5c542; text-style: bold; }
    #actions { height: 1; padding: 0 1; color: #e8e0c8; }
    .hand { height: 5; padding: 0 1; }
    .keys { height: 1; padding: 0 1; color: #9a9a9a; }
    """

    def __init__(
        self,
        session: PlaySession,
        *,
        lang: str = "zh",
        tile_style: TileStyle | None = None,
        bot_delay: float = 0.5,
    ) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.pieces = PieceStyle(
            session.variant, lang, tile_style or ("hanzi" if lang == "zh" else "code")
        )
        self.bot_delay = bot_delay
        self.cursor = -1
        self.mode = "normal"
        """normal; choose (a numbered menu in ``choices``); ting (the next discard declares)."""
        self.choices: list[str] = []
        self.message = ""
        self.message_is_error = True
        self.slots: list[str] = []
        self.has_drawn = False
        self.quit_armed = False
        self.saved_path: str | None = None
        self._timer: Timer | None = None
        self._seen = 0
        self.log_lines: list[str] = []
        self.n = session.n_seats
        self.human = session.human

    # -- layout ---------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="opponents"):
            for seat in self.opponent_order():
                yield Static(id=f"seat-{seat}", classes="seat")
        with Horizontal(id="middle"):
            yield Static(id=f"seat-{self.human}", classes="seat", name="mine")
            yield RichLog(id="log", wrap=True, markup=False)
        yield Static(id="prompt")
        yield Static(id="actions")
        for row in range(2):
            with Horizontal(id=f"hand-{row}", classes="hand"):
                for i in range(row * ROW, min(len(SLOT_KEYS), (row + 1) * ROW)):
                    yield TileButton(i)
            yield Static(id=f"keys-{row}", classes="keys")

    def opponent_order(self) -> list[int]:
        """Left to right as the person sees the table: 上家, 对家, 下家."""
        return [(self.human - k) % self.n for k in range(1, self.n)]

    def on_mount(self) -> None:
        self.title = text(f"variant.{self.session.variant}", self.lang)
        self.query_one("#log", RichLog).border_title = text("log", self.lang)
        self.start_hand()

    # -- naming ---------------------------------------------------------------------
    def t(self, key: str, **values: Any) -> str:
        """``key`` in the UI language, preferring the variant's own term (Qing'er 笃)."""
        own = f"{self.session.variant}.{key}"
        return text(own if has_text(own) else key, self.lang, **values)

    def who(self, seat: int) -> str:
        rel = (seat - self.human) % self.n
        if rel == 0:
            return text("seat.me", self.lang)
        if rel == self.n - 1:
            return text("seat.prev", self.lang)
        if rel == 1:
            return text("seat.next", self.lang)
        return text("seat.across", self.lang)

    def wind(self, seat: int, dealer: int) -> str:
        return text(f"wind.{(seat - dealer) % self.n % 4}", self.lang)

    # -- the game loop --------------------------------------------------------------
    def start_hand(self) -> None:
        self.session.start_hand()
        self._seen = 0
        self.cursor = -1
        self.mode = "normal"
        self.log_write_events()
        self.pump()

    def pump(self) -> None:
        """Let bots act until the person must decide; a bot's own turn waits ``bot_delay``
        so the person can follow it (claim answers are hidden and instant)."""
        session = self.session
        while True:
            seat = session.next_seat()
            if seat is None:
                self.refresh_view()
                self.hand_over()
                return
            if seat == self.human:
                if self.cursor < 0 or self.cursor >= len(self.current_slots()):
                    self.cursor = len(self.current_slots()) - 1
                self.refresh_view()
                return
            if self.bot_delay > 0 and self._visible_turn(seat):
                self.refresh_view()
                self._timer = self.set_timer(self.bot_delay, self._delayed_bot)
                return
            session.bot_step()
            self.log_write_events()

    def _visible_turn(self, seat: int) -> bool:
        view = self.session.hand.view(None)
        return bool(view["current"] == seat and view["phase"] == "act")

    def _delayed_bot(self) -> None:
        self._timer = None
        if self.session.next_seat() is None or self.session.human_to_act:
            return
        self.session.bot_step()
        self.log_write_events()
        self.pump()

    def act(self, action: str) -> bool:
        """Apply the person's action string; False (and nothing changes) if not legal."""
        session = self.session
        try:
            code = session.hand.parse_action(action)
            session.human_act(code)
        except (IllegalActionError, InvalidActionError):
            self.flash(text("prompt.illegal", self.lang))
            return False
        self.mode = "normal"
        self.choices = []
        self.message = ""
        self.quit_armed = False
        self.cursor = -1
        self.log_write_events()
        self.pump()
        return True

    def hand_over(self) -> None:
        session = self.session
        hand = session.hand
        summary = session.finish_hand()
        self.saved_path = session.record_path if session.record() else self.saved_path
        last = session.match_over
        body = self.result_body(hand, summary.index, last)
        title = text("result.title", self.lang, n=summary.index + 1)
        # after this key press is fully handled: the key that ended the hand (Enter on a
        # discard) must not also dismiss the settlement
        self.call_after_refresh(
            self.push_screen, ResultScreen(body, title, last), self._after_result
        )

    def _after_result(self, go_on: bool | None) -> None:
        if go_on and not self.session.match_over:
            self.start_hand()
        else:
            self.exit(self.saved_path)

    # -- input ----------------------------------------------------------------------
    def on_key(self, event: events.Key) -> None:
        if isinstance(self.screen, ModalScreen):
            return
        event.stop()
        self.handle_key(event.key)

    def action_press(self, key: str) -> None:
        self.handle_key(key)

    def handle_key(self, key: str) -> None:
        self.message = ""
        if key == "q":
            if self.quit_armed:
                self.exit(self.saved_path)
            else:
                self.quit_armed = True
                self.flash(text("prompt.quit", self.lang), error=False)
            return
        self.quit_armed = False
        if key == "question_mark":
            self.call_after_refresh(self.push_screen, HelpScreen(self.lang))
            return
        if key in ("plus", "equals_sign", "minus"):
            self.change_pace(slower=key == "minus")
            return
        if key == "escape":
            self.mode = "normal"
            self.choices = []
            self.refresh_view()
            return
        if self.mode == "choose":
            if key in CHOICE_KEYS and int(key) <= len(self.choices):
                self.act(self.choices[int(key) - 1])
            else:
                self.flash(text("prompt.illegal", self.lang))
            return
        if key in ("left", "right"):
            self.move_cursor(-1 if key == "left" else 1)
            return
        if key == "enter":
            self.press_slot(self.cursor)
            return
        for group_key, group in ACTION_KEYS:
            if key == group_key:
                self.press_group(group)
                return
        if key in SLOT_KEYS:
            self.press_slot(SLOT_KEYS.index(key))
            return

    def legal(self) -> list[str]:
        session = self.session
        return [session.hand.action_str(a) for a in session.human_legal()]

    def press_group(self, group: str) -> None:
        legal = self.legal()
        options = [a for a in legal if action_group(a) == group]
        if group == "ting":
            if "ting" in options:
                self.act("ting")
                return
            if options:
                self.mode = "normal" if self.mode == "ting" else "ting"
                self.refresh_view()
                return
        if group == "hu":
            # a self-drawn win and a win on a discard are never offered together
            options = options[:1]
        if not options:
            self.flash(text("prompt.illegal", self.lang))
            return
        if len(options) == 1:
            self.act(options[0])
            return
        self.mode = "choose"
        self.choices = options
        self.refresh_view()

    def press_slot(self, slot: int) -> None:
        slots = self.current_slots()
        if not 0 <= slot < len(slots):
            self.flash(text("prompt.illegal", self.lang))
            return
        prefix = "ting" if self.mode == "ting" else "d"
        action = prefix + slots[slot]
        if action not in self.legal():
            self.flash(text("prompt.illegal", self.lang))
            return
        self.cursor = slot
        self.act(action)

    def move_cursor(self, step: int) -> None:
        slots = self.current_slots()
        if not slots:
            return
        self.cursor = (max(self.cursor, 0) + step) % len(slots)
        self.refresh_view()

    def change_pace(self, *, slower: bool) -> None:
        steps = DELAY_STEPS
        nearest = min(range(len(steps)), key=lambda i: abs(steps[i] - self.bot_delay))
        nearest = min(len(steps) - 1, nearest + 1) if slower else max(0, nearest - 1)
        self.bot_delay = steps[nearest]
        self.flash(text("prompt.pace", self.lang, s=self.bot_delay), error=False)

    def flash(self, message: str, *, error: bool = True) -> None:
        """Show ``message`` after the prompt until the next key (``error``: a refused key)."""
        self.message = message
        self.message_is_error = error
        self.refresh_view()

    # -- what the person holds ------------------------------------------------------
    def current_slots(self) -> list[str]:
        """The person's pieces in display order: sorted, then the drawn one apart."""
        view = self.session.hand.view(self.human)
        return self._slots(view)[0]

    def _slots(self, view: dict[str, Any]) -> tuple[list[str], bool]:
        me = view["players"][self.human]
        pieces = self.pieces.split(me.get("hand", ""))
        drawn = view.get("drawn")
        if drawn and drawn in pieces:
            pieces.remove(drawn)
            pieces.sort(key=self.pieces.sort_key)
            return [*pieces, drawn], True
        pieces.sort(key=self.pieces.sort_key)
        return pieces, False

    # -- drawing --------------------------------------------------------------------
    def refresh_view(self) -> None:
        session = self.session
        hand = session.hand
        view = hand.view(self.human)
        self.slots, self.has_drawn = self._slots(view)
        legal = self.legal()
        self.query_one("#status", Static).update(self.status_line(view))
        claim = view.get("claim_tile") or view.get("claim_card")
        for player in view["players"]:
            seat = player["seat"]
            panel = self.query_one(f"#seat-{seat}", Static)
            panel.border_title = self.seat_title(seat, view)
            panel.set_class(view.get("current") == seat and view["phase"] != "end", "-turn")
            panel.update(self.seat_body(player, view, claim))
        self.update_hand(legal)
        self.query_one("#prompt", Static).update(self.prompt_text(view, legal, claim))
        self.query_one("#actions", Static).update(self.actions_markup(legal))

    def status_line(self, view: dict[str, Any]) -> Text:
        session = self.session
        match = session.match
        lang = self.lang
        parts = [
            text(f"variant.{session.variant}", lang),
            text("hand_no", lang, n=session.hand_number)
            if self.pieces.cards
            else text(
                "round",
                lang,
                wind=text(f"wind.{match.round_wind % 4}", lang),
                n=session.hand_number,
            ),
            text("dealer_is", lang, who=self.who(view["dealer"])),
        ]
        repeats = 0
        for summary in reversed(session.summaries):
            if summary.dealer != view["dealer"]:
                break
            repeats += 1
        if repeats:
            parts.append(text("repeat", lang, n=repeats))
        if "wall_left" in view:
            parts.append(text("wall", lang, n=view["wall_left"]))
        elif "stock_left" in view:
            parts.append(text("stock", lang, n=view["stock_left"]))
        fisher = view.get("fisher")
        if fisher is not None:
            parts.append(text("fisher", lang, who=self.who(fisher)))
        self.pieces.wild = frozenset(view.get("wild_kinds", ()))
        if view.get("wild_kinds"):
            # Jiaxing 混儿: the turned-up tile and the wild kinds it makes
            names = "、".join(self.pieces.name(k) for k in view["wild_kinds"])
            parts.append(
                text("hun_indicator", lang, tile=self.pieces.name(view["indicator"]), wilds=names)
            )
        elif view.get("indicator"):
            parts.append(text("indicator", lang) + " " + self.pieces.name(view["indicator"]))
        out = Text("  ·  ".join(parts), style=Style(bold=True))
        out.append("   " + text("seed", lang, seed=session.seed), style=Style(dim=True))
        out.append("   " + text("prompt.help", lang), style=Style(dim=True))
        return out

    def seat_title(self, seat: int, view: dict[str, Any]) -> str:
        parts = [self.who(seat)]
        if not self.pieces.cards:
            parts.append(self.wind(seat, view["dealer"]))
        if seat == view["dealer"]:
            parts.append(text("dealer", self.lang))
        player = view["players"][seat]
        if player.get("ready"):
            parts.append(text("ready", self.lang))
        if player.get("knocked"):
            parts.append(text("knocked", self.lang))
        if player.get("plays") is False:
            parts.append(text("sits_out", self.lang))
        if self.sealed(seat):
            parts.append(text("sealed", self.lang))
        # the match so far plus what this hand has paid already (kong money is immediate)
        total = self.session.totals()[seat] + view["net"][seat]
        parts.append(f"{total:+d}")
        return " · ".join(parts)

    def sealed(self, seat: int) -> bool:
        """封胡: the rules bar ``seat`` from winning this hand (public: who fed whom)."""
        hand = self.session.hand
        if hand.is_over:
            return False
        return bool(hand.view(None)["players"][seat].get("sealed"))

    def seat_body(self, player: dict[str, Any], view: dict[str, Any], claim: Any) -> Text:
        pieces = self.pieces
        lang = self.lang
        seat = player["seat"]
        lines: list[Text] = []
        if seat != self.human:
            row = backs(player["concealed_count"])
            row.append("  " + text("concealed", lang, n=player["concealed_count"]))
            lines.append(row)
        else:
            waits = self.current_waits()
            if waits:
                row = Text(text("hint.ready", lang) + " ", style=Style(color="#9fd3a8"))
                lines.append(row.append_text(pieces.row(waits)))
        flowers = pieces.split(player.get("flowers", ""))
        if flowers:
            lines.append(Text(text("flowers", lang) + " ").append_text(pieces.row(flowers)))
        for takeoff in player.get("takeoffs", []):
            lines.append(
                Text(text("takeoff", lang) + " ").append_text(pieces.row(pieces.split(takeoff)))
            )
        for meld in player["melds"]:
            lines.append(self.meld_text(meld, view["dealer"]))
        discards = pieces.split(player["discards"])
        last_seat = self.last_discarder()
        highlight = last_seat == seat
        width = self.discards_per_line(seat)
        if discards:
            lines.append(Text(text("discards", lang), style=Style(dim=True)))
            lines.append(pieces.row(discards, highlight_last=highlight, per_line=width))
        return Text("\n").join(lines)

    def discards_per_line(self, seat: int) -> int:
        try:
            widget = self.query_one(f"#seat-{seat}", Static)
            inner = widget.size.width
        except Exception:
            inner = 0
        return max(4, (inner + 1) // 5) if inner else 6

    def meld_text(self, meld: dict[str, Any], dealer: int) -> Text:
        kind = meld["type"]
        name = self.t(f"meld.{kind}") if f"meld.{kind}" in _MELD_KEYS else kind
        if "cards" in meld:
            pieces = self.pieces.split(meld["cards"])
        else:
            size = 3 if kind == "pong" else 4
            pieces = [meld["tile"]] * size
        out = Text(_pad_cells(name, 4) + " ", style=Style(color="#e8e0c8"))
        out.append_text(self.pieces.row(pieces))
        source = meld.get("from")
        if source is not None and source >= 0:
            out.append(" ← " + self.who(source), style=Style(dim=True))
        return out

    def last_discarder(self) -> int:
        """The seat whose newest discard still lies in its river (not claimed), or -1."""
        for ev in reversed(self.session.hand_events):
            if ev.type == "discard":
                return int(ev.seat)
            if ev.type in ("pong", "kong"):
                return -1
        return -1

    def update_hand(self, legal: list[str]) -> None:
        slots = self.slots
        buttons = list(self.query(TileButton))
        prefix = "ting" if self.mode == "ting" else "d"
        my_turn = any(a.startswith("d") or a.startswith("ting") for a in legal)
        for i, button in enumerate(buttons):
            if i >= len(slots):
                button.display = False
                continue
            piece = slots[i]
            button.display = True
            button.piece = piece
            button.update(self.pieces.face(piece))
            button.set_class(my_turn and i == self.cursor, "-cursor")
            button.set_class(my_turn and prefix + piece not in legal, "-dim")
            button.set_class(self.has_drawn and i == len(slots) - 1, "-drawn")

        for row in range(2):
            labels = Text()
            for i in range(row * ROW, min(len(slots), (row + 1) * ROW)):
                if self.has_drawn and i == len(slots) - 1:
                    labels.append("  ")
                style = Style(color="#f5c542", bold=True) if my_turn and i == self.cursor else None
                labels.append(f"{SLOT_KEYS[i]:^6}", style=style)
            used = len(slots) > row * ROW
            self.query_one(f"#hand-{row}").display = used
            keys = self.query_one(f"#keys-{row}", Static)
            keys.display = used
            keys.update(labels)

    def prompt_text(self, view: dict[str, Any], legal: list[str], claim: Any) -> Text:
        out = self._prompt(view, legal, claim)
        if self.message:
            if self.message_is_error:
                out.append("   ✗ " + self.message, style=Style(color="#ff8c69", bold=False))
            else:
                out.append("   " + self.message, style=Style(color="#e8e0c8", bold=False))
        return out

    def _prompt(self, view: dict[str, Any], legal: list[str], claim: Any) -> Text:
        lang = self.lang
        session = self.session
        if not legal:
            seat = session.next_seat()
            if seat is None:
                return Text("")
            return Text(text("prompt.wait", lang, who=self.who(seat)), style=Style(dim=True))
        phase = view["phase"]
        if self.mode == "choose":
            return Text(text("prompt.choose", lang))
        if self.mode == "ting":
            return Text(text("prompt.ting_mode", lang))
        if phase in ("claim", "rob") and claim:
            source = self.last_actor()
            key = "prompt.rob" if phase == "rob" else "prompt.claim"
            before, _, after = text(key, lang, who=self.who(source), tile="\0").partition("\0")
            out = Text(before)
            out.append_text(self.pieces.chip(claim, highlight=True))
            out.append(after)
            return out
        if phase == "declare":
            return Text(text("prompt.declare", lang))
        if phase == "knock":
            return Text(text("prompt.knock", lang))
        if phase == "takeoff":
            return Text(text("prompt.takeoff", lang))
        out = Text(text("prompt.discard", lang))
        hint = self.wait_hint()
        if hint:
            out.append("   ")
            out.append_text(hint)
        return out

    def current_waits(self) -> list[str]:
        """The tiles the person's hand waits on now (mahjong, between turns)."""
        hand = self.session.hand
        if self.pieces.cards or hand.is_over:
            return []
        return [w["tile"] for w in hand.view(self.human).get("waits", [])]

    def wait_hint(self) -> Text | None:
        """What the person would wait on after discarding the tile under the cursor (a
        hint for mahjong hands; the person's own tiles only)."""
        hand = self.session.hand
        if self.pieces.cards or not 0 <= self.cursor < len(self.slots):
            return None
        waits = hand.view(self.human).get("ready_discards", {}).get(self.slots[self.cursor])
        if not waits:
            return None
        out = Text(text("hint.waits", self.lang) + " ", style=Style(color="#9fd3a8"))
        out.append_text(self.pieces.row(waits))
        return out

    def last_actor(self) -> int:
        for ev in reversed(self.session.hand_events):
            if ev.type in ("discard", "added_kong", "play"):
                return int(ev.seat)
        return -1

    def actions_markup(self, legal: list[str]) -> str:
        lang = self.lang
        if self.mode == "choose":
            parts = [
                f"[@click=app.press('{CHOICE_KEYS[i]}')][b]{CHOICE_KEYS[i]}[/b] "
                f"{self.action_name(a)}[/]"
                for i, a in enumerate(self.choices)
            ]
            parts.append(f"[@click=app.press('escape')][b]Esc[/b] {text('cancel', lang)}[/]")
            return "   ".join(parts)
        parts = []
        for key, group in ACTION_KEYS:
            options = [a for a in legal if action_group(a) == group]
            if not options:
                continue
            if group == "hu" or (len(options) == 1 and group != "ting"):
                label = self.action_name(options[0])
            else:
                label = self.t(f"act.{group}")
            shown = text("key.space", lang) if key == "space" else key
            parts.append(f"[@click=app.press('{key}')][reverse] {shown} [/reverse] {label}[/]")
        return "   ".join(parts)

    def action_name(self, action: str) -> str:
        """A non-discard action for the action bar: 暗杠 五万, 碰, 自摸…"""
        lang = self.lang
        names = {
            "hu": "act.hu",
            "zimo": "act.zimo",
            "pass": "act.pass",
            "pong": "act.pong",
            "kong": "act.kong",
            "ting": "act.ting",
            "knock": "act.knock",
            "wuxi": "act.wuxi",
        }
        if action in names:
            return self.t(names[action])
        for prefix, key in (
            ("an", "act.concealed_kong"),
            ("jia", "act.added_kong"),
            ("qifei", "act.qifei"),
            ("ting", "act.ting"),
        ):
            if action.startswith(prefix):
                rest = action[len(prefix) :]
                return self.t(key) + " " + self.kind_name(rest)
        if action.startswith("chi"):
            return text("act.chi", lang) + " " + self.chi_name(int(action[3:]))
        return action

    def kind_name(self, kind: str) -> str:
        if kind in ("J", "Q", "K"):
            return kind
        return self.pieces.name(kind)

    def chi_name(self, position: int) -> str:
        claim = self.session.hand.view(self.human).get("claim_tile")
        if not claim:
            return str(position)
        rank, suit = int(claim[0]), claim[1]
        start = rank - position
        return " ".join(self.pieces.name(f"{start + i}{suit}") for i in range(3))

    # -- the log --------------------------------------------------------------------
    def log_write_events(self) -> None:
        events_ = self.session.hand_events
        new = events_[self._seen :]
        self._seen = len(events_)
        widget = self.query_one("#log", RichLog)
        for ev in new:
            line = self.describe(ev)
            if line is not None:
                self.log_lines.append(line.plain)
                widget.write(line)

    def describe(self, ev: Event) -> Text | None:
        """One log line for ``ev`` as the person may see it, or None to skip it."""
        lang = self.lang
        kind = ev.type
        if kind in _PRIVATE_EVENTS:
            return None
        data = to_json(ev)
        who = self.who(ev.seat) if ev.seat >= 0 else ""
        piece = data.get("tile") or data.get("card")
        name = self.pieces.name(piece) if isinstance(piece, str) else ""
        if isinstance(data.get("cards"), str) and not name:
            name = " ".join(self.pieces.name(p) for p in self.pieces.split(data["cards"]))
        if kind == "discard":
            return Text(text("log.discard", lang, who=who, tile=name))
        if kind in ("pong", "kong", "added_kong", "flower", "ready", "takeoff"):
            return Text(text(f"log.{kind}", lang, who=who, tile=name))
        if kind == "knock":
            key = "log.knock" if data.get("knock") else "log.no_knock"
            return Text(text(key, lang, who=who))
        if kind == "indicator":
            return Text(
                text("log.indicator", lang, tile=name, ranks=data.get("jian_pai", "")),
                style=Style(color="#f5c542"),
            )
        if kind == "redeal":
            return Text(text("log.redeal", lang))
        if kind == "concealed_kong":
            own = ev.seat == self.human or "cards" in data
            key = "log.concealed_kong_own" if own else "log.concealed_kong"
            return Text(text(key, lang, who=who, tile=name))
        if kind == "win":
            winners = data.get("winners", [])
            return Text(
                " ".join(text("log.win", lang, who=self.who(w)) for w in winners),
                style=Style(color="#f5c542", bold=True),
            )
        if kind in ("exhaustive_draw", "exhausted"):
            return Text(text("log.exhausted", lang), style=Style(bold=True))
        if kind == "payment":
            return Text(self.payment_line(data), style=Style(color="#9fd3a8"))
        if kind == "dice":
            return Text(text("log.dice", lang, who=who, dice="+".join(map(str, data["dice"]))))
        return None

    def payment_line(self, data: dict[str, Any]) -> str:
        return text(
            "log.payment",
            self.lang,
            payer=self.who(data["payer"]),
            payee=self.who(data["payee"]),
            amount=data["amount"],
            reason=item_name(self.session.variant, data["reason"], self.lang),
        )

    # -- the settlement -------------------------------------------------------------
    def result_body(self, hand: Any, index: int, last: bool) -> RenderableType:
        lang = self.lang
        session = self.session
        view = hand.view(self.human)
        parts: list[RenderableType] = []
        win_events = [e for e in session.hand_events if e.type == "win"]
        if not hand.winners:
            parts.append(Text(text("result.exhausted", lang), style=Style(bold=True)))
        score_events = {e.seat: e.data for e in session.hand_events if e.type == "score"}
        win_data = win_events[-1].data if win_events else {}
        # winners first, then every other seat the variant scores (Qing'er scores all)
        order = list(hand.winners) + [s for s in score_events if s not in hand.winners]
        pieces = self.pieces
        for seat in order:
            player = view["players"][seat]
            if seat in hand.winners:
                parts.append(self.win_heading(hand, seat, win_data))
                concealed = pieces.split(player.get("hand", ""))
                win_piece = win_data.get("tile") or win_data.get("card") or ""
                if win_data.get("how") == "self_draw" and win_piece in concealed:
                    concealed.remove(win_piece)
                concealed.sort(key=pieces.sort_key)
                row = pieces.row(concealed)
                if win_piece:
                    row.append("  ")
                    row.append_text(pieces.chip(win_piece, highlight=True))
                for meld in player["melds"]:
                    row.append("  ")
                    row.append_text(self.meld_text(meld, view["dealer"]))
                parts.append(row)
            else:
                parts.append(Text(self.who(seat), style=Style(color="#f5c542", bold=True)))
            table = Table(show_header=False, box=None, padding=(0, 2), expand=False)
            table.add_column(style=Style(color="#e8e0c8"))
            table.add_column(justify="right", style=Style(color="#f5c542", bold=True))
            data = score_events.get(seat) or {}
            for item_id, name, value in self.scored_items(hand, seat, data):
                table.add_row(name, item_value(session.variant, item_id, value, lang))
            if "per_payer" in data:
                each = self.counts_as(hand, seat, win_data) == "self_draw"
                key = "result.per_payer" if each else "result.value"
                total = text(key, lang, value=data["per_payer"])
            elif "score" in data:
                total = text("result.total", lang, value=data["score"])
            else:
                total = ""
            if total:
                table.add_row(Text(total, style="bold"), "")
            parts.append(table)
        for ev in session.hand_events:
            if ev.type == "fish":
                landed = [
                    f"{self.pieces.name(t)}→{self.who(seat)}"
                    for t, seat in zip(
                        self.pieces.split(ev.data["tiles"]), ev.data["hits"], strict=False
                    )
                ]
                hits = sum(1 for seat in ev.data["hits"] if seat in hand.winners)
                parts.append(
                    Text(
                        text(
                            "result.fish",
                            lang,
                            who=self.who(ev.seat),
                            tiles=" ".join(landed),
                            hits=hits,
                        )
                    )
                )
        parts.append(Text(text("result.payments", lang), style=Style(bold=True, underline=True)))
        payments = [e.data for e in session.hand_events if e.type == "payment"]
        if payments:
            parts.extend(Text("  " + self.payment_line(p)) for p in payments)
        else:
            parts.append(Text("  " + text("result.no_payments", lang)))
        # the settlement's own explanation, the text the calculator and the browser show
        ends = [e.data for e in session.hand_events if e.type == "end" and e.data]
        explained = ends[-1].get("explanation") if ends else None
        if explained:
            parts.append(Text(text("result.explanation", lang), style=Style(bold=True)))
            parts.append(Text(explained["text"]["en" if lang == "en" else "zh"], style="dim"))
        parts.append(Text(""))
        parts.append(self.ledger_table())
        footer = "result.match_over" if last else "result.next"
        if self.saved_path:
            parts.append(Text(text("log.saved", lang, path=self.saved_path), style="dim"))
        parts.append(Text(text(footer, lang), style=Style(color="#f5c542", bold=True)))
        return Group(*parts)

    def scored_items(
        self, hand: Any, seat: int, data: dict[str, Any]
    ) -> list[tuple[str, str, int]]:
        """(id, name, value) of every item ``seat`` scored, in the UI language: from the
        hand's score objects where it keeps them, else from the score event."""
        lang = self.lang
        items: Any = None
        results = getattr(hand, "win_results", None) or {}
        if seat in results:
            items = results[seat].items
        else:
            result = getattr(hand, "result", None)
            players = list(getattr(hand, "players", []) or [])
            if result is not None and seat in players:
                items = result.items[players.index(seat)]
        if items is not None:
            return [(i.id, i.en if lang == "en" else i.zh, i.value) for i in items]
        variant = self.session.variant
        return [
            (i["id"], item_name(variant, i["id"], lang) if lang == "en" else i["name"], i["value"])
            for i in data.get("items", [])
        ]

    @staticmethod
    def counts_as(hand: Any, seat: int, win_data: dict[str, Any]) -> str:
        """How ``seat``'s win is paid: "self_draw" (every other seat pays the value) or
        "discard" (one payer); a variant's scorer may say, else the way it was won."""
        result = (getattr(hand, "win_results", None) or {}).get(seat)
        extra = getattr(result, "extra", None) or {}
        how = extra.get("counts_as") or win_data.get("how") or ""
        return "self_draw" if how == "self_draw" else "discard"

    def win_heading(self, hand: Any, seat: int, data: dict[str, Any]) -> Text:
        lang = self.lang
        tile = data.get("tile") or data.get("card") or ""
        heading = Text(
            text(
                "result.win", lang, who=self.who(seat), tile=self.pieces.name(tile) if tile else ""
            ),
            style=Style(color="#f5c542", bold=True),
        )
        how = data.get("how")
        info = (getattr(hand, "win_info", None) or {}).get(seat)
        source = getattr(info, "source", None)
        if source is None:
            source = data.get("from")
        if how == "self_draw":
            heading.append("  " + text("result.self_draw", lang))
        elif how == "discard" and source is not None:
            heading.append("  " + text("result.discard", lang, who=self.who(source)))
        elif how == "robbed_kong" and source is not None:
            heading.append("  " + text("result.robbed_kong", lang, who=self.who(source)))
        return heading

    def ledger_table(self) -> Table:
        lang = self.lang
        session = self.session
        table = Table(title=text("result.ledger", lang), expand=False, padding=(0, 1))
        table.add_column(text("result.hand_col", lang), justify="right")
        table.add_column(text("dealer", lang))
        for s in range(self.n):
            table.add_column(self.who(s), justify="right")
        shown = session.summaries[-LEDGER_ROWS:]
        if len(shown) < len(session.summaries):
            table.add_row("…", "", *([""] * self.n))
        for summary in shown:
            table.add_row(
                str(summary.index + 1),
                self.who(summary.dealer),
                *(_signed(v) for v in summary.net),
            )
        table.add_row(
            Text(text("result.totals", lang), style="bold"),
            "",
            *(Text(_signed(v), style="bold") for v in session.totals()),
        )
        return table


_PRIVATE_EVENTS = frozenset({"deal", "draw", "replacement_draw", "draw_for_dealer"})
"""Events the log never shows: their pieces are private (and the rest is noise)."""

_MELD_KEYS = frozenset({"meld.pong", "meld.kong", "meld.added_kong", "meld.concealed_kong"})


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


def _pad_cells(label: str, width: int) -> str:
    from rich.cells import cell_len

    return label + " " * max(0, width - cell_len(label))
