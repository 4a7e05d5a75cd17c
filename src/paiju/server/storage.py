"""Games as an append-only event log (SQLAlchemy 2 async Core: SQLite or PostgreSQL).

``games`` holds one row per started game (variant, seed, options, seats, the room setup
needed to rebuild the table, status, result); ``game_events`` holds the game's record lines
in order, ``seq`` 0 being the record header. The record of a game is therefore its events'
payloads in ``seq`` order, which is exactly a JSON Lines record ``paiju replay`` verifies.

Writes go through one queue drained by a writer task, a batch per transaction, in the order
they happened. Each write returns a future that is resolved once its transaction has
committed: the rooms tell nobody of a decision before that (``room.py``), so a server killed
at any moment has lost only decisions no client saw. A failed transaction is retried (the
same batch, so the log never has a gap) with a growing pause; after
:data:`PAUSE_AFTER_FAILURES` failures in a row the storage reports itself *paused* to its
listeners (the rooms pause their tables and say so) and keeps retrying until the database
takes the batch again.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    Engine,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    cast,
    create_engine,
    delete,
    event,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

log = logging.getLogger("paiju.server.storage")

PAUSE_AFTER_FAILURES = 3
"""Failed attempts at one batch after which the tables waiting on it are paused."""
RETRY_FIRST = 0.05
RETRY_MAX = 2.0
"""Seconds between attempts: doubling from the first up to the maximum."""


class StorageError(Exception):
    """The database cannot be opened or written (a one-line reason for people)."""


DEFAULT_URL = "sqlite+aiosqlite:///data/paiju.db"
JSONType = JSON().with_variant(JSONB(), "postgresql")

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("room_code", String(16), nullable=False),
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

game_holds = Table(
    "game_holds",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", String(32), nullable=False),
    Column("ts", Float, nullable=False),
)
"""Answers held in an open claim window (taken, acknowledged to their seat, not yet in the
record because a seat before them in the window's order has not answered). ``seq`` is the
number of record lines stored when the answer came; a restarted or new owner re-applies
the holds that the log has not resolved since (:func:`pending_holds`)."""


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


@dataclass
class StorageStats:
    """Counters for ``/api/health`` and ``/metrics``."""

    write_errors: int = 0
    """Failed write transactions (each retried)."""
    pauses: int = 0
    """Times the storage reported itself paused (writes failing)."""
    resumes: int = 0
    """Times it recovered after a pause."""
    committed_batches: int = 0
    broken_games: int = 0
    """Games set aside as broken at startup."""
    last_error: str | None = None
    listeners: list[Callable[[bool], None]] = field(default_factory=list)


Op = tuple[str, Any, "asyncio.Future[None]"]


class Storage:
    def __init__(self, url: str | None = None) -> None:
        self.url = database_url(url)
        self.engine: AsyncEngine | None = None
        self._queue: asyncio.Queue[Op] = asyncio.Queue()
        self._writer: asyncio.Task[None] | None = None
        self.stats = StorageStats()
        self.paused = False
        """Writes are failing right now (tables wait; see :data:`PAUSE_AFTER_FAILURES`)."""
        self._sync_engine: Engine | None = None
        """SQLite in a file: the writer's own engine, used from :attr:`_sync_thread` only."""
        self._sync_thread: ThreadPoolExecutor | None = None

    @property
    def write_errors(self) -> int:
        return self.stats.write_errors

    def listen(self, callback: Callable[[bool], None]) -> None:
        """Call ``callback(paused)`` whenever the storage pauses or resumes."""
        self.stats.listeners.append(callback)

    async def start(self) -> None:
        """Open (and create) the database; :class:`StorageError` with a one-line reason."""
        sqlite = self.url.startswith("sqlite")
        try:
            if sqlite:
                path = self.url.split(":///", 1)[1]
                if path and path != ":memory:":
                    Path(path).parent.mkdir(parents=True, exist_ok=True)
                    _check_writable(Path(path))
            # readers (record downloads) may meet the writer's lock: wait rather than fail
            self.engine = create_async_engine(
                self.url, connect_args={"timeout": 30} if sqlite else {}
            )
            if self.engine.dialect.name == "sqlite":
                event.listen(self.engine.sync_engine, "connect", _sqlite_pragmas)
            async with self.engine.begin() as conn:
                await conn.run_sync(metadata.create_all)
        except StorageError:
            raise
        except Exception as exc:
            if self.engine is not None:
                await self.engine.dispose()
                self.engine = None
            reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise StorageError(
                f"cannot open the database {_safe_url(self.url)}: {reason}"
            ) from None
        if sqlite and _sqlite_file(self.url) and self._sync_engine is None:
            self._sync_thread = ThreadPoolExecutor(1, thread_name_prefix="paiju-writer")
            self._sync_engine = create_engine(
                "sqlite://" + self.url.split("://", 1)[1], connect_args={"timeout": 30}
            )
            event.listen(self._sync_engine, "connect", _sqlite_pragmas)
        self._queue = asyncio.Queue()
        self._writer = asyncio.create_task(self._write_loop())

    async def close(self, timeout: float = 10.0) -> None:
        if self._writer is not None:
            # a database that stays down must not hold the shutdown forever
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.flush(), timeout)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
            self._writer = None
        if self._sync_thread is not None:
            assert self._sync_engine is not None
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._sync_thread, self._sync_engine.dispose)
            self._sync_thread.shutdown(wait=False)
            self._sync_thread = None
            self._sync_engine = None
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
        await self._put("create", (row, head))

    def _put(self, kind: str, data: Any) -> asyncio.Future[None]:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((kind, data, done))
        return done

    def append(
        self, game_id: str, first_seq: int, lines: Sequence[dict[str, Any]]
    ) -> asyncio.Future[None]:
        """Queue ``lines`` as events ``first_seq``, ``first_seq + 1``, …; the future is
        resolved once they are committed."""
        return self._put("events", (game_id, first_seq, list(lines), time.time()))

    def hold(self, game_id: str, seq: int, seat: int, action: str) -> asyncio.Future[None]:
        """Queue a claim-window answer held back from the record (see :data:`game_holds`);
        the future is resolved once it is committed, and only then is its seat told."""
        return self._put("hold", (game_id, seq, seat, action, time.time()))

    def set_room(self, game_id: str, room: dict[str, Any]) -> asyncio.Future[None]:
        return self._put("room", (game_id, room))

    def finish(self, game_id: str, result: dict[str, Any]) -> asyncio.Future[None]:
        return self._put("finish", (game_id, result))

    def abandon(self, game_id: str) -> asyncio.Future[None]:
        """A table of bots nobody watched was closed: not resumed at the next start."""
        return self._put("status", (game_id, "abandoned"))

    async def flush(self) -> None:
        """Wait until everything queued so far is written."""
        if self._writer is not None and not self._writer.done():
            await self._queue.join()

    async def _write_loop(self) -> None:
        while True:
            batch = [await self._queue.get()]
            while not self._queue.empty():
                batch.append(self._queue.get_nowait())
            await self._commit(batch)
            for _, _, done in batch:
                if not done.done():
                    done.set_result(None)
                self._queue.task_done()

    async def _commit(self, batch: list[Op]) -> None:
        """Write ``batch`` in one transaction, retrying until the database takes it."""
        failures = 0
        pause = RETRY_FIRST
        while True:
            try:
                await self._write(batch)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                self.stats.write_errors += 1
                self.stats.last_error = f"{type(exc).__name__}: {_first_line(exc)}"
                log.error(
                    "storage write failed (attempt %d, %d operations): %s",
                    failures,
                    len(batch),
                    exc,
                )
                if failures == PAUSE_AFTER_FAILURES and not self.paused:
                    self.paused = True
                    self.stats.pauses += 1
                    self._notify(True)
                await asyncio.sleep(pause)
                pause = min(RETRY_MAX, pause * 2)
                continue
            self.stats.committed_batches += 1
            if self.paused:
                self.paused = False
                self.stats.resumes += 1
                log.warning("storage writes succeed again after %d failures", failures)
                self._notify(False)
            return

    def _notify(self, paused: bool) -> None:
        for callback in list(self.stats.listeners):
            try:
                callback(paused)
            except Exception:
                log.exception("storage listener failed")

    async def _write(self, batch: list[Op]) -> None:
        if self._sync_engine is not None:
            # the whole transaction in one trip to the writer thread: through the async
            # driver each statement, the cursor, the commit and the pool's reset were a trip
            # of their own, each waiting for a turn of a busy event loop, and every seat's
            # update waits for this commit
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(self._sync_thread, self._write_sync, batch)
            return
        async with self._require().begin() as conn:
            await self._write_ops(conn, batch)

    def _write_sync(self, batch: list[Op]) -> None:
        assert self._sync_engine is not None
        with self._sync_engine.begin() as conn:
            for statement, rows in _statements(batch, raw_events=True):
                if isinstance(statement, str):
                    conn.exec_driver_sql(statement, rows)
                else:
                    conn.execute(statement, rows)

    async def _write_ops(self, conn: Any, batch: list[Op]) -> None:
        """``batch`` inside the caller's transaction (a cluster node checks its fence first)."""
        for statement, rows in _statements(batch):
            await conn.execute(statement, rows)

    # -- reads -------------------------------------------------------------------------
    async def get_game(self, game_id: str) -> StoredGame | None:
        async with self._require().connect() as conn:
            row = (await conn.execute(_games_as_text().where(games.c.id == game_id))).first()
        return None if row is None else _stored(row)

    async def list_games(self, status: str | None = None, limit: int = 100) -> list[StoredGame]:
        query = _games_as_text().order_by(games.c.created_at.desc()).limit(limit)
        if status is not None:
            query = query.where(games.c.status == status)
        async with self._require().connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_stored(r) for r in rows]

    async def games_with_tokens(self, token_hashes: list[str], limit: int) -> list[StoredGame]:
        """The newest ``limit`` games one of whose seats was taken with a token of these
        hashes (hex digests, so a match in the room's text can only be a seat's hash)."""
        if not token_hashes:
            return []
        room_text = cast(games.c.room, Text)
        query = (
            _games_as_text()
            .where(or_(*(room_text.contains(h, autoescape=True) for h in token_hashes)))
            .order_by(games.c.created_at.desc())
            .limit(limit)
        )
        async with self._require().connect() as conn:
            rows = (await conn.execute(query)).all()
        return [_stored(r) for r in rows]

    async def note_review(self, game_id: str, seat: int, decisions: int, agreement: float) -> None:
        """Keeps a finished game's review summary for ``seat`` in its ``result`` (under
        ``reviews``), so 我的对局 can count the agreement after a restart. The record is
        public once the game is over, so its review tells nothing new."""
        async with self._require().begin() as conn:
            row = (await conn.execute(_games_as_text().where(games.c.id == game_id))).first()
            if row is None:
                return
            game = _stored(row)
            if game.status != "finished" or game.result is None or "error" in game.result:
                return
            result = dict(game.result)
            reviews = result.get("reviews")
            reviews = dict(reviews) if isinstance(reviews, dict) else {}
            reviews[str(seat)] = {"decisions": decisions, "agreement": agreement}
            result["reviews"] = reviews
            await conn.execute(update(games).where(games.c.id == game_id).values(result=result))

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

    async def holds(self, game_id: str) -> list[tuple[int, int, str]]:
        """The game's held answers as (seq, seat, action), in the order they came."""
        query = (
            select(game_holds.c.seq, game_holds.c.seat, game_holds.c.action)
            .where(game_holds.c.game_id == game_id)
            .order_by(game_holds.c.id)
        )
        async with self._require().connect() as conn:
            rows = (await conn.execute(query)).all()
        return [(int(r.seq), int(r.seat), str(r.action)) for r in rows]

    async def unfinished(self) -> list[str]:
        """Ids of the games still being played (each read on its own: one damaged row must
        not keep the others from resuming)."""
        query = select(games.c.id).where(games.c.status == "playing").order_by(games.c.created_at)
        async with self._require().connect() as conn:
            rows = (await conn.execute(query)).all()
        return [str(r[0]) for r in rows]

    async def mark_broken(self, game_id: str, reason: str) -> None:
        self.stats.broken_games += 1
        async with self._require().begin() as conn:
            await conn.execute(
                update(games)
                .where(games.c.id == game_id)
                .values(status="broken", result={"error": reason[:500]}, updated_at=time.time())
            )


