"""Shared fixtures for the server tests: apps on throwaway databases and a scripted player."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("sqlalchemy")

from fastapi import FastAPI
from fastapi.testclient import TestClient

from paiju.server.app import create_app
from paiju.server.room import ServerConfig
from paiju.server.storage import metadata
from paiju.server.timers import Clock

POSTGRES_URL = os.environ.get("PAIJU_TEST_POSTGRES_URL")


def fast_config(**overrides: Any) -> ServerConfig:
    values: dict[str, Any] = {
        "bot_delay": 0.0,
        "next_hand_delay": 0.0,
        "rejoin_grace": 3600.0,
        "seed": 20261129,
        # the scripted players answer at machine speed; test_server_rate sets its own
        "message_rate": 1000.0,
        "message_burst": 1000.0,
    }
    values.update(overrides)
    return ServerConfig(**values)


def _reset_postgres(url: str) -> None:
    from sqlalchemy.ext.asyncio import create_async_engine

    from paiju.server.storage import database_url

    async def reset() -> None:
        engine = create_async_engine(database_url(url))
        async with engine.begin() as conn:
            await conn.run_sync(metadata.drop_all)
        await engine.dispose()

    asyncio.run(reset())


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, or PostgreSQL when PAIJU_TEST_POSTGRES_URL is set."""
    if request.param == "sqlite":
        return f"sqlite+aiosqlite:///{tmp_path / 'paiju.db'}"
    if not POSTGRES_URL:
        pytest.skip("PAIJU_TEST_POSTGRES_URL is not set (scripts/postgres-test.sh sets it)")
    _reset_postgres(POSTGRES_URL)
    return POSTGRES_URL


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'paiju.db'}"


AppFactory = Callable[..., FastAPI]


@pytest.fixture
def make_app(sqlite_url: str) -> AppFactory:
    def build(url: str | None = None, clock: Clock | None = None, **config: Any) -> FastAPI:
        return create_app(url or sqlite_url, fast_config(**config), clock, static_dir="/none")

    return build


@pytest.fixture
def client(make_app: AppFactory) -> Iterator[TestClient]:
    with TestClient(make_app()) as c:
        yield c


class Player:
    """A websocket session with helpers to wait for message types and to play simply."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []
        self.last_state: dict[str, Any] | None = None
        self.token: str | None = None
        self.seat: int | None = None

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json(message)

    @staticmethod
    def choose(msg: dict[str, Any]) -> str:
        return choose(msg)

    def recv(self) -> dict[str, Any]:
        msg: dict[str, Any] = self.ws.receive_json()
        self.log.append(msg)
        if msg.get("type") in ("update", "snapshot") and "turn" in msg:
            self.last_state = msg
        if msg.get("type") == "seated":
            self.token = msg["token"]
            self.seat = msg["seat"]
        return msg

    def until(self, *types: str) -> dict[str, Any]:
        while True:
            msg = self.recv()
            if msg["type"] in types:
                return msg
            if msg["type"] == "error":
                raise AssertionError(f"unexpected error {msg}")

    def create(self, variant: str = "jiaxing", **fields: Any) -> str:
        fields.setdefault("options", {"hands": 1})
        self.send({"type": "create_room", "variant": variant, **fields})
        code: str = self.until("room_created")["code"]
        self.until("snapshot")
        return code

    def take(self, seat: int, name: str = "") -> None:
        self.send({"type": "take_seat", "seat": seat, "name": name})
        self.until("seated")

    def act_once(self) -> dict[str, Any]:
        """Wait until this seat may act, then play a simple choice; returns the state."""
        while True:
            msg = self.recv()
            if msg["type"] in ("update", "snapshot") and msg.get("legal"):
                self.send({"type": "act", "action": choose(msg), "turn": msg["turn"]})
                return msg
            if msg["type"] == "error":
                raise AssertionError(f"unexpected error {msg}")

    def play_to(self, stop: str, pending: dict[str, Any] | None = None) -> dict[str, Any]:
        """Answer every decision with a simple choice until a message of type ``stop``;
        ``pending``: a message already received that may ask for a decision."""
        if pending is not None and pending.get("legal"):
            self.send({"type": "act", "action": choose(pending), "turn": pending["turn"]})
        while True:
            msg = self.recv()
            if msg["type"] == stop:
                return msg
            if msg["type"] == "error":
                raise AssertionError(f"unexpected error {msg}")
            if msg["type"] in ("update", "snapshot") and msg.get("legal"):
                self.send({"type": "act", "action": choose(msg), "turn": msg["turn"]})


def choose(msg: dict[str, Any]) -> str:
    legal: list[str] = msg["legal"]
    for pick in ("zimo", "hu", "pass"):
        if pick in legal:
            return pick
    drawn = msg["state"].get("drawn")
    if drawn and "d" + drawn in legal:
        return "d" + drawn
    return legal[0]


@pytest.fixture
def player_factory() -> Callable[[Any], Player]:
    return Player
