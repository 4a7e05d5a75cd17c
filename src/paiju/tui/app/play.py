"""The Textual app of ``paiju play``: one person against bots.

Everything on screen comes from ``hand.view(person)`` (what that seat may know) and the
hand's events; decisions go through :class:`~paiju.tui.session.PlaySession`, which keeps
the record. Bots act after a short pause (``bot_delay``; 0 makes every bot decision
synchronous, which the tests rely on). This module is the game loop and the keys; what
is drawn lives in :mod:`.board`, :mod:`.log` and :mod:`.settlement`.
"""

from __future__ import annotations

from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.timer import Timer
from textual.widgets import RichLog, Static

from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.grammar import Action, Verb
from paiju.engine.types import Phase
from paiju.tui.app.board import (
    ACTION_KEYS,
    CHOICE_KEYS,
    ROW,
    SLOT_KEYS,
    TileButton,
    action_group,
    actions_markup,
    hand_labels,
    last_actor,
    last_discarder,
    plays_a_piece,
    prompt,
    seat_body,
    seat_title,
    status_line,
    wait_hint,
)
from paiju.tui.app.log import describe
from paiju.tui.app.screens import HelpScreen, ResultScreen
from paiju.tui.app.settlement import ledger_table, settlement
from paiju.tui.app.words import Words
from paiju.tui.render import PieceStyle, TileStyle
from paiju.tui.session import PlaySession