Statement = tuple[Any, "list[dict[str, Any]] | tuple[Any, ...] | None"]


def _statements(batch: Sequence[Op], *, raw_events: bool = False) -> list[Statement]:
    """The SQL of ``batch`` in order, consecutive event lines as one many-row insert
    (``raw_events``: as the SQLite driver's own SQL text and parameters)."""
    out: list[Statement] = []
    rows: list[dict[str, Any]] = []
    for kind, data, _done in batch:
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
        out.extend(_insert_events(rows, raw_events))
        rows = []
        if kind == "create":
            row, head = data
            out.append((insert(games).values(**row), None))
            out.append(
                (
                    insert(game_events).values(
                        game_id=row["id"], seq=0, ts=row["created_at"], seat=None, payload=head
                    ),
                    None,
                )
            )
        elif kind == "hold":
            game_id, seq, seat, action, ts = data
            values = {"game_id": game_id, "seq": seq, "seat": seat, "action": action, "ts": ts}
            out.append((insert(game_holds).values(**values), None))
        elif kind in ("room", "status", "finish"):
            game_id, value = data
            changes = {
                "room": {"room": value},
                "status": {"status": value},
                "finish": {"status": "finished", "result": value},
            }[kind]
            out.append((_update_game(game_id, changes), None))
            if kind == "finish":
                # a finished game has no window left open
                out.append((delete(game_holds).where(game_holds.c.game_id == game_id), None))
    out.extend(_insert_events(rows, raw_events))
    return out


