"""Games as an append-only event log (SQLAlchemy 2 async Core: SQLite or PostgreSQL).

``games`` holds one row per started game (variant, seed, options, seats, the room setup
needed to rebuild the table, status, result); ``game_events`` holds the game's record lines
in order, ``seq`` 0 being the record header. The record of a game is therefore its events'
payloads in ``seq`` order, which is exactly a JSON Lines record ``paiju replay`` verifies.

Writes go through one queue drained by a writer task, a batch per transaction: play never
waits for the disk, and lines reach it in the order they happened. A server stopped between
a line and its flush loses only that unflushed tail, which the engine regenerates on resume.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

log = logging.getLogger("paiju.server.storage")

DEFAULT_URL = "sqlite+aiosqlite:///data/paiju.db"
JSONType = JSON().with_variant(JSONB(), "postgresql")

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("room_code", String(8), nullable=False),
    Column("variant", String(16), nullable=False),
    Column("engine", String(16), nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("options", JSONType, nullable=False),
    Column("seats", JSONType, nullable=False),
    Column("room", JSONType, nullable=False),
    Column("status", String(16), nullable=False, index=True),
    Column("result", JSONType, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)

game_events = Table(
    "game_events",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("ts", Float, nullable=False),
    Column("seat", Integer, nullable=True),
    Column("payload", JSONType, nullable=False),
)


def database_url(explicit: str | None = None) -> str:
    """The URL to use: ``explicit``, else ``PAIJU_DATABASE_URL``, else SQLite under ./data.

    ``postgresql://`` and ``sqlite:///`` URLs get their async drivers added.
    """
    url = explicit or os.environ.get("PAIJU_DATABASE_URL") or DEFAULT_URL
    if url.startswith(("postgresql://", "postgres://")):
        url = "postgresql+asyncpg://" + url.split("://", 1)[1]
    elif url.startswith("sqlite:///"):
        url = "sqlite+aiosqlite:///" + url[len("sqlite:///") :]
    return url


@dataclass
class StoredGame:
    id: str
    room_code: str
    variant: str
    status: str
    room: dict[str, Any]
    result: dict[str, Any] | None
    created_at: float
    updated_at: float


class Storage:
    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        self.engine: AsyncEngine | None = None
        self._queue: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.write_errors = 0

    async def start(self) -> None:
        if self.url.startswith("sqlite"):
            path = self.url.split(":///", 1)[1]
            if path and path != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
        sqlite = self.url.startswith("sqlite")
        # readers (record downloads) may meet the writer's lock: wait rather than fail
        self.engine = create_async_engine(self.url, connect_args={"timeout": 30} if sqlite else {})
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
        async with self.engine.begin() as conn:
            await conn.run_sync(metadata.create_all)
        self._queue = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop())

    async def close(self) -> None:
        if self._writer is not None:
            await self.flush()
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self.engine is not None:
            await self.engine.dispose()
            self.engine = None

    def _require(self) -> AsyncEngine:
        if self.engine is None:
            raise RuntimeError("storage is not started")
        return self.engine

    # -- writes (queued, in order) ---------------------------------------------------
    async def create_game(
        self,
        game_id: str,
        room_code: str,
        head: dict[str, Any],
        room: dict[str, Any],
    ) -> None:
        """Insert the game row and its header line (seq 0); returns once they are written.

        It goes through the writer queue like every other write: one writer means SQLite
        never sees two write transactions at once.
        """
        now = time.time()
        row = {
            "id": game_id,
            "room_code": room_code,
            "variant": head["variant"],
            "engine": str(head.get("engine", "")),
            "seed": head["seed"],
            "options": head.get("options", {}),
            "seats": head.get("seats", []),
            "room": room,
            "status": "playing",
            "result": None,
            "created_at": now,
            "updated_at": now,
        }
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait(("create", (row, head, done)))
        await done

    def append(self, game_id: str, first_seq: int, lines: Sequence[dict[str, Any]]) -> None:
        """Queue ``lines`` as events ``first_seq``, ``first_seq + 1``, …"""
        if lines:
            self._queue.put_nowait(("events", (game_id, first_seq, list(lines), time.time())))

    def set_room(self, game_id: str, room: dict[str, Any]) -> None:
        self._queue.put_nowait(("room", (game_id, room)))

    def finish(self, game_id: str, result: dict[str, Any]) -> None:
        self._queue.put_nowait(("finish", (game_id, result)))

    async def flush(self) -> None:
        """Wait until everything queued so far is written."""
        if self._writer is not None and not self._writer.done():
            await self._queue.join()

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            try:
                await self._write(batch)
            except Exception as exc:
                # a lost write must not stop the tables; resume regenerates missing lines
                self.write_errors += 1
                log.exception("storage write failed (%d operations)", len(batch))
                for kind, data in batch:
                    if kind == "create" and not data[2].done():
                        data[2].set_exception(exc)
            else:
                for kind, data in batch:
                    if kind == "create" and not data[2].done():
                        data[2].set_result(None)
            finally:
                for _ in batch:
                    self._queue.task_done()

    async def _write(self, batch: list[tuple[str, Any]]) -> None:
        async with self._require().begin() as conn:
            await self._write_ops(conn, batch)

    async def _write_ops(self, conn: Any, batch: list[tuple[str, Any]]) -> None:
        """``batch`` inside the caller's transaction (a cluster node checks its fence first)."""
        rows: list[dict[str, Any]] = []
        for kind, data in batch:
            if kind == "events":
                game_id, first, lines, ts = data
                rows.extend(
                    {
                        "game_id": game_id,
                        "seq": first + i,
                        "ts": ts,
                        "seat": line.get("seat") if isinstance(line.get("seat"), int) else None,
                        "payload": line,
                    }
                    for i, line in enumerate(lines)
                )
                continue
            if rows:
                await conn.execute(insert(game_events), rows)
                rows = []
            if kind == "create":
                row, head, _done = data
                await conn.execute(insert(games).values(**row))
                await conn.execute(
                    insert(game_events).values(
                        game_id=row["id"], seq=0, ts=row["created_at"], seat=None, payload=head
                    )
                )
            elif kind == "room":
                game_id, room = data
                await conn.execute(
                    update(games)
                    .where(games.c.id == game_id)
                    .values(room=room, updated_at=time.time())
                )
            elif kind == "finish":
                game_id, result = data
                await conn.execute(
                    update(games)
                    .where(games.c.id == game_id)
                    .values(status="finished", result=result, updated_at=time.time())
                )
        if rows:
            await conn.execute(insert(game_events), rows)

    # -- reads -------------------------------------------------------------------------
    async def get_game(self, game_id: str) -> StoredGame | None:
        async with self._require().connect() as conn:
            row = (await conn.execute(select(games).where(games.c.id == game_id))).first()
        return None if row is None else _stored(row)

    async def list_games(self, status: str | None = None, limit: int = 100) -> list[StoredGame]:
        query = select(games).order_by(games.c.created_at.desc()).limit(limit)
        if status is not None:
            query = query.where(games.c.status == status)
        async with self._require().connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_stored(r) for r in rows]

    async def lines(self, game_id: str) -> list[dict[str, Any]]:
        """The game's record lines in order (header first)."""
        query = (
            select(game_events.c.payload)
            .where(game_events.c.game_id == game_id)
            .order_by(game_events.c.seq)
        )
        async with self._require().connect() as conn:
            rows = (await conn.execute(query)).all()
        return [dict(r[0]) for r in rows]

    async def unfinished(self) -> list[StoredGame]:
        return await self.list_games("playing", limit=100_000)

    async def mark_broken(self, game_id: str, reason: str) -> None:
        async with self._require().begin() as conn:
            await conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(status="broken", result={"error": reason}, updated_at=time.time())
            )


def _stored(row: Any) -> StoredGame:
    return StoredGame(
        id=row.id,
        room_code=row.room_code,
        variant=row.variant,
        status=row.status,
        room=dict(row.room),
        result=None if row.result is None else dict(row.result),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
