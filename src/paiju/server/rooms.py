"""Rooms: a table's seats, spectators, bots, timers and game, run on one event loop.

Nothing here blocks and nothing awaits in the middle of a change, so every room mutation is
atomic with respect to the others without locks. Outbound messages go through each
connection's own queue (a slow client never holds a table up), and record lines through the
storage queue.

Hidden information: every game payload a connection receives is built by
:meth:`GameSession.view` (the engine's ``view(seat)``; ``None`` for spectators) and
:func:`paiju.engine.events.for_seat`. Decisions (``action`` record lines) are never
broadcast: a claim answer such as a refused pong would reveal tiles.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import secrets
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.server import protocol as P
from paiju.server.game import GameSession, ResumeError, Step, events_for
from paiju.server.storage import Storage, StoredGame
from paiju.server.timers import Clock, RealClock, TokenBucket, TurnClock
from paiju.variants.base import OptionError, options_from_mapping, options_to_mapping
from paiju.variants.profiles import resolve as resolve_profile

log = logging.getLogger("paiju.server.rooms")


@dataclass
class ServerConfig:
    bot_delay: float = 0.6
    """Seconds a bot waits before acting (so people can follow); 0 in tests and load runs."""
    next_hand_delay: float = 5.0
    """Seconds between a hand's settlement and the next deal."""
    rejoin_grace: float = 30.0
    """Seconds a disconnected person's seat waits before a bot plays it."""
    message_rate: float = 20.0
    message_burst: float = 40.0
    create_rate: float = 0.1
    """Rooms per second per client address (with ``create_burst``)."""
    create_burst: float = 5.0
    max_rooms: int = 2000
    finished_ttl: float = 900.0
    """Seconds a finished or abandoned room stays joinable."""
    seed: int | None = None
    """Fixed base seed for reproducible tests; None draws every game's seed at random."""


