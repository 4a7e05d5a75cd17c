"""One node of a cluster: its rooms' leases, the relay, and the loops that keep the
cluster's view of it fresh and take over the rooms of nodes that died.

Every ``tick`` (0.5 s by default) a node
- renews the leases of the rooms it holds; a room whose lease was lost is dropped at once
  (no timer, bot or write of it runs afterwards, and the fence refuses any write that was
  already on its way);
- releases the leases of rooms it has forgotten (finished and reaped) and frees their
  codes and seat tokens;
- publishes its open rooms, its seat tokens and its heartbeat (load, connections);
- looks in PostgreSQL for games still being played whose room has no owner, takes the
  lease of each it can, claims the game's fence with the new epoch, and only then reads
  the log and rebuilds the room (the usual resume);
- closes the relayed connections of its clients whose room's owner is gone, so that they
  reconnect (with their seat tokens) and reach the new owner.

A client connected here that names a room owned by another node is relayed there
(:mod:`paiju.server.cluster.relay`); a room code or seat token whose room has no owner
right now (its node just died) waits up to ``owner_wait`` seconds for a taker before the
client is told there is no such room.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from paiju.server import messages as M
from paiju.server import protocol as P
from paiju.server.cluster.lease import Lease, Leases, Registry
from paiju.server.cluster.limits import SharedLimits
from paiju.server.cluster.relay import Relay
from paiju.server.cluster.shared import Shared
from paiju.server.cluster.storage import FencedStorage
from paiju.server.cluster.tasks import stop_tasks
from paiju.server.manager import RoomManager
from paiju.server.room import Connection, Room, hash_token
from paiju.server.storage import games

log = logging.getLogger("paiju.server.cluster")

RESTART_CODE = 1012
"""Websocket close code "service restart": the client reconnects with its seat token."""


@dataclass
class ClusterSettings:
    node: str
    redis_url: str
    lease_ttl: float = 3.0
    """Seconds a lease lives without renewal: how long a dead node's rooms wait."""
    tick: float = 0.5
    prefix: str = "paiju:"
    owner_wait: float = 10.0
    """Seconds a client naming an ownerless room waits for a node to take it."""
    takeover_batch: int = 50
    """Rooms one node takes over per tick (the others are left to the next tick or node)."""

    def check(self) -> None:
        if (
            not self.node
            or len(self.node) > 64
            or not all(c.isalnum() or c in "-_." for c in self.node)
        ):
            raise ValueError(f"node name {self.node!r}: 1-64 letters, digits, '-', '_' or '.'")
        if not self.redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise ValueError(f"Redis URL {self.redis_url!r} must start with redis:// or rediss://")
        if not 0 < self.tick < self.lease_ttl:
            raise ValueError("the tick must be shorter than the lease")


class RemoteConnection(Connection):
    """On the owner: a client connected to another node (``edge``)."""

    def __init__(self, node: ClusterNode, edge: str, conn_id: str, address: str) -> None:
        super().__init__(address)
        self.id = conn_id
        self.edge = edge
        self.node = node
        self.closed = False
        self.backlog: list[dict[str, Any]] | None = None
        """Messages that wait, in order, behind one for a room this node is rebuilding."""

    def send(self, message: dict[str, Any]) -> None:
        if not self.closed:
            self.node.relay.send(self.edge, {"t": "out", "conn": self.id, "msg": message})

    def close(self, code: int = 1000) -> None:
        if not self.closed:
            self.closed = True
            self.node.relay.send(self.edge, {"t": "close", "conn": self.id, "code": code})
            self.node.remote.pop((self.edge, self.id), None)


