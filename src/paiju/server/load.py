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
import contextlib
import dataclasses
import json
import multiprocessing
import os
import random
import socket
import statistics
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self

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
    timed: tuple[float, float] = (0.0, 0.0)
    """``time.monotonic()`` at the start and the end of the timed part."""

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
            "p50_ms": round(percentile(lat, 50), 2) if lat else None,
            "p99_ms": round(percentile(lat, 99), 2) if lat else None,
            "max_ms": round(lat[-1], 2) if lat else None,
            "pings": len(pings),
            "ping_p50_ms": round(percentile(pings, 50), 2) if pings else None,
            "ping_p99_ms": round(percentile(pings, 99), 2) if pings else None,
            "errors": len(self.errors),
            "first_errors": self.errors[:3],
            "timed_out": self.timed_out,
        }


def percentile(sorted_values: list[float], p: float) -> float:
    if len(sorted_values) == 1:
        return sorted_values[0]
    return statistics.quantiles(sorted_values, n=100, method="inclusive")[int(p) - 1]


def check_bounds(tables: int, hands: int, seconds: float, think: float) -> None:
    """The limits of a load run's size (here and on a cluster: ``paiju load --urls``)."""
    if not 1 <= tables <= 2000:
        raise ValueError("tables must be between 1 and 2000")
    if not 1 <= hands <= 16:
        raise ValueError("hands must be between 1 and 16")
    if not 0 < seconds <= 3600:
        raise ValueError("seconds must be in (0, 3600]")
    if not 0 <= think <= 10:
        raise ValueError("think must be between 0 and 10 seconds")


def _config(tables: int, bot_delay: float, bot_processes: int = 2) -> Any:
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
        bot_processes=bot_processes,
    )


def _uvicorn(database_url: str, tables: int, bot_delay: float = 0.0, bot_processes: int = 2) -> Any:
    import uvicorn

    from paiju.server.app import create_app

    config = _config(tables, bot_delay, bot_processes)
    app = create_app(database_url, config, static_dir="/nonexistent")
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


class UvicornThread:
    """``server`` (a ``uvicorn.Server``) on 127.0.0.1:<ephemeral> from a background thread;
    the socket is bound first, so :attr:`port` is known before the server starts."""

    def __init__(self, server: Any, start_timeout: float = 30.0) -> None:
        self.server = server
        self.start_timeout = start_timeout
        self.sock = _loopback_socket()
        self.port: int = self.sock.getsockname()[1]
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> Self:
        self.thread.start()
        deadline = time.monotonic() + self.start_timeout
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.sock.close()


class ServerThread(UvicornThread):
    """A fresh app for a load run, served from a thread of this process."""

    def __init__(
        self, database_url: str, tables: int, bot_delay: float = 0.0, bot_processes: int = 2
    ) -> None:
        super().__init__(_uvicorn(database_url, tables, bot_delay, bot_processes))


LAG_TICK = 0.05
"""Seconds between two looks of the server's lag monitor at its own event loop."""


def _thread_schedstat() -> tuple[int, int] | None:
    """Nanoseconds this thread has run and has waited, runnable, for a core (Linux)."""
    try:
        with open("/proc/thread-self/schedstat", encoding="ascii") as f:
            ran, waited, _slices = f.read().split()
    except (OSError, ValueError):
        return None
    return int(ran), int(waited)


async def _lag_monitor(
    server: Any,
    stop: Any,
    samples: list[tuple[float, float]],
    sched: list[tuple[float, int, int]] | None = None,
) -> None:
    """How late a timer fires on the server's loop (what any callback, a ``ping`` among
    them, waits behind the work before it), every :data:`LAG_TICK`; ends the server once
    ``stop`` is set. ``sched`` gets the loop thread's run and run-queue wait counters at
    each tick: a lag with the thread waiting for a core is the machine's, not the loop's."""
    while not stop.is_set():
        before = time.perf_counter()
        await asyncio.sleep(LAG_TICK)
        # the loop may wake a timer up to its clock resolution early: no lag, not a negative one
        late = time.perf_counter() - before - LAG_TICK
        now = time.monotonic()
        samples.append((now, max(0.0, late)))
        counters = _thread_schedstat() if sched is not None else None
        if sched is not None and counters is not None:
            sched.append((now, *counters))
    server.should_exit = True