DELAY_STEPS = (0.0, 0.2, 0.4, 0.7, 1.0, 1.5)


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
        self.n = session.n_seats
        self.human = session.human
        self.words = Words(session.variant, lang, self.human, self.n, self.pieces)
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
        self.title = self.words.text(f"variant.{self.session.variant}")
        self.query_one("#log", RichLog).border_title = self.words.text("log")
        self.start_hand()

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
        return bool(view["current"] == seat and view["phase"] == Phase.ACT)

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
            self.flash(self.words.text("prompt.illegal"))
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
        view = session.hand.view(self.human)
        hand_events = list(session.hand_events)
        summary = session.finish_hand()
        self.saved_path = session.record_path if session.record() else self.saved_path
        last = session.match_over
        body = settlement(
            self.words,
            view,
            hand_events,
            ledger=ledger_table(self.words, session.summaries, session.totals()),
            saved_path=self.saved_path,
            last=last,
        )
        title = self.words.text("result.title", n=summary.index + 1)
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

    def on_tile_button_pressed(self, message: TileButton.Pressed) -> None:
        self.press_slot(message.slot)

    def action_press(self, key: str) -> None:
        self.handle_key(key)

    def handle_key(self, key: str) -> None:
        self.message = ""
        if key == "q":
            if self.quit_armed:
                self.exit(self.saved_path)
            else:
                self.quit_armed = True
                self.flash(self.words.text("prompt.quit"), error=False)
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
                self.flash(self.words.text("prompt.illegal"))
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
            self.flash(self.words.text("prompt.illegal"))
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
            self.flash(self.words.text("prompt.illegal"))
            return
        action = self.slot_action(slots[slot])
        if action not in self.legal():
            self.flash(self.words.text("prompt.illegal"))
            return
        self.cursor = slot
        self.act(action)

    def slot_action(self, piece: str) -> str:
        """What playing ``piece`` means now: a discard, or a ready declaration with it."""
        return str(Action(Verb.TING if self.mode == "ting" else Verb.DISCARD, piece))

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
        self.flash(self.words.text("prompt.pace", s=self.bot_delay), error=False)

    def flash(self, message: str, *, error: bool = True) -> None:
        """Show ``message`` after the prompt until the next key (``error``: a refused key)."""
        self.message = message
        self.message_is_error = error
        self.refresh_view()

    # -- what the person holds ------------------------------------------------------
    def current_slots(self) -> list[str]:
        """The person's pieces in display order: sorted, then the drawn one apart."""
        return self._slots(self.session.hand.view(self.human))[0]

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

    def current_waits(self, view: dict[str, Any]) -> list[str]:
        """The tiles the person's hand waits on now (mahjong, between turns)."""
        if self.pieces.cards:
            return []
        return [w["tile"] for w in view.get("waits", [])]

    # -- drawing --------------------------------------------------------------------
    def refresh_view(self) -> None:
        session = self.session
        view = session.hand.view(self.human)
        public = session.hand.view(None)
        words = self.words
        self.slots, self.has_drawn = self._slots(view)
        self.pieces.wild = frozenset(view.get("wild_kinds", ()))
        legal = self.legal()
        self.query_one("#status", Static).update(status_line(words, session, view))
        river = last_discarder(session.hand_events)
        totals = session.totals()
        for player in view["players"]:
            seat = player["seat"]
            panel = self.query_one(f"#seat-{seat}", Static)
            # 封胡 follows from who fed whom: public, and void once the hand is over
            sealed = view["phase"] != Phase.END and bool(public["players"][seat].get("sealed"))
            panel.border_title = seat_title(
                words, seat, view, sealed=sealed, match_total=totals[seat]
            )
            panel.set_class(view.get("current") == seat and view["phase"] != Phase.END, "-turn")
            panel.update(
                seat_body(
                    words,
                    player,
                    waits=self.current_waits(view),
                    river_highlight=river == seat,
                    per_line=self.discards_per_line(seat),
                )
            )
        self.update_hand(legal)
        self.query_one("#prompt", Static).update(self.prompt_text(view, legal))
        claim = view.get("claim_tile")
        choices = self.choices if self.mode == "choose" else None
        self.query_one("#actions", Static).update(
            actions_markup(words, legal, choices=choices, claim=claim)
        )

    def discards_per_line(self, seat: int) -> int:
        try:
            inner = self.query_one(f"#seat-{seat}", Static).size.width
        except Exception:
            inner = 0
        return max(4, (inner + 1) // 5) if inner else 6

    def update_hand(self, legal: list[str]) -> None:
        slots = self.slots
        my_turn = any(plays_a_piece(a) or a == "ting" for a in legal)
        for i, button in enumerate(self.query(TileButton)):
            if i >= len(slots):
                button.display = False
                continue
            piece = slots[i]
            button.display = True
            button.piece = piece
            button.update(self.pieces.face(piece))
            button.set_class(my_turn and i == self.cursor, "-cursor")
            button.set_class(my_turn and self.slot_action(piece) not in legal, "-dim")
            button.set_class(self.has_drawn and i == len(slots) - 1, "-drawn")
        cursor = self.cursor if my_turn else -1
        for row in range(2):
            used = len(slots) > row * ROW
            self.query_one(f"#hand-{row}").display = used
            keys = self.query_one(f"#keys-{row}", Static)
            keys.display = used
            keys.update(hand_labels(slots, row, has_drawn=self.has_drawn, cursor=cursor))

    def prompt_text(self, view: dict[str, Any], legal: list[str]) -> Any:
        piece = self.slots[self.cursor] if 0 <= self.cursor < len(self.slots) else None
        out = prompt(
            self.words,
            view,
            legal,
            mode=self.mode,
            waiting_for=self.session.next_seat(),
            offered_by=last_actor(self.session.hand_events),
            hint=wait_hint(self.words, view, piece),
        )
        if self.message:
            colour = "#ff8c69" if self.message_is_error else "#e8e0c8"
            mark = "   ✗ " if self.message_is_error else "   "
            out.append(mark + self.message, style=f"{colour} not bold")
        return out

    # -- the log --------------------------------------------------------------------
    def log_write_events(self) -> None:
        hand_events = self.session.hand_events
        new = hand_events[self._seen :]
        self._seen = len(hand_events)
        widget = self.query_one("#log", RichLog)
        for ev in new:
            line = describe(self.words, ev)
            if line is not None:
                self.log_lines.append(line.plain)
                widget.write(line)
