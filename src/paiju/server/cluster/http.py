"""The HTTP routes a node adds: the cluster's state, the lobby's open rooms cluster-wide,
and a readiness check a reverse proxy can route by (503 while the node drains)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from paiju.server import rest as R


def add_routes(app: FastAPI, node: Any) -> None:
    # the state and the open rooms hold what every live node published, perhaps a node of
    # another version in a rolling upgrade: passed on as published (their models, in the
    # schema, are checked by the cluster tests), so one node's new field breaks no answer
    @app.get("/api/cluster", response_model=None)
    async def cluster() -> dict[str, Any]:
        described: dict[str, Any] = await node.describe()
        return described

    @app.get("/api/open-rooms", response_model=None)
    async def open_rooms() -> list[dict[str, Any]]:
        rooms: list[dict[str, Any]] = await node.open_rooms()
        return rooms

    @app.get("/api/ready", response_model=R.ReadyAnswer)
    async def ready() -> JSONResponse:
        if node.draining:
            answer = R.ReadyAnswer(ready=False, node=node.name, draining=True)
            return JSONResponse(answer.model_dump(exclude_none=True), 503)
        return JSONResponse(R.ReadyAnswer(ready=True, node=node.name).model_dump(exclude_none=True))