def _own_session() -> None:
    """Start a session of this process's own. On Linux with autogroup scheduling (the
    default of desktop and many server kernels) the kernel shares the CPU between
    sessions first and applies nice values only within one: in the driver's session a
    server would share one session's share with the 800 client sockets, and a
    ``nice -n 19`` job started from another session would take as much as the whole run.
    A deployed server is a service of its own (its own session) on a machine of its own."""
    with contextlib.suppress(OSError):
        os.setsid()


def _serve_child(  # noqa: PLR0917
    database_url: str,
    tables: int,
    bot_delay: float,
    bot_processes: int,
    ports: Any,
    stop: Any,
    own_session: bool = False,
) -> None:
    import gc
    import resource

    from paiju.server.collector import tune_collector

    if own_session:
        _own_session()

    server = _uvicorn(database_url, tables, bot_delay, bot_processes)
    # as `paiju serve` does: the figures are the served server's
    tune_collector(_config(tables, bot_delay, bot_processes).gc_young)
    sock = _loopback_socket()
    ports.put(sock.getsockname()[1])
    samples: list[tuple[float, float]] = []
    sched: list[tuple[float, int, int]] = []
    pauses: list[tuple[float, int, float]] = []
    began = [0.0]

    def timed_collection(phase: str, info: dict[str, int]) -> None:
        # (start, generation, seconds) of each collection: a stall every message waits out
        if phase == "start":
            began[0] = time.monotonic()
        else:
            pauses.append((began[0], info["generation"], time.monotonic() - began[0]))

    gc.callbacks.append(timed_collection)

    async def main() -> None:
        monitor = asyncio.create_task(_lag_monitor(server, stop, samples, sched))
        await server.serve(sockets=[sock])
        monitor.cancel()

    with asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner:
        runner.run(main())
    # the server's own threads only (its bot workers are other processes)
    own = resource.getrusage(resource.RUSAGE_SELF)
    stats = {"lag": samples, "cpu_s": own.ru_utime + own.ru_stime, "gc": pauses, "sched": sched}
    ports.put(stats)


class ServerProcess:
    """The same server in a child process, so that it does not share a core (and the GIL)
    with the clients."""

    def __init__(
        self,
        database_url: str,
        tables: int,
        bot_delay: float = 0.0,
        bot_processes: int = 2,
        own_session: bool = False,
    ) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.ports: Any = ctx.Queue()
        self.stop: Any = ctx.Event()
        # not a daemon: its bot worker processes are its children
        self.process = ctx.Process(
            target=_serve_child,
            args=(
                database_url,
                tables,
                bot_delay,
                bot_processes,
                self.ports,
                self.stop,
                own_session,
            ),
        )
        self.port = 0
        self.stats: dict[str, Any] | None = None
        """The server's own figures once it has stopped: loop lag samples, CPU seconds."""

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
        # asked to stop rather than signalled, so that it can report before it exits
        self.stop.set()
        with contextlib.suppress(Exception):
            self.stats = self.ports.get(timeout=60)
        self.process.join(timeout=30)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=30)


PROBE_INTERVAL = 0.25
"""Seconds between two pings of one prober connection."""


