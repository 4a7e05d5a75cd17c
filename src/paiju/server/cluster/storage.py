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
        self._op_epochs: dict[int, int | None] = {}
        """Each queued operation's epoch, taken when it was queued: a room dropped and then
        taken back by this same node must not have its old writes pass as the new ones."""

    async def start(self) -> None:
        # nodes started together race to create the tables; the loser finds them made
        for attempt in range(5):
            try:
                await super().start()
                engine = self._require()
                await fence.create_table(engine)
                if engine.dialect.name == "postgresql":
                    from sqlalchemy import event

                    event.listen(engine.sync_engine, "connect", fence.guard_connection)
                    # the connections opened so far do not have the settings: new ones will
                    await engine.dispose()
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
            ok = await fence.claim(conn, game_id, epoch, self.node)
        if ok:
            self.epochs[game_id] = epoch
        return ok

    def _put(self, kind: str, data: Any) -> asyncio.Future[None]:
        if kind == "create":
            epoch = self.code_epochs.get(str(data[0]["room_code"]))
        else:
            epoch = self.epochs.get(str(data[0]))
        done = super()._put(kind, data)
        self._op_epochs[id(done)] = epoch
        return done

    async def _write(self, batch: list[Any]) -> None:
        epochs = [self._op_epochs.get(id(op[2])) for op in batch]
        games = [_game_of(op) for op in batch]
        async with self._require().begin() as conn:
            claimed: dict[str, int] = {}
            for op, game, epoch in zip(batch, games, epochs, strict=True):
                if op[0] != "create" or epoch is None or game in claimed:
                    continue
                if await fence.claim(conn, game, epoch, self.node):
                    claimed[game] = epoch
            current = await fence.lock(conn, set(games))
            # an operation is written only under the epoch the fence holds now
            keep = [
                e is not None and current.get(g) == e for g, e in zip(games, epochs, strict=True)
            ]
            await self._write_ops(conn, [op for op, k in zip(batch, keep, strict=True) if k])
        self.epochs.update(claimed)
        stale: set[str] = set()
        for op, game, epoch, kept in zip(batch, games, epochs, keep, strict=True):
            self._op_epochs.pop(id(op[2]), None)
            if kept:
                continue
            self.refused += 1
            if not op[2].done():
                # nobody may be told of a refused write
                op[2].cancel()
            if epoch is None or epoch == self.epochs.get(game):
                # the room this node runs now was refused: it is not ours any more
                stale.add(game)
        for game in sorted(stale):
            log.warning("node %s: writes to game %s refused by its fence", self.node, game)
            self.epochs.pop(game, None)
            if self.on_fenced is not None:
                self.on_fenced(game)
