"""Rate limits that every node of a cluster spends from together, without a Redis round
trip per message.

Each (kind, client address) has one token bucket in Redis (``{prefix}rate:KIND:ADDRESS``,
refilled on Redis's own clock, the same bucket :meth:`Shared.take` spends from). A node
does not ask Redis for every message: it *borrows* a few tokens at a time (``chunk``:
a quarter of the burst for websocket messages) and spends them locally; when it holds
fewer than half a chunk it borrows the next chunk in the background, so a steady client
never waits. Room creation and lookups are rare and ask Redis and PostgreSQL anyway:
their chunk is 1, borrowed when needed (exact, nothing held). A client with
nothing borrowed for it waits for one round trip (every borrow queued in the same moment
goes to Redis in one pipeline). Tokens a node holds for an address that went quiet are
given back after ``idle`` seconds.

What this guarantees, cluster-wide: an address never spends more than the bucket allows
(burst plus rate × time), however many nodes it talks to, since every token spent was
taken out of the shared bucket first. What it costs: a node may hold up to a chunk of an
address's tokens that another node's connection of the same address cannot use until
they are spent or given back, so an address spread over nodes can be refused up to a
chunk early.

When Redis cannot be reached, each node falls back to its own buckets (the single-node
limits) until Redis answers again: clients are never refused because Redis is away.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from paiju.server.cluster.tasks import stop_tasks

log = logging.getLogger("paiju.server.cluster")

LEND = """
local now = redis.call('TIME')
local t = tonumber(now[1]) + tonumber(now[2]) / 1e6
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local want = tonumber(ARGV[3])
local back = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'level', 'at')
local level = tonumber(state[1]) or burst
local at = tonumber(state[2]) or t
level = math.min(burst, level + (t - at) * rate + back)
local grant = 0
if level >= want then
  grant = want
elseif level >= 1 then
  grant = math.floor(level)
