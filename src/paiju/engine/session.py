"""The one session driver and the one replayer.

:class:`Session` is a match plus its record. Every front end drives one: the server pushes
decisions into it as sockets and bots answer (:meth:`Session.act`), the terminal
(:class:`paiju.tui.session.PlaySession`) pushes the person's and its bots' decisions the same
way, and bot-only play (:func:`play_match`, ``paiju simulate``, :func:`paiju.engine.record.
record_match`) pulls decisions from players (:meth:`Session.play_hand`). Turn-taking,
claim windows answered in order, the events players see and the record lines come from here
only, written by one :class:`~paiju.engine.record_format.RecordWriter`.

Simultaneous answers (a claim window with several claimants) arrive in any order, but the
record (and so replay) wants them in ``to_act()`` order. An answer that arrives early is held
back and applied once every seat before it in that order has answered; the engine produces
no events before the last answer anyway, so nobody can tell.

:meth:`Session.replay` is the one replayer: it rebuilds a session from record lines by
running the engine once, line by line, and checks every line as strict JSON (a line
written before a field was added to it is compared without that field, see
:func:`~paiju.engine.record_format.same_line`). ``paiju
replay`` / ``paiju verify`` (:mod:`paiju.engine.record`), a restarted server
(:meth:`Session.resume`) and the web replay frames all go through it, so they accept and
refuse the same records with the same :class:`ResumeError`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from paiju.components.boundedjson import preview
from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.events import Event, for_seat
from paiju.engine.fairness import FairDeal, FairDealError
from paiju.engine.match import Decide, Hand, HandSummary, Match
from paiju.engine.record_format import (
    ADDED_FIELDS,
    FORMAT_VERSION,
    Decision,
    FindGame,
    RecordWriter,
    ResumeError,
    header,
    match_end,
    same_line,
    stated_fair_deal,
)
from paiju.engine.types import Phase

__all__ = [
    "ResumeError",
    "Session",
    "Step",
    "StepHook",
    "bot_seed",
    "play_match",
]


def bot_seed(match_seed: int, seat: int, n_seats: int) -> int:
    """The seed of the bot at ``seat`` in a match seeded ``match_seed``: the same for
    ``paiju simulate``, ``paiju play`` and a server table, so one seed and one set of bots
    play the same match everywhere."""
    return match_seed * n_seats + seat


@dataclass
class Step:
    """What one call changed: record lines (for storage) and engine events (for players)."""

    lines: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    hand_started: bool = False
    hand_ended: HandSummary | None = None
    match_ended: bool = False


StepHook = Callable[["Session", dict[str, Any], Step], None]
"""Called by :meth:`Session.replay` after each ``hand``, ``action`` and ``hand_end`` line
is applied: ``(session, the record line, what it changed)`` (the web replay frames)."""


class Session:
    """A match plus its record, advanced by :meth:`start_hand`, :meth:`act` (or
    :meth:`play_hand`) and :meth:`end_hand`.

    ``fair``: the fair-deal scheme the match is dealt under (its header and reveal go into
    the record). ``observe`` (optional) sees every item the record is written from, as
    ``play_match``'s ``emit`` always has: events, ``("hand", index, hand)``, ``("action",
    seat, text)`` and ``("hand_end", summary)``. ``record=False`` writes no record lines
    past the header (``paiju simulate`` without ``--record``, whose statistics need only the
    events): turning every event into JSON is a good part of a random-bot hand's time.
    """

    def __init__(
        self,
        flow: Any,
        options: Any,
        seed: int,
        seats: list[str],
        *,
        fair: FairDeal | None = None,
        observe: Callable[[Any], None] | None = None,
        record: bool = True,
    ) -> None:
        self._start(Match(flow, options, seed, fair=fair), seats, observe, record)

    @classmethod
    def of(
        cls, match: Match, seats: list[str], observe: Callable[[Any], None] | None = None
    ) -> Session:
        """A session driving ``match`` (not yet started) with these seat labels."""
        session = cls.__new__(cls)
        session._start(match, seats, observe, True)
        return session

    def _start(
        self,
        match: Match,
        seats: list[str],
        observe: Callable[[Any], None] | None,
        record: bool,
    ) -> None:
        if match.hands:
            raise ValueError("a session starts with a match that has not started")
        self.match = match
        self.flow: Any = match.flow
        self.options: Any = match.options
        self.n_seats: int = match.n_seats
        self.lines: list[dict[str, Any]] = [header(match, list(seats))]
        self.hand: Hand | None = None
        self.held: dict[int, int] = {}
        """Answers received ahead of their turn in a multi-seat window (seat → code)."""
        self.turn = 0
        """Counts every change of the table that players see; a client may quote it to
        avoid acting on a state it has not seen. Answers held in a claim window change
        nothing visible and do not count: the count must not tell how many answered."""
        self.finished = False
        self._step = Step()
        self._writer = RecordWriter(self._sink) if record else None
        self._observe = observe

    # -- record plumbing -----------------------------------------------------------
    def _sink(self, line: dict[str, Any]) -> None:
        self.lines.append(line)
        self._step.lines.append(line)

    def _emit(self, item: Any) -> None:
        if isinstance(item, Event):
            self._step.events.append(item)
        if self._writer is not None:
            self._writer(item)
        if self._observe is not None:
            self._observe(item)

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
            if self._writer is not None:
                self._sink(match_end(self.match))
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

    def next_seat(self) -> int | None:
        """The seat whose answer is applied next (the first of :meth:`to_act`), or None."""
        waiting = self.to_act()
        return waiting[0] if waiting else None

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
            self._apply(hand, first, self.held.pop(first))
        if hand.is_over:
            self.held = {}
        step = self._take()
        if step.events or hand.is_over:
            self.turn += 1
        return step

    def _apply(self, hand: Hand, seat: int, code: int) -> None:
        events = hand.apply(code, seat)
        self._emit(("action", seat, hand.action_str(code)))
        for ev in events:
            self._emit(ev)

    def play_hand(self, players: Sequence[Decide]) -> Step:
        """Play the current hand to its end, asking ``players[seat](hand, seat)`` for each
        decision in the order :meth:`act` applies answers (the first seat of ``to_act()``).

        The players are trusted (bots of this process): their answers are applied without
        the legality check :meth:`act` makes for decisions from outside, which is what keeps
        bot-only play as fast as a bare loop. The engine still refuses a malformed or
        illegal action itself."""
        hand = self.hand
        if hand is None or self.held:
            raise IllegalActionError("no hand is being played, or answers are held")
        apply = self._apply
        while not hand.is_over:
            seat = hand.to_act()[0]
            apply(hand, seat, players[seat](hand, seat))
        self.turn += 1
        return self._take()

    def play(self, players: Sequence[Decide]) -> Iterator[HandSummary]:
        """Play every remaining hand with ``players``; yields each hand's summary."""
        while not self.finished:
            if self.hand is None:
                self.start_hand()
            self.play_hand(players)
            summary = self.end_hand().hand_ended
            assert summary is not None
            yield summary

    # -- what a seat may see -------------------------------------------------------
    def events_for(self, seat: int | None, events: list[Event]) -> list[dict[str, Any]]:
        """The JSON of ``events`` as ``seat`` may see them (the hand's own filter)."""
        if self.hand is not None:
            return self.hand.events_for(seat, events)
        return [for_seat(ev, seat) for ev in events]

    def events_for_seats(
        self, seats: list[int | None], events: list[Event]
    ) -> list[list[dict[str, Any]]]:
        """:meth:`events_for` of each of ``seats`` (built together; the event objects are
        shared between the lists: not to be changed in place)."""
        if self.hand is not None:
            return self.hand.events_for_seats(seats, events)
        return [[for_seat(ev, seat) for ev in events] for seat in seats]

    def view(self, seat: int | None, *, recent: bool = True) -> dict[str, Any]:
        """The engine's view for ``seat`` (None: spectator), or a between-hands stub;
        ``recent=False`` leaves out the tail of recent events."""
        hand = self.hand
        if hand is None:
            return {"phase": Phase.BETWEEN_HANDS if not self.finished else Phase.FINISHED}
        out: dict[str, Any] = hand.view(seat, recent=recent)
        if seat is not None and "legal_actions" in out and seat in self.held:
            out["legal_actions"] = []
        return out

    def views(self, seats: list[int | None], *, recent: bool = True) -> list[dict[str, Any]]:
        """:meth:`view` of each of ``seats``, built together (the hand shares what every
        seat sees alike between them: not to be changed in place)."""
        hand = self.hand
        if hand is None:
            return [self.view(seat, recent=recent) for seat in seats]
        out = hand.views(seats, recent=recent)
        for seat, view in zip(seats, out, strict=True):
            if seat is not None and "legal_actions" in view and seat in self.held:
                view["legal_actions"] = []
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

    # -- the one replayer ----------------------------------------------------------
    @classmethod
    def replay(
        cls,
        lines: list[dict[str, Any]],
        find_game: FindGame,
        *,
        whole: bool = True,
        on_decision: Decision | None = None,
        on_step: StepHook | None = None,
        server_seed: bytes | None = None,
    ) -> Session:
        """Rebuild the session of one record by running the engine once, line by line.

        The header gives the game, options, seed and fair deal; each ``hand``, ``action``
        and ``hand_end`` line is applied as it comes, and every line must be, as strict JSON
        (``true`` is not ``1``), the one the engine writes there, or that line as written
        before fields were added to it (``record_format.ADDED_FIELDS`` and the game's
        ``record_additions``: a record of an older engine replays and resumes). ``whole``:
        the record must be a whole match, ending with its ``match_end``; otherwise (a
        server's stored log) it may stop anywhere, and the lines the engine went on to
        write after the last stored one are in ``session.lines``. Raises
        :class:`ResumeError` naming the first line at fault and what is wrong with it;
        nothing else escapes for any input.

        ``server_seed``: a fair deal's secret seed, for a log whose ``match_end`` has not
        revealed it yet (a server keeps it apart until then); it must match the commitment.
        """
        if not lines:
            raise ResumeError("no header", 1)
        head = lines[0]
        flow, options, seed, seats = _read_header(head, find_game)
        fair = None
        if "fair" in head:
            fair = stated_fair_deal(lines) if server_seed is None else _kept_fair(head, server_seed)
        session = cls(flow, options, seed, seats, fair=fair)
        added = ADDED_FIELDS | flow.record_additions()
        # the engine version is a label (docs/spec/record.md): a record of another version
        # replays as long as play has not changed
        made = {**session.lines[0], "engine": head.get("engine", _NO_LABEL)}
        if not same_line(made, head, added, "header"):
            raise ResumeError("differs from what the engine produces", 1)
        session.lines[0] = head
        for number, line in enumerate(lines[1:], start=2):
            if not isinstance(line, dict):
                raise ResumeError("not a JSON object", number)
            if len(session.lines) < number:
                # the engine waits for this line's input: a new hand, a decision or a hand's end
                step = session._drive(line, number, on_decision)
                if on_step is not None:
                    on_step(session, line, step)
                if len(session.lines) < number:
                    raise ResumeError("the engine writes nothing here", number)
            made = session.lines[number - 1]
            if not same_line(made, line, added, str(made.get("type"))):
                raise ResumeError("differs from what the engine produces", number)
            # the record keeps its lines as written (an older one without later fields)
            session.lines[number - 1] = line
        if whole and (not session.finished or len(session.lines) > len(lines)):
            raise ResumeError("the record ends before the game does", len(lines) + 1)
        return session

    def _drive(self, line: dict[str, Any], number: int, on_decision: Decision | None) -> Step:
        """Apply the input one record line gives; :class:`ResumeError` if it gives none."""
        kind = line.get("type")
        hand = self.hand
        if self.finished:
            raise ResumeError("the match is over: nothing follows its match_end", number)
        if hand is None:
            if kind != "hand":
                raise ResumeError("expected the next hand's 'hand' line", number)
            return self.start_hand()
        if hand.is_over:
            if kind != "hand_end":
                raise ResumeError("expected the hand's 'hand_end' line", number)
            return self.end_hand()
        seat = hand.to_act()[0]
        recorded = line.get("seat")
        if kind != "action" or type(recorded) is not int or recorded != seat:
            raise ResumeError(f"expected an action of seat {seat}", number)
        text = line.get("action")
        if not isinstance(text, str):
            raise ResumeError(f"an action is a string, not {preview(text)}", number)
        try:
            code = hand.parse_action(text)
        except InvalidActionError:
            raise ResumeError(f"unknown action {preview(text)}", number) from None
        if code not in hand.legal_actions(seat):
            raise ResumeError(f"{preview(text)} is not legal here", number)
        if on_decision is not None:
            on_decision(hand, seat, code)
        try:
            return self.act(seat, code)
        except (IllegalActionError, InvalidActionError) as exc:  # pragma: no cover - checked above
            raise ResumeError(str(exc), number) from None

    @classmethod
    def resume(
        cls, lines: list[dict[str, Any]], find_game: FindGame, server_seed: bytes | None = None
    ) -> Session:
        """Rebuild a server's table from its stored log (:meth:`replay` of a log that may
        stop short). The last hand is left as it was: in progress, or finished but not yet
        ended, or (after ``hand_end``) not yet dealt. ``server_seed``: the fair deal's seed
        the server kept (the log reveals it only once the match has ended)."""
        return cls.replay(lines, find_game, whole=False, server_seed=server_seed)


