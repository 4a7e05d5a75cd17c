"""A room: a table's seats, spectators, bots, timers and game, run on one event loop.

Nothing here blocks and nothing awaits in the middle of a change, so every room mutation is
atomic with respect to the others without locks. Bots think on a copy of the hand in the
manager's bot pool (threads for the cheap levels, niced worker processes for ``strong``:
:mod:`paiju.server.botpool`) and hand their answer back to the loop.

**Nothing is told before it is stored.** Every message that shows the game goes through the
room's outbox in order, each behind the storage commit of the record lines it reflects
(:meth:`Room._deliver`). A decision is applied to the engine at once (so the next one can be
checked against it), but no seat, spectator or bot hears of it until its line is committed.
When storage fails the table pauses (clocks stop, bots wait, the seats get ``paused``) and
goes on where it was once writes succeed again.

**Claim windows tell nobody anything.** While a claim, rob or 天聽 window is open, a seat
hears of it only if it is asked: its question when the window opens, and the acknowledgement
of its own answer. Everybody else (the discarder included, and every spectator) gets the
window's events together with what followed once it has closed: exactly what they would
have got had nobody been able to claim. Timeouts are told only to their own seat, and an
answer in a window moves no counter anyone else sees (docs/protocol.md, "Claim windows").

Hidden information: every game payload a connection receives is built by
:meth:`Session.view` (the engine's ``view(seat)``; ``None`` for spectators) and the
hand's event filter. Decisions (``action`` record lines) are never broadcast.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from paiju.engine import fairness
from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.match import Hand
from paiju.engine.session import Session, Step, bot_seed
from paiju.server import messages as M
from paiju.server import protocol as P
from paiju.server.timers import Clock, TokenBucket, TurnClock
from paiju.variants.base import options_to_mapping

if TYPE_CHECKING:
    from paiju.server.manager import RoomManager

log = logging.getLogger("paiju.server.room")


@dataclass
class ServerConfig:
    bot_delay: float = 0.6
    """Seconds a bot waits before its own turn's move (so people can follow); 0 in tests.
    A bot answers a claim window at once: its pause would tell that it was asked."""
    next_hand_delay: float = 5.0
    """Seconds between a hand's settlement and the next deal."""
    rejoin_grace: float = 30.0
    """Seconds a disconnected person's seat waits before a bot plays it."""
    message_rate: float = 20.0
    """Messages per second per client address (all its connections together)."""
    message_burst: float = 40.0
    create_rate: float = 0.1
    """Rooms per second per client address (with ``create_burst``)."""
    create_burst: float = 5.0
    lookup_rate: float = 1.0
    """Room lookups (``join``, ``GET /api/rooms/…``) per second per client address."""
    lookup_burst: float = 10.0
    max_rooms: int = 2000
    finished_ttl: float = 900.0
    """Seconds a finished or abandoned room stays joinable."""
    idle_ttl: float = 900.0
    """Seconds a table that only bots play, watched by nobody, stays paused before it is
    closed (its game is stored as ``abandoned``)."""
    seed: int | None = None
    """Fixed base seed for reproducible tests and load runs: every game's seed, and every
    room's fair-deal server seed, follow from it (anyone can derive them: never for real
    play). None draws them all at random."""
    trusted_proxies: tuple[str, ...] = ()
    """Peer addresses whose ``X-Forwarded-For`` names the client; nobody else's counts."""
    allowed_origins: tuple[str, ...] = ()
    """Websocket ``Origin`` values accepted besides the served origin (``"*"``: any)."""
    max_frame_bytes: int = 8192
    """The largest client message (the transport refuses larger frames before this)."""
    bot_workers: int = 2
    """Threads the cheap bots think in (each table's bot at most one decision at a time)."""
    bot_processes: int = 2
    """Worker processes the heavy bots (``strong``) think in; 0 keeps them in the threads."""
    bot_nice: int = 10
    """How much lower the bot processes' scheduling priority is than the server's: when the
    cores are busy the event loop runs first and bot tables play a little slower."""
    bot_idle: bool = True
    """Linux: the bot processes also run in the idle scheduling class, so that the event
    loop, when it wakes, preempts a thinking bot at once instead of after its time slice
    (a ``ping`` then waits for no bot); they still use every core nobody else wants."""
    gc_young: int = 50_000
    """``paiju serve``: net allocations between the garbage collector's young collections
    once start-up is frozen (``paiju.server.collector``); 0 keeps Python's defaults."""


