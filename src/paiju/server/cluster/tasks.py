"""Stopping a node's background tasks without trusting one cancellation to do it.

redis-py's asyncio client can lose a task's cancellation: a ``cancel()`` that arrives at
the wrong moment inside a command is swallowed there, the command returns normally and
the task runs on (seen here: a node's lease-renewal loop kept renewing after SIGTERM, and
the node never exited; the same happened in a bare loop of renewals cancelled at random
moments, about once in 200). So every loop of a node also checks a flag that its
``close`` sets, and :func:`stop_tasks` waits for the tasks with a bound, cancelling again
those still running.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("paiju.server.cluster")


async def stop_tasks(tasks: Iterable[asyncio.Task[Any]], grace: float = 2.0) -> int:
    """Cancel ``tasks`` and wait for them to end; any still running after ``grace``
    seconds is cancelled again (three times at most). Returns how many never ended
    (logged: something holds them that a cancellation cannot reach)."""
    pending = {task for task in tasks if not task.done()}
    for _ in range(3):
        if not pending:
            break
        for task in pending:
            task.cancel()
        _done, pending = await asyncio.wait(pending, timeout=grace)
    for task in pending:
        log.error("a task did not stop when cancelled: %r", task)
    return len(pending)