class Connection:
    """One client. The app subclasses it with a real socket; tests may use it as is."""

    def __init__(self, address: str = "local") -> None:
        self.id = uuid.uuid4().hex
        self.address = address
        self.room: Room | None = None
        self.seat: int | None = None
        self.sent: list[dict[str, Any]] = []
        self.bucket: TokenBucket | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client; must not block."""
        self.sent.append(message)

    def close(self, code: int = 1000) -> None:
        """Ask the transport to close."""


@dataclass
class Seat:
    index: int
    kind: str
    level: str = "greedy"
    name: str = ""
    token_hash: str | None = None
    conn: Connection | None = None
    auto: bool = False
    """A bot plays this person's seat for now (left, or gone too long)."""
    bot: Any = None
    clock: TurnClock = field(default_factory=lambda: TurnClock(bank=0.0))
    away_task: asyncio.Task[None] | None = None

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or self.auto

    def public(self) -> dict[str, Any]:
        return {
            "seat": self.index,
            "kind": self.kind,
            "level": self.level if self.kind == "bot" else None,
            "name": self.name,
            "taken": self.kind == "person" and self.token_hash is not None,
            "connected": self.conn is not None,
            "bot_playing": self.auto,
        }


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Room:
    def __init__(  # noqa: PLR0917
        self,
        manager: RoomManager,
        code: str,
        variant: str,
        flow: Any,
        options: Any,
        seats: list[Seat],
        timers: P.TimerSettings,
    ) -> None:
        self.manager = manager
        self.code = code
        self.variant = variant
        self.flow = flow
        self.options = options
        self.seats = seats
        self.timers = timers
        self.status = "waiting"
        self.host_id: str | None = None
        self.spectators: dict[str, Connection] = {}
        self.session: GameSession | None = None
        self.game_id: str | None = None
        self.stored = 0
        """Record lines handed to storage so far."""
        self.created = time.monotonic()
        self.ended_at: float | None = None
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        self._asked: dict[int, int] = {}
        """Seat → the turn at which its pending question was asked."""
        self._timer_task: asyncio.Task[None] | None = None
        self._next_hand_task: asyncio.Task[None] | None = None
        self.ready_seats: set[int] = set()
        """Seats whose person said ``ready`` since the last settlement."""

    @property
    def clock(self) -> Clock:
        return self.manager.clock

    @property
    def config(self) -> ServerConfig:
        return self.manager.config

    # -- messages --------------------------------------------------------------------
    def public(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "variant": self.variant,
            "n_seats": self.flow.n_seats,
            "options": options_to_mapping(self.options),
            "status": self.status,
            "seats": [s.public() for s in self.seats],
            "timers": self.timers.model_dump(),
            "game_id": self.game_id,
            "spectators": len(self.spectators),
        }

    def room_message(self, conn: Connection) -> dict[str, Any]:
        return {
            "type": "room",
            "room": self.public(),
            "you": {"seat": conn.seat, "host": conn.id == self.host_id},
        }

    def connections(self) -> list[Connection]:
        out = list(self.spectators.values())
        out.extend(s.conn for s in self.seats if s.conn is not None)
        return out

    def broadcast_room(self, skip: Connection | None = None) -> None:
        for conn in self.connections():
            if conn is not skip:
                conn.send(self.room_message(conn))

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """Everything a client needs to draw the table from scratch, as ``seat`` sees it."""
        msg: dict[str, Any] = {"type": "snapshot", "room": self.public(), "seat": seat}
        session = self.session
        if session is not None:
            msg.update(self._game_state(seat))
            msg["match"] = session.match_state()
        return msg

    def _game_state(self, seat: int | None) -> dict[str, Any]:
        session = self.session
        assert session is not None
        hand = session.hand
        legal = session.legal(seat) if seat is not None else []
        waiting = session.to_act()
        state = session.view(seat)
        if hand is not None and any(
            hand.action_str(a) == "pass" for s in waiting for a in session.legal(s)
        ):
            # who may claim a discard says what they hold: only one's own question shows
            waiting = [s for s in waiting if s == seat]
            if "to_act" in state:
                state["to_act"] = [s for s in state["to_act"] if s == seat]
        return {
            "turn": session.turn,
            "hand": len(session.match.hands) if hand is not None else None,
            "state": state,
            "legal": [hand.action_str(a) for a in legal] if hand is not None else [],
            "to_act": waiting,
            "timers": self._timers_public(waiting),
        }

    def _timers_public(self, visible: list[int]) -> list[dict[str, Any]]:
        now = self.clock.now()
        wall = time.time()
        out = []
        for s in self.seats:
            deadline = s.clock.deadline()
            if deadline is None or s.index not in visible:
                continue
            remaining = max(0.0, deadline - now)
            out.append(
                {
                    "seat": s.index,
                    "remaining_ms": round(remaining * 1000),
                    "deadline_ms": round((wall + remaining) * 1000),
                    "bank_ms": round(s.clock.bank * 1000),
                    "base_ms": round(s.clock.base * 1000),
                }
            )
        return out

    # -- joining and seats -------------------------------------------------------------
    def add_spectator(self, conn: Connection) -> None:
        self.spectators[conn.id] = conn
        conn.room = self
        conn.seat = None
        conn.send(self.room_message(conn))
        conn.send(self.snapshot(None))
        self.broadcast_room(skip=conn)

    def take_seat(self, conn: Connection, index: int, name: str) -> None:
        seat = self._seat(index)
        if self.status != "waiting":
            raise P.ProtocolError("game_started", "seats are fixed once the game has started")
        if seat.kind != "person":
            raise P.ProtocolError("seat_is_bot", f"seat {index} is a bot's")
        if seat.token_hash is not None:
            raise P.ProtocolError("seat_taken", f"seat {index} is taken")
        if conn.seat is not None:
            raise P.ProtocolError("already_seated", f"you already sit in seat {conn.seat}")
        token = secrets.token_urlsafe(24)
        seat.token_hash = hash_token(token)
        seat.name = name or f"玩家{index + 1}"
        seat.conn = conn
        self.spectators.pop(conn.id, None)
        conn.room = self
        conn.seat = index
        self.manager.tokens[seat.token_hash] = (self.code, index)
        conn.send({"type": "seated", "seat": index, "token": token, "code": self.code})
        self.broadcast_room()
        if all(s.kind == "bot" or s.token_hash is not None for s in self.seats):
            self.manager.spawn(self.start_game())

    def set_seat(self, conn: Connection, index: int, kind: str, level: str) -> None:
        self._require_host(conn)
        seat = self._seat(index)
        if self.status != "waiting":
            raise P.ProtocolError("game_started", "seats are fixed once the game has started")
        if seat.token_hash is not None:
            raise P.ProtocolError("seat_taken", f"seat {index} is taken by a person")
        if kind == "bot":
            self.manager.check_bot(level, self.variant)
        seat.kind = kind
        seat.level = level
        seat.name = ""
        self.broadcast_room()

    def start(self, conn: Connection) -> None:
        self._require_host(conn)
        if self.status != "waiting":
            raise P.ProtocolError("game_started", "the game has already started")
        for seat in self.seats:
            if seat.kind == "person" and seat.token_hash is None:
                seat.kind = "bot"
                seat.level = "greedy"
        self.manager.spawn(self.start_game())

    def _require_host(self, conn: Connection) -> None:
        if conn.id != self.host_id:
            raise P.ProtocolError("not_host", "only the room's host may do that")

    def _seat(self, index: int) -> Seat:
        if not 0 <= index < len(self.seats):
            raise P.ProtocolError("no_such_seat", f"this table has seats 0–{len(self.seats) - 1}")
        return self.seats[index]

    # -- game lifecycle ----------------------------------------------------------------
    def _setup(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "timers": self.timers.model_dump(),
            "seats": [
                {"kind": s.kind, "level": s.level, "name": s.name, "token_hash": s.token_hash}
                for s in self.seats
            ],
        }

    async def start_game(self) -> None:
        if self.status != "waiting":
            return
        self.status = "starting"
        seed = self.manager.new_seed()
        names = [s.name if s.kind == "person" else f"bot:{s.level}" for s in self.seats]
        self.session = GameSession(self.flow, self.options, seed, names)
        self.game_id = uuid.uuid4().hex[:16]
        self._make_bots(seed)
        try:
            await self.manager.storage.create_game(
                self.game_id, self.code, self.session.lines[0], self._setup()
            )
        except Exception:
            log.exception("cannot store game %s", self.game_id)
            self.status = "waiting"
            self.session = None
            self.game_id = None
            for conn in self.connections():
                conn.send(P.error("storage_error", "the game could not be stored; try again"))
            return
        self.stored = 1
        self.status = "playing"
        for seat in self.seats:
            seat.clock = TurnClock(bank=self.timers.bank_seconds)
        self.broadcast_room()
        self._start_hand()

    def _make_bots(self, seed: int) -> None:
        for seat in self.seats:
            seat.bot = self.manager.make_bot(
                seat.level if seat.kind == "bot" else "greedy",
                seed * 8 + seat.index,
                self.variant,
            )

    def _start_hand(self) -> None:
        session = self.session
        if session is None or not session.between_hands:
            return
        self.ready_seats.clear()
        step = session.start_hand()
        self._publish(step)

    def _persist(self, step: Step) -> None:
        if self.game_id is None or not step.lines:
            return
        self.manager.storage.append(self.game_id, self.stored, step.lines)
        self.stored += len(step.lines)

    def _publish(self, step: Step) -> None:
        """Store ``step``, tell every connection what it may see, arm bots and timers."""
        session = self.session
        assert session is not None
        self._persist(step)
        if step.hand_started:
            info = {"type": "hand_start", "hand": len(session.match.hands)}
            info["dealer"] = session.hand.dealer if session.hand is not None else None
            for conn in self.connections():
                conn.send(info)
        if not session.hand_over:
            # clocks first, so that the update shows the deadlines it starts
            self._arm()
        spectator_msg: dict[str, Any] | None = None
        for conn in self.connections():
            if conn.seat is None:
                if spectator_msg is None:
                    spectator_msg = self._update(step, None)
                conn.send(spectator_msg)
            else:
                conn.send(self._update(step, conn.seat))
        if session.hand_over:
            self._finish_hand()

    def _update(self, step: Step, seat: int | None) -> dict[str, Any]:
        session = self.session
        assert session is not None
        events = events_for(step.events, seat, session.hide)
        msg: dict[str, Any] = {"type": "update", "events": events}
        msg.update(self._game_state(seat))
        # the update carries its own events; the view's recent-events tail would repeat them
        msg["state"].pop("events", None)
        return msg

    def _finish_hand(self) -> None:
        session = self.session
        assert session is not None
        self._stop_all_clocks()
        self._asked.clear()
        last_views = {s.index: session.view(s.index) for s in self.seats}
        public_view = session.view(None)
        step = session.end_hand()
        self._persist(step)
        summary = step.hand_ended
        assert summary is not None
        match = session.match_state()
        next_hand_ms = None if step.match_ended else round(self.config.next_hand_delay * 1000)
        for conn in self.connections():
            conn.send(
                {
                    "type": "hand_end",
                    "next_hand_ms": next_hand_ms,
                    "hand": summary.index,
                    "winners": summary.winners,
                    "self_drawn": summary.self_drawn,
                    "exhausted": summary.exhausted,
                    "net": summary.net,
                    "state": last_views[conn.seat] if conn.seat is not None else public_view,
                    "match": match,
                }
            )
        if step.match_ended:
            self._end_match()
        else:
            self._next_hand_task = self.manager.spawn(self._next_hand_later())

    def ready(self, conn: Connection) -> None:
        """A seated person is ready for the next hand; once every connected person whose
        seat no bot plays is, the next hand is dealt without waiting out the pause."""
        if conn.seat is None:
            raise P.ProtocolError("not_seated", "spectators have no seat to ready")
        task = self._next_hand_task
        if self.status != "playing" or task is None or task.done():
            raise P.ProtocolError("not_between_hands", "there is no hand to get ready for")
        self.ready_seats.add(conn.seat)
        waiting = [
            s.index for s in self.seats if s.kind == "person" and s.conn is not None and not s.auto
        ]
        if all(index in self.ready_seats for index in waiting):
            task.cancel()
            self._next_hand_task = None
            self._start_hand()

    async def _next_hand_later(self) -> None:
        await self.clock.sleep(self.config.next_hand_delay)
        if self.status == "playing":
            self._start_hand()

    def _end_match(self) -> None:
        session = self.session
        assert session is not None and self.game_id is not None
        self.status = "finished"
        self.ended_at = time.monotonic()
        totals = session.match.totals()
        self.manager.storage.finish(
            self.game_id, {"totals": totals, "hands": len(session.match.hands)}
        )
        for conn in self.connections():
            conn.send(
                {
                    "type": "match_end",
                    "game_id": self.game_id,
                    "totals": totals,
                    "match": session.match_state(),
                    "record": f"/api/games/{self.game_id}/record",
                }
            )
        self.broadcast_room()
        self._cancel_tasks()

    # -- acting ------------------------------------------------------------------------
    def act(self, conn: Connection, action: str, turn: int | None) -> None:
        session = self.session
        if conn.seat is None:
            raise P.ProtocolError("not_seated", "spectators cannot act")
        if session is None or self.status != "playing" or session.hand is None:
            raise P.ProtocolError("not_your_turn", "no hand is being played")
        seat = conn.seat
        if seat not in session.to_act():
            raise P.ProtocolError("not_your_turn", f"seat {seat} has nothing to decide now")
        asked = self._asked.get(seat, session.turn)
        if turn is not None and not asked <= turn <= session.turn:
            # other seats' answers in the same window move the turn on but not this question
            raise P.ProtocolError(
                "stale_turn",
                f"turn {turn} is not the current question (asked at turn {asked}, "
                f"now turn {session.turn})",
            )
        try:
            code = session.parse(action)
        except (InvalidActionError, IllegalActionError) as exc:
            raise P.ProtocolError("bad_action", str(exc)) from None
        if code not in session.legal(seat):
            hand = session.hand
            raise P.ProtocolError(
                "illegal_action",
                f"{action} is not legal now; legal: "
                + " ".join(hand.action_str(a) for a in session.legal(seat)),
            )
        self._decide(seat, code)

    def _decide(self, seat: int, code: int) -> None:
        session = self.session
        assert session is not None
        self.seats[seat].clock.stop(self.clock.now())
        self._asked.pop(seat, None)
        step = session.act(seat, code)
        self._publish(step)

    def _arm(self) -> None:
        """Start the bots and clocks of the seats that must answer now."""
        session = self.session
        if session is None or self.status != "playing":
            return
        waiting = session.to_act()
        now = self.clock.now()
        for seat in self.seats:
            if seat.index not in waiting:
                self._asked.pop(seat.index, None)
                if seat.clock.started is not None:
                    seat.clock.stop(now)
                continue
            self._asked.setdefault(seat.index, session.turn)
            if seat.bot_plays:
                seat.clock.stop(now)
                if seat.index not in self._bot_tasks:
                    self._bot_tasks[seat.index] = self.manager.spawn(self._bot_move(seat.index))
            elif seat.clock.started is None:
                seat.clock.start(now, self._base_seconds(seat.index))
        self._rearm_timer()

    def _base_seconds(self, seat: int) -> float:
        session = self.session
        assert session is not None and session.hand is not None
        hand = session.hand
        claim = any(hand.action_str(a) == "pass" for a in session.legal(seat))
        return self.timers.claim_seconds if claim else self.timers.turn_seconds

    async def _bot_move(self, index: int) -> None:
        try:
            await self.clock.sleep(self.config.bot_delay)
        finally:
            self._bot_tasks.pop(index, None)
        session = self.session
        seat = self.seats[index]
        if session is None or self.status != "playing" or not seat.bot_plays:
            return
        if index not in session.to_act():
            return
        legal = session.legal(index)
        try:
            code = seat.bot(session.hand, index)
        except Exception:
            log.exception("bot of seat %d failed; playing the default", index)
            code = -1
        if code not in legal:
            code = default_action(session, index)
        self._decide(index, code)

    def _rearm_timer(self) -> None:
        deadlines = [d for s in self.seats if (d := s.clock.deadline()) is not None]
        if self._timer_task is not None:
            self._timer_task.cancel()
            self._timer_task = None
        if deadlines:
            self._timer_task = self.manager.spawn(self._timer(min(deadlines)))

    async def _timer(self, deadline: float) -> None:
        await self.clock.sleep(deadline - self.clock.now())
        self._timer_task = None
        session = self.session
        if session is None or self.status != "playing":
            return
        now = self.clock.now()
        for seat in self.seats:
            d = seat.clock.deadline()
            if d is None or d > now or seat.index not in session.to_act():
                continue
            seat.clock.stop(now)
            if seat.conn is None:
                # gone and out of time: a bot plays the seat until the person returns
                self._set_auto(seat, True)
            code = default_action(session, seat.index)
            for conn in self.connections():
                conn.send({"type": "timeout", "seat": seat.index, "turn": session.turn})
            self._decide(seat.index, code)
            if self.session is None or self.status != "playing":
                return
        self._rearm_timer()

    def _stop_all_clocks(self) -> None:
        now = self.clock.now()
        for seat in self.seats:
            seat.clock.stop(now)
        if self._timer_task is not None:
            self._timer_task.cancel()
            self._timer_task = None

    def _cancel_tasks(self) -> None:
        self._stop_all_clocks()
        for task in list(self._bot_tasks.values()):
            task.cancel()
        self._bot_tasks.clear()
        if self._next_hand_task is not None:
            self._next_hand_task.cancel()
        for seat in self.seats:
            if seat.away_task is not None:
                seat.away_task.cancel()
                seat.away_task = None

    # -- presence ------------------------------------------------------------------------
    def _set_auto(self, seat: Seat, auto: bool) -> None:
        if seat.auto == auto:
            return
        seat.auto = auto
        if auto:
            seat.clock.stop(self.clock.now())
        self.broadcast_room()
        self._arm()

    def reconnect(self, conn: Connection, index: int) -> None:
        seat = self.seats[index]
        old = seat.conn
        if old is not None and old is not conn:
            old.seat = None
            old.room = None
            old.send(P.error("replaced", "this seat was taken over by another connection"))
            old.close(4000)
        if seat.away_task is not None:
            seat.away_task.cancel()
            seat.away_task = None
        self.spectators.pop(conn.id, None)
        seat.conn = conn
        conn.room = self
        conn.seat = index
        conn.send(self.room_message(conn))
        conn.send(self.snapshot(index))
        self._set_auto(seat, False)
        self.broadcast_room()
        if self.status == "playing":
            self._arm()

    def leave(self, conn: Connection) -> None:
        """The person gives the seat to a bot now (the token still brings them back)."""
        self.disconnect(conn, grace=0.0)

    def disconnect(self, conn: Connection, grace: float | None = None) -> None:
        self.spectators.pop(conn.id, None)
        index = conn.seat
        conn.room = None
        conn.seat = None
        if index is None or self.seats[index].conn is not conn:
            self.broadcast_room()
            return
        seat = self.seats[index]
        seat.conn = None
        if self.status == "waiting" and seat.kind == "person":
            # before the game a seat is simply given up
            if seat.token_hash is not None:
                self.manager.tokens.pop(seat.token_hash, None)
            seat.token_hash = None
            seat.name = ""
        elif self.status == "playing":
            wait = self.config.rejoin_grace if grace is None else grace
            if wait <= 0:
                self._set_auto(seat, True)
            else:
                seat.away_task = self.manager.spawn(self._away(seat, wait))
        self.broadcast_room()

    async def _away(self, seat: Seat, wait: float) -> None:
        await self.clock.sleep(wait)
        seat.away_task = None
        if seat.conn is None and self.status == "playing":
            self._set_auto(seat, True)

    # -- restart ---------------------------------------------------------------------
    def resume(self, session: GameSession, game_id: str, stored: int) -> None:
        """Take over a game rebuilt from storage; store any lines the log was missing."""
        self.session = session
        self.game_id = game_id
        self.status = "playing"
        self.stored = stored
        missing = session.lines[stored:]
        if missing:
            self._persist(Step(lines=missing))
        self._make_bots(session.match.seed)
        for seat in self.seats:
            seat.clock = TurnClock(bank=self.timers.bank_seconds)
            if seat.kind == "person":
                # nobody is connected yet: give them the usual grace to come back
                seat.away_task = self.manager.spawn(self._away(seat, self.config.rejoin_grace))
        if session.hand_over:
            self._finish_hand()
        elif session.between_hands:
            self._next_hand_task = self.manager.spawn(self._next_hand_later())
        else:
            self._arm()


