"""Where server bots think: heavy levels in worker processes, cheap ones in threads.

A strong decision costs milliseconds to tens of milliseconds of CPU. Computed in a thread
it holds the interpreter lock the event loop needs, so every other table's messages (and
every ``ping``) wait behind it; 100 strong tables put each ping's p99 near a second
(docs/protocol.md, "Load figures"). In worker processes the bots compute beside the loop,
and the workers run at a lower scheduling priority (``os.nice``, and on Linux the idle
scheduling class), so when the machine's cores are all busy the kernel runs the server's
loop first and the bots' tables simply play a little slower.

Each table's bots live in one worker for the whole game (chosen by the table's key), so a
bot keeps its state (its random stream, its caches) from one decision to the next exactly
as in a thread; the parent sends only the hand (pickled copy) and the seat. A worker that
dies is replaced; its tables' bots are made again from their seeds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

log = logging.getLogger("paiju.server.botpool")

BotFn = Callable[[Any, int], int]

_BOTS: dict[str, BotFn] = {}
"""In a worker process: the bots of the tables this worker serves, by key."""


def _init_worker(nice: int, parent: int, idle: bool = False) -> None:
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    if idle and hasattr(os, "SCHED_IDLE"):
        # Linux: a lower nice value still lets a bot finish its time slice before a
        # waking server thread runs; in the idle class any runnable thread of another
        # class (the event loop) preempts it at once. It still gets the cores nobody wants.
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    # a server killed (-9, or stopping before its pool is shut down) must not leave its
    # workers behind: each one leaves as soon as its parent is gone
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _decide(spec: RemoteBot, hand: Any, seat: int) -> int:
    """In a worker: the decision of the bot ``spec`` names (made on first use)."""
    bot = _BOTS.get(spec.key)
    if bot is None:
        from paiju.bots import make_bot

        bot = _BOTS[spec.key] = make_bot(spec.level, spec.seed, spec.variant)
    return bot(hand, seat)


def _forget(keys: list[str]) -> int:
    for key in keys:
        _BOTS.pop(key, None)
    return len(_BOTS)


@dataclass(frozen=True)
class RemoteBot:
    """A bot that lives in a worker process: what it takes to make it there."""

    key: str
    level: str
    seed: int
    variant: str


class BotPool:
    """Threads for cheap bots, niced worker processes for ``process_levels``."""

    def __init__(
        self,
        threads: int = 2,
        processes: int = 2,
        process_levels: tuple[str, ...] = ("strong",),
        nice: int = 10,
        idle: bool = True,
    ) -> None:
        self.process_levels = process_levels if processes > 0 else ()
        self.nice = nice
        self.idle = idle
        self._threads = ThreadPoolExecutor(
            max_workers=max(1, threads), thread_name_prefix="paiju-bot"
        )
        self._workers: list[ProcessPoolExecutor | None] = [None] * max(0, processes)
        self.restarts = 0
        """Worker processes replaced after dying."""

    # -- making bots -------------------------------------------------------------------
    def make(self, key: str, level: str, seed: int, variant: str) -> BotFn | RemoteBot:
        """A bot for ``key`` (a table's game and seat): a local callable, or a handle on one
        in a worker process (made there on its first decision; the caller has checked the
        level). Raises ValueError for an unknown level, as ``make_bot``."""
        from paiju.bots import make_bot

        if level in self.process_levels:
            return RemoteBot(key, level, seed, variant)
        bot: BotFn = make_bot(level, seed, variant)
        return bot

    # -- deciding ----------------------------------------------------------------------
    async def decide(self, bot: BotFn | RemoteBot, hand: Any, seat: int) -> int:
        """``bot``'s decision on ``hand`` (a copy nobody else touches)."""
        loop = asyncio.get_running_loop()
        if not isinstance(bot, RemoteBot):
            return await loop.run_in_executor(self._threads, bot, hand, seat)
        index = self._index(bot.key)
        worker = self._worker(index)
        try:
            future = worker.submit(_decide, bot, hand, seat)
            return await asyncio.wrap_future(future)
        except BrokenExecutor:
            # the worker died (killed, out of memory): the next decision gets a new one
            self._replace(index, worker)
            raise

    def forget(self, keys: list[str]) -> None:
        """The tables of ``keys`` are over: let their workers drop the bots."""
        if not self._workers:
            return
        by_worker: dict[int, list[str]] = {}
        for key in keys:
            by_worker.setdefault(self._index(key), []).append(key)
        for index, group in by_worker.items():
            worker = self._workers[index]
            if worker is not None:
                with contextlib.suppress(BrokenExecutor, RuntimeError):
                    worker.submit(_forget, group)

    def _index(self, key: str) -> int:
        # the game part of the key, so that a table's seats share a worker
        return zlib.crc32(key.split(":", 1)[0].encode()) % len(self._workers)

    def _worker(self, index: int) -> Executor:
        worker = self._workers[index]
        if worker is None:
            worker = self._workers[index] = ProcessPoolExecutor(
                max_workers=1,
                # spawn: the server process has threads (storage, pools) a fork would copy
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_init_worker,
                initargs=(self.nice, os.getpid(), self.idle),
            )
        return worker

    def _replace(self, index: int, broken: Executor) -> None:
        if self._workers[index] is broken:
            self._workers[index] = None
            self.restarts += 1
            broken.shutdown(wait=False, cancel_futures=True)
            log.error("bot worker %d died; starting a new one", index)

    def worker_pids(self) -> list[int]:
        """Process ids of the running workers (for tests and ops)."""
        pids: list[int] = []
        for worker in self._workers:
            processes = getattr(worker, "_processes", None) or {}
            pids.extend(processes)
        return pids

    def close(self) -> None:
        self._threads.shutdown(wait=False, cancel_futures=True)
        for worker in self._workers:
            if worker is not None:
                worker.shutdown(wait=False, cancel_futures=True)
        self._workers = [None] * len(self._workers)