class ClusterRoomManager(RoomManager):
    """The room manager of a node: room codes are reserved cluster-wide before a room
    is made (the node hands the reserved code in through ``next_code``), and the rate
    limits are spent from buckets shared by every node (:mod:`.limits`)."""

    next_code: str | None = None
    limits: SharedLimits | None = None
    paid: str | None = None
    """The kind of limit already spent for the message being handled (the node that the
    client is connected to charged it before relaying or handling it)."""

    def new_code(self) -> str:
        code, self.next_code = self.next_code, None
        return code if code is not None else super().new_code()

    def allow(self, kind: str, address: str) -> bool:
        if kind == self.paid:
            return True
        limits = self.limits
        if limits is None or not limits.healthy:
            return super().allow(kind, address)
        taken = limits.try_take(kind, address)
        if taken is None:
            # nothing borrowed yet and no way to wait here: this node's own bucket decides
            return super().allow(kind, address)
        if not taken:
            self.counters.rate_limited += 1
        return taken

    async def admit(self, kind: str, address: str) -> bool:
        limits = self.limits
        if limits is None or not limits.healthy:
            return super().allow(kind, address)
        if await limits.take(kind, address):
            return True
        if not limits.healthy:
            return super().allow(kind, address)
        self.counters.rate_limited += 1
        return False

    def handle_paid(self, conn: Connection, msg: Any, kind: str | None) -> None:
        """:meth:`handle`, with the ``kind`` limit already charged for ``msg``."""
        self.paid = kind
        try:
            self.handle(conn, msg)
        finally:
            self.paid = None


def _paid_kind(msg: Any) -> str | None:
    return "lookup" if isinstance(msg, P.Join) else None


