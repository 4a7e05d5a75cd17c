"""Clocks (real or manual, injected so tests never wait), turn clocks with a time bank,
and token buckets for rate limits."""

from __future__ import annotations

import asyncio
import threading
import time
from dataclasses import dataclass, field
from typing import Protocol


class Clock(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic scale."""
        ...

    async def sleep(self, seconds: float) -> None: ...


class RealClock:
    def now(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(max(0.0, seconds))


class ManualClock:
    """Time moves only when a test calls :meth:`advance` (from any thread)."""

    def __init__(self, start: float = 1000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []
        self._lock = threading.Lock()

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        with self._lock:
            self._sleepers.append((self._now + seconds, fut))
        await fut

    def advance(self, seconds: float) -> None:
        with self._lock:
            self._now += seconds
            due = [(t, f) for t, f in self._sleepers if t <= self._now]
            self._sleepers = [(t, f) for t, f in self._sleepers if t > self._now]
        for _, fut in due:
            loop = fut.get_loop()
            loop.call_soon_threadsafe(_wake, fut)


def _wake(fut: asyncio.Future[None]) -> None:
    if not fut.done():
        fut.set_result(None)


@dataclass
class TurnClock:
    """A seat's clock: each decision gets ``base`` seconds, then eats into the bank."""

    bank: float
    started: float | None = None
    base: float = 0.0

    def start(self, now: float, base: float) -> None:
        self.started = now
        self.base = base

    def deadline(self) -> float | None:
        if self.started is None:
            return None
        return self.started + self.base + self.bank

    def stop(self, now: float) -> None:
        """The seat answered (or timed out): charge what went past ``base`` to the bank."""
        if self.started is None:
            return
        over = now - self.started - self.base
        if over > 0:
            self.bank = max(0.0, self.bank - over)
        self.started = None


@dataclass
class TokenBucket:
    """``rate`` tokens per second up to ``burst``; :meth:`take` says whether one was left."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = field(default_factory=time.monotonic)

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.burst

    def level(self, now: float | None = None) -> float:
        """Tokens available now (refilled, none taken)."""
        now = time.monotonic() if now is None else now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self, now: float | None = None) -> bool:
        if self.level(now) >= 1.0:
            self.tokens -= 1.0
            return True
        return False
