"""One match driven decision by decision, producing the record lines as it goes.

:func:`paiju.engine.match.play_hand` pulls decisions from players; a server is pushed them by
sockets and bots at any moment, so :class:`GameSession` inverts that loop. It emits exactly
the lines :func:`paiju.engine.record.record_match` would (through the same
:class:`~paiju.engine.record.RecordWriter`), which is what lets ``paiju replay`` verify a
stored game and lets a restarted server rebuild a table from its header and decisions.

Simultaneous answers (a claim window with several claimants) arrive in any order, but the
record (and so replay) wants them in ``to_act()`` order. An answer that arrives early is held
back and applied once every seat before it in that order has answered; the engine produces
no events before the last answer anyway, so nobody can tell.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.events import Event, for_seat
from paiju.engine.match import Hand, HandSummary, Match
from paiju.engine.record import RecordWriter, header
from paiju.variants.base import options_from_mapping


class ResumeError(ValueError):
    """Stored lines that the engine does not reproduce (a foreign or damaged log)."""


@dataclass
class Step:
    """What one call changed: record lines (for storage) and engine events (for players)."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    hand_started: bool = False
    hand_ended: HandSummary | None = None
    match_ended: bool = False


class GameSession:
    """A match plus its record, advanced by :meth:`act`, :meth:`start_hand`, :meth:`end_hand`."""

    def __init__(self, flow: Any, options: Any, seed: int, seats: list[str]) -> None:
        self.flow = flow
        self.options = options
        self.n_seats: int = seat_count(flow, options)
        self.match = Match(flow, options, seed, n_seats=self.n_seats)
        self.lines: list[dict[str, Any]] = [header(self.match, list(seats))]
        self.hand: Hand | None = None
        self.held: dict[int, int] = {}
        """Answers received ahead of their turn in a multi-seat window (seat → code)."""
        self.turn = 0
        """Counts every change of the table that players see; a client may quote it to
        avoid acting on a state it has not seen. Answers held in a claim window change
        nothing visible and do not count: the count must not tell how many answered."""
        self.finished = False
        self.hide: SeatFilter = for_seat
        """How this game's events are filtered for a seat (set from the first hand)."""
        self._step = Step()
        self._writer = RecordWriter(self._sink)

    # -- record plumbing -----------------------------------------------------------
    def _sink(self, line: dict[str, Any]) -> None:
        self.lines.append(line)
        self._step.lines.append(line)

    def _emit(self, item: Any) -> None:
        if isinstance(item, Event):
            self._step.events.append(item)
        self._writer(item)

    def _take(self) -> Step:
        step, self._step = self._step, Step()
        return step

    # -- driving -------------------------------------------------------------------
    @property
    def hand_over(self) -> bool:
        return self.hand is not None and self.hand.is_over

    @property
    def between_hands(self) -> bool:
        """The last hand is settled (or none was dealt) and the next one not dealt yet."""
        return not self.finished and self.hand is None

    def start_hand(self) -> Step:
        if not self.between_hands:
            raise IllegalActionError("a hand is in progress or the match is over")
        hand = self.match.new_hand()
        self.hand = hand
        self.hide = seat_filter(hand)
        self.held = {}
        self._emit(("hand", len(self.match.hands), hand))
        for ev in hand.log:
            self._emit(ev)
        self.turn += 1
        step = self._take()
        step.hand_started = True
        return step

    def end_hand(self) -> Step:
        """Settle a finished hand into the match; ends the match after its last hand."""
        hand = self.hand
        if hand is None or not hand.is_over:
            raise IllegalActionError("no finished hand to end")
        summary = self.match.finish_hand(hand)
        self.hand = None
        self._emit(("hand_end", summary))
        if self.match.is_over():
            self.finished = True
            self._sink(
                {
                    "type": "match_end",
                    "totals": self.match.totals(),
                    "hands": len(self.match.hands),
                }
            )
        self.turn += 1
        step = self._take()
        step.hand_ended = summary
        step.match_ended = self.finished
        return step

    def to_act(self) -> list[int]:
        """Seats whose answer is still awaited (answers held back do not count)."""
        if self.hand is None or self.hand.is_over:
            return []
        return [s for s in self.hand.to_act() if s not in self.held]

    def legal(self, seat: int) -> list[int]:
        if self.hand is None or self.hand.is_over or seat in self.held:
            return []
        return self.hand.legal_actions(seat)

    def parse(self, text: str) -> int:
        if self.hand is None:
            raise IllegalActionError("no hand is being played")
        return self.hand.parse_action(text)

    def act(self, seat: int, code: int) -> Step:
        """Apply ``seat``'s decision; raises an engine error (nothing changes) if not legal."""
        hand = self.hand
        if hand is None or hand.is_over:
            raise IllegalActionError("no hand is being played")
        if seat in self.held:
            raise IllegalActionError(f"seat {seat} has already answered")
        waiting = hand.to_act()
        if seat not in waiting:
            raise IllegalActionError(f"seat {seat} has nothing to decide now")
        if code not in hand.legal_actions(seat):
            raise IllegalActionError(f"{hand.action_str(code)} is not legal for seat {seat} now")
        self.held[seat] = code
        # apply in to_act order: the record (and replay) expects that order
        while self.held and not hand.is_over:
            first = hand.to_act()[0]
            if first not in self.held:
                break
            answer = self.held.pop(first)
            events = hand.apply(answer, first)
            self._emit(("action", first, hand.action_str(answer)))
            for ev in events:
                self._emit(ev)
        if hand.is_over:
            self.held = {}
        step = self._take()
        if step.events or hand.is_over:
            self.turn += 1
        return step

    # -- what a seat may see -------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """The engine's view for ``seat`` (None: spectator), or a between-hands stub."""
        hand = self.hand
        if hand is None:
            return {"phase": "between_hands" if not self.finished else "finished"}
        view_fn = getattr(hand, "view", None)
        if view_fn is None:
            raise TypeError(f"{type(hand).__name__} has no view(seat)")
        out: dict[str, Any] = view_fn(seat)
        if seat is not None and "legal_actions" in out and seat in self.held:
            out["legal_actions"] = []
        return out

    def match_state(self) -> dict[str, Any]:
        """Public match progress: hands played, totals and the ledger by hand."""
        return {
            "hands_played": len(self.match.hands),
            "dealer": self.match.dealer,
            "round_wind": self.match.round_wind,
            "totals": self.match.totals(),
            "ledger": [
                {
                    "hand": index,
                    "payer": p.payer,
                    "payee": p.payee,
                    "amount": p.amount,
                    "reason": p.reason,
                }
                for index, p in self.match.ledger
            ],
            "hands": [
                {
                    "index": h.index,
                    "dealer": h.dealer,
                    "winners": h.winners,
                    "self_drawn": h.self_drawn,
                    "exhausted": h.exhausted,
                    "net": h.net,
                }
                for h in self.match.hands
            ],
        }

    # -- rebuilding ------------------------------------------------------------------
    @classmethod
    def resume(cls, lines: list[dict[str, Any]]) -> GameSession:
        """Rebuild a session from stored record lines by re-running the engine.

        Every stored line must match what the engine regenerates; the stored log may stop
        short of the regenerated one (lines not yet flushed when a server stopped), and the
        missing tail is in ``session.lines`` afterwards. The last hand is left as it was: in
        progress, or finished but not yet ended, or (after ``hand_end``) not yet dealt.
        """
        from paiju.variants.registry import flows

        if not lines:
            raise ResumeError("no header")
        head = lines[0]
        if not isinstance(head, dict):
            raise ResumeError("line 1: the header is not a JSON object")
        variant = head.get("variant")
        flow = flows().get(variant) if isinstance(variant, str) else None
        if flow is None:
            raise ResumeError(f"unknown variant {str(variant)[:40]!r}")
        raw_options = head.get("options") or {}
        if not isinstance(raw_options, dict):
            raise ResumeError("header options must be a JSON object")
        try:
            options = options_from_mapping(flow.options_type, raw_options)
        except (ValueError, TypeError) as exc:
            raise ResumeError(f"header options: {exc}") from None
        seed = head.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            raise ResumeError("header seed must be a non-negative 64-bit integer")
        names = head.get("seats") or []
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise ResumeError("header seats must be a list of names")
        session = cls(flow, options, seed, names)
        if session.lines[0] != head:
            raise ResumeError("header differs from what this engine writes")
        for number, line in enumerate(lines[1:], start=2):
            if not isinstance(line, dict):
                raise ResumeError(f"line {number}: not a JSON object")
            kind = line.get("type")
            if kind == "hand":
                session.start_hand()
            elif kind == "hand_end":
                session.end_hand()
            elif kind == "action":
                seat = line.get("seat")
                try:
                    code = session.parse(str(line.get("action"))[:32])
                    if not isinstance(seat, int) or isinstance(seat, bool):
                        raise IllegalActionError("no seat")
                    session.act(seat, code)
                except (IllegalActionError, InvalidActionError) as exc:
                    raise ResumeError(f"line {number}: {exc}") from None
            if len(session.lines) < number:
                raise ResumeError(f"line {number}: the engine produced nothing here")
            if session.lines[number - 1] != line:
                raise ResumeError(f"line {number} differs from what the engine produces")
        return session


