"""Load test: many tables of wire bots playing through real websockets on loopback.

The server runs in this process (uvicorn in its own thread and event loop, on 127.0.0.1
with an ephemeral port, SQLite in a temporary directory); the clients run on the main
event loop. Every seat of every table is a client that decides from the ``legal`` list of
the messages it receives (a random player that always takes a win), so each decision makes
the full trip: JSON in, validation, engine, storage queue, per-seat views, JSON out.

Latency is measured per decision: from sending ``act`` until the next ``update`` reaches
the same client. Work is bounded by ``tables``, ``hands`` and a wall-clock ``seconds``
limit; a run cut short by the limit says so.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import multiprocessing
import random
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from paiju.bench import register, result_line


@dataclass
class LoadResult:
    tables: int
    finished_tables: int
    actions: int
    seconds: float
    latencies_ms: list[float] = field(default_factory=list)
    pings_ms: list[float] = field(default_factory=list)
    """Round trips of ``ping`` from the measured tables' hosts (one a second each)."""
    strong_tables: int = 0
    errors: list[str] = field(default_factory=list)
    timed_out: bool = False

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies_ms)
        pings = sorted(self.pings_ms)
        return {
            "tables": self.tables,
            "strong_tables": self.strong_tables,
            "finished_tables": self.finished_tables,
            "actions": self.actions,
            "seconds": round(self.seconds, 2),
            "actions_per_s": round(self.actions / self.seconds, 1) if self.seconds else None,
            "p50_ms": round(_percentile(lat, 50), 2) if lat else None,
            "p99_ms": round(_percentile(lat, 99), 2) if lat else None,
            "max_ms": round(lat[-1], 2) if lat else None,
            "pings": len(pings),
            "ping_p50_ms": round(_percentile(pings, 50), 2) if pings else None,
            "ping_p99_ms": round(_percentile(pings, 99), 2) if pings else None,
            "errors": len(self.errors),
            "first_errors": self.errors[:3],
            "timed_out": self.timed_out,
        }


def _percentile(sorted_values: list[float], p: float) -> float:
    if len(sorted_values) == 1:
        return sorted_values[0]
    return statistics.quantiles(sorted_values, n=100, method="inclusive")[int(p) - 1]


def _config(tables: int, bot_delay: float) -> Any:
    from paiju.server.room import ServerConfig

    # wire bots act at once and every table shares one address: lift the per-client limits
    return ServerConfig(
        bot_delay=bot_delay,
        next_hand_delay=0.0,
        # every client of a load run is 127.0.0.1, and the limits count per address
        message_rate=1e6,
        message_burst=1e6,
        lookup_rate=1e6,
        lookup_burst=1e6,
        create_rate=1000.0,
        create_burst=float(tables + 10),
        max_rooms=tables + 10,
    )


def _uvicorn(database_url: str, tables: int, bot_delay: float = 0.0) -> Any:
    import uvicorn

    from paiju.server.app import create_app

    app = create_app(database_url, _config(tables, bot_delay), static_dir="/nonexistent")
    return uvicorn.Server(
        uvicorn.Config(
            app,
            log_level="warning",
            ws="websockets-sansio",
            ws_max_size=65536,
            ws_per_message_deflate=False,
            lifespan="on",
        )
    )


def _loopback_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    return sock


class ServerThread:
    """uvicorn serving a fresh app on 127.0.0.1:<ephemeral> from a background thread."""

    def __init__(self, database_url: str, tables: int, bot_delay: float = 0.0) -> None:
        self.server = _uvicorn(database_url, tables, bot_delay)
        self.sock = _loopback_socket()
        self.port: int = self.sock.getsockname()[1]
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()


def _serve_child(database_url: str, tables: int, bot_delay: float, ports: Any) -> None:
    server = _uvicorn(database_url, tables, bot_delay)
    sock = _loopback_socket()
    ports.put(sock.getsockname()[1])
    server.run(sockets=[sock])


class ServerProcess:
    """The same server in a child process, so that it does not share a core (and the GIL)
    with the clients."""

    def __init__(self, database_url: str, tables: int, bot_delay: float = 0.0) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.ports: Any = ctx.Queue()
        self.process = ctx.Process(
            target=_serve_child, args=(database_url, tables, bot_delay, self.ports), daemon=True
        )
        self.port = 0

    def __enter__(self) -> ServerProcess:
        self.process.start()
        self.port = int(self.ports.get(timeout=60))
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if time.monotonic() > deadline or not self.process.is_alive():
                    raise RuntimeError("the server process did not start") from None
                time.sleep(0.05)

    def __exit__(self, *_exc: object) -> None:
        self.process.terminate()
        self.process.join(timeout=30)


