"""The node's storage: the usual event log, with the fence checked in every write
transaction (see :mod:`paiju.server.cluster.fence`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from paiju.server.cluster import fence
from paiju.server.storage import Storage

log = logging.getLogger("paiju.server.cluster")


def _game_of(op: tuple[Any, ...]) -> str:
    kind, data = op[0], op[1]
    return str(data[0]["id"] if kind == "create" else data[0])


def _code_of(op: tuple[Any, ...]) -> str | None:
    return str(op[1][0]["room_code"]) if op[0] == "create" else None


def _drop(op: tuple[Any, ...]) -> None:
    """A refused operation's waiter is cancelled: its room is being dropped, and nobody
    may be told that a refused write happened."""
    for part in (op[1], op[2:]):
        for item in part if isinstance(part, tuple) else ():
            if hasattr(item, "cancel") and hasattr(item, "done") and not item.done():
                item.cancel()


class FencedStorage(Storage):
    """Writes a game's log only while the game's fence holds this node's epoch for it.

    ``epochs`` (game id → epoch) is filled when this node claims a game it takes over;
    a game it creates takes the epoch of its room code's lease from ``code_epochs``, and
    its fence row is inserted in the same transaction as the game. ``on_fenced(game_id)``
    is called (once per refused batch) when a write was refused: the room is no longer
    this node's."""

    def __init__(self, url: str | None, node: str) -> None:
        super().__init__(url)
        self.node = node
        self.epochs: dict[str, int] = {}
        self.code_epochs: dict[str, int] = {}
        self.on_fenced: Callable[[str], None] | None = None
        self.refused = 0
        """Operations refused by the fence (a stale owner's writes)."""

    async def start(self) -> None:
        # nodes started together race to create the tables; the loser finds them made
        for attempt in range(5):
            try:
                await super().start()
                await fence.create_table(self._require())
                return
            except Exception:
                if attempt == 4:
                    raise
                if self._writer is not None:
                    self._writer.cancel()
                    self._writer = None
                if self.engine is not None:
                    await self.engine.dispose()
                    self.engine = None
                await asyncio.sleep(0.2 + 0.3 * attempt)

    async def claim(self, game_id: str, epoch: int) -> bool:
        """Make this node the game's writer at ``epoch`` (before reading its log)."""
        async with self._require().begin() as conn:
            await fence.guard(conn)
            ok = await fence.claim(conn, game_id, epoch, self.node)
        if ok:
            self.epochs[game_id] = epoch
        return ok

    async def _write(self, batch: list[Any]) -> None:
        async with self._require().begin() as conn:
            await fence.guard(conn)
            checks: dict[str, int] = {}
            refused: set[str] = set()
            for op in batch:
                game = _game_of(op)
                code = _code_of(op)
                if code is not None:
                    epoch = self.code_epochs.get(code)
                    if epoch is None or not await fence.claim(conn, game, epoch, self.node):
                        refused.add(game)
                    else:
                        self.epochs[game] = epoch
                elif game not in self.epochs:
                    refused.add(game)
                else:
                    checks[game] = self.epochs[game]
            refused.update(await fence.check(conn, checks))
            kept = [op for op in batch if _game_of(op) not in refused]
            await self._write_ops(conn, kept)
        if refused:
            for op in batch:
                if _game_of(op) in refused:
                    self.refused += 1
                    _drop(op)
            for game in sorted(refused):
                log.warning("node %s: writes to game %s refused by its fence", self.node, game)
                self.epochs.pop(game, None)
                if self.on_fenced is not None:
                    self.on_fenced(game)
