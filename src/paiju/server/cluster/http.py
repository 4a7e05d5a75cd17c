"""The HTTP routes a node adds: the cluster's state, the lobby's open rooms cluster-wide,
and a readiness check a reverse proxy can route by (503 while the node drains)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse


def add_routes(app: FastAPI, node: Any) -> None:
    @app.get("/api/cluster")
    async def cluster() -> dict[str, Any]:
        described: dict[str, Any] = await node.describe()
        return described

    @app.get("/api/open-rooms")
    async def open_rooms() -> list[dict[str, Any]]:
        rooms: list[dict[str, Any]] = await node.open_rooms()
        return rooms

    @app.get("/api/ready")
    async def ready() -> JSONResponse:
        if node.draining:
            return JSONResponse({"ready": False, "node": node.name, "draining": True}, 503)
        return JSONResponse({"ready": True, "node": node.name})