async def _probe(url: str, probes: int, stop: Any) -> list[tuple[float, float]]:
    """``probes`` connections that only ping, each every :data:`PROBE_INTERVAL`, until
    ``stop`` is set: (``time.monotonic()``, round trip in ms) of every ping."""
    from websockets.asyncio.client import connect

    samples: list[tuple[float, float]] = []

    async def one(index: int) -> None:
        async with connect(url, max_size=2**20) as ws:
            await _recv_until(ws, "welcome", [])
            # spread over the interval, so that the probes do not ping in step
            await asyncio.sleep(PROBE_INTERVAL * index / probes)
            while not stop.is_set():
                sent = time.perf_counter()
                await ws.send(json.dumps({"type": "ping", "t": sent}))
                await _recv_until(ws, "pong", [])
                took = time.perf_counter() - sent
                samples.append((time.monotonic(), took * 1000))
                await asyncio.sleep(max(0.0, PROBE_INTERVAL - took))

    await asyncio.gather(*(one(i) for i in range(probes)))
    return samples


def _probe_child(url: str, probes: int, results: Any, stop: Any, own_session: bool = False) -> None:
    # the driver may run niced (a load run on a shared machine should be): the prober
    # stands for a person's client, which nobody nices; where that is not allowed it
    # keeps the driver's priority, and says so
    if own_session:
        _own_session()
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, 0)
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    try:
        samples = asyncio.run(_probe(url, probes, stop))
    except Exception as exc:  # reported with the figures, not lost in a child's stderr
        results.put({"pings": [], "nice": nice, "error": f"{type(exc).__name__}: {exc}"})
        return
    results.put({"pings": samples, "nice": nice, "error": None})


class Prober:
    """:func:`_probe` in a process of its own (its own interpreter, event loop and GIL)."""

    def __init__(self, port: int, probes: int, own_session: bool = False) -> None:
        ctx = multiprocessing.get_context("spawn")
        self.results: Any = ctx.Queue()
        self.stop: Any = ctx.Event()
        self.process = ctx.Process(
            target=_probe_child,
            args=(f"ws://127.0.0.1:{port}/ws", probes, self.results, self.stop, own_session),
            daemon=True,
        )
        self.report: dict[str, Any] | None = None

    def __enter__(self) -> Prober:
        self.process.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.stop.set()
        with contextlib.suppress(Exception):
            self.report = self.results.get(timeout=30)
        self.process.join(timeout=10)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=10)


PROBE_FIGURES = ("probe_pings", "probe_ping_p50_ms", "probe_ping_p99_ms", "probe_nice")


def probe_figures(report: dict[str, Any] | None, result: LoadResult) -> dict[str, Any]:
    """The prober's pings during the timed part (``None`` without a prober)."""
    if report is None:
        return dict.fromkeys(PROBE_FIGURES)
    start, end = result.timed
    pings = sorted(ms for at, ms in report["pings"] if start <= at <= end)
    if report.get("error"):
        result.errors.append(f"prober: {report['error']}")
    return {
        "probe_pings": len(pings),
        "probe_ping_p50_ms": round(percentile(pings, 50), 2) if pings else None,
        "probe_ping_p99_ms": round(percentile(pings, 99), 2) if pings else None,
        "probe_nice": report["nice"],
    }


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
    bot_processes: int = 2
    """The server's bot worker processes (``ServerConfig.bot_processes``); 0 runs the
    strong bots in the server's threads, as before issue 13 item 5 was met."""
    probes: int = 0
    """Ping-only connections from a prober process of its own at normal priority: pings
    timed apart from this driver's event loop, which shares the cores with the server
    and is as busy as the tables it plays (``paiju load`` opens 4)."""
    driver_nice: int = 0
    """Nice value of the process that plays the tables, not 0: a child process in a
    session of its own, niced with its scheduling group (the server and the prober keep
    their priority). The clients stand for people on other machines; on a machine of two
    cores a niced driver keeps their CPU from being taken out of the server's."""
    ramp: float = 0.0
    """Seconds over which the tables (and the strong tables) sit down, evenly spread,
    instead of all at the same instant: people do not arrive at a server together, and
    300 tables starting in the same few milliseconds are a burst of their own."""
    own_sessions: bool = True
    """With ``process``: the server child and the prober each in a session of its own
    (see :func:`_own_session`), as a deployed server is."""

    def check(self) -> None:
        check_bounds(self.tables, self.hands, self.seconds, self.think)
        if not 0 <= self.strong_tables <= 500:
            raise ValueError("strong_tables must be between 0 and 500")
        if not 0 <= self.bot_processes <= 16:
            raise ValueError("bot_processes must be between 0 and 16")
        if not 0 <= self.probes <= 32:
            raise ValueError("probes must be between 0 and 32")
        if not 0 <= self.ramp <= 600:
            raise ValueError("ramp must be between 0 and 600 seconds")
        if not 0 <= self.driver_nice <= 19:
            raise ValueError("driver_nice must be between 0 and 19")


