"""Rate limits shared by the nodes: the borrowed-token buckets on a real Redis, and on two
real nodes the websocket and REST limits of one address counted across both; a crowd of
clients arriving at once at one node all get in (the Redis pool waits, it does not fail)."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from cluster_nodes import Node, Player, start_nodes

from paiju.server.cluster.limits import SharedLimits


def _limits(services: tuple[str, str], client: Any, clock: Any = None) -> SharedLimits:
    kinds = {"message": (0.001, 8.0, 2)}
    if clock is None:
        return SharedLimits(client, "paiju:", kinds)
    return SharedLimits(client, "paiju:", kinds, idle=5.0, clock=clock)


def test_two_nodes_spend_one_bucket_and_a_quiet_node_gives_back(
    services: tuple[str, str],
) -> None:
    import redis.asyncio as aioredis

    async def go() -> None:
        client = aioredis.from_url(services[0])
        now = [100.0]
        a = _limits(services, client, clock=lambda: now[0])
        b = _limits(services, client, clock=lambda: now[0])
        a.start()
        b.start()
        assert a.chunk("message") == 2
        spent_a = [await a.take("message", "1.2.3.4") for _ in range(5)]
        assert spent_a == [True] * 5
        # a borrowed in chunks of 2 and may hold one or two more: b gets what is left
        spent_b = [await b.take("message", "1.2.3.4") for _ in range(8)]
        held_a = a.budgets[("message", "1.2.3.4")].held
        assert sum(spent_b) == 8 - 5 - held_a
        assert 1 <= sum(spent_b) <= 3
        assert await b.take("message", "5.6.7.8"), "buckets are per address"
        # a's address goes quiet: what a holds goes back to the shared bucket
        now[0] += 10.0
        trips = a.round_trips
        a.sweep()
        assert ("message", "1.2.3.4") not in a.budgets
        for _ in range(3000):
            if a.round_trips > trips:
                break
            await asyncio.sleep(0.02)
        assert a.round_trips > trips, "a never gave its tokens back"
        extra = [await b.take("message", "1.2.3.4") for _ in range(held_a + 2)]
        assert sum(extra) == held_a
        # a token held is spent on the spot, without waiting for Redis
        assert await a.take("message", "9.9.9.9")
        assert a.budgets[("message", "9.9.9.9")].held == 1
        assert a.try_take("message", "9.9.9.9") is True
        await a.close()
        await b.close()
        await client.aclose()

    asyncio.run(go())


def test_redis_away_falls_back_to_nobody_refused(services: tuple[str, str]) -> None:
    import redis.asyncio as aioredis

    async def go() -> None:
        client = aioredis.from_url("redis://127.0.0.1:9/0", socket_connect_timeout=0.5)
        limits = _limits(services, client)
        limits.start()
        assert await limits.take("message", "1.2.3.4") is False
        assert not limits.healthy, "the caller is told to count on its own"
        await limits.close()
        await client.aclose()

    asyncio.run(go())


@pytest.fixture
def strict(services: tuple[str, str], tmp_path: Path) -> Iterator[dict[str, Node]]:
    """Two nodes whose message and lookup budgets barely refill."""
    redis_url, pg_url = services
    settings = {
        "message_rate": 0.001,
        "message_burst": 20,
        "lookup_rate": 0.001,
        "lookup_burst": 6,
    }
    nodes = start_nodes(("a", "b"), redis_url, pg_url, tmp_path, settings=settings)
    try:
        yield {node.name: node for node in nodes}
    finally:
        for node in nodes:
            node.stop()


def _pings(player: Player, n: int) -> int:
    """Send ``n`` pings; how many were answered (the rest refused as rate limited)."""
    for i in range(n):
        player.send({"type": "ping", "t": i})
    answered = 0
    for _ in range(n):
        msg = player.recv()
        if msg["type"] == "pong":
            answered += 1
        else:
            assert msg["type"] == "error" and msg["code"] == "rate_limited", msg
    return answered


def test_one_address_has_one_message_budget_across_nodes(strict: dict[str, Node]) -> None:
    on_a = Player(strict["a"].ws)
    on_b = Player(strict["b"].ws)
    try:
        assert _pings(on_a, 15) == 15
        # counted per node, b would answer all 15 as well; shared, at most what is left
        # of the burst of 20 (a may still hold a few it borrowed)
        answered_b = _pings(on_b, 15)
        assert answered_b <= 5
        assert _pings(on_a, 5) + answered_b <= 5
    finally:
        on_a.close()
        on_b.close()


def test_room_lookups_over_http_share_one_budget(strict: dict[str, Node]) -> None:
    def status(node: Node) -> int:
        url = f"http://127.0.0.1:{node.port}/api/rooms/NOSUCHROOM"
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            return int(exc.code)

    first = [status(strict["a"]) for _ in range(4)]
    assert first == [404] * 4
    then = [status(strict["b"]) for _ in range(4)]
    # a burst of 6 for the address, whichever node it asks
    assert then.count(404) <= 2 and then.count(429) >= 2, then


@pytest.fixture
def roomy(services: tuple[str, str], tmp_path: Path) -> Iterator[dict[str, Node]]:
    redis_url, pg_url = services
    loose = {"lookup_rate": 1000, "lookup_burst": 1000}
    nodes = start_nodes(("a", "b"), redis_url, pg_url, tmp_path, settings=loose)
    try:
        yield {node.name: node for node in nodes}
    finally:
        for node in nodes:
            node.stop()


def test_a_crowd_joining_at_once_through_one_node_all_get_in(roomy: dict[str, Node]) -> None:
    """100 clients send their join in the same moment to node a for a room node b owns:
    each join asks Redis who owns the room. A pool that refused connections past its
    size closed the sockets of those that found it full (18 of 80 tables in a load run)."""
    from websockets.asyncio.client import connect

    host = Player(roomy["b"].ws)
    host.send(
        {
            "type": "create_room",
            "variant": "jiaxing",
            "seats": [{"kind": "person"}] + [{"kind": "bot", "level": "greedy"}] * 3,
        }
    )
    code = host.recv("room_created")["code"]

    async def crowd() -> list[str]:
        sockets = []
        for _ in range(100):
            ws = await connect(roomy["a"].ws, open_timeout=10)
            assert json.loads(await ws.recv())["type"] == "welcome"
            sockets.append(ws)
        join = json.dumps({"type": "join", "code": code})
        await asyncio.gather(*(ws.send(join) for ws in sockets))

        async def answer(ws: Any) -> str:
            try:
                while True:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
                    if msg["type"] in ("room", "error"):
                        return str(msg["type"] if msg["type"] == "room" else msg["code"])
            except Exception as exc:
                return type(exc).__name__

        answers = await asyncio.gather(*(answer(ws) for ws in sockets))
        await asyncio.gather(*(ws.close() for ws in sockets))
        return list(answers)

    try:
        answers = asyncio.run(crowd())
        assert answers == ["room"] * 100, {a: answers.count(a) for a in set(answers)}
    finally:
        host.close()
