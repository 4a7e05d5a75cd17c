"""The fencing check at the storage write: a node may write a game's log only while the
game's row in ``room_fences`` holds that node's epoch.

A new owner *claims* a game before it reads the log (:func:`claim`: the epoch is raised,
never lowered); every write transaction *checks* the epochs of the games it touches and
locks their rows (:func:`check`, ``SELECT … FOR UPDATE``) before it inserts anything. The
two meet on the row lock: a claim waits for a write that holds the row, and a write that
comes after the claim sees the larger epoch and writes nothing for that game. So whatever
the old owner committed is in the log the new owner reads, and nothing it tries later
lands: a node paused past its lease (a long GC, SIGSTOP, a partition) wakes up and its
writes are refused, however sure it still is that it owns the room.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import Any

from sqlalchemy import BigInteger, Column, Float, MetaData, String, Table, select

fence_metadata = MetaData()

room_fences = Table(
    "room_fences",
    fence_metadata,
    Column("game_id", String(32), primary_key=True),
    Column("epoch", BigInteger, nullable=False),
    Column("node", String(64), nullable=False),
    Column("updated_at", Float, nullable=False),
)


class FencedError(Exception):
    """This node no longer owns the game: its write was refused."""

    def __init__(self, game_id: str, epoch: int, current: int | None) -> None:
        super().__init__(f"game {game_id}: epoch {epoch} is fenced off (now {current})")
        self.game_id = game_id
        self.epoch = epoch
        self.current = current


def _insert(conn: Any) -> Any:
    from sqlalchemy.dialects import postgresql, sqlite

    return postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert


async def create_table(engine: Any) -> None:
    async with engine.begin() as conn:
        await conn.run_sync(fence_metadata.create_all)


GUARD_SECONDS = 2
"""How long a transaction may hold fence rows while its node does nothing, and how long a
claim waits for a row lock."""


def guard_connection(dbapi_conn: Any, _record: Any) -> None:
    """Bound every transaction of a node's PostgreSQL connections (set once per
    connection, so a write costs no extra round trip): a node paused *inside* a write
    transaction (its fence rows locked) must not hold up the node taking its rooms.
    PostgreSQL ends such a transaction after :data:`GUARD_SECONDS` (rolled back: none of
    it was told to anyone), and a claim gives up after as long and is tried again at the
    next tick."""
    cursor = dbapi_conn.cursor()
    cursor.execute(f"SET idle_in_transaction_session_timeout = '{GUARD_SECONDS}s'")
    cursor.execute(f"SET lock_timeout = '{GUARD_SECONDS}s'")
    cursor.close()


async def claim(conn: Any, game_id: str, epoch: int, node: str) -> bool:
    """Raise the game's epoch to ``epoch`` for ``node`` (inside the caller's transaction);
    False when the row already holds ``epoch`` or more (someone newer owns it)."""
    insert = _insert(conn)
    stmt = insert(room_fences).values(
        game_id=game_id, epoch=epoch, node=node, updated_at=time.time()
    )
    stmt = stmt.on_conflict_do_update(
        index_elements=[room_fences.c.game_id],
        set_={"epoch": epoch, "node": node, "updated_at": time.time()},
        where=room_fences.c.epoch < epoch,
    )
    result = await conn.execute(stmt)
    return bool(result.rowcount)


async def lock(conn: Any, game_ids: Iterable[str]) -> dict[str, int]:
    """The fence epochs of ``game_ids``, their rows locked for the rest of the transaction
    (a game nobody claimed is absent: nobody may write it)."""
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    query = select(room_fences.c.game_id, room_fences.c.epoch).where(room_fences.c.game_id.in_(ids))
    if conn.dialect.name == "postgresql":
        # in id order, so two writers never lock the same rows in opposite orders
        query = query.order_by(room_fences.c.game_id).with_for_update()
    return {r.game_id: int(r.epoch) for r in (await conn.execute(query)).all()}


async def check(conn: Any, epochs: dict[str, int]) -> dict[str, int | None]:
    """Like :func:`lock`; returns the games whose row holds another epoch than ``epochs``
    says (or none), with that epoch."""
    rows = await lock(conn, epochs)
    return {g: rows.get(g) for g, e in epochs.items() if rows.get(g) != e}


async def current(conn: Any, game_ids: Iterable[str]) -> dict[str, tuple[int, str]]:
    ids = sorted(set(game_ids))
    if not ids:
        return {}
    query = select(room_fences).where(room_fences.c.game_id.in_(ids))
    return {r.game_id: (int(r.epoch), r.node) for r in (await conn.execute(query)).all()}
