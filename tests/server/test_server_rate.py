"""Rate limits per client address: room creation, messages, room lookups; the address is
the peer's unless the peer is a trusted proxy."""

from __future__ import annotations

import ipaddress
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paiju.server.http import client_address
from paiju.server.timers import TokenBucket


def test_token_bucket_refills_at_its_rate() -> None:
    bucket = TokenBucket(rate=2.0, burst=3.0, stamp=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.4) is False
    assert bucket.take(0.5) is True
    assert bucket.take(10.0) is True
    assert bucket.tokens == pytest.approx(2.0)


def test_room_creation_is_rate_limited_per_address(make_app: Any, player_factory: Any) -> None:
    app = make_app(create_rate=0.001, create_burst=3)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        for _ in range(3):
            p.create("jiaxing")
        p.send({"type": "create_room", "variant": "jiaxing"})
        assert p.until("error")["code"] == "rate_limited"
        # a second connection from the same address shares the limit
        with client.websocket_connect("/ws") as ws2:
            q = player_factory(ws2)
            q.recv()
            q.send({"type": "create_room", "variant": "jiaxing"})
            assert q.until("error")["code"] == "rate_limited"
        assert len(app.state.manager.rooms) == 3


def test_messages_are_rate_limited_per_address(make_app: Any, player_factory: Any) -> None:
    app = make_app(message_rate=0.001, message_burst=5)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        for _ in range(5):
            p.send({"type": "ping"})
            assert p.until("pong", "error")["type"] == "pong"
        p.send({"type": "ping"})
        assert p.until("pong", "error")["code"] == "rate_limited"
        # more connections from the same address do not buy more messages
        with client.websocket_connect("/ws") as ws2:
            q = player_factory(ws2)
            q.recv()
            q.send({"type": "ping"})
            assert q.until("pong", "error")["code"] == "rate_limited"
        # another address has its own budget
        with client.websocket_connect("/ws", headers={"x-forwarded-for": "203.0.113.9"}) as ws3:
            r = player_factory(ws3)
            r.recv()
            r.send({"type": "ping"})
            # the peer is no trusted proxy: its forwarded-for header changes nothing
            assert r.until("pong", "error")["code"] == "rate_limited"


def test_forwarded_for_counts_only_from_trusted_proxies() -> None:
    proxies = [ipaddress.ip_network("10.0.0.0/8")]
    assert client_address("10.0.0.5", "198.51.100.7", proxies) == "198.51.100.7"
    # the rightmost hop that is not a proxy: a client cannot prepend a forged address
    assert client_address("10.0.0.5", "1.2.3.4, 198.51.100.7, 10.0.0.9", proxies) == (
        "198.51.100.7"
    )
    assert client_address("192.0.2.1", "198.51.100.7", proxies) == "192.0.2.1"
    assert client_address("10.0.0.5", "garbage", proxies) == "10.0.0.5"
    assert client_address("10.0.0.5", None, proxies) == "10.0.0.5"


def test_room_lookups_are_rate_limited(make_app: Any, player_factory: Any) -> None:
    app = make_app(lookup_rate=0.001, lookup_burst=3)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        for _ in range(2):
            p.send({"type": "join", "code": "QQQQQQQQQQ"})
            assert p.until("error")["code"] == "no_such_room"
        assert client.get("/api/rooms/QQQQQQQQQQ").status_code == 404
        p.send({"type": "join", "code": "QQQQQQQQQQ"})
        assert p.until("error")["code"] == "rate_limited"
        assert client.get("/api/rooms/QQQQQQQQQQ").status_code == 429


def test_bucket_level_refills_without_taking() -> None:
    bucket = TokenBucket(rate=1.0, burst=2.0, stamp=0.0)
    assert bucket.take(0.0) and bucket.take(0.0)
    assert bucket.level(0.5) == pytest.approx(0.5)
    assert bucket.level(5.0) == 2.0
    assert bucket.take(5.0)


def test_reap_forgets_addresses_whose_bucket_refilled(make_app: Any, player_factory: Any) -> None:
    app = make_app(create_rate=1000.0, create_burst=2)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing")
        manager = app.state.manager
        assert list(manager.create_buckets) == ["testclient"]
        time.sleep(0.01)
        client.portal.call(_reap, manager)
        assert manager.create_buckets == {}


async def _reap(manager: Any) -> None:
    manager.reap()
