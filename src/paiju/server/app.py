"""The FastAPI application: REST for lobby, games and records; one websocket per client."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.middleware.gzip import GZipMiddleware

import paiju
from paiju.server import messages as M
from paiju.server import protocol as P
from paiju.server import rest as R
from paiju.server.http import BodyLimit, SecurityHeaders, client_address, origin_allowed
from paiju.server.manager import RoomManager
from paiju.server.metrics import health_report, prometheus_text
from paiju.server.room import Connection, ServerConfig
from paiju.server.storage import Storage
from paiju.server.timers import Clock

try:
    import orjson as _orjson
except ImportError:  # pragma: no cover - the server extra installs it
    _orjson = None  # type: ignore[assignment]

MAX_OUTBOX = 2000
"""Messages queued for one client before it is dropped as too slow."""
MAX_STRIKES = 100
"""Refused messages (rate limit) before a client is disconnected."""
REAP_SECONDS = 60.0

access_log = logging.getLogger("paiju.access")
error_log = logging.getLogger("paiju.error")


class SocketConnection(Connection):
    def __init__(self, websocket: WebSocket, address: str) -> None:
        super().__init__(address)
        self.websocket = websocket
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()
        self.closing: int | None = None

    def send(self, message: dict[str, Any]) -> None:
        if self.closing is not None:
            return
        if self.outbox.qsize() >= MAX_OUTBOX:
            self.close(1008)
            return
        self.outbox.put_nowait(message)

    def close(self, code: int = 1000) -> None:
        if self.closing is None:
            self.closing = code
            self.outbox.put_nowait(None)

    async def pump(self) -> None:
        """Send queued messages in order; closes the socket when asked to."""
        while True:
            msg = await self.outbox.get()
            if msg is None:
                with contextlib.suppress(Exception):
                    await self.websocket.close(self.closing or 1000)
                return
            await self.websocket.send_text(encode_message(msg))


def encode_message(msg: dict[str, Any]) -> str:
    """A message as the compact JSON text its frame carries (UTF-8, not ASCII-escaped).

    Every update to every seat is encoded on the event loop; orjson does it several times
    faster than the standard library. A value orjson refuses (an integer beyond 64 bits)
    and a server without orjson take the standard encoder, whose text parses the same."""
    if _orjson is not None:
        try:
            return _orjson.dumps(msg, option=_orjson.OPT_NON_STR_KEYS).decode()
        except TypeError:
            pass
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def create_app(
    database_url: str | None = None,
    config: ServerConfig | None = None,
    clock: Clock | None = None,
    static_dir: str | None = None,
    cluster: Any = None,
) -> FastAPI:
    """An app with its own storage and rooms. ``database_url`` defaults to
    ``PAIJU_DATABASE_URL`` or SQLite under ./data; ``static_dir`` (default: ``PAIJU_STATIC_DIR``
    or ./web/dist) is served at ``/`` when it exists."""
    node: Any = None
    if cluster is None:
        storage = Storage(database_url)
        manager = RoomManager(storage, config, clock)
    else:
        # one node of several (paiju.server.cluster.ClusterSettings): docs/deploy.md
        from paiju.server.cluster.node import ClusterNode, ClusterRoomManager
        from paiju.server.cluster.storage import FencedStorage

        storage = FencedStorage(database_url, cluster.node)
        manager = ClusterRoomManager(storage, config, clock)
        node = ClusterNode(manager, storage, cluster)
    cfg = manager.config
    proxies = [ipaddress.ip_network(p, strict=False) for p in cfg.trusted_proxies]

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await storage.start()
        if node is None:
            await manager.resume_all()
        else:
            await node.start()  # the node takes over only rooms nobody owns
        reaper = asyncio.create_task(_reap(manager))
        try:
            yield
        finally:
            reaper.cancel()
            if node is not None:
                await node.close()
            await manager.close()
            await storage.close()

    app = FastAPI(title="paiju", version=paiju.__version__, lifespan=lifespan)
    app.state.manager = manager
    app.state.storage = storage
    app.state.node = node

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        # a bug must not become a 500 with a traceback for the client: log it, refuse input
        error_log.error(
            "unhandled error on %s %s: %s",
            request.method,
            request.url.path,
            exc,
            exc_info=exc,
        )
        return JSONResponse(
            {"error": f"this input could not be processed ({type(exc).__name__})"},
            status_code=422,
        )

    @app.get("/api/health", response_model=R.HealthAnswer)
    async def health() -> JSONResponse:
        report = R.HealthAnswer.model_validate(health_report(manager))
        return JSONResponse(report.model_dump(mode="json"), status_code=200 if report.ok else 503)

    @app.get("/metrics")
    async def metrics() -> PlainTextResponse:
        return PlainTextResponse(
            prometheus_text(manager), media_type="text/plain; version=0.0.4; charset=utf-8"
        )

    @app.get("/api/variants")
    async def variants() -> list[R.VariantInfo]:
        return [R.VariantInfo.model_validate(v.describe()) for v in manager.flows().values()]

    @app.get("/api/protocol")
    async def protocol() -> R.ProtocolAnswer:
        return R.ProtocolAnswer(version=P.PROTOCOL_VERSION, client_messages=P.client_schema())

    @app.get("/api/schema")
    async def schema() -> R.SchemaAnswer:
        return R.SchemaAnswer(
            version=P.PROTOCOL_VERSION,
            client_messages=P.client_schema(),
            server_messages=M.server_schema(),
        )

    @app.get("/api/rooms")
    async def rooms(
        request: Request, status: str | None = None, limit: int = 50
    ) -> list[M.RoomInfo]:
        """Rooms on this server, newest first; ``status=waiting``: those a person may still
        sit down in (the lobby's list of open rooms)."""
        if status not in (None, "waiting", "playing", "finished"):
            raise HTTPException(422, "status must be waiting, playing or finished")
        address = _address(request.client.host if request.client else None, request.headers)
        if not await manager.admit("lookup", address):
            raise HTTPException(429, "too many room lookups; wait a little")
        found = [r for r in manager.rooms.values() if status is None or r.status == status]
        if status == "waiting":
            found = [r for r in found if _has_free_seat(r)]
        found.sort(key=lambda r: r.created, reverse=True)
        return [M.RoomInfo.model_validate(r.public()) for r in found[: max(1, min(limit, 200))]]

    @app.get("/api/rooms/{code}")
    async def room(code: str, request: Request) -> M.RoomInfo:
        address = _address(request.client.host if request.client else None, request.headers)
        if not await manager.admit("lookup", address):
            raise HTTPException(429, "too many room lookups; wait a little")
        try:
            found = manager.room(code[:32])
        except P.ProtocolError as exc:
            raise HTTPException(404, exc.message) from None
        return M.RoomInfo.model_validate(found.public())

    @app.get("/api/games")
    async def games(status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        if status not in (None, "playing", "finished", "broken", "abandoned"):
            raise HTTPException(422, "status must be playing, finished, broken or abandoned")
        rows = await storage.list_games(status, max(1, min(limit, 500)))
        return [_game_json(g) for g in rows]

    @app.get("/api/games/{game_id}")
    async def game(game_id: str) -> dict[str, Any]:
        found = await storage.get_game(game_id[:64])
        if found is None:
            raise HTTPException(404, f"no game {game_id[:64]!r}")
        return _game_json(found)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> PlainTextResponse:
        found = await storage.get_game(game_id[:64])
        if found is None:
            raise HTTPException(404, f"no game {game_id[:64]!r}")
        if found.status != "finished":
            # the header holds the seed, from which every concealed tile follows
            raise HTTPException(409, "the record is available once the game has finished")
        lines = await storage.lines(found.id)
        body = "".join(
            json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines
        )
        return PlainTextResponse(
            body,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="paiju-{found.id}.jsonl"'},
        )

    def _address(peer: str | None, headers: Any) -> str:
        return client_address(peer, headers.get("x-forwarded-for"), proxies)

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        peer = ws.client.host if ws.client is not None else None
        address = _address(peer, ws.headers)
        origin = ws.headers.get("origin")
        if not origin_allowed(origin, ws.headers.get("host"), cfg.allowed_origins):
            access_log.info(
                "websocket refused",
                extra={"event": "ws_refused", "client": address, "origin": origin},
            )
            await ws.close(code=1008)
            return
        await ws.accept()
        conn = SocketConnection(ws, address)
        started = time.monotonic()
        access_log.info("websocket open", extra={"event": "ws_open", "client": address})
        pump = asyncio.create_task(conn.pump())
        if node is not None:
            node.connected(conn)
        conn.send(
            M.Welcome(
                protocol=P.PROTOCOL_VERSION,
                server=paiju.__version__,
                variants=list(manager.flows()),
            ).json_dict()
        )
        strikes = 0
        received = 0
        try:
            while conn.closing is None:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                received += 1
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if not await manager.admit("message", address):
                    strikes += 1
                    conn.send(M.error("rate_limited", "too many messages; slow down"))
                    if strikes >= MAX_STRIKES:
                        conn.close(1008)
                    continue
                try:
                    msg = P.parse_client_message(raw, cfg.max_frame_bytes)
                    if node is None:
                        manager.handle(conn, msg)
                    else:
                        await node.handle(conn, raw, msg)
                except P.ProtocolError as exc:
                    conn.send(M.error(exc.code, exc.message))
        except WebSocketDisconnect:
            pass
        finally:
            (node or manager).disconnect(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, timeout=1.0)
            pump.cancel()
            access_log.info(
                "websocket closed",
                extra={
                    "event": "ws_close",
                    "client": address,
                    "messages": received,
                    "seconds": round(time.monotonic() - started, 3),
                },
            )

    if node is not None:
        from paiju.server.cluster.http import add_routes

        add_routes(app, node)

    from paiju.server.web_api import router as web_router

    app.include_router(web_router)

    from paiju.server.review_api import router as review_router

    app.include_router(review_router)

    from paiju.server.player_api import router as player_router

    app.include_router(player_router)

    from paiju.server.rule_books import router as rule_books_router

    app.include_router(rule_books_router)

    static = static_dir or os.environ.get("PAIJU_STATIC_DIR") or "web/dist"
    if Path(static).is_dir():
        app.mount("/", ClientFiles(directory=static, html=True), name="static")
    app.add_middleware(GZipMiddleware, minimum_size=1024)
    # outermost first: the body limit sees the request before anything reads it
    app.add_middleware(SecurityHeaders)
    app.add_middleware(BodyLimit, proxies=proxies)
    return app


class ClientFiles(StaticFiles):
    """The built client. Vite names every asset under ``assets/`` by its content hash, so those
    never change and may be cached for good; the page, the manifest and the service worker
    must be asked for again each time (they name the current hashes)."""

    async def get_response(self, path: str, scope: Any) -> Response:
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            if path.startswith("assets/"):
                response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
            else:
                response.headers["Cache-Control"] = "no-cache"
        return response


def _has_free_seat(room: Any) -> bool:
    return any(s.kind == "person" and not s.token_hash for s in room.seats)


def _game_json(game: Any) -> dict[str, Any]:
    """The game as ``R.GameSummary`` (built through the model, so the answer is what the
    published schema says); a row whose result does not fit says so in ``error``."""
    seats = [
        {"kind": _seat_kind(s.get("kind")), "level": s.get("level"), "name": s.get("name")}
        for s in game.room.get("seats", [])
        if isinstance(s, dict)
    ]
    fields = {
        "id": game.id,
        "room": game.room_code,
        "variant": game.variant,
        "status": game.status,
        "seats": seats,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }
    try:
        summary = R.GameSummary.model_validate({**fields, "result": game.result})
    except ValidationError:
        summary = R.GameSummary.model_validate(
            {**fields, "result": {"error": "this game's stored result is damaged"}}
        )
    return summary.model_dump(mode="json", exclude_unset=True)


def _seat_kind(kind: Any) -> str | None:
    return kind if kind in ("person", "bot") else None


async def _reap(manager: RoomManager) -> None:
    while True:
        await asyncio.sleep(REAP_SECONDS)
        manager.reap()