EVENT_ROWS_PER_INSERT = 150
"""Event lines per INSERT statement (5 bound values each: under SQLite's oldest limit of
999 values a statement)."""


def _insert_events(rows: list[dict[str, Any]], raw: bool = False) -> list[Statement]:
    # one multi-row statement rather than one execution per line: SQLite's driver lets go
    # of the GIL at every row it steps, and in a busy process each time it takes it back
    # is a wait behind the event loop, while the seats' updates wait for this commit
    chunks = [
        rows[i : i + EVENT_ROWS_PER_INSERT] for i in range(0, len(rows), EVENT_ROWS_PER_INSERT)
    ]
    if not raw:
        return [(insert(game_events).values(chunk), None) for chunk in chunks]
    # SQLAlchemy compiles a many-row VALUES afresh for every row count (its cache keys on
    # the rows), holding the GIL for longer than the write itself: measured at a sixth of
    # a loaded server's time. The writer thread sends SQLite the text directly; the payload
    # is the JSON text the column type would have written (json.dumps, its default).
    out: list[Statement] = []
    for chunk in chunks:
        params: list[Any] = []
        for row in chunk:
            params += (
                row["game_id"],
                row["seq"],
                row["ts"],
                row["seat"],
                json.dumps(row["payload"]),
            )
        out.append((_events_insert_sql(len(chunk)), tuple(params)))
    return out


