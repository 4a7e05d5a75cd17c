"""The room manager: every room of this process, the seat-token index, dispatch of client
messages, rate limits per client address, reaping, resume after a restart, and the worker
pool bots think in."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.fairness import (
    FairDealError,
    new_server_seed,
    offline_server_seed,
    parse_seed_hex,
)
from paiju.engine.session import ResumeError, Session
from paiju.server import messages as M
from paiju.server import protocol as P
from paiju.server.botpool import BotFn, BotPool, RemoteBot
from paiju.server.room import Connection, Room, Seat, ServerConfig, hash_token
from paiju.server.storage import Storage, pending_holds
from paiju.server.timers import Clock, RealClock, TokenBucket
from paiju.variants import VARIANTS, Variant, find_variant
from paiju.variants.base import OptionError

log = logging.getLogger("paiju.server.manager")


@dataclass
class Counters:
    """What ``/api/health`` and ``/metrics`` report besides the storage's own counters."""

    tables_paused: int = 0
    """Tables paused because storage failed (a table counts each time)."""
    tables_resumed: int = 0
    games_resumed: int = 0
    """Games rebuilt from storage at startup."""
    games_broken: int = 0
    rate_limited: int = 0
    idle_reaped: int = 0


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
        self.lookup_buckets: dict[str, TokenBucket] = {}
        self.message_buckets: dict[str, TokenBucket] = {}
        self.counters = Counters()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._seed_counter = 0
        self._server_seed_counter = 0
        self.bots = BotPool(
            threads=self.config.bot_workers,
            processes=self.config.bot_processes,
            nice=self.config.bot_nice,
            idle=self.config.bot_idle,
        )
        storage.listen(self._storage_changed)

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
        self.bots.close()

    async def think(self, bot: Any, hand: Any, seat: int) -> int:
        """``bot``'s decision on ``hand`` (a copy nobody else touches), computed in the
        bot pool (threads, or worker processes for the heavy levels) so that no table waits
        for another table's bot; -1 if the bot fails."""
        try:
            return await self.bots.decide(bot, hand, seat)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot of seat %d failed; playing the default", seat)
            return -1

    def new_seed(self) -> int:
        if self.config.seed is None:
            return secrets.randbits(52)
        self._seed_counter += 1
        return self.config.seed + self._seed_counter - 1

    def new_server_seed(self) -> bytes:
        """A room's fair-deal secret: from the operating system, or, with a fixed ``seed``
        (tests, load runs), one anyone can derive, so that such a server replays its games."""
        if self.config.seed is None:
            return new_server_seed()
        self._server_seed_counter += 1
        return offline_server_seed(self.config.seed * 1000 + self._server_seed_counter)

    def flows(self) -> dict[str, Variant]:
        return VARIANTS

    def check_bot(self, level: str, variant: str) -> None:
        if level not in table_bots(variant):
            known = ", ".join(table_bots(variant))
            raise P.ProtocolError(
                "bad_bot", f"no bot {level!r} at a {variant} table (known: {known})"
            )

    def make_bot(self, level: str, seed: int, variant: str, key: str = "") -> BotFn | RemoteBot:
        """The bot of ``key`` (``game:seat``): a callable, or a handle on one that lives in
        a worker process (see :mod:`paiju.server.botpool`)."""
        self.check_bot(level, variant)
        try:
            return self.bots.make(key or secrets.token_hex(8), level, seed, variant)
        except ValueError as exc:
            raise P.ProtocolError("bad_bot", str(exc)) from None

    def forget_bots(self, keys: list[str]) -> None:
        self.bots.forget(keys)

    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(P.ROOM_CODE_ALPHABET) for _ in range(P.ROOM_CODE_LENGTH))
            if code not in self.rooms:
                return code

    # -- rate limits per client address ------------------------------------------------
    def allow(self, kind: str, address: str) -> bool:
        """Take a token from ``address``'s bucket of ``kind`` (message, create, lookup)."""
        cfg = self.config
        buckets, rate, burst = {
            "message": (self.message_buckets, cfg.message_rate, cfg.message_burst),
            "create": (self.create_buckets, cfg.create_rate, cfg.create_burst),
            "lookup": (self.lookup_buckets, cfg.lookup_rate, cfg.lookup_burst),
        }[kind]
        bucket = buckets.get(address)
        if bucket is None:
            bucket = buckets[address] = TokenBucket(rate, burst)
        if bucket.take():
            return True
        self.counters.rate_limited += 1
        return False

    async def admit(self, kind: str, address: str) -> bool:
        """:meth:`allow` for callers that can wait (a cluster node's limits are shared in
        Redis and may need a round trip there)."""
        return self.allow(kind, address)

    # -- dispatch ----------------------------------------------------------------------
    def handle(self, conn: Connection, msg: Any) -> None:
        """Carry out one validated client message; raises :class:`ProtocolError`."""
        if isinstance(msg, P.Ping):
            conn.send(M.Pong(t=msg.t, server_time=time.time()).json_dict())
        elif isinstance(msg, P.Pace):
            # the device's own setting: kept with the connection, in whatever room it is
            conn.bot_pace = msg.bot_seconds
        elif isinstance(msg, P.CreateRoom):
            self.create_room(conn, msg)
        elif isinstance(msg, P.Join):
            target = self.lookup(msg.code, conn.address)
            if msg.client_seed is not None:
                conn.client_seed = msg.client_seed
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
                room.take_seat(conn, msg.seat, msg.name, msg.client_seed)
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
                conn.send(M.Left(code=room.code).json_dict())

    def lookup(self, code: str, address: str) -> Room:
        """The room with ``code``, counted against ``address``'s lookup budget (codes are
        long enough that guessing a live one at that rate takes years)."""
        if not self.allow("lookup", address):
            raise P.ProtocolError("rate_limited", "too many room lookups; wait a little")
        room = self.rooms.get(code.upper())
        if room is None:
            raise P.ProtocolError("no_such_room", f"no room with code {code!r}")
        return room

    def room(self, code: str) -> Room:
        room = self.rooms.get(code.upper())
        if room is None:
            raise P.ProtocolError("no_such_room", f"no room with code {code!r}")
        return room

    def _leave_current(self, conn: Connection) -> None:
        if conn.room is not None:
            conn.room.disconnect(conn)

    def create_room(self, conn: Connection, msg: P.CreateRoom) -> Room:
        if not self.allow("create", conn.address):
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
            options = flow.parse_options(flow.resolve_profile(msg.options))
            P.check_match_length(options_to_json(options))
        except (OptionError, ValueError, TypeError) as exc:
            raise P.ProtocolError("bad_options", str(exc)) from None
        n = flow.seats(options)
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
        if msg.client_seed is not None:
            conn.client_seed = msg.client_seed
        room = Room(self, self.new_code(), msg.variant, flow, options, seats, msg.timers)
        room.host_id = conn.id
        self.rooms[room.code] = room
        self._leave_current(conn)
        conn.send(M.RoomCreated(code=room.code).json_dict())
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

    # -- storage trouble -----------------------------------------------------------------
    def _storage_changed(self, paused: bool) -> None:
        for room in list(self.rooms.values()):
            if room.status != "playing":
                continue
            if paused and not room.paused:
                room.pause()
                self.counters.tables_paused += 1
            elif not paused and room.paused:
                room.unpause()
                self.counters.tables_resumed += 1

    def paused_tables(self) -> int:
        return sum(1 for r in self.rooms.values() if r.paused)

    def idle_tables(self) -> int:
        return sum(1 for r in self.rooms.values() if r.idle_since is not None)

    # -- reaping -------------------------------------------------------------------------
    def reap(self) -> None:
        """Forget finished rooms past their time, waiting rooms nobody is in, and tables of
        bots alone that nobody has watched for ``idle_ttl`` (their game is abandoned)."""
        now = time.monotonic()
        ttl = self.config.finished_ttl
        for code, room in list(self.rooms.items()):
            done = room.ended_at is not None and now - room.ended_at > ttl
            idle = room.status == "waiting" and not room.connections() and now - room.created > ttl
            unwatched = (
                room.status == "playing"
                and room.idle_since is not None
                and now - room.idle_since > self.config.idle_ttl
            )
            if unwatched and room.game_id is not None:
                self.counters.idle_reaped += 1
                self.storage.abandon(room.game_id)
            if done or idle or unwatched:
                room._cancel_tasks()
                for seat in room.seats:
                    if seat.token_hash is not None:
                        self.tokens.pop(seat.token_hash, None)
                del self.rooms[code]
        # an address whose bucket has refilled is indistinguishable from a new one
        for buckets in (self.create_buckets, self.lookup_buckets, self.message_buckets):
            for address, bucket in list(buckets.items()):
                if bucket.level() >= bucket.burst:
                    del buckets[address]

    # -- restart -----------------------------------------------------------------------
    async def resume_all(self) -> list[str]:
        """Rebuild every unfinished game from storage; returns the room codes resumed.

        A game that cannot be rebuilt, for whatever reason, is set aside as ``broken`` with
        that reason; the others resume and the server starts whatever it found."""
        resumed: list[str] = []
        try:
            ids = await self.storage.unfinished()
        except Exception as exc:
            log.error("cannot list unfinished games: %s", exc)
            return resumed
        for game_id in ids:
            try:
                room = await self._resume(game_id)
            except Exception as exc:
                reason = f"{type(exc).__name__}: {exc}"
                log.error("cannot resume game %s: %s", game_id, reason)
                self.counters.games_broken += 1
                with contextlib.suppress(Exception):
                    await self.storage.mark_broken(game_id, reason)
                continue
            self.counters.games_resumed += 1
            resumed.append(room.code)
        return resumed

    async def _resume(self, game_id: str) -> Room:
        game = await self.storage.get_game(game_id)
        if game is None:
            raise ResumeError("the game row is gone")
        lines = await self.storage.lines(game_id)
        setup = game.room
        if not setup.get("seats"):
            damage = (game.result or {}).get("error", "no room setup is stored")
            raise ResumeError(str(damage))
        server_seed = None
        if "server_seed" in setup:
            try:
                server_seed = parse_seed_hex(setup["server_seed"])
            except FairDealError as exc:
                raise ResumeError(f"room setup: {exc}") from None
        session = Session.resume(lines, find_variant, server_seed)
        for seat_index, action in pending_holds(lines, await self.storage.holds(game_id)):
            # answers taken in the open window before the restart: held again, as they were
            try:
                session.act(seat_index, session.parse(action))
            except (IllegalActionError, InvalidActionError) as exc:
                log.warning(
                    "game %s: held answer %s of seat %d dropped: %s",
                    game_id,
                    action,
                    seat_index,
                    exc,
                )
        timers = P.TimerSettings.model_validate(setup.get("timers", {}))
        raw_seats = setup["seats"]
        if not isinstance(raw_seats, list) or len(raw_seats) != session.n_seats:
            raise ResumeError("the stored seats do not match the game")
        seats = [
            Seat(i, s["kind"], s.get("level", "greedy"), s.get("name", ""), s.get("token_hash"))
            for i, s in enumerate(raw_seats)
        ]
        fair = session.match.fair
        for seat in seats:
            seat.client_seed = fair.client_seeds[seat.index] if fair is not None else ""
        code = game.room_code
        if code in self.rooms or len(code) != P.ROOM_CODE_LENGTH:
            code = self.new_code()
        room = Room(self, code, game.variant, session.flow, session.options, seats, timers)
        self.rooms[code] = room
        for seat in seats:
            if seat.token_hash is not None:
                self.tokens[seat.token_hash] = (code, seat.index)
        room.resume(session, game_id, len(lines))
        return room


def options_to_json(options: Any) -> dict[str, Any]:
    from paiju.variants.base import options_to_mapping

    return options_to_mapping(options)


def table_bots(variant: str) -> list[str]:
    """The bot levels a table of ``variant`` offers: every simple bot, and ``strong`` where
    its search takes milliseconds (the lookahead games). Monte Carlo's 0.3 s a move, even
    in the worker pool, would make a Qing'er table wait that long at every bot's turn."""
    from paiju.variants import find_variant

    return list(find_variant(variant).server_bot_levels)
