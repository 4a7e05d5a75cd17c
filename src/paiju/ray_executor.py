"""Self-play on a Ray cluster through the same :class:`~concurrent.futures.Executor` seam
the process pool uses.

:class:`RayExecutor` turns ``submit(fn, *args)`` into a Ray task and hands back the
:class:`concurrent.futures.Future` Ray keeps in step with it, so
:func:`paiju.simulator.run_ordered` (results in task order, the progress bar, streamed
records) works unchanged. A game's result depends only on its task (the seeds are in it),
never on where it ran, so a Ray run gives exactly what the process pool gives.

``ray`` is an optional dependency (the ``cluster`` extra); it is imported only when a
:class:`RayExecutor` is made.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

R = TypeVar("R")

LOCAL = "local"
"""The ``--ray`` value (also its default) that starts a Ray instance in this process."""


LOOPBACK_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"
"""Ray reads this once, at import: "0" makes a local instance use 127.0.0.1 only."""


class RayUnavailableError(RuntimeError):
    """Ray is not installed, or the cluster at the given address cannot be reached."""


class RayExecutor(Executor):
    """Runs each submitted call as a Ray task.

    ``address``: ``"local"`` (or None) starts a private Ray instance on this machine with
    ``num_cpus`` workers (None: every core) and stops it on :meth:`shutdown`; any other
    value (``"auto"``, ``"127.0.0.1:6379"``, ``"ray://host:10001"``) joins that running
    cluster, whose workers must be able to import the same ``paiju``. A Ray already
    initialised in this process (a test's, a notebook's) is used as it is and left running.
    """

    def __init__(self, address: str | None = LOCAL, num_cpus: int | None = None) -> None:
        local = address in (None, LOCAL)
        if local and "ray" not in sys.modules:
            # a private instance stays on loopback: without this Ray binds its services to
            # the machine's first interface address, as a cluster head would
            os.environ.setdefault(LOOPBACK_ONLY, "0")
        try:
            import ray
        except ImportError as exc:
            raise RayUnavailableError(
                "Ray is not installed (pip install 'paiju[cluster]')"
            ) from exc
        self._ray = ray
        self._owned = False
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": "WARNING",
            }
            if local:
                kwargs["num_cpus"] = num_cpus
            else:
                kwargs["address"] = address
            try:
                ray.init(**kwargs)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise RayUnavailableError(f"cannot start or reach Ray at {address}: {exc}") from exc
            self._owned = True
        self._call: Any = None
        self._pending: dict[int, Any] = {}

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        if self._call is None:
            # one CPU per game: a game is a single-threaded Python loop
            self._call = self._ray.remote(num_cpus=1, max_retries=0)(_call)
        ref = self._call.remote(fn, args, kwargs)
        future: Future[R] = ref.future()
        key = id(future)
        self._pending[key] = ref
        future.add_done_callback(lambda _f: self._pending.pop(key, None))
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        if cancel_futures:
            for ref in list(self._pending.values()):
                # a task that finished meanwhile cannot be cancelled, and need not be
                with contextlib.suppress(Exception):
                    self._ray.cancel(ref, force=True)
        self._pending.clear()
        if self._owned and self._ray.is_initialized():
            self._ray.shutdown()
            self._owned = False


def _call(fn: Callable[..., R], args: tuple[Any, ...], kwargs: dict[str, Any]) -> R:
    """The one Ray task: ``fn`` travels by reference (module and name), so builtins and
    the simulator's and arena's entry points alike run on the workers' own import."""
    return fn(*args, **kwargs)
