"""Messages between nodes over Redis pub/sub: each node listens on its own channel.

A client plays through the node it is connected to (its *edge*); the room may be owned by
another node. The edge relays the client's messages, exactly as received, to the owner
(``{"t": "in", ...}``, and ``{"t": "gone"}`` when the socket closes); the owner handles
them with a :class:`RemoteConnection` standing for the client, and everything the room
sends that connection (already built for its seat, on the owner) travels back
(``{"t": "out"}``, ``{"t": "close"}``). Hidden information is therefore decided where it
always was: on the owner, per connection, before anything is published.

One sender task publishes in queue order over one Redis connection, and one reader takes
the channel in order, so a client's messages keep their order both ways. What is queued
for one node in the same moment (a decision's updates for every seat relayed there) goes
as one message, a JSON array: one publish, one delivery, one read on the other side.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any

from paiju.server.cluster.tasks import stop_tasks

log = logging.getLogger("paiju.server.cluster")

_WAKE = ("", "")
"""Queued by :meth:`Relay.close` so that the sender sees the flag (no node is named "")."""


class Relay:
    def __init__(
        self, redis: Any, node: str, on_message: Callable[[dict[str, Any]], None], prefix: str
    ) -> None:
        self.redis = redis
        self.node = node
        self.prefix = prefix
        self.on_message = on_message
        self._queue: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._closing = False
        self.sent = 0
        self.received = 0
        self.deliveries = 0
        """Messages read from the channel (each may carry several payloads)."""

    def channel(self, node: str) -> str:
        return f"{self.prefix}relay:{node}"

    async def start(self) -> None:
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel(self.node))
        self._tasks = [
            asyncio.create_task(self._send_loop()),
            asyncio.create_task(self._read_loop()),
        ]

    async def close(self) -> None:
        # the loops also end on the flag: a cancellation can be lost inside redis-py
        self._closing = True
        self._queue.put_nowait(_WAKE)
        await stop_tasks(self._tasks)
        self._tasks = []
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
            self._pubsub = None

    def send(self, node: str, payload: dict[str, Any]) -> None:
        """Queue ``payload`` for ``node`` (never blocks: rooms call this from ``send``)."""
        self._queue.put_nowait((node, json.dumps(payload, ensure_ascii=False)))

    async def flush(self) -> None:
        await self._queue.join()

    async def _send_loop(self) -> None:
        while not self._closing:
            batch = [await self._queue.get()]
            while not self._queue.empty() and len(batch) < 500:
                batch.append(self._queue.get_nowait())
            by_node: dict[str, list[str]] = {}
            for node, body in batch:
                if node:
                    by_node.setdefault(node, []).append(body)
            count = sum(len(bodies) for bodies in by_node.values())
            try:
                if by_node:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for node, bodies in by_node.items():
                            joined = bodies[0] if len(bodies) == 1 else "[" + ",".join(bodies) + "]"
                            pipe.publish(self.channel(node), joined)
                        await pipe.execute()
                self.sent += count
            except Exception:
                # a lost relay message shows as a lost connection: the client reconnects
                log.exception("relay: cannot publish %d messages", count)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _read_loop(self) -> None:
        assert self._pubsub is not None
        while not self._closing:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("relay: reading the channel failed; retrying")
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            self.deliveries += 1
            try:
                data = json.loads(message["data"])
            except ValueError:
                log.error("relay: a message that is not JSON on %s", self.channel(self.node))
                continue
            for payload in data if isinstance(data, list) else [data]:
                self.received += 1
                try:
                    self.on_message(payload)
                except Exception:
                    log.exception("relay: a relayed message failed")