@dataclass(frozen=True)
class LoadPlan:
    tables: int = 200
    hands: int = 1
    seconds: float = 300.0
    """Wall-clock limit of the timed part; tables still playing then are cut off."""
    think: float = 0.5
    """Mean seconds a wire bot waits before answering (uniform in [0.5, 1.5] times it),
    as people and server-side bots do; 0 floods the server (a throughput test)."""
    variant: str = "jiaxing"
    process: bool = False
    """Run the server in a child process instead of a thread of this one."""
    strong_tables: int = 0
    """Extra tables of server-side ``strong`` bots (each watched by one spectator socket),
    playing beside the measured ones: the cost of bot decisions to everybody else."""

    def check(self) -> None:
        if not 1 <= self.tables <= 2000:
            raise ValueError("tables must be between 1 and 2000")
        if not 1 <= self.hands <= 16:
            raise ValueError("hands must be between 1 and 16")
        if not 0 < self.seconds <= 3600:
            raise ValueError("seconds must be in (0, 3600]")
        if not 0 <= self.think <= 10:
            raise ValueError("think must be between 0 and 10 seconds")
        if not 0 <= self.strong_tables <= 500:
            raise ValueError("strong_tables must be between 0 and 500")


class _Seat:
    def __init__(self, result: LoadResult, rng: random.Random, think: float) -> None:
        self.result = result
        self.rng = rng
        self.think = think
        self.sent_at: float | None = None
        self.acted_turn = -1
        self.done = False
        self.ping_sent: float | None = None

    def choose(self, legal: list[str]) -> str:
        for win in ("zimo", "hu"):
            if win in legal:
                return win
        return self.rng.choice(legal)

    async def play(self, ws: Any, first: list[dict[str, Any]]) -> None:
        for msg in first:
            await self.handle(ws, msg)
        async for raw in ws:
            await self.handle(ws, json.loads(raw))
            if self.done:
                return

    async def handle(self, ws: Any, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "update":
            if self.sent_at is not None:
                self.result.latencies_ms.append((time.perf_counter() - self.sent_at) * 1000)
                self.sent_at = None
            await self._maybe_act(ws, msg)
        elif kind == "snapshot":
            await self._maybe_act(ws, msg)
        elif kind == "pong":
            if self.ping_sent is not None:
                self.result.pings_ms.append((time.perf_counter() - self.ping_sent) * 1000)
                self.ping_sent = None
        elif kind == "match_end":
            self.done = True
        elif kind == "error":
            self.result.errors.append(f"{msg.get('code')}: {msg.get('message')}")
            self.sent_at = None

    async def _maybe_act(self, ws: Any, msg: dict[str, Any]) -> None:
        legal = msg.get("legal") or []
        turn = msg.get("turn")
        if not legal or not isinstance(turn, int) or turn <= self.acted_turn:
            return
        self.acted_turn = turn
        if self.think > 0:
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        self.sent_at = time.perf_counter()
        self.result.actions += 1
        await ws.send(json.dumps({"type": "act", "action": self.choose(legal), "turn": turn}))


async def _ping_loop(ws: Any, seat: _Seat, rng: random.Random) -> None:
    """A ping a second from this socket; the ``pong`` is timed by :meth:`_Seat.handle`."""
    await asyncio.sleep(rng.random())
    while not seat.done:
        seat.ping_sent = time.perf_counter()
        await ws.send(json.dumps({"type": "ping", "t": seat.ping_sent}))
        await asyncio.sleep(1.0)


async def _watch_strong(run: _Run, index: int) -> None:
    """A room of four server-side strong bots, kept alive by one watching socket."""
    from websockets.asyncio.client import connect

    del index
    async with connect(run.url, max_size=2**20) as ws:
        await _recv_until(ws, "welcome", [])
        await run.ready.wait()
        request = {
            "type": "create_room",
            "variant": run.plan.variant,
            "options": {"hands": run.plan.hands},
            "seats": [{"kind": "bot", "level": "strong"}] * run.n_seats,
        }
        await ws.send(json.dumps(request))
        async for raw in ws:
            msg = json.loads(raw)
            if msg.get("type") == "match_end":
                run.strong_done += 1
                return
            if msg.get("type") == "error":
                run.result.errors.append(f"strong table: {msg.get('code')}: {msg.get('message')}")
                return


async def _recv_until(ws: Any, kind: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await ws.recv())
        if msg.get("type") == kind:
            return msg
        if msg.get("type") == "error":
            raise RuntimeError(f"{msg.get('code')}: {msg.get('message')}")
        seen.append(msg)


@dataclass
class _Run:
    plan: LoadPlan
    url: str
    n_seats: int
    result: LoadResult
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    arrived: int = 0
    strong_done: int = 0


async def _table(run: _Run, index: int) -> bool:
    from websockets.asyncio.client import connect

    rng = random.Random(index)
    sockets = [await connect(run.url, max_size=2**20) for _ in range(run.n_seats)]
    try:
        host = sockets[0]
        await _recv_until(host, "welcome", [])
        request = {
            "type": "create_room",
            "variant": run.plan.variant,
            "options": {"hands": run.plan.hands},
            "seats": [{"kind": "person"}] * run.n_seats,
        }
        await host.send(json.dumps(request))
        code = (await _recv_until(host, "room_created", []))["code"]
        backlog: list[list[dict[str, Any]]] = [[] for _ in sockets]
        for ws in sockets[1:]:
            await _recv_until(ws, "welcome", [])
            await ws.send(json.dumps({"type": "join", "code": code}))
        run.arrived += 1
        await run.ready.wait()
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "take_seat", "seat": seat, "name": f"load{seat}"}))
            await _recv_until(ws, "seated", backlog[seat])
        seats = [_Seat(run.result, random.Random(rng.random()), run.plan.think) for _ in sockets]
        pinger = asyncio.create_task(_ping_loop(host, seats[0], rng))
        try:
            await asyncio.gather(
                *(
                    s.play(ws, backlog[i])
                    for i, (s, ws) in enumerate(zip(seats, sockets, strict=True))
                )
            )
        finally:
            pinger.cancel()
        return all(s.done for s in seats)
    finally:
        for ws in sockets:
            await ws.close()