class Connection:
    """One client. The app subclasses it with a real socket; tests may use it as is."""

    def __init__(self, address: str = "local") -> None:
        self.id = uuid.uuid4().hex
        self.address = address
        self.room: Room | None = None
        self.seat: int | None = None
        self.sent: list[dict[str, Any]] = []
        self.bucket: TokenBucket | None = None
        self.client_seed: str | None = None
        """The fair-deal seed this client sent; it goes with the seat it takes."""
        self.bot_pace: float | None = None
        """Seconds this device wants a bot's own move to take (``pace``); None: the default."""

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
    client_seed: str = ""
    """The fair-deal seed of the person who took the seat (``""``: none, or a bot)."""
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


Outgoing = list[tuple[Connection, dict[str, Any]]]
ViewKey = int | None
"""Whose view: a seat, or None for every spectator."""


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
        self.session: Session | None = None
        self.game_id: str | None = None
        self.stored = 0
        """Record lines handed to storage so far."""
        self.created = time.monotonic()
        self.ended_at: float | None = None
        self.idle_since: float | None = None
        """When bots alone were left playing with nobody watching (the table waits)."""
        self.paused = False
        """Storage is failing: the table waits for it."""
        self._bot_tasks: dict[int, asyncio.Task[None]] = {}
        self._asked: dict[int, int] = {}
        """Seat → the turn at which its pending question was asked."""
        self._timer_task: asyncio.Task[None] | None = None
        self._timer_at = 0.0
        """When the timer task wakes (on the room's clock)."""
        self._next_hand_task: asyncio.Task[None] | None = None
        self._outbox: deque[tuple[asyncio.Future[None] | None, Outgoing]] = deque()
        self._settled = asyncio.Event()
        self._settled.set()
        self._held: dict[ViewKey, list[dict[str, Any]]] = {}
        """Events withheld from a view while a claim window it was not asked in is open."""
        self._last_seen: dict[ViewKey, dict[str, Any]] = {}
        """The game fields each view was last shown (a snapshot in a window repeats them)."""
        self._seen_log: dict[ViewKey, int] = {}
        """The length of the hand's event log when each view was last shown the game."""
        self._window_told: set[int] = set()
        """Seats told of the claim window now open (asked in it)."""
        self.ready_seats: set[int] = set()
        """Seats whose person said ``ready`` since the last settlement."""
        self.server_seed = manager.new_server_seed()
        """The secret of the fair deal, drawn before anyone joins and told to nobody until
        the match ends (docs/spec/fair-deal.md); its commitment is in every room message."""

    @property
    def clock(self) -> Clock:
        return self.manager.clock

    @property
    def config(self) -> ServerConfig:
        return self.manager.config

    # -- the outbox: nothing shown before it is stored ---------------------------------
    def _deliver(self, committed: asyncio.Future[None] | None, out: Outgoing) -> None:
        """Send ``out`` once ``committed`` (and everything queued before it) is stored."""
        if committed is None and not self._outbox:
            for conn, msg in out:
                conn.send(msg)
            return
        self._outbox.append((committed, out))
        self._settled.clear()
        if committed is not None:
            committed.add_done_callback(lambda _f: self._drain())

    def _drain(self) -> None:
        while self._outbox:
            committed, out = self._outbox[0]
            if committed is not None and not committed.done():
                return
            self._outbox.popleft()
            if committed is not None and committed.cancelled():
                continue
            for conn, msg in out:
                conn.send(msg)
        self._settled.set()

    def _to_all(self, msg: dict[str, Any]) -> Outgoing:
        return [(conn, msg) for conn in self.connections()]

    # -- messages --------------------------------------------------------------------
    def public(self) -> dict[str, Any]:
        status = "paused" if self.paused and self.status == "playing" else self.status
        return {
            "code": self.code,
            "variant": self.variant,
            "n_seats": len(self.seats),
            "options": options_to_mapping(self.options),
            "status": status,
            "seats": [s.public() for s in self.seats],
            "timers": self.timers.model_dump(),
            "game_id": self.game_id,
            "spectators": len(self.spectators),
            "fair": self.fair_info(),
        }

    def fair_info(self) -> dict[str, Any]:
        """The commitment and the client seeds: the ones the deal uses once it has begun."""
        session = self.session
        if session is not None and session.match.fair is not None:
            return session.match.fair.header()
        return {
            "scheme": fairness.SCHEME,
            "commitment": fairness.commitment(self.server_seed),
            "room": self.code,
            "client_seeds": self._client_seeds(),
        }

    def _client_seeds(self) -> list[str]:
        return [s.client_seed if s.kind == "person" else "" for s in self.seats]

    def room_message(self, conn: Connection) -> dict[str, Any]:
        return M.RoomMessage.model_validate(
            {
                "room": self.public(),
                "you": {
                    "seat": conn.seat,
                    "host": conn.id == self.host_id,
                    # a seated client's is its seat's (a reconnect brings the seat's back)
                    "client_seed": (
                        (self.seats[conn.seat].client_seed or None)
                        if conn.seat is not None
                        else conn.client_seed
                    ),
                },
            }
        ).json_dict()

    def connections(self) -> list[Connection]:
        out = list(self.spectators.values())
        out.extend(s.conn for s in self.seats if s.conn is not None)
        return out

    def broadcast_room(self, skip: Connection | None = None) -> None:
        self._deliver(
            None, [(c, self.room_message(c)) for c in self.connections() if c is not skip]
        )

    def snapshot(self, seat: int | None) -> dict[str, Any]:
        """Everything a client needs to draw the table from scratch, as ``seat`` sees it."""
        msg: dict[str, Any] = {"room": self.public(), "seat": seat}
        session = self.session
        if session is not None:
            if _window_open(session) and not self._told_now(seat):
                # the window is not this view's to know of: show what it was last shown,
                # with nothing to decide (its last question has been answered since), in
                # the shape of any other snapshot (the recent events of that moment too)
                fields = _settled_fields(self._last_seen.get(seat))
                if fields.get("hand") is not None and "events" not in fields["state"]:
                    fields["state"]["events"] = self._recent_events(seat)
                msg.update(fields)
            else:
                # the events held for this view are in the state drawn now
                self._held.pop(seat, None)
                fields = self._game_state(seat)
                self._last_seen[seat] = fields
                msg.update(fields)
            msg["match"] = session.match_state()
        return M.Snapshot.model_validate(msg).json_dict()

    def _told_now(self, seat: int | None) -> bool:
        session = self.session
        return (
            seat is not None
            and session is not None
            and seat in self._window_told
            and seat in session.to_act()
        )

    def _recent_events(self, seat: int | None) -> list[dict[str, Any]]:
        """The tail of recent events a view's state carries, as of the last update ``seat``
        was sent (its log only ever grows, so that moment's tail is still in it)."""
        session = self.session
        assert session is not None
        hand = session.hand
        if hand is None:
            return []
        n = self._seen_log.get(seat)
        if n is None:
            return []
        return hand.events_for(seat, hand.log[max(0, n - RECENT_EVENTS) : n])

    def _game_state(
        self,
        seat: int | None,
        *,
        session: Session | None = None,
        state: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The game fields of a message to ``seat``, from the room's session (or another:
        the same game rebuilt at an earlier line), around its view ``state`` when the
        caller has built it already."""
        if session is None:
            session = self.session
        assert session is not None
        hand = session.hand
        legal = session.legal(seat) if seat is not None else []
        waiting = session.to_act()
        if state is None:
            state = session.view(seat)
        if _window_open(session):
            # who may claim a discard says what they hold: only one's own question shows
            waiting = [s for s in waiting if s == seat]
        if hand is not None:
            self._seen_log[seat] = len(hand.log)
        return {
            "turn": session.turn,
            "hand": len(session.match.hands) if hand is not None else None,
            "state": state,
            "legal": [hand.action_str(a) for a in legal] if hand is not None else [],
            "to_act": waiting,
            "timers": self._timers_public(waiting) if session is self.session else [],
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
        self._deliver(None, [(conn, self.room_message(conn)), (conn, self.snapshot(None))])
        self.broadcast_room(skip=conn)
        self._watched()

    def take_seat(
        self, conn: Connection, index: int, name: str, client_seed: str | None = None
    ) -> None:
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
        if client_seed is not None:
            conn.client_seed = client_seed
        seat.client_seed = conn.client_seed or ""
        self.spectators.pop(conn.id, None)
        conn.room = self
        conn.seat = index
        self.manager.tokens[seat.token_hash] = (self.code, index)
        seated = M.Seated(seat=index, token=token, code=self.code).json_dict()
        self._deliver(None, [(conn, seated)])
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
                seat.client_seed = ""
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
            # kept apart from the record (whose header only commits to it) so that a
            # restarted server can deal on; revealed in match_end
            "server_seed": self.server_seed.hex(),
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
        fair = fairness.FairDeal.create(self.server_seed, self.code, self._client_seeds())
        self.session = Session(self.flow, self.options, seed, names, fair=fair)
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
            self._deliver(
                None,
                self._to_all(M.error("storage_error", "the game could not be stored; try again")),
            )
            return
        self.stored = 1
        self.status = "playing"
        for seat in self.seats:
            seat.clock = TurnClock(bank=self.timers.bank_seconds)
        self.broadcast_room()
        self._start_hand()

    def _make_bots(self, seed: int) -> None:
        # seeded as ``paiju simulate`` and ``paiju play`` seed theirs: one seed and one set
        # of bots play the same match at a table and in the terminal
        for seat in self.seats:
            seat.bot = self.manager.make_bot(
                seat.level if seat.kind == "bot" else "greedy",
                bot_seed(seed, seat.index, len(self.seats)),
                self.variant,
                key=f"{self.game_id}:{seat.index}",
            )

    def _start_hand(self) -> None:
        session = self.session
        if session is None or not session.between_hands:
            return
        self.ready_seats.clear()
        # what every view sees until the new hand is shown to it: the table between hands
        # (a window the deal opens, 天听, is not told to the seats it does not ask)
        for key in [*(s.index for s in self.seats), None]:
            self._last_seen[key] = self._game_state(key)
        step = session.start_hand()
        self._publish(step, None)

    def _persist(self, step: Step) -> asyncio.Future[None] | None:
        if self.game_id is None or not step.lines:
            return None
        committed = self.manager.storage.append(self.game_id, self.stored, step.lines)
        self.stored += len(step.lines)
        return committed

    def _publish(
        self, step: Step, actor: int | None, held: asyncio.Future[None] | None = None
    ) -> None:
        """Store ``step`` (``held``: the actor's answer stored on the side instead); once
        stored, tell every connection what it may see."""
        session = self.session
        assert session is not None
        committed = self._persist(step) or held
        out: Outgoing = []
        if step.hand_started:
            dealer = session.hand.dealer if session.hand is not None else None
            info = M.HandStart(hand=len(session.match.hands), dealer=dealer).json_dict()
            out.extend(self._to_all(info))
        if not session.hand_over:
            # clocks first, so that the update shows the deadlines it starts
            self._arm()
        window = _window_open(session)
        waiting = set(session.to_act())
        if step.events:
            # a visible change asks a new question, even if a window follows a window
            self._window_told = set()
        if window:
            asked_now = {s for s in waiting if s not in self._window_told}
            self._window_told |= asked_now
        else:
            asked_now = set()
            self._window_told.clear()
        connections = self.connections()
        # one step's events as each view sees them, built together like the views below
        event_keys = list(dict.fromkeys(conn.seat for conn in connections))
        seat_events = dict(
            zip(event_keys, session.events_for_seats(event_keys, step.events), strict=True)
        )
        spectators: list[Connection] = []
        told: list[tuple[Connection, int | None]] = []
        """Who is told, in order, with the seat acknowledged (the actor's) or None."""
        for conn in connections:
            key = conn.seat
            if key is not None and key == actor:
                # every decision is acknowledged to its maker first, window or not, so
                # that the acknowledgement says nothing about what follows
                told.append((conn, key))
            if key is None:
                spectators.append(conn)
            elif window and key not in asked_now:
                # not asked in this window: hears of it with what follows once it closes
                self._hold(key, seat_events[key])
            else:
                told.append((conn, None))
        keys: list[ViewKey] = [conn.seat for conn, acked in told if acked is None]
        if spectators and not window:
            keys.append(None)
        # the views of one decision are built together: what every seat sees alike once
        views = dict(zip(keys, session.views(keys, recent=False), strict=True))
        for conn, acked in told:
            if acked is not None:
                # before the update below replaces what this seat was last shown
                out.append((conn, self._ack(acked, session.turn)))
            else:
                key = conn.seat
                out.append((conn, self._update(key, views[key], seat_events[key])))
        if spectators:
            if window:
                self._hold(None, seat_events[None])
            else:
                msg = self._update(None, views[None], seat_events[None])
                out.extend((conn, msg) for conn in spectators)
        self._deliver(committed, out)
        if session.hand_over:
            self._finish_hand()

    def _ack(self, seat: int, turn: int) -> dict[str, Any]:
        """The table as ``seat`` last saw it, with nothing left to decide."""
        fields = _settled_fields(self._last_seen.get(seat))
        if not fields:
            # nothing shown since a restart: an acknowledgement that shows nothing
            session = self.session
            assert session is not None
            fields = {
                "turn": turn,
                "hand": len(session.match.hands),
                "state": {},
                "legal": [],
                "to_act": [],
                "timers": [],
            }
        return _update_message([], fields)

    def _hold(self, key: ViewKey, events: list[dict[str, Any]]) -> None:
        if events:
            self._held.setdefault(key, []).extend(events)

    def _update(
        self, seat: ViewKey, state: dict[str, Any], new: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The ``update`` to ``seat`` with its view ``state`` (built without the recent
        events tail: the update carries its own events) and the ``new`` events of this
        step as it sees them, after any held for it."""
        events = self._held.pop(seat, [])
        events.extend(new)
        fields = self._game_state(seat, state=state)
        self._last_seen[seat] = fields
        return _update_message(events, fields)

    def _finish_hand(self) -> None:
        session = self.session
        assert session is not None
        self._stop_all_clocks()
        self._asked.clear()
        self._window_told.clear()
        last_views = {s.index: session.view(s.index) for s in self.seats}
        public_view = session.view(None)
        step = session.end_hand()
        committed = self._persist(step)
        summary = step.hand_ended
        assert summary is not None
        match = session.match_state()
        next_hand_ms = None if step.match_ended else round(self.config.next_hand_delay * 1000)
        out: Outgoing = []
        for conn in self.connections():
            out.append(
                (
                    conn,
                    M.HandEnd.model_validate(
                        {
                            "next_hand_ms": next_hand_ms,
                            "hand": summary.index,
                            "winners": summary.winners,
                            "self_drawn": summary.self_drawn,
                            "exhausted": summary.exhausted,
                            "net": summary.net,
                            "state": last_views[conn.seat]
                            if conn.seat is not None
                            else public_view,
                            "match": match,
                        }
                    ).json_dict(),
                )
            )
        self._deliver(committed, out)
        self._held.clear()
        self._last_seen.clear()
        self._seen_log.clear()
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
        await self._settled.wait()
        if self.status == "playing":
            self._start_hand()

    def _end_match(self) -> None:
        session = self.session
        assert session is not None and self.game_id is not None
        self.status = "finished"
        self.ended_at = time.monotonic()
        totals = session.match.totals()
        committed = self.manager.storage.finish(
            self.game_id, {"totals": totals, "hands": len(session.match.hands)}
        )
        end = M.MatchEnd.model_validate(
            {
                "game_id": self.game_id,
                "totals": totals,
                "match": session.match_state(),
                "record": f"/api/games/{self.game_id}/record",
                "fair": self._reveal(session),
            }
        ).json_dict()
        self._deliver(committed, self._to_all(end))
        self.broadcast_room()
        self._cancel_tasks()

    def _reveal(self, session: Session) -> dict[str, Any]:
        fair = session.match.fair
        assert fair is not None
        return {**fair.header(), "server_seed": fair.reveal()}

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
        held = None
        if not step.lines and seat in session.held and self.game_id is not None:
            # an answer held back from the record is stored on the side before its seat
            # hears it was taken: a node that dies now must not forget it (and its
            # acknowledgement waits for a commit like every other, so its delay does not
            # tell the seat that someone before it in the window is still deciding)
            held = self.manager.storage.hold(
                self.game_id, self.stored, seat, _hand(session).action_str(code)
            )
        self._publish(step, seat, held)

    def _arm(self) -> None:
        """Start the bots and clocks of the seats that must answer now."""
        session = self.session
        if session is None or self.status != "playing" or self.paused:
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
                seat.clock.start(now, self._base_seconds())
        self._rearm_timer()

    def _base_seconds(self) -> float:
        session = self.session
        assert session is not None
        return self.timers.claim_seconds if _window_open(session) else self.timers.turn_seconds

    def bot_delay(self) -> float:
        """Seconds a bot waits before its own turn's move: the slowest pace a seated,
        connected person's device asked for, else the server's ``bot_delay``."""
        paces = [
            s.conn.bot_pace
            for s in self.seats
            if s.conn is not None and s.conn.bot_pace is not None
        ]
        return max(paces) if paces else self.config.bot_delay

    def _unwatched_bots(self) -> bool:
        return all(s.bot_plays for s in self.seats) and not self.connections()

    def _watched(self) -> None:
        """Somebody is back at a table that waited for a watcher: play on."""
        if self.idle_since is not None:
            self.idle_since = None
            self._arm()

    async def _bot_move(self, index: int) -> None:
        try:
            session = self.session
            window = session is not None and _window_open(session)
            if not window:
                await self.clock.sleep(self.bot_delay())
            # a bot moves on what the seats have been told, never on a state still unstored
            await self._settled.wait()
            session = self.session
            seat = self.seats[index]
            if session is None or self.status != "playing" or not seat.bot_plays:
                return
            if self.paused or index not in session.to_act():
                return
            if self._unwatched_bots():
                # nobody would see this table: wait for a watcher instead of playing on
                if self.idle_since is None:
                    self.idle_since = time.monotonic()
                return
            hand: Any = session.hand
            turn = session.turn
            assert hand is not None
            code = await self.manager.think(seat.bot, hand.copy(), index)
        finally:
            self._bot_tasks.pop(index, None)
        if (
            self.session is not session
            or session.hand is not hand
            or session.turn != turn
            or self.status != "playing"
            or index not in session.to_act()
            or not seat.bot_plays
        ):
            self._arm()
            return
        if code not in session.legal(index):
            code = _hand(session).default_action(index)
        self._decide(index, code)

    def _rearm_timer(self) -> None:
        deadlines = [d for s in self.seats if (d := s.clock.deadline()) is not None]
        first = min(deadlines) if deadlines else None
        task = self._timer_task
        if task is not None and first is not None and self._timer_at <= first:
            # the timer wakes no later than needed: on waking it finds nobody out of time
            # and sleeps again till the next deadline (a task less a decision: each turn
            # starts a clock that runs out after the one before)
            return
        if task is not None:
            task.cancel()
            self._timer_task = None
        if first is not None:
            self._timer_at = first
            self._timer_task = self.manager.spawn(self._timer(first))

    async def _timer(self, deadline: float) -> None:
        await self.clock.sleep(deadline - self.clock.now())
        self._timer_task = None
        session = self.session
        if session is None or self.status != "playing" or self.paused:
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
                if seat.index not in session.to_act():
                    continue
            code = _hand(session).default_action(seat.index)
            if seat.conn is not None:
                # told to its own seat only: whether a seat was asked is its own business
                notice = M.Timeout(seat=seat.index, turn=session.turn).json_dict()
                self._deliver(None, [(seat.conn, notice)])
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
        self.manager.forget_bots([f"{self.game_id}:{s.index}" for s in self.seats])
        for task in list(self._bot_tasks.values()):
            task.cancel()
        self._bot_tasks.clear()
        if self._next_hand_task is not None:
            self._next_hand_task.cancel()
        for seat in self.seats:
            if seat.away_task is not None:
                seat.away_task.cancel()
                seat.away_task = None

    # -- storage trouble -----------------------------------------------------------------
    def pause(self) -> None:
        """Storage is failing: stop the clocks (nobody loses time to it) and say why."""
        if self.paused or self.status != "playing":
            return
        self.paused = True
        self._stop_all_clocks()
        notice = M.Paused(message="storage is failing; the table waits, nothing is lost")
        for conn in self.connections():
            conn.send(notice.json_dict())

    def unpause(self) -> None:
        if not self.paused:
            return
        self.paused = False
        for conn in self.connections():
            conn.send(M.Resumed().json_dict())
        self.broadcast_room()
        self._arm()

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
            old.send(M.error("replaced", "this seat was taken over by another connection"))
            old.close(4000)
        if seat.away_task is not None:
            seat.away_task.cancel()
            seat.away_task = None
        self.spectators.pop(conn.id, None)
        seat.conn = conn
        conn.room = self
        conn.seat = index
        self._deliver(None, [(conn, self.room_message(conn)), (conn, self.snapshot(index))])
        self._set_auto(seat, False)
        self.broadcast_room()
        self._watched()
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
            seat.client_seed = ""
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
    def resume(self, session: Session, game_id: str, stored: int) -> None:
        """Take over a game rebuilt from storage; store any lines the log was missing."""
        self.session = session
        if session.match.fair is not None and session.match.fair.server_seed is not None:
            self.server_seed = session.match.fair.server_seed
        self.game_id = game_id
        self.status = "playing"
        self.stored = stored
        missing = session.lines[stored:]
        if missing:
            self._persist(Step(lines=missing))
        if _window_open(session):
            # the seats a window waits on are asked again: their snapshot is the question
            self._window_told = set(session.to_act())
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
            if _window_open(session):
                # the window's seats were asked before the restart (its opening line is
                # in the log, so their question had been sent): ask them again, and show
                # a seat whose answer is held what it saw when it answered
                asked = set(session.to_act()) | set(session.held)
                self._window_told = asked
                for index in session.held:
                    self._last_seen[index] = self._game_state(index)
                # every other view (spectators too) was last shown the table before the
                # window opened: rebuild that moment, so that its snapshot is that table,
                # like any snapshot in shape, and not the window it must not know of
                try:
                    before = _before_window(session, self.server_seed)
                except Exception:  # pragma: no cover - the same log has just replayed
                    # the game itself resumed: its unasked views' snapshots, until the
                    # window closes, are bare rather than the table marked broken
                    log.exception("game %s: the table before the window is lost", game_id)
                else:
                    for key in [*(s.index for s in self.seats if s.index not in asked), None]:
                        self._last_seen[key] = self._game_state(key, session=before)
            self._arm()


RECENT_EVENTS = 8
"""How many recent events a seat view's state carries (the engine's ``view`` tail)."""


def _before_window(session: Session, server_seed: bytes) -> Session:
    """``session``'s game rebuilt from its record up to the last line after which no
    claim window was open: the table as a seat not asked in the open window last saw it."""
    from paiju.variants import find_variant

    closed = 1

    def note(rebuilt: Session, _line: dict[str, Any], _step: Step) -> None:
        nonlocal closed
        if not _window_open(rebuilt):
            closed = len(rebuilt.lines)

    Session.replay(session.lines, find_variant, whole=False, on_step=note, server_seed=server_seed)
    return Session.replay(
        session.lines[:closed], find_variant, whole=False, server_seed=server_seed
    )


def _update_message(events: list[dict[str, Any]], fields: dict[str, Any]) -> dict[str, Any]:
    """An ``update`` as :class:`messages.Update` dumps it, built directly: it is sent for
    every change to every seat, and validating the whole view each time cost the event
    loop more than building it (tests check the two agree)."""
    return {
        "type": "update",
        "events": events,
        "turn": fields["turn"],
        "hand": fields["hand"],
        "state": fields["state"],
        "legal": fields["legal"],
        "to_act": fields["to_act"],
        "timers": fields["timers"],
    }


def _settled_fields(fields: dict[str, Any] | None) -> dict[str, Any]:
    """Game fields last shown to a view, without the question they may have carried."""
    if not fields:
        return {}
    out = dict(fields)
    out.update(legal=[], to_act=[], timers=[])
    state = dict(out.get("state") or {})
    if "legal_actions" in state:
        state["legal_actions"] = []
    if "to_act" in state:
        state["to_act"] = []
    out["state"] = state
    return out


def hash_token(token: str) -> str:
    import hashlib

    return hashlib.sha256(token.encode()).hexdigest()


BotFn = Callable[[Any, int], int]


def _window_open(session: Session) -> bool:
    """A claim, rob or 天听 window waits on answers only the asked seats may know of."""
    hand = session.hand
    return hand is not None and not hand.is_over and hand.claim_window_open()


def _hand(session: Session) -> Hand:
    hand = session.hand
    assert hand is not None
    return hand