SeatFilter = Callable[[Event, "int | None"], dict[str, Any]]

WINDOW_PHASES = frozenset({"claim", "rob", "declare"})
"""Phases in which several seats may be asked at once and whether any is asked depends on
what they hold: a discard's claim window, robbing a kong, 天聽 declarations."""


def claim_window_open(session: GameSession) -> bool:
    """Whether the hand waits on answers that only the asked seats may know of.

    The one place the server recognises such a window (until the hand says it itself)."""
    hand: Any = session.hand
    if hand is None or hand.is_over:
        return False
    phase = hand.view(None).get("phase")
    return phase in WINDOW_PHASES


def default_action(session: GameSession, seat: int) -> int:
    """What a seat does when its time runs out: pass a claim, else let the drawn tile go,
    else the lowest-coded legal action (for mahjong: a discard).

    The one place the server decides a timeout's move (until the hand says it itself)."""
    hand = session.hand
    assert hand is not None
    legal = session.legal(seat)
    by_name = {hand.action_str(a): a for a in legal}
    if "pass" in by_name:
        return by_name["pass"]
    view = session.view(seat)
    drawn = view.get("drawn")
    if isinstance(drawn, str) and "d" + drawn in by_name:
        return by_name["d" + drawn]
    return min(legal)


def seat_count(flow: Any, options: Any) -> int:
    """Seats at a table of ``flow`` with ``options`` (Qing'er: 3, or 4 with
    ``participants = 4``, one of whom sits each hand out)."""
    seats = getattr(flow, "seats", None)
    if callable(seats):
        return int(seats(options))
    return int(flow.n_seats)


def seat_filter(hand: Any) -> SeatFilter:
    """The ``for_seat`` of the hand's own engine module (each game hides its own kinds of
    private events: mahjong tiles, Qing'er cards), else the generic one."""
    module = sys.modules.get(type(hand).__module__)
    fn = getattr(module, "for_seat", None)
    if callable(fn):
        return fn  # type: ignore[no-any-return]
    return for_seat


def events_for(
    events: list[Event], seat: int | None, hide: SeatFilter = for_seat
) -> list[dict[str, Any]]:
    return [hide(ev, seat) for ev in events]