end
level = level - grant
redis.call('HSET', KEYS[1], 'level', tostring(level), 'at', tostring(t))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst / math.max(rate, 1e-9)) * 1000) + 1000)
return grant
"""
"""Refill a bucket to now, add the ``back`` tokens given back, then lend up to ``want``
whole tokens (fewer if fewer are left): the number lent."""

RETRY_SECONDS = 1.0
"""After Redis failed: how long a node keeps to its own buckets before trying again."""


@dataclass
class _Budget:
    held: int = 0
    """Tokens borrowed from the shared bucket and not spent yet."""
    asking: bool = False
    empty_until: float = 0.0
    """The shared bucket lent nothing: no point asking again before this (monotonic)."""
    used: float = 0.0
    waiters: list[asyncio.Future[None]] | None = None


class SharedLimits:
    """Borrowed tokens of every (kind, address) this node has seen lately."""

    def __init__(
        self,
        redis: Any,
        prefix: str,
        kinds: dict[str, tuple[float, float, int]],
        *,
        idle: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.prefix = prefix
        self.kinds = kinds
        """kind → (tokens per second, burst, chunk: tokens borrowed at a time)."""
        self.idle = idle
        self.clock = clock
        self.budgets: dict[tuple[str, str], _Budget] = {}
        self._lend = redis.register_script(LEND)
        self._queue: list[tuple[str, str]] = []
        self._back: dict[tuple[str, str], int] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.broken_until = 0.0
        self.round_trips = 0
        """Pipelines sent to Redis (each carries every borrow queued at that moment)."""

    def chunk(self, kind: str) -> int:
        return max(1, self.kinds[kind][2])

    @property
    def healthy(self) -> bool:
        return self.clock() >= self.broken_until

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Give back every token held (the other nodes' clients may use them) and stop."""
        if self._task is not None:
            # the loop also ends on the flag: a cancellation can be lost inside redis-py
            self._closing = True
            self._wake.set()
            await stop_tasks([self._task])
            self._task = None
        for key, budget in self.budgets.items():
            if budget.held:
                self._back[key] = self._back.get(key, 0) + budget.held
                budget.held = 0
        with contextlib.suppress(Exception):
            await self._send([])

    # -- spending ------------------------------------------------------------------------
    def try_take(self, kind: str, address: str) -> bool | None:
        """Spend a borrowed token if one is held: True; None if this needs Redis first
        (a borrow is then on its way)."""
        key = (kind, address)
        budget = self.budgets.get(key)
        if budget is None:
            budget = self.budgets[key] = _Budget()
        now = budget.used = self.clock()
        spent = budget.held >= 1
        if spent:
            budget.held -= 1
        chunk = self.chunk(kind)
        # the next chunk before this one runs out; a chunk of one only when it is needed
        low = budget.held * 2 < chunk if chunk > 1 else not spent
        if low and now >= budget.empty_until:
            self._ask(key, budget)
        if spent:
            return True
        return None if budget.asking else False

    async def take(self, kind: str, address: str) -> bool:
        """Spend one token of ``address``'s shared bucket of ``kind``; waits for Redis only
        when no borrowed token is held."""
        first = self.try_take(kind, address)
        if first is not None:
            return first
        key = (kind, address)
        budget = self.budgets[key]
        while True:
            if budget.held >= 1:
                budget.held -= 1
                return True
            if not budget.asking:
                # Redis away (the caller counts on its own) or the bucket empty for now
                if not self.healthy or self.clock() < budget.empty_until:
                    return False
                self._ask(key, budget)
            fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            if budget.waiters is None:
                budget.waiters = []
            budget.waiters.append(fut)
            await fut

    def _ask(self, key: tuple[str, str], budget: _Budget) -> None:
        if budget.asking:
            return
        budget.asking = True
        self._queue.append(key)
        self._wake.set()

    # -- Redis ---------------------------------------------------------------------------
    async def _run(self) -> None:
        while not self._closing:
            await self._wake.wait()
            if self._closing:
                return
            self._wake.clear()
            batch, self._queue = self._queue, []
            try:
                await self._send(batch)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("rate limits: Redis is away; each node counts on its own")
                self.broken_until = self.clock() + RETRY_SECONDS
                for key in batch:
                    self._answered(key, 0, empty=False)

    async def _send(self, batch: list[tuple[str, str]]) -> None:
        back, self._back = self._back, {}
        keys = list(dict.fromkeys([*batch, *back]))
        asked = set(batch)
        if not keys:
            return
        wants = []
        async with self.redis.pipeline(transaction=False) as pipe:
            for kind, address in keys:
                rate, burst, _chunk = self.kinds[kind]
                want = 0
                if (kind, address) in asked:
                    # enough for everyone waiting on it (a crowd behind one address)
                    budget = self.budgets.get((kind, address))
                    waiting = len(budget.waiters or []) if budget is not None else 0
                    want = max(self.chunk(kind), waiting)
                wants.append(want)
                args = [rate, burst, want, back.get((kind, address), 0)]
                await self._lend(keys=[self.key(kind, address)], args=args, client=pipe)
            results = await pipe.execute()
        self.round_trips += 1
        for (kind, address), want, lent in zip(keys, wants, results, strict=True):
            if want:
                self._answered((kind, address), int(lent), empty=int(lent) < want)

    def _answered(self, key: tuple[str, str], lent: int, empty: bool) -> None:
        budget = self.budgets.get(key)
        if budget is None:
            if lent:
                self._back[key] = self._back.get(key, 0) + lent
            return
        budget.asking = False
        budget.held += lent
        if empty:
            rate = self.kinds[key[0]][0]
            # asking again sooner would find it empty again: a token's time
            budget.empty_until = self.clock() + min(5.0, 1.0 / max(rate, 1e-9))
        waiters, budget.waiters = budget.waiters or [], None
        for fut in waiters:
            if not fut.done():
                fut.set_result(None)

    def key(self, kind: str, address: str) -> str:
        return f"{self.prefix}rate:{kind}:{address}"

    def sweep(self) -> None:
        """Give back what quiet addresses hold and forget them (the node's sync tick)."""
        now = self.clock()
        for key, budget in list(self.budgets.items()):
            if budget.asking or now - budget.used < self.idle:
                continue
            if budget.held:
                self._back[key] = self._back.get(key, 0) + budget.held
            del self.budgets[key]
        if self._back:
            self._wake.set()
