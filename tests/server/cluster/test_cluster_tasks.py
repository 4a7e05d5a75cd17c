"""A node's loops stop even when a cancellation is lost on the way (redis-py's asyncio
client can swallow one inside a command: a node kept renewing its leases after SIGTERM
and never exited). No services needed: the lost cancellation is played by a step that
catches it."""

from __future__ import annotations

import asyncio
from typing import Any

from paiju.server.cluster.node import ClusterNode, ClusterSettings
from paiju.server.cluster.tasks import stop_tasks


def test_a_task_that_swallows_one_cancellation_is_cancelled_again() -> None:
    async def go() -> None:
        swallowed = 0

        async def stubborn() -> None:
            nonlocal swallowed
            while True:
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    swallowed += 1
                    if swallowed > 1:
                        raise

        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0)
        assert await stop_tasks([task], grace=0.05) == 0
        assert task.cancelled() and swallowed == 2

    asyncio.run(go())


def test_a_task_that_never_stops_is_reported_not_waited_for_forever() -> None:
    async def go() -> None:
        deaf = True

        async def stubborn() -> None:
            while True:
                try:
                    await asyncio.sleep(3600)
                except asyncio.CancelledError:
                    if not deaf:
                        raise

        task = asyncio.create_task(stubborn())
        await asyncio.sleep(0)
        assert await stop_tasks([task], grace=0.01) == 1
        assert not task.done()
        deaf = False
        assert await stop_tasks([task], grace=1.0) == 0

    asyncio.run(go())


class _Manager:
    """Just what ClusterNode's constructor reads."""

    config: Any = None


class _Storage:
    on_fenced: Any = None


def test_a_node_loop_ends_on_close_even_if_its_cancellation_is_lost() -> None:
    async def go() -> None:
        settings = ClusterSettings("a", "redis://127.0.0.1:1/0", lease_ttl=0.3, tick=0.01)
        node = ClusterNode(_Manager(), _Storage(), settings)  # type: ignore[arg-type]
        in_step = asyncio.Event()
        lost = 0

        async def step() -> None:
            # a Redis call that loses the cancellation: it returns as if nothing happened
            nonlocal lost
            in_step.set()
            try:
                await asyncio.sleep(3600)
            except asyncio.CancelledError:
                lost += 1
                if lost > 1:
                    raise  # only the first is lost: a failing run ends instead of hanging

        task = asyncio.create_task(node._loop(step))
        await in_step.wait()
        node._closing = True
        task.cancel()
        # one cancellation, lost: only the flag can end the loop (the bound is a hang's)
        done, _ = await asyncio.wait([task], timeout=30)
        assert lost == 1 and task in done and not task.cancelled()
        assert await stop_tasks([task]) == 0

    asyncio.run(go())
