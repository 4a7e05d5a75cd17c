"""The FastAPI application: REST for lobby, games and records; one websocket per client."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, WebSocket, WebSocketDisconnect
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles

import paiju
from paiju.server import protocol as P
from paiju.server.rooms import Connection, RoomManager, ServerConfig
from paiju.server.storage import Storage
from paiju.server.timers import Clock, TokenBucket
from paiju.variants.base import options_to_mapping

MAX_OUTBOX = 2000
"""Messages queued for one client before it is dropped as too slow."""
MAX_STRIKES = 100
"""Refused messages (rate limit) before a client is disconnected."""
REAP_SECONDS = 60.0


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
            await self.websocket.send_text(json.dumps(msg, ensure_ascii=False))


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

    @app.get("/api/health")
    async def health() -> dict[str, Any]:
        return {"ok": True, "protocol": P.PROTOCOL_VERSION, "version": paiju.__version__}

    @app.get("/api/variants")
    async def variants() -> list[dict[str, Any]]:
        from paiju.server.rooms import table_bots

        return [
            {
                "name": name,
                "n_seats": flow.n_seats,
                "options": options_to_mapping(flow.options_type()),
                "bots": table_bots(name),
            }
            for name, flow in manager.flows().items()
        ]

    @app.get("/api/protocol")
    async def protocol() -> dict[str, Any]:
        return {"version": P.PROTOCOL_VERSION, "client_messages": P.client_schema()}

    @app.get("/api/rooms/{code}")
    async def room(code: str) -> dict[str, Any]:
        found = manager.rooms.get(code.upper())
        if found is None:
            raise HTTPException(404, f"no room with code {code!r}")
        return found.public()

    @app.get("/api/games")
    async def games(status: str | None = None, limit: int = 50) -> list[dict[str, Any]]:
        if status not in (None, "playing", "finished", "broken"):
            raise HTTPException(422, "status must be playing, finished or broken")
        rows = await storage.list_games(status, max(1, min(limit, 500)))
        return [_game_json(g) for g in rows]

    @app.get("/api/games/{game_id}")
    async def game(game_id: str) -> dict[str, Any]:
        await storage.flush()
        found = await storage.get_game(game_id)
        if found is None:
            raise HTTPException(404, f"no game {game_id!r}")
        return _game_json(found)

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str) -> PlainTextResponse:
        # the match_end a client reacts to may still sit in the write queue
        await storage.flush()
        found = await storage.get_game(game_id)
        if found is None:
            raise HTTPException(404, f"no game {game_id!r}")
        if found.status != "finished":
            # the header holds the seed, from which every concealed tile follows
            raise HTTPException(409, "the record is available once the game has finished")
        lines = await storage.lines(game_id)
        body = "".join(
            json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n" for line in lines
        )
        return PlainTextResponse(
            body,
            media_type="application/x-ndjson",
            headers={"Content-Disposition": f'attachment; filename="paiju-{game_id}.jsonl"'},
        )

    @app.websocket("/ws")
    async def websocket(ws: WebSocket) -> None:
        await ws.accept()
        address = ws.client.host if ws.client is not None else "unknown"
        conn = SocketConnection(ws, address)
        cfg = manager.config
        conn.bucket = TokenBucket(cfg.message_rate, cfg.message_burst)
        pump = asyncio.create_task(conn.pump())
        if node is not None:
            node.connected(conn)
        conn.send(
            {
                "type": "welcome",
                "protocol": P.PROTOCOL_VERSION,
                "server": paiju.__version__,
                "variants": list(manager.flows()),
            }
        )
        strikes = 0
        try:
            while conn.closing is None:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if not conn.bucket.take():
                    strikes += 1
                    conn.send(P.error("rate_limited", "too many messages; slow down"))
                    if strikes >= MAX_STRIKES:
                        conn.close(1008)
                    continue
                try:
                    msg = P.parse_client_message(raw)
                    if node is None:
                        manager.handle(conn, msg)
                    else:
                        await node.handle(conn, raw, msg)
                except P.ProtocolError as exc:
                    conn.send(P.error(exc.code, exc.message))
        except WebSocketDisconnect:
            pass
        finally:
            (node or manager).disconnect(conn)
            conn.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pump, timeout=1.0)
            pump.cancel()

    if node is not None:
        from paiju.server.cluster.http import add_routes

        add_routes(app, node)

    from paiju.server.web_api import router as web_router

    app.include_router(web_router)

    static = static_dir or os.environ.get("PAIJU_STATIC_DIR") or "web/dist"
    if Path(static).is_dir():
        app.mount("/", StaticFiles(directory=static, html=True), name="static")
    return app


def _game_json(game: Any) -> dict[str, Any]:
    return {
        "id": game.id,
        "room": game.room_code,
        "variant": game.variant,
        "status": game.status,
        "seats": [
            {"kind": s.get("kind"), "level": s.get("level"), "name": s.get("name")}
            for s in game.room.get("seats", [])
        ],
        "result": game.result,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }


async def _reap(manager: RoomManager) -> None:
    while True:
        await asyncio.sleep(REAP_SECONDS)
        manager.reap()
