"""Leases, the node registry, the shared lobby state and the storage fence, on a real
Redis and a real PostgreSQL."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from sqlalchemy.ext.asyncio import create_async_engine

from paiju.server.cluster import fence
from paiju.server.cluster.lease import Lease, Leases, Registry, parse_owner
from paiju.server.cluster.shared import Shared
from paiju.server.storage import database_url


def run(coro: Any) -> Any:
    return asyncio.run(coro)


async def _until_gone(client: Any, key: str) -> None:
    """Wait for Redis to expire ``key`` (on Redis's clock: a slow test process cannot make
    a lease lapse early or late); bounded only against a hang."""
    for _ in range(600):
        if not await client.exists(key):
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{key} never expired")


def test_one_owner_per_room_and_epochs_only_grow(services: tuple[str, str]) -> None:
    async def go() -> None:
        client = aioredis.from_url(services[0])
        # a lease long enough that no scheduling delay of this process lets it lapse
        a = Leases(client, "a", ttl=30.0)
        b = Leases(client, "b", ttl=30.0)
        first = await a.acquire("ABCD")
        assert first == Lease("ABCD", "a", 1)
        assert await b.acquire("ABCD") is None, "a held lease cannot be taken"
        assert await a.owner("ABCD") == ("a", 1)
        # renewing gives the lease its whole time to live again
        key = a.owner_key("ABCD")
        await asyncio.sleep(0.2)
        before = await client.pttl(key)
        assert 0 < before < 30_000
        assert await a.renew([first]) == []
        assert await client.pttl(key) > before
        assert await b.acquire("ABCD") is None
        # a lapses (no renewal): b takes it with a larger epoch, and a's renewal fails
        short = Leases(client, "a", ttl=0.3)
        assert await short.renew([first]) == []
        await _until_gone(client, key)
        second = await b.acquire("ABCD")
        assert second == Lease("ABCD", "b", 2)
        assert await a.renew([first]) == [first]
        assert not await a.release(first), "a lost lease cannot be released by its old owner"
        assert await b.owner("ABCD") == ("b", 2)
        assert await b.release(second)
        third = await a.acquire("ABCD")
        assert third is not None and third.epoch == 3
        assert await a.owners(["ABCD", "NONE"]) == {"ABCD": ("a", 3), "NONE": None}
        await client.aclose()

    run(go())


def test_racing_nodes_get_one_lease_each_room(services: tuple[str, str]) -> None:
    async def go() -> None:
        # 200 acquisitions at once over a few connections: Redis interleaves them all the
        # same (200 connections opened at once timed out on a starved machine)
        pool = aioredis.BlockingConnectionPool.from_url(
            services[0], max_connections=16, timeout=None, socket_connect_timeout=60
        )
        client = aioredis.Redis.from_pool(pool)
        nodes = [Leases(client, f"n{i}") for i in range(5)]
        codes = [f"R{i:03d}" for i in range(40)]
        results = await asyncio.gather(*(n.acquire(c) for c in codes for n in nodes))
        won = [r for r in results if r is not None]
        assert sorted(r.code for r in won) == codes
        await client.aclose()

    run(go())


def test_registry_drops_a_silent_node(services: tuple[str, str]) -> None:
    async def go() -> None:
        client = aioredis.from_url(services[0])
        a = Registry(client, "a", ttl=0.3)
        b = Registry(client, "b", ttl=30.0)
        await a.heartbeat({"url": "ws://127.0.0.1:1/ws", "rooms": 2})
        await b.heartbeat({"rooms": 0})
        nodes = await b.nodes()
        assert sorted(nodes) == ["a", "b"] and nodes["a"]["rooms"] == 2
        await _until_gone(client, a.key("a"))
        assert sorted(await b.nodes()) == ["b"]
        assert await client.smembers("paiju:nodes") == {b"b"}, "the dead name is dropped"
        await b.leave()
        assert await b.nodes() == {}
        await client.aclose()

    run(go())


def test_codes_open_rooms_tokens_and_rate_limits(services: tuple[str, str]) -> None:
    async def go() -> None:
        client = aioredis.from_url(services[0])
        a, b = Shared(client, "a"), Shared(client, "b")
        assert await a.reserve_code("WXYZ")
        assert not await b.reserve_code("WXYZ"), "a code is unique across the cluster"
        await a.free_code("WXYZ")
        assert await b.reserve_code("WXYZ")

        await a.publish_open({"AAAA": {"variant": "jiaxing"}}, 1000)
        await b.publish_open({"BBBB": {"variant": "qinger"}}, 1000)
        rooms = await a.open_rooms(["a", "b"])
        assert [(r["code"], r["node"]) for r in rooms] == [("AAAA", "a"), ("BBBB", "b")]
        await a.publish_open({}, 1000)
        assert [r["code"] for r in await b.open_rooms(["a", "b"])] == ["BBBB"]
        # a dead node is not asked: its rooms leave the list with it
        assert await b.open_rooms(["b"]) == [r for r in rooms if r["node"] == "b"]

        await a.publish_tokens({"h1": "AAAA"})
        assert await b.token_room("h1") == "AAAA"
        await a.forget_tokens(["h1"])
        assert await b.token_room("h1") is None

        # one bucket for the whole cluster: three through a, then b finds it empty
        taken = [await a.take("create:1.2.3.4", 0.001, 3) for _ in range(3)]
        assert taken == [True, True, True]
        assert not await b.take("create:1.2.3.4", 0.001, 3)
        assert await b.take("create:5.6.7.8", 0.001, 3), "buckets are per key"
        await client.aclose()

    run(go())


def test_the_fence_refuses_a_stale_owner(services: tuple[str, str]) -> None:
    async def go() -> None:
        engine = create_async_engine(database_url(services[1]))
        await fence.create_table(engine)
        async with engine.begin() as conn:
            assert await fence.claim(conn, "g1", 1, "a")
        async with engine.begin() as conn:
            assert await fence.check(conn, {"g1": 1}) == {}
        async with engine.begin() as conn:
            assert await fence.claim(conn, "g1", 2, "b")
            assert not await fence.claim(conn, "g1", 2, "c"), "an equal epoch is not newer"
            assert not await fence.claim(conn, "g1", 1, "a"), "epochs never go back"
        async with engine.begin() as conn:
            assert await fence.check(conn, {"g1": 1}) == {"g1": 2}
            assert await fence.check(conn, {"g1": 2, "g2": 1}) == {"g2": None}
            assert await fence.current(conn, ["g1"]) == {"g1": (2, "b")}
        await engine.dispose()

    run(go())


def test_a_claim_waits_for_the_write_that_holds_the_row(services: tuple[str, str]) -> None:
    """The old owner's transaction has checked its epoch (and holds the row); the new
    owner's claim must wait for it to commit, so the log it then reads has that write."""

    async def go() -> None:
        engine = create_async_engine(database_url(services[1]))
        await fence.create_table(engine)
        async with engine.begin() as conn:
            await fence.claim(conn, "g1", 1, "a")
        order: list[str] = []
        checked = asyncio.Event()

        async def old_owner() -> None:
            async with engine.begin() as conn:
                assert await fence.check(conn, {"g1": 1}) == {}
                checked.set()
                await asyncio.sleep(0.3)
                order.append("old owner committed")

        async def new_owner() -> None:
            await checked.wait()
            async with engine.begin() as conn:
                assert await fence.claim(conn, "g1", 2, "b")
                order.append("claimed")

        await asyncio.gather(old_owner(), new_owner())
        assert order == ["old owner committed", "claimed"]
        await engine.dispose()

    run(go())


def test_parse_owner() -> None:
    assert parse_owner(b"node-a|12") == ("node-a", 12)
    assert parse_owner("x|y|3") == ("x|y", 3)
    assert parse_owner(None) is None
    assert parse_owner("garbage") is None