class _Seat:
    def __init__(self, result: LoadResult, rng: random.Random, think: float) -> None:
        self.result = result
        self.rng = rng
        self.think = think
        self.sent_at: float | None = None
        self.acted_turn = -1
        self.done = False
        self.ping_sent: float | None = None
        self._acting: set[asyncio.Task[None]] = set()

    def choose(self, legal: list[str]) -> str:
        for win in ("zimo", "hu"):
            if win in legal:
                return win
        return self.rng.choice(legal)

    async def play(self, ws: Any, first: list[dict[str, Any]]) -> None:
        try:
            for msg in first:
                await self.handle(ws, msg)
            async for raw in ws:
                await self.handle(ws, json.loads(raw))
                if self.done:
                    return
        finally:
            for task in self._acting:
                task.cancel()

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
        if self.think <= 0:
            await self._act(ws, legal, turn, 0.0)
            return
        # The think runs beside the reading of the socket: a person thinking still receives,
        # and a pong read only after the think would time the think, not the server.
        pause = self.think * (0.5 + self.rng.random())
        task = asyncio.create_task(self._act(ws, legal, turn, pause))
        self._acting.add(task)
        task.add_done_callback(self._acting.discard)

    async def _act(self, ws: Any, legal: list[str], turn: int, pause: float) -> None:
        if pause:
            await asyncio.sleep(pause)
            if turn != self.acted_turn or self.done:
                return  # a later decision came while this one was thought over
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

    async with connect(run.url, max_size=2**20) as ws:
        await _recv_until(ws, "welcome", [])
        await run.ready.wait()
        await asyncio.sleep(run.plan.ramp * index / max(1, run.plan.strong_tables))
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
        await asyncio.sleep(run.plan.ramp * index / run.plan.tables)
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
    started = time.monotonic()
    run.ready.set()
    done, pending = await asyncio.wait(tasks, timeout=plan.seconds)
    result.seconds = time.perf_counter() - start
    result.timed = (started, time.monotonic())
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


def _nice_session(nice: int) -> None:
    """This process at ``nice``, in a session of its own whose scheduling group (Linux
    autogroup) is niced as much: a thread's nice value alone only yields to its own
    session's other threads, not to a server in another session."""
    _own_session()
    with contextlib.suppress(OSError), open("/proc/self/autogroup", "w") as group:
        group.write(str(nice))
    with contextlib.suppress(OSError):
        os.setpriority(os.PRIO_PROCESS, 0, nice)


def _drive_child(port: int, plan: LoadPlan, n_seats: int, results: Any) -> None:
    _nice_session(plan.driver_nice)
    try:
        results.put(asyncio.run(drive(port, plan, n_seats)))
    except Exception as exc:  # reported in the caller, not lost in a child's stderr
        results.put(f"{type(exc).__name__}: {exc}")


