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
import json
import random
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
    errors: list[str] = field(default_factory=list)
    timed_out: bool = False

    def summary(self) -> dict[str, Any]:
        lat = sorted(self.latencies_ms)
        return {
            "tables": self.tables,
            "finished_tables": self.finished_tables,
            "actions": self.actions,
            "seconds": round(self.seconds, 2),
            "actions_per_s": round(self.actions / self.seconds, 1) if self.seconds else None,
            "p50_ms": round(_percentile(lat, 50), 2) if lat else None,
            "p99_ms": round(_percentile(lat, 99), 2) if lat else None,
            "max_ms": round(lat[-1], 2) if lat else None,
            "errors": len(self.errors),
            "first_errors": self.errors[:3],
            "timed_out": self.timed_out,
        }


def _percentile(sorted_values: list[float], p: float) -> float:
    if len(sorted_values) == 1:
        return sorted_values[0]
    return statistics.quantiles(sorted_values, n=100, method="inclusive")[int(p) - 1]


class ServerThread:
    """uvicorn serving a fresh app on 127.0.0.1:<ephemeral> from a background thread."""

    def __init__(self, database_url: str, config: Any) -> None:
        import uvicorn

        from paiju.server.app import create_app

        app = create_app(database_url, config, static_dir="/nonexistent")
        self.server = uvicorn.Server(
            uvicorn.Config(
                app,
                host="127.0.0.1",
                port=0,
                log_level="warning",
                ws="websockets-sansio",
                ws_max_size=65536,
                ws_per_message_deflate=False,
                lifespan="on",
            )
        )
        self.thread = threading.Thread(target=self.server.run, name="paiju-server", daemon=True)
        self.port = 0

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.02)
        sockets = self.server.servers[0].sockets
        self.port = sockets[0].getsockname()[1]
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


class _Seat:
    def __init__(self, result: LoadResult, rng: random.Random) -> None:
        self.result = result
        self.rng = rng
        self.sent_at: float | None = None
        self.acted_turn = -1
        self.done = False

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
        self.sent_at = time.perf_counter()
        self.result.actions += 1
        await ws.send(json.dumps({"type": "act", "action": self.choose(legal), "turn": turn}))


async def _recv_until(ws: Any, kind: str, seen: list[dict[str, Any]]) -> dict[str, Any]:
    while True:
        msg: dict[str, Any] = json.loads(await ws.recv())
        if msg.get("type") == kind:
            return msg
        if msg.get("type") == "error":
            raise RuntimeError(f"{msg.get('code')}: {msg.get('message')}")
        seen.append(msg)


async def _table(
    url: str,
    variant: str,
    options: dict[str, Any],
    n_seats: int,
    index: int,
    result: LoadResult,
    ready: asyncio.Event,
    arrived: list[int],
) -> bool:
    from websockets.asyncio.client import connect

    rng = random.Random(index)
    sockets = [await connect(url, max_size=2**20) for _ in range(n_seats)]
    try:
        host = sockets[0]
        await _recv_until(host, "welcome", [])
        await host.send(
            json.dumps(
                {
                    "type": "create_room",
                    "variant": variant,
                    "options": options,
                    "seats": [{"kind": "person"}] * n_seats,
                }
            )
        )
        code = (await _recv_until(host, "room_created", []))["code"]
        backlog: list[list[dict[str, Any]]] = [[] for _ in sockets]
        for ws in sockets[1:]:
            await _recv_until(ws, "welcome", [])
            await ws.send(json.dumps({"type": "join", "code": code}))
        arrived[0] += 1
        await ready.wait()
        for seat, ws in enumerate(sockets):
            await ws.send(json.dumps({"type": "take_seat", "seat": seat, "name": f"load{seat}"}))
            await _recv_until(ws, "seated", backlog[seat])
        seats = [_Seat(result, random.Random(rng.random())) for _ in sockets]
        await asyncio.gather(
            *(s.play(ws, backlog[i]) for i, (s, ws) in enumerate(zip(seats, sockets, strict=True)))
        )
        return all(s.done for s in seats)
    finally:
        for ws in sockets:
            await ws.close()


async def drive(
    port: int, tables: int, variant: str, options: dict[str, Any], n_seats: int, seconds: float
) -> LoadResult:
    result = LoadResult(tables=tables, finished_tables=0, actions=0, seconds=0.0)
    url = f"ws://127.0.0.1:{port}/ws"
    ready = asyncio.Event()
    arrived = [0]
    tasks = [
        asyncio.create_task(_table(url, variant, options, n_seats, i, result, ready, arrived))
        for i in range(tables)
    ]
    # every table connects and joins before any starts, so the timed part is play only
    connect_deadline = time.monotonic() + min(60.0, seconds)
    while time.monotonic() < connect_deadline:
        await asyncio.sleep(0.05)
        if all(t.done() for t in tasks) or arrived[0] + sum(t.done() for t in tasks) >= tables:
            break
    start = time.perf_counter()
    ready.set()
    done, pending = await asyncio.wait(tasks, timeout=seconds)
    result.seconds = time.perf_counter() - start
    for task in pending:
        task.cancel()
    if pending:
        result.timed_out = True
        await asyncio.wait(pending)
    for task in done:
        exc = task.exception()
        if exc is not None:
            result.errors.append(f"{type(exc).__name__}: {exc}")
        elif task.result():
            result.finished_tables += 1
    return result


def run_load(
    tables: int = 200,
    hands: int = 1,
    seconds: float = 120.0,
    variant: str = "jiaxing",
    database_url: str | None = None,
) -> dict[str, Any]:
    """Start a server, play ``tables`` tables of ``hands`` hands, return the figures."""
    from paiju.server.rooms import ServerConfig
    from paiju.variants.registry import flows

    if not 1 <= tables <= 2000:
        raise ValueError("tables must be between 1 and 2000")
    if not 0 < seconds <= 3600:
        raise ValueError("seconds must be in (0, 3600]")
    flow = flows().get(variant)
    if flow is None:
        raise ValueError(f"unknown variant {variant!r}")
    options = {"hands": hands}
    config = ServerConfig(
        bot_delay=0.0,
        next_hand_delay=0.0,
        message_rate=1000.0,
        message_burst=1000.0,
        create_rate=1000.0,
        create_burst=float(tables + 10),
        max_rooms=tables + 10,
    )
    with tempfile.TemporaryDirectory(prefix="paiju-load-") as tmp:
        url = database_url or f"sqlite+aiosqlite:///{Path(tmp) / 'load.db'}"
        with ServerThread(url, config) as server:
            result = asyncio.run(
                drive(server.port, tables, variant, options, flow.n_seats, seconds)
            )
    out = result.summary()
    out.update({"variant": variant, "hands_per_table": hands})
    return out


@register("server_load")
def _bench(repeats: int, quick: bool) -> dict[str, object]:
    del repeats  # one bounded run: a load test is its own repetition
    tables = 10 if quick else 200
    figures = run_load(tables=tables, hands=1, seconds=60.0 if quick else 300.0)
    line = result_line("server_load", float(figures["actions_per_s"] or 0.0), None, None)
    line.update(
        {
            "tables": tables,
            "p50_ms": figures["p50_ms"],
            "p99_ms": figures["p99_ms"],
            "finished_tables": figures["finished_tables"],
            "errors": figures["errors"],
        }
    )
    return line