class ClusterNode:
    def __init__(
        self, manager: ClusterRoomManager, storage: FencedStorage, settings: ClusterSettings
    ) -> None:
        settings.check()
        self.manager = manager
        self.storage = storage
        self.settings = settings
        self.name = settings.node
        self.redis: Any = None
        self.renew_redis: Any = None
        """A connection of its own for lease renewals and heartbeats: behind a crowd of
        clients' commands in the shared pool, a renewal could come too late."""
        self.renewer: Leases | None = None
        self._ticks = 0
        self.leases_api: Leases | None = None
        self.registry: Registry | None = None
        self.shared: Shared | None = None
        self.relay: Relay = None  # type: ignore[assignment]
        self.leases: dict[str, Lease] = {}
        self.remote: dict[tuple[str, str], RemoteConnection] = {}
        """Owner side: clients of other nodes, by (edge node, connection id)."""
        self.bound: dict[str, tuple[str, Connection]] = {}
        """Edge side: connection id → (owner node, the local connection) while relayed."""
        self.routes: dict[str, tuple[str, str]] = {}
        """Edge side: connection id → (room code, the message that brings it back there:
        the join, or a reconnect with the seat token the owner gave it)."""
        self.local_conns: dict[str, Connection] = {}
        self.resuming: dict[str, asyncio.Event] = {}
        """Rooms this node holds the lease of and is rebuilding from the log: a message
        for one waits until it is rebuilt (it would find no such room or token yet)."""
        self.alive: set[str] = set()
        self.draining = False
        self._closing = False
        """Set by :meth:`close`: the loops end at their next turn even if a cancellation
        was lost (:mod:`.tasks`)."""
        self.counters = {
            "taken_over": 0,
            "waiting_taken_over": 0,
            "lost": 0,
            "fenced": 0,
            "relayed_in": 0,
        }
        self._loop_tasks: list[asyncio.Task[None]] = []
        self._published_tokens: dict[str, str] = {}
        self._saved_waiting: dict[str, str] = {}
        """Waiting rooms' setups as last stored in Redis (code → JSON)."""
        self._dirty: set[str] = set()
        self._saver: asyncio.Task[None] | None = None
        self.host_seats: dict[str, int] = {}
        """Waiting rooms taken over from a dead node: the seat whose person is the host
        (the host's connection died with the node; they are host again once back)."""
        storage.on_fenced = self._fenced

    # -- start and stop ------------------------------------------------------------------
    async def start(self) -> None:
        import redis.asyncio as aioredis

        s = self.settings
        # a blocking pool: a burst of clients (hundreds joining at once) waits its turn for a
        # connection; the plain pool raised "Too many connections" instead, which closed
        # those clients' sockets and could fail a lease renewal
        pool = aioredis.BlockingConnectionPool.from_url(
            s.redis_url, max_connections=64, timeout=s.lease_ttl
        )
        self.redis = aioredis.Redis.from_pool(pool)
        await self.redis.ping()
        self.renew_redis = aioredis.Redis.from_pool(
            aioredis.BlockingConnectionPool.from_url(
                s.redis_url, max_connections=2, timeout=s.lease_ttl
            )
        )
        self.leases_api = Leases(self.redis, self.name, s.lease_ttl, s.prefix)
        self.renewer = Leases(self.renew_redis, self.name, s.lease_ttl, s.prefix)
        self.registry = Registry(self.renew_redis, self.name, s.lease_ttl, s.prefix)
        self.shared = Shared(self.redis, self.name, s.prefix)
        self.relay = Relay(self.redis, self.name, self._on_relay, s.prefix)
        await self.relay.start()
        cfg = self.manager.config
        self.manager.limits = SharedLimits(
            self.redis,
            s.prefix,
            {
                "message": (cfg.message_rate, cfg.message_burst, int(cfg.message_burst // 4)),
                "create": (cfg.create_rate, cfg.create_burst, 1),
                "lookup": (cfg.lookup_rate, cfg.lookup_burst, 1),
            },
        )
        self.manager.limits.start()
        await self._heartbeat()
        await self._tick()
        self._loop_tasks = [
            asyncio.create_task(self._loop(self._renew)),
            asyncio.create_task(self._loop(self._sync)),
        ]

    async def close(self, drain: bool = True) -> None:
        """Stop; with ``drain``, hand every room over first: their tables stop, the log is
        flushed, the leases are released (another node takes them at its next tick) and
        every client is asked to reconnect."""
        self.draining = True
        self._closing = True
        await stop_tasks(self._loop_tasks)
        self._loop_tasks = []
        if drain:
            # every seat token routable before the rooms go: their people come back by them
            with contextlib.suppress(Exception):
                await self._publish()
            for code in list(self.manager.rooms):
                self._drop_room(code, release=False)
            # a database that stays down must not hold the handover forever
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.storage.flush(), 10.0)
            for lease in list(self.leases.values()):
                with contextlib.suppress(Exception):
                    await self._lease().release(lease)
            self.leases.clear()
            for conn in list(self.local_conns.values()):
                conn.close(RESTART_CODE)
        # the rooms' last messages to clients on other nodes; a Redis that stopped
        # answering must not hold the exit
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.relay.flush(), 10.0)
        if self.manager.limits is not None:
            await self.manager.limits.close()
            self.manager.limits = None
        if self.registry is not None:
            with contextlib.suppress(Exception):
                await self.registry.leave()
        with contextlib.suppress(Exception):
            await self.relay.close()
        for client in (self.redis, self.renew_redis):
            if client is not None:
                with contextlib.suppress(Exception):
                    await client.aclose()

    def _lease(self) -> Leases:
        assert self.leases_api is not None
        return self.leases_api

    def _shared(self) -> Shared:
        assert self.shared is not None
        return self.shared

    # -- the loop ------------------------------------------------------------------------
    async def _loop(self, step: Any) -> None:
        while not self._closing:
            await asyncio.sleep(self.settings.tick)
            if self._closing:
                return
            try:
                await step()
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis or PostgreSQL away for a moment: the leases lapse if it lasts
                log.exception("node %s: cluster tick failed", self.name)

    async def _tick(self) -> None:
        await self._renew()
        await self._sync()

    async def _renew(self) -> None:
        """Leases and heartbeat, on their own loop: a slow takeover or a busy lobby must
        not make this node miss its renewals."""
        assert self.renewer is not None
        lost = await self.renewer.renew(list(self.leases.values()))
        for lease in lost:
            if self.leases.get(lease.code) != lease:
                continue
            log.warning("node %s: lost the lease of room %s", self.name, lease.code)
            self.counters["lost"] += 1
            self.leases.pop(lease.code, None)
            self._drop_room(lease.code, release=False)
        await self._heartbeat()

    async def _sync(self) -> None:
        if self.manager.limits is not None:
            self.manager.limits.sweep()
        await self._forget_reaped()
        await self._publish()
        self._dirty.update(self.leases)
        self._dirty.update(self._saved_waiting)
        await self._save_dirty()
        if not self.draining:
            await self._take_over()
            await self._take_over_waiting()
        self._check_bound()

    async def _heartbeat(self) -> None:
        assert self.registry is not None
        rooms = self.manager.rooms.values()
        await self.registry.heartbeat(
            {
                "pid": os.getpid(),
                "rooms": len(self.manager.rooms),
                "playing": sum(1 for r in rooms if r.status == "playing"),
                "connections": len(self.local_conns),
                "relayed_in": len(self.remote),
                "draining": self.draining,
            }
        )
        self.alive = set(await self.registry.nodes())

    async def _publish(self) -> None:
        shared = self._shared()
        open_rooms = {
            code: _lobby_entry(room)
            for code, room in self.manager.rooms.items()
            if room.status == "waiting" and code in self.leases
        }
        await shared.publish_open(open_rooms, round(self.settings.lease_ttl * 1000))
        tokens = {h: code for h, (code, _i) in self.manager.tokens.items() if code in self.leases}
        self._ticks += 1
        if self._ticks % 20 == 0:
            # all of them now and then: an entry another node deleted by mistake comes back
            self._published_tokens.clear()
        fresh = {h: c for h, c in tokens.items() if self._published_tokens.get(h) != c}
        await shared.publish_tokens(fresh)
        self._published_tokens.update(fresh)
        await shared.keep_codes(list(self.leases))

    async def _forget_reaped(self) -> None:
        shared = self._shared()
        for code in [c for c in self.leases if c not in self.manager.rooms]:
            if code in self._saved_waiting:
                await self._save_waiting(code)
            lease = self.leases.pop(code)
            await self._lease().release(lease)
            await shared.free_code(code)
            self.storage.code_epochs.pop(code, None)
        stale = [h for h, c in self._published_tokens.items() if h not in self.manager.tokens]
        await shared.forget_tokens(stale)
        for h in stale:
            self._published_tokens.pop(h, None)

    async def _take_over(self) -> None:
        """Rebuild the unfinished games whose rooms nobody owns."""
        engine = self.storage._require()
        query = select(games.c.id, games.c.room_code).where(games.c.status == "playing")
        async with engine.connect() as conn:
            rows = [(str(r.id), str(r.room_code)) for r in (await conn.execute(query)).all()]
        if not rows:
            return
        mine = {room.game_id for room in self.manager.rooms.values()}
        owners = await self._lease().owners([code for _g, code in rows])
        orphans = [(g, c) for g, c in rows if owners.get(c) is None and g not in mine]
        # several nodes scan at once: a random order spreads the rooms between them
        random.shuffle(orphans)
        for game_id, code in orphans[: self.settings.takeover_batch]:
            await self.take_over(game_id, code)

    async def take_over(self, game_id: str, code: str) -> bool:
        """Take one orphaned game: lease, fence, then the log. False if another node won."""
        if code in self.manager.rooms:
            return False
        lease = await self._lease().acquire(code)
        if lease is None:
            return False
        rebuilt = self.resuming[code] = asyncio.Event()
        try:
            return await self._rebuild(game_id, code, lease)
        finally:
            self.resuming.pop(code, None)
            rebuilt.set()

    async def _rebuild(self, game_id: str, code: str, lease: Lease) -> bool:
        try:
            if not await self.storage.claim(game_id, lease.epoch):
                await self._lease().release(lease)
                return False
            self.leases[code] = lease
            self.storage.code_epochs[code] = lease.epoch
            game = await self.storage.get_game(game_id)
            if game is None or game.status != "playing":
                self.leases.pop(code, None)
                await self._lease().release(lease)
                return False
            room = await self.manager._resume(game_id)
        except Exception as exc:
            log.error("node %s: cannot take over game %s: %s", self.name, game_id, exc)
            self.leases.pop(code, None)
            with contextlib.suppress(Exception):
                await self._lease().release(lease)
            return False
        if room.code != code:
            # the code was in use here (cannot happen with cluster-wide codes): keep both
            log.error("node %s: game %s resumed under code %s", self.name, game_id, room.code)
        self.counters["taken_over"] += 1
        log.info(
            "node %s: took over room %s (game %s, epoch %d)", self.name, code, game_id, lease.epoch
        )
        return True

    # -- waiting rooms: stored in Redis, taken over like games ---------------------------
    def _touch(self, conn: Connection) -> None:
        """A message was handled for ``conn``: store its room again if it is waiting."""
        room = conn.room
        if room is None or room.code not in self.leases:
            return
        if room.status != "waiting" and room.code not in self._saved_waiting:
            return  # a game: its log is its record
        host = self.host_seats.get(room.code)
        if host is not None and room.status == "waiting" and conn.seat == host:
            room.host_id = conn.id
            self.host_seats.pop(room.code, None)
        self._dirty.add(room.code)
        if self._saver is None or self._saver.done():
            self._saver = self.manager.spawn(self._save_dirty())

    async def _save_dirty(self) -> None:
        # one at a time, each with the room's state when it is written: never out of order
        while self._dirty:
            await self._save_waiting(self._dirty.pop())

    async def _save_waiting(self, code: str) -> None:
        lease = self.leases.get(code)
        room = self.manager.rooms.get(code)
        setup = ""
        tokens: list[str] = []
        if room is not None and room.status == "starting":
            return  # forgotten once the game is in PostgreSQL, not before
        if room is not None and room.status == "waiting":
            setup = json.dumps(self._waiting_setup(room), sort_keys=True, ensure_ascii=False)
            tokens = [s.token_hash for s in room.seats if s.token_hash is not None]
        if lease is None or self._saved_waiting.get(code, "") == setup:
            return
        owner_key = self._lease().owner_key(code)
        if await self._shared().save_waiting(owner_key, lease.value, code, setup, tokens):
            if setup:
                self._saved_waiting[code] = setup
                self._published_tokens.update(dict.fromkeys(tokens, code))
            else:
                self._saved_waiting.pop(code, None)

    def _waiting_setup(self, room: Room) -> dict[str, Any]:
        from paiju.server.manager import options_to_json

        host = next((c.seat for c in room.connections() if c.id == room.host_id), None)
        if host is None:
            host = self.host_seats.get(room.code)
        return {
            **room._setup(),
            "variant": room.variant,
            "options": options_to_json(room.options),
            "host_seat": host,
        }

    async def _take_over_waiting(self) -> None:
        """Rebuild the waiting rooms whose node died (their lease lapsed)."""
        shared = self._shared()
        codes = [c for c in await shared.waiting_codes() if c not in self.manager.rooms]
        if not codes:
            return
        owners = await self._lease().owners(codes)
        orphans = [c for c in codes if owners.get(c) is None]
        random.shuffle(orphans)
        for code in orphans[: self.settings.takeover_batch]:
            await self.take_over_waiting(code)

    async def take_over_waiting(self, code: str) -> bool:
        lease = await self._lease().acquire(code)
        if lease is None:
            return False
        rebuilt = self.resuming[code] = asyncio.Event()
        try:
            setup = await self._shared().waiting_setup(code)
            if setup is not None and await self._stored_game(code):
                # the game started just before its node died: it moves as a game
                setup = None
            if setup is None:
                await self._shared().drop_waiting(code)
                await self._lease().release(lease)
                return False
            try:
                room = self._waiting_room(code, setup)
            except Exception as exc:
                log.error("node %s: waiting room %s cannot be rebuilt: %s", self.name, code, exc)
                await self._shared().drop_waiting(code)
                await self._lease().release(lease)
                return False
            self.leases[code] = lease
            self.storage.code_epochs[code] = lease.epoch
            self.manager.rooms[code] = room
            for seat in room.seats:
                if seat.token_hash is not None:
                    self.manager.tokens[seat.token_hash] = (code, seat.index)
            self._saved_waiting[code] = json.dumps(setup, sort_keys=True, ensure_ascii=False)
            host = setup.get("host_seat")
            if isinstance(host, int):
                self.host_seats[code] = host
            self.counters["waiting_taken_over"] += 1
            log.info("node %s: took over waiting room %s", self.name, code)
            return True
        finally:
            self.resuming.pop(code, None)
            rebuilt.set()

    def _waiting_room(self, code: str, setup: dict[str, Any]) -> Room:
        from paiju.server.room import Seat
        from paiju.variants import VARIANTS

        flow = VARIANTS[str(setup["variant"])]
        options = flow.parse_options(setup.get("options") or {})
        timers = P.TimerSettings.model_validate(setup.get("timers") or {})
        raw = setup["seats"]
        if not isinstance(raw, list) or len(raw) != flow.seats(options):
            raise ValueError("the stored seats do not match the game")
        seats = [
            Seat(i, s["kind"], s.get("level", "greedy"), s.get("name", ""), s.get("token_hash"))
            for i, s in enumerate(raw)
        ]
        return Room(self.manager, code, str(setup["variant"]), flow, options, seats, timers)

    async def _stored_game(self, code: str) -> bool:
        query = select(games.c.id).where(games.c.room_code == code)
        async with self.storage._require().connect() as conn:
            return (await conn.execute(query.limit(1))).first() is not None

    def _check_bound(self) -> None:
        for conn_id, (owner, conn) in list(self.bound.items()):
            if owner not in self.alive:
                # its room's node is gone: follow the room to its new owner
                self.bound.pop(conn_id, None)
                self.manager.spawn(self._reroute(conn))

    async def _reroute(self, conn: Connection) -> None:
        """Send a relayed client's way back into its room (join, or reconnect with its
        seat token) to whichever node owns the room now; the client gets the room and a
        fresh snapshot as after any reconnect. With no owner in time, it is asked to
        reconnect itself."""
        route = self.routes.get(conn.id)
        if route is None or conn.id not in self.local_conns:
            conn.close(RESTART_CODE)
            return
        code, raw = route
        owner = await self._owner_of(code)
        if conn.id not in self.local_conns or conn.id in self.bound:
            return
        if owner is None:
            conn.close(RESTART_CODE)
        elif owner == self.name:
            try:
                # the way back after a failover is not the client's lookup to pay for
                self.manager.handle_paid(conn, P.parse_client_message(raw), "lookup")
            except P.ProtocolError as exc:
                conn.send(M.error(exc.code, exc.message))
            finally:
                self._touch(conn)
        else:
            self.bound[conn.id] = (owner, conn)
            self._forward(conn, owner, raw, code)

    # -- losing a room ---------------------------------------------------------------------
    def _fenced(self, game_id: str) -> None:
        self.counters["fenced"] += 1
        for code, room in list(self.manager.rooms.items()):
            if room.game_id == game_id:
                self.leases.pop(code, None)
                self._drop_room(code, release=False)

    def _drop_room(self, code: str, release: bool) -> None:
        """Forget a room this node no longer owns: nothing of it runs here any more, and
        its clients are asked to reconnect (to the new owner)."""
        room = self.manager.rooms.pop(code, None)
        self._saved_waiting.pop(code, None)
        self.host_seats.pop(code, None)
        if room is None:
            return
        room._cancel_tasks()
        for seat in room.seats:
            if seat.token_hash is not None:
                self.manager.tokens.pop(seat.token_hash, None)
                # the room lives on elsewhere: its seat tokens must keep routing there
                # (forgetting them as if reaped deleted the new owner's entries: bad_token)
                self._published_tokens.pop(seat.token_hash, None)
        for conn in room.connections():
            conn.room = None
            conn.seat = None
            conn.close(RESTART_CODE)
        if room.game_id is not None:
            self.storage.epochs.pop(room.game_id, None)
        if release and code in self.leases:
            lease = self.leases.pop(code)
            self.manager.spawn(self._lease().release(lease))

    # -- the edge: a client connected to this node -------------------------------------------
    def connected(self, conn: Connection) -> None:
        self.local_conns[conn.id] = conn

    def disconnect(self, conn: Connection) -> None:
        self.local_conns.pop(conn.id, None)
        self.routes.pop(conn.id, None)
        self._unbind(conn)
        self.manager.disconnect(conn)

    def _unbind(self, conn: Connection) -> None:
        bound = self.bound.pop(conn.id, None)
        if bound is not None:
            self.relay.send(bound[0], {"t": "gone", "edge": self.name, "conn": conn.id})

    async def handle(self, conn: Connection, raw: str | bytes, msg: Any) -> None:
        """One validated client message from a socket of this node. Redis or PostgreSQL
        failing under it is told to the client (``unavailable``), the socket stays open."""
        try:
            await self._handle(conn, raw, msg)
        except P.ProtocolError:
            raise
        except Exception as exc:
            log.error(
                "node %s: a %s message failed: %s: %s",
                self.name,
                getattr(msg, "type", "?"),
                type(exc).__name__,
                exc,
            )
            raise P.ProtocolError(
                "unavailable", "the server could not reach its shared storage; try again"
            ) from None

    async def _handle(self, conn: Connection, raw: str | bytes, msg: Any) -> None:
        if isinstance(msg, P.Ping):
            self.manager.handle(conn, msg)
            return
        if isinstance(msg, P.CreateRoom):
            self._unbind(conn)
            await self.create_room(conn, msg)
            return
        owner: str | None = None
        if isinstance(msg, P.Join):
            # charged here, before Redis or PostgreSQL is asked anything about the code,
            # from the bucket every node shares: guessing codes through all nodes at once
            # earns no more tries (the owner does not charge it again)
            if not await self.manager.admit("lookup", conn.address):
                raise P.ProtocolError("rate_limited", "too many room lookups; wait a little")
            code: str | None = msg.code.upper()
            owner = await self._owner_of(msg.code.upper())
        elif isinstance(msg, P.Reconnect):
            code = await self._shared().token_room(hash_token(msg.token))
            owner = await self._owner_of(code) if code is not None else None
        elif conn.id in self.bound:
            self._forward(conn, self.bound[conn.id][0], raw)
            return
        if owner is None or owner == self.name:
            self._unbind(conn)
            try:
                self.manager.handle_paid(conn, msg, _paid_kind(msg))
            finally:
                self._touch(conn)
            return
        if conn.room is not None:
            self.manager.disconnect(conn)
        current = self.bound.get(conn.id)
        if current is not None and current[0] != owner:
            self._unbind(conn)
        self.bound[conn.id] = (owner, conn)
        if code is not None:
            self.routes[conn.id] = (code, raw if isinstance(raw, str) else raw.decode())
        self._forward(conn, owner, raw, code)

    def _forward(
        self, conn: Connection, owner: str, raw: str | bytes, code: str | None = None
    ) -> None:
        text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        payload = {"t": "in", "edge": self.name, "conn": conn.id, "addr": conn.address, "raw": text}
        if code is not None:
            # the room it is for: the owner may still be rebuilding it (a failover)
            payload["code"] = code
        self.relay.send(owner, payload)

    async def _rebuilt(self, code: str) -> None:
        event = self.resuming.get(code)
        if event is not None:
            await event.wait()

    async def _owner_of(self, code: str) -> str | None:
        """The node that owns ``code``'s room; an orphaned room is waited for."""
        await self._rebuilt(code)
        if code in self.manager.rooms:
            return self.name
        deadline = time.monotonic() + self.settings.owner_wait
        while True:
            owner = await self._lease().owner(code)
            if owner is not None and owner[0] == self.name and code in self.resuming:
                await self._rebuilt(code)
                if code in self.manager.rooms:
                    return self.name
            # a lease outlives its dead node by up to a lease time: wait for the next owner
            if owner is not None and (owner[0] in self.alive or owner[0] == self.name):
                return owner[0]
            if time.monotonic() >= deadline or not await self._movable(code):
                return None
            await asyncio.sleep(min(0.2, self.settings.tick))
            if code in self.manager.rooms:
                return self.name

    async def _movable(self, code: str) -> bool:
        """A room that a node will take over once its lease lapses: a game being played,
        or a waiting room stored in Redis."""
        return await self._shared().is_waiting(code) or await self._stored_and_playing(code)

    async def _stored_and_playing(self, code: str) -> bool:
        query = select(games.c.id).where(games.c.room_code == code, games.c.status == "playing")
        async with self.storage._require().connect() as conn:
            return (await conn.execute(query.limit(1))).first() is not None

    async def create_room(self, conn: Connection, msg: P.CreateRoom) -> Room | None:
        if self.draining:
            raise P.ProtocolError("server_draining", "this server is closing; connect again")
        if not await self.manager.admit("create", conn.address):
            raise P.ProtocolError("rate_limited", "too many rooms created; wait a little")
        lease = None
        for _ in range(20):
            code = "".join(secrets.choice(P.ROOM_CODE_ALPHABET) for _ in range(P.ROOM_CODE_LENGTH))
            if code in self.manager.rooms or not await self._shared().reserve_code(code):
                continue
            lease = await self._lease().acquire(code)
            if lease is not None:
                break
            await self._shared().free_code(code)
        if lease is None:
            raise P.ProtocolError("server_full", "no room code could be reserved; try again")
        self.leases[lease.code] = lease
        self.storage.code_epochs[lease.code] = lease.epoch
        self.manager.next_code = lease.code
        try:
            self.manager.paid = "create"
            try:
                room = self.manager.create_room(conn, msg)
            finally:
                self.manager.paid = None
            self._touch(conn)
            return room
        except P.ProtocolError:
            self.manager.next_code = None
            self.leases.pop(lease.code, None)
            self.storage.code_epochs.pop(lease.code, None)
            await self._lease().release(lease)
            await self._shared().free_code(lease.code)
            raise

    # -- relayed messages --------------------------------------------------------------------
    def _on_relay(self, payload: dict[str, Any]) -> None:
        kind = payload.get("t")
        if kind == "in":
            self._relayed_in(payload)
        elif kind == "gone":
            remote = self.remote.pop((str(payload.get("edge")), str(payload.get("conn"))), None)
            if remote is not None:
                remote.closed = True
                self.manager.disconnect(remote)
        elif kind in ("out", "close"):
            conn = self.local_conns.get(str(payload.get("conn")))
            if conn is None:
                return
            if kind == "out":
                msg = payload["msg"]
                if isinstance(msg, dict) and msg.get("type") == "seated":
                    # should the owner die, this token brings the client back to its seat
                    back = {"type": "reconnect", "token": msg.get("token")}
                    self.routes[conn.id] = (str(msg.get("code")), json.dumps(back))
                conn.send(msg)
            else:
                self.bound.pop(conn.id, None)
                conn.close(int(payload.get("code", 1000)))

    def _relayed_in(self, payload: dict[str, Any]) -> None:
        edge, conn_id = str(payload["edge"]), str(payload["conn"])
        self.counters["relayed_in"] += 1
        remote = self.remote.get((edge, conn_id))
        if remote is None:
            remote = RemoteConnection(self, edge, conn_id, str(payload.get("addr", "relay")))
            self.remote[(edge, conn_id)] = remote
        self._deliver_in(remote, payload)

    def _deliver_in(self, remote: RemoteConnection, payload: dict[str, Any]) -> None:
        if remote.backlog is not None:
            remote.backlog.append(payload)
            return
        code = payload.get("code")
        if isinstance(code, str) and code in self.resuming:
            # the edge found this node's lease while the room is still being rebuilt
            remote.backlog = [payload]
            self.manager.spawn(self._after_rebuild(remote, code))
            return
        self._handle_in(remote, payload)

    async def _after_rebuild(self, remote: RemoteConnection, code: str) -> None:
        await self._rebuilt(code)
        backlog, remote.backlog = remote.backlog or [], None
        payload = backlog.pop(0)
        self._handle_in(remote, payload)
        for later in backlog:
            self._deliver_in(remote, later)

    def _handle_in(self, remote: RemoteConnection, payload: dict[str, Any]) -> None:
        if remote.closed:
            return
        try:
            msg = P.parse_client_message(payload["raw"])
            if isinstance(msg, P.CreateRoom):
                raise P.ProtocolError("bad_message", "rooms are created where you are connected")
            try:
                # the edge charged its limits before relaying it
                self.manager.handle_paid(remote, msg, _paid_kind(msg))
            finally:
                self._touch(remote)
        except P.ProtocolError as exc:
            remote.send(M.error(exc.code, exc.message))

    # -- what the HTTP side shows ------------------------------------------------------------
    async def describe(self) -> dict[str, Any]:
        assert self.registry is not None
        nodes = await self.registry.nodes()
        return {
            "node": self.name,
            "draining": self.draining,
            "rooms": len(self.manager.rooms),
            "leases": len(self.leases),
            "counters": dict(self.counters),
            "ticks": self._ticks,
            "fence_refused": self.storage.refused,
            "nodes": nodes,
        }

    async def open_rooms(self) -> list[dict[str, Any]]:
        return await self._shared().open_rooms(sorted(self.alive | {self.name}))


def _lobby_entry(room: Room) -> dict[str, Any]:
    public = room.public()
    return {k: public[k] for k in ("variant", "n_seats", "status", "seats")}