async def drive(port: int, plan: LoadPlan, n_seats: int) -> LoadResult:
    result = LoadResult(tables=plan.tables, finished_tables=0, actions=0, seconds=0.0)
    result.strong_tables = plan.strong_tables
    run = _Run(plan, f"ws://127.0.0.1:{port}/ws", n_seats, result)
    tasks = [asyncio.create_task(_table(run, i)) for i in range(plan.tables)]
    watchers = [asyncio.create_task(_watch_strong(run, i)) for i in range(plan.strong_tables)]
    # every table connects and joins before any starts, so the timed part is play only
    connect_deadline = time.monotonic() + 60.0
    while time.monotonic() < connect_deadline:
        await asyncio.sleep(0.05)
        if run.arrived + sum(t.done() for t in tasks) >= plan.tables:
            break
    start = time.perf_counter()
    run.ready.set()
    done, pending = await asyncio.wait(tasks, timeout=plan.seconds)
    result.seconds = time.perf_counter() - start
    for task in pending:
        task.cancel()
    if pending:
        result.timed_out = True
        await asyncio.wait(pending)
    # the strong tables are background load: stop them with the measured ones
    for watcher in watchers:
        watcher.cancel()
    if watchers:
        await asyncio.wait(watchers)
    for task in done:
        exc = task.exception()
        if exc is not None:
            result.errors.append(f"{type(exc).__name__}: {exc}")
        elif task.result():
            result.finished_tables += 1
    return result


def run_load(plan: LoadPlan, database_url: str | None = None) -> dict[str, Any]:
    """Start a server, play the plan's tables over websockets, return the figures."""
    from paiju.variants import find_variant

    plan.check()
    flow = find_variant(plan.variant)
    names = {f.name for f in dataclasses.fields(flow.options_type)}
    if "hands" not in names:
        raise ValueError(f"{plan.variant} has no 'hands' option to bound a match by")
    server_kind = ServerProcess if plan.process else ServerThread
    with tempfile.TemporaryDirectory(prefix="paiju-load-") as tmp:
        url = database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'load.db'}"
        # server bots (the strong tables) pause between moves as they do for people
        bot_delay = 0.6 if plan.strong_tables else 0.0
        with server_kind(url, plan.tables + plan.strong_tables, bot_delay) as server:
            result = asyncio.run(drive(server.port, plan, flow.seats(flow.default_options())))
    out = result.summary()
    out.update(
        {
            "variant": plan.variant,
            "hands_per_table": plan.hands,
            "think_s": plan.think,
            "server": "process" if plan.process else "thread",
            "strong_tables": plan.strong_tables,
        }
    )
    return out


@register("server_load")
def _bench(repeats: int, quick: bool) -> dict[str, object]:
    del repeats  # one bounded run: a load test is its own repetition
    if quick:
        plan = LoadPlan(tables=10, seconds=60.0, think=0.02)
    else:
        plan = LoadPlan(tables=200, seconds=300.0)
    figures = run_load(plan)
    line = result_line("server_load", float(figures["actions_per_s"] or 0.0), None, None)
    for key in ("tables", "finished_tables", "p50_ms", "p99_ms", "errors", "think_s"):
        line[key] = figures[key]
    return line