def _drive_niced(port: int, plan: LoadPlan, n_seats: int) -> LoadResult:
    """:func:`drive`, at ``plan.driver_nice`` in a process (and session) of its own if
    that is not 0, so that the caller and the children it started keep their priority."""
    if not plan.driver_nice:
        return asyncio.run(drive(port, plan, n_seats))
    ctx = multiprocessing.get_context("spawn")
    results: Any = ctx.Queue()
    process = ctx.Process(target=_drive_child, args=(port, plan, n_seats, results), daemon=True)
    process.start()
    try:
        got = results.get(timeout=plan.seconds + 300)
    finally:
        process.join(timeout=30)
        if process.is_alive():
            process.terminate()
    if isinstance(got, str):
        raise RuntimeError(f"the load driver failed: {got}")
    result: LoadResult = got
    return result


def run_load(
    plan: LoadPlan, database_url: str | None = None, trace: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Start a server, play the plan's tables over websockets, return the figures.

    ``trace``, if given, is filled with the raw samples (the prober's pings, the server's
    loop lags and collections, the timed part, the processes' ids) for a closer look."""
    from paiju.variants import find_variant

    plan.check()
    flow = find_variant(plan.variant)
    names = {f.name for f in dataclasses.fields(flow.options_type)}
    if "hands" not in names:
        raise ValueError(f"{plan.variant} has no 'hands' option to bound a match by")
    with tempfile.TemporaryDirectory(prefix="paiju-load-") as tmp:
        url = database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'load.db'}"
        # server bots (the strong tables) pause between moves as they do for people
        bot_delay = 0.6 if plan.strong_tables else 0.0
        tables = plan.tables + plan.strong_tables
        n_seats = flow.seats(flow.default_options())
        prober: Prober | None = None
        own = plan.process and plan.own_sessions
        server: ServerThread | ServerProcess = (
            ServerProcess(url, tables, bot_delay, plan.bot_processes, own)
            if plan.process
            else ServerThread(url, tables, bot_delay, plan.bot_processes)
        )
        with server:
            if plan.probes:
                with Prober(server.port, plan.probes, own) as prober:
                    result = _drive_niced(server.port, plan, n_seats)
            else:
                result = _drive_niced(server.port, plan, n_seats)
    probed = probe_figures(prober.report if prober is not None else None, result)
    stats = getattr(server, "stats", None)
    if trace is not None:
        trace.update(
            {
                "timed": result.timed,
                "pings": prober.report["pings"] if prober and prober.report else [],
                "lag": stats["lag"] if stats else [],
                "sched": stats["sched"] if stats else [],
                "gc": stats["gc"] if stats else [],
                "driver_pid": os.getpid(),
                "server_pid": getattr(getattr(server, "process", None), "pid", None),
                "prober_pid": prober.process.pid if prober is not None else None,
            }
        )
    out = result.summary()
    out.update(server_figures(stats, result))
    out.update(probed)
    out.update(
        {
            "variant": plan.variant,
            "hands_per_table": plan.hands,
            "think_s": plan.think,
            "server": "process" if plan.process else "thread",
            "strong_tables": plan.strong_tables,
            "bot_processes": plan.bot_processes,
            "driver_nice": plan.driver_nice,
            "ramp_s": plan.ramp,
            "own_sessions": bool(plan.process and plan.own_sessions),
            "load_average": [round(x, 2) for x in os.getloadavg()],
        }
    )
    return out


SERVER_FIGURES = (
    "server_lag_p50_ms",
    "server_lag_p99_ms",
    "server_lag_max_ms",
    "server_cpu_s",
    "server_cpu_ms_per_action",
    "server_gc_count",
    "server_gc_max_ms",
    "server_loop_ran_s",
    "server_loop_waited_s",
)


def server_figures(stats: dict[str, Any] | None, result: LoadResult) -> dict[str, Any]:
    """What the server process says of itself (``--process`` only): how late its event
    loop ran a timer during the timed part (the wait of any message, a ``ping`` among
    them, before the loop gets to it: the clients' own loop is not in it), and its CPU
    seconds per decision over the whole run (its start-up included)."""
    if stats is None:
        return dict.fromkeys(SERVER_FIGURES)
    start, end = result.timed
    lags = sorted(lag * 1000 for at, lag in stats["lag"] if start <= at <= end)
    cpu = float(stats["cpu_s"])
    pauses = [sec * 1000 for at, _gen, sec in stats.get("gc", []) if start <= at <= end]
    timed = [(ran, waited) for at, ran, waited in stats.get("sched", []) if start <= at <= end]
    return {
        "server_lag_p50_ms": round(percentile(lags, 50), 2) if lags else None,
        "server_lag_p99_ms": round(percentile(lags, 99), 2) if lags else None,
        "server_lag_max_ms": round(lags[-1], 2) if lags else None,
        "server_cpu_s": round(cpu, 2),
        "server_cpu_ms_per_action": round(cpu * 1000 / result.actions, 3)
        if result.actions
        else None,
        "server_gc_count": len(pauses),
        "server_gc_max_ms": round(max(pauses), 2) if pauses else None,
        # the loop thread's time on a core and runnable without one, in the timed part
        "server_loop_ran_s": round((timed[-1][0] - timed[0][0]) / 1e9, 2) if timed else None,
        "server_loop_waited_s": round((timed[-1][1] - timed[0][1]) / 1e9, 2) if timed else None,
    }


def report_line(figures: dict[str, Any]) -> str:
    """One line for people: the ping round trip (issue 13 item 5 asks its p99 under
    50 ms), from the prober's own process and from this driver's loop, apart from the
    decisions' round trip, the server's own loop lag and the machine's load average."""

    def ms(key: str) -> str:
        value = figures.get(key)
        return "-" if value is None else f"{value:.1f}"

    def verdict(key: str) -> str:
        p99 = figures.get(key)
        return "" if p99 is None else (" (under 50 ms)" if p99 < 50 else " (NOT under 50 ms)")

    probe = ""
    if figures.get("probe_pings"):
        probe = (
            f"prober ping p50 {ms('probe_ping_p50_ms')} ms, "
            f"p99 {ms('probe_ping_p99_ms')} ms{verdict('probe_ping_p99_ms')}; "
        )
    load = figures.get("load_average")
    return (
        probe + f"driver ping p50 {ms('ping_p50_ms')} ms, "
        f"p99 {ms('ping_p99_ms')} ms{verdict('ping_p99_ms')}; "
        f"decision round trip p50 {ms('p50_ms')} ms, p99 {ms('p99_ms')} ms; "
        f"server loop lag p50 {ms('server_lag_p50_ms')} ms, p99 {ms('server_lag_p99_ms')} ms"
        + (
            f" (its thread ran {figures['server_loop_ran_s']} s and waited for a core "
            f"{figures['server_loop_waited_s']} s)"
            if figures.get("server_loop_waited_s") is not None
            else ""
        )
        + "; "
        f"{figures.get('tables')} tables + {figures.get('strong_tables')} strong-bot tables, "
        f"{figures.get('actions_per_s')} decisions/s, server CPU "
        f"{figures.get('server_cpu_ms_per_action') or '-'} ms a decision"
        + (f"; driver nice {figures['driver_nice']}" if "driver_nice" in figures else "")
        + (f"; tables sat down over {figures['ramp_s']:g} s" if figures.get("ramp_s") else "")
        + ("; server and prober in sessions of their own" if figures.get("own_sessions") else "")
        + (f"; load average {load[0]:.2f}" if load else "")
    )


@register("server_load")
def _bench(repeats: int, quick: bool) -> dict[str, object]:
    del repeats  # one bounded run: a load test is its own repetition
    if quick:
        plan = LoadPlan(tables=10, seconds=60.0, think=0.02)
    else:
        plan = LoadPlan(tables=200, seconds=300.0)
    figures = run_load(plan)
    line = result_line("server_load", float(figures["actions_per_s"] or 0.0), None, None)
    keys = ("tables", "finished_tables", "p50_ms", "p99_ms", "ping_p50_ms", "ping_p99_ms")
    for key in (*keys, "errors", "think_s"):
        line[key] = figures[key]
    return line