def _kept_fair(head: dict[str, Any], server_seed: bytes) -> FairDeal:
    """The header's fair deal with the seed a server kept; ResumeError (line 1) unless the
    seed is the committed one."""
    try:
        return FairDeal.from_header(head.get("fair"), server_seed.hex())
    except FairDealError as exc:
        raise ResumeError(f"fair: {exc}", 1) from None


_NO_LABEL = object()
"""Stands for a header's missing ``engine`` label (so that the header differs)."""


def _read_header(head: Any, find_game: FindGame) -> tuple[Any, Any, int, list[str]]:
    """The game, options, seed and seat labels of a header; :class:`ResumeError` (line 1)."""
    if not isinstance(head, dict) or head.get("record") != "paiju":
        raise ResumeError("not a paiju record header", 1)
    if head.get("format") != FORMAT_VERSION:
        raise ResumeError(f"unsupported record format {preview(head.get('format'))}", 1)
    variant = head.get("variant")
    try:
        flow = find_game(variant)
    except ValueError:
        raise ResumeError(f"unknown variant {preview(variant)}", 1) from None
    seed = head.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ResumeError("header seed must be an integer", 1)
    raw_options = head.get("options")
    if raw_options is None:
        raw_options = {}
    if not isinstance(raw_options, dict):
        raise ResumeError("header options must be an object", 1)
    try:
        options = flow.parse_options(raw_options)
    except (ValueError, TypeError) as exc:
        raise ResumeError(f"header options: {exc}", 1) from None
    n_seats = flow.seats(options)
    seats = head.get("seats")
    if (
        not isinstance(seats, list)
        or len(seats) != n_seats
        or not all(isinstance(name, str) for name in seats)
    ):
        raise ResumeError(f"header seats must list {n_seats} player names", 1)
    return flow, options, seed, list(seats)


def play_match(
    match: Match, players: Sequence[Decide], emit: Callable[[Any], None] | None = None
) -> Iterator[HandSummary]:
    """Play ``match`` to its end with ``players`` on a :class:`Session`; ``emit`` sees what
    the record is written from (see :class:`Session`). Yields each hand's summary."""
    yield from Session.of(match, [""] * match.n_seats, emit).play(players)