@functools.lru_cache(maxsize=EVENT_ROWS_PER_INSERT)
def _events_insert_sql(count: int) -> str:
    row = "(?, ?, ?, ?, ?)"
    return "INSERT INTO game_events (game_id, seq, ts, seat, payload) VALUES " + ", ".join(
        [row] * count
    )


def _update_game(game_id: str, changes: dict[str, Any]) -> Any:
    return update(games).where(games.c.id == game_id).values(**changes, updated_at=time.time())


def pending_holds(
    lines: Sequence[dict[str, Any]], holds: Sequence[tuple[int, int, str]]
) -> list[tuple[int, str]]:
    """The held answers (seat, action) that ``lines`` has not resolved: a hold taken when
    ``seq`` lines were stored is resolved once a later line is its seat's action (it was
    applied) or a hand boundary (the hand ended without it)."""
    out: list[tuple[int, str]] = []
    for seq, seat, action in holds:
        later = lines[seq:] if 0 <= seq <= len(lines) else None
        if later is None:
            continue
        if any(
            line.get("type") in ("hand", "hand_end", "match_end")
            or (line.get("type") == "action" and line.get("seat") == seat)
            for line in later
        ):
            continue
        out.append((seat, action))
    return out


def _games_as_text() -> Any:
    """The games table with its JSON columns read as text, so that one damaged row is
    decoded (and reported) on its own instead of failing every query that meets it."""
    return select(
        games.c.id,
        games.c.room_code,
        games.c.variant,
        games.c.status,
        cast(games.c.room, Text).label("room"),
        cast(games.c.result, Text).label("result"),
        games.c.created_at,
        games.c.updated_at,
    )


def _json_object(text: str | None, column: str) -> dict[str, Any] | None:
    if text is None:
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise StorageError(f"the stored {column} is not JSON") from None
    if value is None:
        return None
    if not isinstance(value, dict):
        raise StorageError(f"the stored {column} is not a JSON object")
    return value


def _stored(row: Any) -> StoredGame:
    """A game row; a damaged ``room`` or ``result`` shows as such instead of raising."""
    try:
        room = _json_object(row.room, "room") or {}
        damage = None
    except StorageError as exc:
        room, damage = {}, str(exc)
    try:
        result = _json_object(row.result, "result")
    except StorageError as exc:
        result, damage = None, str(exc)
    if damage is not None:
        result = {"error": damage}
    return StoredGame(
        id=row.id,
        room_code=row.room_code,
        variant=row.variant,
        status=row.status,
        room=room,
        result=result,
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def check_database(url: str | None) -> str | None:
    """Open the database once and close it: None if it works, else the one-line reason
    (a read-only or unwritable data directory, a server that is not there)."""

    async def probe() -> None:
        storage = Storage(url)
        try:
            await storage.start()
        finally:
            await storage.close()

    try:
        asyncio.run(probe())
    except StorageError as exc:
        return str(exc)
    return None


def _sqlite_file(url: str) -> bool:
    """An SQLite URL of a file (an in-memory database is private to its one connection)."""
    path = url.split(":///", 1)[1] if ":///" in url else ""
    return bool(path) and path != ":memory:" and not path.startswith("file:")


def _first_line(exc: BaseException) -> str:
    text = str(exc)
    return text.splitlines()[0][:200] if text else ""


def _check_writable(path: Path) -> None:
    """SQLite opens a read-only file or directory lazily and fails at the first write: say
    so at startup instead."""
    target = path if path.exists() else path.parent
    if not os.access(target, os.W_OK) or (path.exists() and not os.access(path.parent, os.W_OK)):
        raise StorageError(f"cannot write the database {path}: permission denied")


def _safe_url(url: str) -> str:
    """The URL without a password."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        return f"{scheme}://…@{rest.rsplit('@', 1)[1]}"
    return url


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
