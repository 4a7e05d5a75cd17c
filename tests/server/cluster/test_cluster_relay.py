"""The relay between nodes on a real Redis: payloads keep their order, and what is queued
for one node in the same moment travels as one delivery."""

from __future__ import annotations

import asyncio
from typing import Any

from paiju.server.cluster.relay import Relay


def test_payloads_for_one_node_go_together_and_in_order(services: tuple[str, str]) -> None:
    import redis.asyncio as aioredis

    async def go() -> None:
        client = aioredis.from_url(services[0])
        got: dict[str, list[dict[str, Any]]] = {"b": [], "c": []}
        a = Relay(client, "a", lambda p: None, "paiju:")
        b = Relay(client, "b", got["b"].append, "paiju:")
        c = Relay(client, "c", got["c"].append, "paiju:")
        for relay in (a, b, c):
            await relay.start()
        # one decision's updates: three seats on b, one on c, queued in one moment
        for i in range(3):
            a.send("b", {"t": "out", "conn": f"s{i}", "msg": {"turn": 7, "i": i}})
        a.send("c", {"t": "out", "conn": "s3", "msg": {"turn": 7}})
        await a.flush()
        for _ in range(200):
            if len(got["b"]) == 3 and got["c"]:
                break
            await asyncio.sleep(0.01)
        assert [p["conn"] for p in got["b"]] == ["s0", "s1", "s2"]
        assert got["c"] == [{"t": "out", "conn": "s3", "msg": {"turn": 7}}]
        assert (b.deliveries, b.received) == (1, 3), "one publish carried b's three"
        assert (c.deliveries, c.received) == (1, 1)
        # a damaged message is dropped, the channel goes on
        await client.publish(b.channel("b"), "not json")
        a.send("b", {"t": "gone", "conn": "s0"})
        for _ in range(200):
            if len(got["b"]) == 4:
                break
            await asyncio.sleep(0.01)
        assert got["b"][-1] == {"t": "gone", "conn": "s0"}
        for relay in (a, b, c):
            await relay.close()
        await client.aclose()

    asyncio.run(go())