def default_action(session: GameSession, seat: int) -> int:
    """What a seat does when its time runs out: pass a claim, else let the drawn tile go,
    else the lowest-coded legal action (for mahjong: a discard)."""
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


class RoomManager:
    """All rooms of this process, the seat-token index, and the shared services."""

    def __init__(
        self,
        storage: Storage,
        config: ServerConfig | None = None,
        clock: Clock | None = None,
    ) -> None:
        self.storage = storage
        self.config = config or ServerConfig()
        self.clock: Clock = clock or RealClock()
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[str, tuple[str, int]] = {}
        self.create_buckets: dict[str, TokenBucket] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seed_counter = 0

    def spawn(self, coro: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("room task failed", exc_info=task.exception())

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    def new_seed(self) -> int:
        if self.config.seed is None:
            return secrets.randbits(52)
        self._seed_counter += 1
        return self.config.seed + self._seed_counter - 1

    def flows(self) -> dict[str, Any]:
        from paiju.variants.registry import flows

        return flows()

    def check_bot(self, level: str, variant: str) -> None:
        self.make_bot(level, 0, variant)

    def make_bot(self, level: str, seed: int, variant: str) -> Callable[[Any, int], int]:
        from paiju.bots import make_bot

        if level not in table_bots(variant):
            known = ", ".join(table_bots(variant))
            raise P.ProtocolError(
                "bad_bot", f"no bot {level!r} at a {variant} table (known: {known})"
            )
        try:
            bot: Callable[[Any, int], int] = make_bot(level, seed, variant)
        except ValueError as exc:
            raise P.ProtocolError("bad_bot", str(exc)) from None
        return bot

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(P.ROOM_CODE_ALPHABET) for _ in range(P.ROOM_CODE_LENGTH))
            if code not in self.rooms:
                return code

    # -- dispatch ----------------------------------------------------------------------
    def handle(self, conn: Connection, msg: Any) -> None:
        """Carry out one validated client message; raises :class:`ProtocolError`."""
        if isinstance(msg, P.Ping):
            conn.send({"type": "pong", "t": msg.t, "server_time": time.time()})
        elif isinstance(msg, P.CreateRoom):
            self.create_room(conn, msg)
        elif isinstance(msg, P.Join):
            target = self.room(msg.code)
            if conn.room is target:
                # already here (seated or watching): just redraw the table
                conn.send(target.room_message(conn))
                conn.send(target.snapshot(conn.seat))
                return
            self._leave_current(conn)
            target.add_spectator(conn)
        elif isinstance(msg, P.Reconnect):
            self.reconnect(conn, msg.token)
        else:
            room = conn.room
            if room is None:
                raise P.ProtocolError("no_room", "join or create a room first")
            if isinstance(msg, P.TakeSeat):
                room.take_seat(conn, msg.seat, msg.name)
            elif isinstance(msg, P.SetSeat):
                room.set_seat(conn, msg.seat, msg.kind, msg.level)
            elif isinstance(msg, P.Start):
                room.start(conn)
            elif isinstance(msg, P.Act):
                room.act(conn, msg.action, msg.turn)
            elif isinstance(msg, P.Ready):
                room.ready(conn)
            elif isinstance(msg, P.Leave):
                room.leave(conn)
                conn.send({"type": "left", "code": room.code})

    def room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None:
            raise P.ProtocolError("no_such_room", f"no room with code {code!r}")
        return room

    def _leave_current(self, conn: Connection) -> None:
        if conn.room is not None:
            conn.room.disconnect(conn)

    def create_room(self, conn: Connection, msg: P.CreateRoom) -> Room:
        bucket = self.create_buckets.get(conn.address)
        if bucket is None:
            bucket = TokenBucket(self.config.create_rate, self.config.create_burst)
            self.create_buckets[conn.address] = bucket
        if not bucket.take():
            raise P.ProtocolError("rate_limited", "too many rooms created; wait a little")
        if len(self.rooms) >= self.config.max_rooms:
            self.reap()
            if len(self.rooms) >= self.config.max_rooms:
                raise P.ProtocolError("server_full", "no more rooms can be opened right now")
        flow = self.flows().get(msg.variant)
        if flow is None:
            raise P.ProtocolError(
                "bad_variant",
                f"unknown variant {msg.variant!r} (known: {', '.join(self.flows())})",
            )
        try:
            # {"profile": "jiaxing-hun", ...}: a rule profile plus overrides
            overrides = resolve_profile(msg.variant, msg.options)
            options = options_from_mapping(flow.options_type, overrides)
        except (OptionError, ValueError, TypeError) as exc:
            raise P.ProtocolError("bad_options", str(exc)) from None
        n = flow.n_seats
        choices = msg.seats
        if choices is None:
            choices = [P.SeatChoice(kind="person", level="greedy")]
            choices += [P.SeatChoice(kind="bot", level="greedy")] * (n - 1)
        if len(choices) != n:
            raise P.ProtocolError("bad_seats", f"{msg.variant} has {n} seats; got {len(choices)}")
        for choice in choices:
            if choice.kind == "bot":
                self.check_bot(choice.level, msg.variant)
        seats = [Seat(i, c.kind, c.level) for i, c in enumerate(choices)]
        room = Room(self, self.new_code(), msg.variant, flow, options, seats, msg.timers)
        room.host_id = conn.id
        self.rooms[room.code] = room
        self._leave_current(conn)
        conn.send({"type": "room_created", "code": room.code})
        room.add_spectator(conn)
        if all(s.kind == "bot" for s in seats):
            self.spawn(room.start_game())
        return room

    def reconnect(self, conn: Connection, token: str) -> None:
        entry = self.tokens.get(hash_token(token))
        if entry is None or entry[0] not in self.rooms:
            raise P.ProtocolError("bad_token", "unknown or expired seat token")
        code, index = entry
        room = self.rooms[code]
        if conn.room is not None and conn.room is not room:
            conn.room.disconnect(conn)
        elif conn.room is room and conn.seat is not None and conn.seat != index:
            raise P.ProtocolError("already_seated", f"you already sit in seat {conn.seat}")
        room.reconnect(conn, index)

    def disconnect(self, conn: Connection) -> None:
        if conn.room is not None:
            conn.room.disconnect(conn)

    def reap(self) -> None:
        """Forget finished rooms past their time, and waiting rooms nobody is in."""
        now = time.monotonic()
        ttl = self.config.finished_ttl
        for code, room in list(self.rooms.items()):
            done = room.ended_at is not None and now - room.ended_at > ttl
            idle = room.status == "waiting" and not room.connections() and now - room.created > ttl
            if done or idle:
                room._cancel_tasks()
                for seat in room.seats:
                    if seat.token_hash is not None:
                        self.tokens.pop(seat.token_hash, None)
                del self.rooms[code]
        # an address whose bucket has refilled is indistinguishable from a new one
        for address, bucket in list(self.create_buckets.items()):
            if bucket.level() >= bucket.burst:
                del self.create_buckets[address]

    # -- restart -----------------------------------------------------------------------
    async def resume_all(self) -> list[str]:
        """Rebuild every unfinished game from storage; returns the room codes resumed."""
        resumed = []
        for game in await self.storage.unfinished():
            try:
                room = await self._resume(game)
            except (ResumeError, P.ProtocolError, KeyError, TypeError, ValueError) as exc:
                log.error("cannot resume game %s: %s", game.id, exc)
                await self.storage.mark_broken(game.id, str(exc))
                continue
            resumed.append(room.code)
        return resumed

    async def _resume(self, game: StoredGame) -> Room:
        lines = await self.storage.lines(game.id)
        session = GameSession.resume(lines)
        setup = game.room
        timers = P.TimerSettings.model_validate(setup.get("timers", {}))
        seats = [
            Seat(i, s["kind"], s.get("level", "greedy"), s.get("name", ""), s.get("token_hash"))
            for i, s in enumerate(setup["seats"])
        ]
        code = game.room_code if game.room_code not in self.rooms else self.new_code()
        room = Room(self, code, game.variant, session.flow, session.options, seats, timers)
        self.rooms[code] = room
        for seat in seats:
            if seat.token_hash is not None:
                self.tokens[seat.token_hash] = (code, seat.index)
        room.resume(session, game.id, len(lines))
        return room


def table_bots(variant: str) -> list[str]:
    """The bot levels a table of ``variant`` offers: every simple bot, and ``strong`` where
    its search takes milliseconds (the lookahead games). Monte Carlo's 0.3 s a move would
    hold up every room on the server's one event loop."""
    from paiju.bots.facts import bot_facts

    facts = bot_facts(variant)
    return [b for b in facts.bot_levels if b != "strong" or facts.strong_search == "lookahead"]
