"""``paiju load --urls``: tables of wire players spread over the nodes of a running cluster,
optionally with a failover drill (one node killed with SIGKILL while its tables play).

Every seat is its own websocket client; seat ``i`` of table ``t`` connects to node
``(t + i) mod N``, so most tables have seats on several nodes and their messages go
through the relay (``placement="table"`` puts a whole table on one node instead). A
client whose socket drops (its node died) reconnects with its seat
token through the next node, and the time from the drop to its fresh snapshot is its
*pause*. A decision counts as *told* once the server answered it: an update with a later
turn, or the acknowledgement of an answer held in a claim window (an update of the same
turn with nothing left to decide). A snapshot never counts (a decision whose answer was
lost with its node was not told), and a refusal or a timeout takes the decision back. With
``--database`` the run ends by reading every table's log and counting the told decisions
that are not in it, in order (*decisions lost*, which must be 0).

Work is bounded by the tables, the hands per table and a wall-clock limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import time
from dataclasses import dataclass, field
from typing import Any

from paiju.server.load import check_bounds, percentile


@dataclass
class ClusterPlan:
    urls: list[str]
    tables: int = 20
    hands: int = 1
    seconds: float = 120.0
    think: float = 0.5
    variant: str = "jiaxing"
    kill_pid: int | None = None
    kill_after: float = 10.0
    database: str | None = None
    placement: str = "seat"
    """``seat``: seat i of table t on node (t + i) mod N (friends behind a load balancer,
    most seats relayed); ``table``: every seat of table t on node t mod N (a proxy that
    routes by room code: nothing relayed)."""

    def check(self) -> None:
        if not self.urls:
            raise ValueError("--urls needs at least one ws://HOST:PORT/ws address")
        for url in self.urls:
            if not url.startswith(("ws://", "wss://")):
                raise ValueError(f"{url!r} is not a ws:// or wss:// address")
        check_bounds(self.tables, self.hands, self.seconds, self.think)
        if self.placement not in ("seat", "table"):
            raise ValueError("--placement is seat or table")
        if self.kill_pid is not None and self.kill_pid <= 1:
            raise ValueError("--kill-pid must be a node's process id")


@dataclass
class _Figures:
    actions: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    pauses_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    reconnects: int = 0
    turn_regressions: int = 0
    finished: int = 0
    resumed_tables: set[int] = field(default_factory=set)
    killed_at: float | None = None


class _Seat:
    def __init__(self, run: _Run, table: int, seat: int) -> None:
        self.run = run
        self.table = table
        self.seat = seat
        self.rng = random.Random(table * 8 + seat)
        spread = seat if run.plan.placement == "seat" else 0
        self.node = (table + spread) % len(run.plan.urls)
        self.ws: Any = None
        self.token: str | None = None
        self.acted_turn = -1
        self.last_turn = -1
        self.pending: tuple[int, str, float] | None = None
        self.told: list[str] = []
        self.told_at: list[tuple[int, float]] = []
        """(turn, seconds into the run) of each told decision, for the lost ones' report."""
        self.done = False
        self.game_id: str | None = None
        self.backlog: list[dict[str, Any]] = []

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        self.ws = await connect(self.run.plan.urls[self.node], max_size=2**22, open_timeout=10)
        await self.recv("welcome")

    async def recv(self, kind: str) -> dict[str, Any]:
        while True:
            msg: dict[str, Any] = json.loads(await self.ws.recv())
            if msg.get("type") == kind:
                self.note(msg)
                return msg
            if msg.get("type") == "error":
                raise RuntimeError(f"{msg.get('code')}: {msg.get('message')}")
            self.backlog.append(msg)

    def note(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "seated":
            self.token = msg.get("token")
        room = msg.get("room")
        if isinstance(room, dict) and room.get("game_id"):
            self.game_id = str(room["game_id"])
        turn = msg.get("turn")
        if kind in ("error", "timeout"):
            # refused, or the clock answered first: the server did not take this one
            self.pending = None
        if kind in ("update", "snapshot") and isinstance(turn, int):
            pending = self.pending
            answered = pending is not None and (
                turn > pending[0] or (turn == pending[0] and not msg.get("legal"))
            )
            if pending is not None and kind == "update" and answered:
                now = time.perf_counter()
                self.run.figures.latencies_ms.append((now - pending[2]) * 1000)
                self.told.append(pending[1])
                self.told_at.append((pending[0], now - self.run.started))
                self.pending = None
            elif kind == "snapshot" and answered:
                # the table moved on while the answer was in flight: not told either way
                self.pending = None
            if turn < self.last_turn:
                self.run.figures.turn_regressions += 1
            self.last_turn = max(self.last_turn, turn)

    async def play(self) -> None:
        from websockets.exceptions import ConnectionClosed

        while not self.done:
            try:
                for msg in self.backlog:
                    await self.handle(msg)
                self.backlog = []
                async for raw in self.ws:
                    msg = json.loads(raw)
                    self.note(msg)
                    await self.handle(msg)
                    if self.done:
                        return
                raise ConnectionClosed(None, None)
            except (ConnectionClosed, OSError):
                if self.done:
                    return
                await self.reconnect()

    async def handle(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind == "match_end":
            self.done = True
        elif kind == "error":
            self.run.figures.errors.append(f"{msg.get('code')}: {msg.get('message')}")
        elif kind in ("update", "snapshot"):
            legal = msg.get("legal") or []
            turn = msg.get("turn")
            if kind == "snapshot":
                # after a reconnect the question is asked again: answer it again
                self.acted_turn = min(self.acted_turn, (turn if isinstance(turn, int) else 0) - 1)
            if legal and isinstance(turn, int) and turn > self.acted_turn:
                self.acted_turn = turn
                think = self.run.plan.think
                if think > 0:
                    await asyncio.sleep(think * (0.5 + self.rng.random()))
                choice = next((w for w in ("zimo", "hu") if w in legal), None)
                choice = choice or self.rng.choice(legal)
                self.pending = (turn, choice, time.perf_counter())
                self.run.figures.actions += 1
                await self.ws.send(json.dumps({"type": "act", "action": choice, "turn": turn}))

    async def reconnect(self) -> None:
        """Back in through the next node that answers, with the seat token."""
        from websockets.asyncio.client import connect

        dropped = time.perf_counter()
        figures = self.run.figures
        deadline = time.monotonic() + 60.0
        n = len(self.run.plan.urls)
        while time.monotonic() < deadline:
            self.node = (self.node + 1) % n
            try:
                self.ws = await connect(self.run.plan.urls[self.node], open_timeout=5)
                await self.recv("welcome")
                await self.ws.send(json.dumps({"type": "reconnect", "token": self.token}))
                snapshot = await self.recv("snapshot")
            except Exception as exc:
                # refused, closed again, or no room yet: the next node, a moment later
                figures.errors.append(f"reconnect: {type(exc).__name__}: {exc}")
                await asyncio.sleep(0.2)
                continue
            figures.reconnects += 1
            figures.pauses_ms.append((time.perf_counter() - dropped) * 1000)
            figures.resumed_tables.add(self.table)
            self.backlog.insert(0, snapshot)
            return
        raise RuntimeError("could not reconnect within 60 s")


@dataclass
class _Run:
    plan: ClusterPlan
    n_seats: int
    figures: _Figures = field(default_factory=_Figures)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    arrived: int = 0
    seated: int = 0
    """Tables whose every seat is taken (play has begun)."""
    seats: list[list[_Seat]] = field(default_factory=list)
    started: float = field(default_factory=time.perf_counter)


async def _table(run: _Run, index: int) -> bool:
    seats = [_Seat(run, index, s) for s in range(run.n_seats)]
    run.seats.append(seats)
    try:
        for s in seats:
            await s.connect()
        host = seats[0]
        await host.ws.send(
            json.dumps(
                {
                    "type": "create_room",
                    "variant": run.plan.variant,
                    "options": {"hands": run.plan.hands},
                    "seats": [{"kind": "person"}] * run.n_seats,
                }
            )
        )
        code = (await host.recv("room_created"))["code"]
        for s in seats[1:]:
            await s.ws.send(json.dumps({"type": "join", "code": code}))
            await s.recv("room")
        run.arrived += 1
        await run.ready.wait()
        for s in seats:
            await s.ws.send(
                json.dumps({"type": "take_seat", "seat": s.seat, "name": f"load{s.seat}"})
            )
            await s.recv("seated")
        run.seated += 1
        await asyncio.gather(*(s.play() for s in seats))
        return True
    finally:
        for s in seats:
            if s.ws is not None:
                with contextlib.suppress(Exception):
                    await s.ws.close()


async def _kill_later(run: _Run, pid: int, after: float, tasks: list[Any]) -> None:
    # counted from the moment every table plays: a kill while seats are still being taken
    # would test the driver, not the failover
    while run.seated + sum(t.done() for t in tasks) < len(tasks):
        await asyncio.sleep(0.05)
    await asyncio.sleep(after)
    os.kill(pid, signal.SIGKILL)
    run.figures.killed_at = time.perf_counter()


async def drive(plan: ClusterPlan, n_seats: int) -> dict[str, Any]:
    run = _Run(plan, n_seats)
    tasks = [asyncio.create_task(_table(run, i)) for i in range(plan.tables)]
    connect_deadline = time.monotonic() + 60.0
    while time.monotonic() < connect_deadline:
        await asyncio.sleep(0.05)
        if run.arrived + sum(t.done() for t in tasks) >= plan.tables:
            break
    start = run.started = time.perf_counter()
    run.ready.set()
    killer = None
    if plan.kill_pid is not None:
        killer = asyncio.create_task(_kill_later(run, plan.kill_pid, plan.kill_after, tasks))
    done, pending = await asyncio.wait(tasks, timeout=plan.seconds)
    seconds = time.perf_counter() - start
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending)
    if killer is not None:
        killer.cancel()
    figures = run.figures
    for task in done:
        exc = task.exception()
        if exc is not None:
            figures.errors.append(f"{type(exc).__name__}: {exc}")
        elif task.result():
            figures.finished += 1
    lat = sorted(figures.latencies_ms)
    out: dict[str, Any] = {
        "nodes": len(plan.urls),
        "placement": plan.placement,
        "tables": plan.tables,
        "tables_held": plan.tables - sum(1 for t in done if t.exception() is not None),
        "finished_tables": figures.finished,
        "timed_out": bool(pending),
        "actions": figures.actions,
        "seconds": round(seconds, 2),
        "actions_per_s": round(figures.actions / seconds, 1) if seconds else None,
        "p50_ms": round(percentile(lat, 50), 2) if lat else None,
        "p99_ms": round(percentile(lat, 99), 2) if lat else None,
        "max_ms": round(lat[-1], 2) if lat else None,
        "errors": len(figures.errors),
        "first_errors": figures.errors[:3],
        "variant": plan.variant,
        "hands_per_table": plan.hands,
        "think_s": plan.think,
    }
    if plan.kill_pid is not None:
        out["failover"] = {
            "killed_pid": plan.kill_pid,
            "killed_after_s": plan.kill_after if figures.killed_at is not None else None,
            "reconnects": figures.reconnects,
            "tables_resumed": len(figures.resumed_tables),
            "longest_pause_ms": round(max(figures.pauses_ms), 1) if figures.pauses_ms else None,
            "turn_regressions": figures.turn_regressions,
        }
    if plan.database is not None:
        told, lost, which = await _lost(plan.database, run.seats)
        out["decisions_told"], out["decisions_lost"] = told, lost
        if which:
            out["lost_examples"] = which[:10]
            if figures.killed_at is not None:
                out["killed_at_s"] = round(figures.killed_at - run.started, 2)
    return out


async def _lost(database: str, tables: list[list[_Seat]]) -> tuple[int, int, list[dict[str, Any]]]:
    """Decisions the clients were told went through, how many of them are missing from
    (or out of order in) the tables' logs, and which."""
    from sqlalchemy import select
    from sqlalchemy.ext.asyncio import create_async_engine

    from paiju.server.storage import database_url, game_events

    engine = create_async_engine(database_url(database))
    told = lost = 0
    which: list[dict[str, Any]] = []
    try:
        async with engine.connect() as conn:
            for seats in tables:
                game_id = next((s.game_id for s in seats if s.game_id), None)
                if game_id is None:
                    continue
                query = (
                    select(game_events.c.payload)
                    .where(game_events.c.game_id == game_id)
                    .order_by(game_events.c.seq)
                )
                lines = [dict(r[0]) for r in (await conn.execute(query)).all()]
                for s in seats:
                    logged = [
                        str(line.get("action"))
                        for line in lines
                        if line.get("type") == "action" and line.get("seat") == s.seat
                    ]
                    told += len(s.told)
                    missing = _unmatched(s.told, logged)
                    lost += len(missing)
                    which.extend(
                        {
                            "table": s.table,
                            "seat": s.seat,
                            "action": s.told[i],
                            "turn": s.told_at[i][0],
                            "told_at_s": round(s.told_at[i][1], 2),
                        }
                        for i in missing
                    )
    finally:
        await engine.dispose()
    return told, lost, which


def _unmatched(told: list[str], logged: list[str]) -> list[int]:
    """Told decisions not found, in order, among the seat's logged ones. The log may hold
    more: answers the server gave for the seat (its timer ran out, or a bot stood in while
    the client was away), so the told ones must be a subsequence, not a prefix."""
    i = 0
    missing: list[int] = []
    for k, action in enumerate(told):
        j = i
        while j < len(logged) and logged[j] != action:
            j += 1
        if j == len(logged):
            missing.append(k)
        else:
            i = j + 1
    return missing


def run_cluster_load(plan: ClusterPlan) -> dict[str, Any]:
    from paiju.variants import VARIANTS

    plan.check()
    flow = VARIANTS.get(plan.variant)
    if flow is None:
        raise ValueError(f"unknown variant {plan.variant!r}")
    return asyncio.run(drive(plan, flow.seats(flow.default_options())))
