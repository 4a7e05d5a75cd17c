"""Two real ``paiju serve --node`` processes on one Redis and one PostgreSQL: a client on
either node plays in a room owned by the other; a node killed with SIGKILL mid-play loses
no decision; a paused node that wakes after its lease was taken writes nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from cluster_nodes import Node, Player, wait_for


@pytest.fixture
def cluster(services: tuple[str, str], tmp_path: Path) -> Iterator[dict[str, Node]]:
    redis_url, pg_url = services
    started: dict[str, Node] = {}
    try:
        for name in ("a", "b"):
            started[name] = Node(name, redis_url, pg_url, tmp_path)
        yield started
    finally:
        for node in started.values():
            node.stop()


def _logged_actions(pg_url: str, game_id: str, seat: int | None = None) -> list[dict[str, Any]]:
    from sqlalchemy import select
    from sqlalchemy.ext.asyncio import create_async_engine

    from paiju.server.storage import database_url, game_events

    async def read() -> list[dict[str, Any]]:
        engine = create_async_engine(database_url(pg_url))
        query = (
            select(game_events.c.payload)
            .where(game_events.c.game_id == game_id)
            .order_by(game_events.c.seq)
        )
        async with engine.connect() as conn:
            rows = [dict(r[0]) for r in (await conn.execute(query)).all()]
        await engine.dispose()
        return rows

    lines = asyncio.run(read())
    return [
        line
        for line in lines
        if line.get("type") == "action" and (seat is None or line.get("seat") == seat)
    ]


def _create(player: Player, seats: list[str], hands: int = 1) -> str:
    player.send(
        {
            "type": "create_room",
            "variant": "jiaxing",
            "options": {"hands": hands},
            "seats": [{"kind": k, "level": "greedy"} for k in seats],
        }
    )
    code: str = player.recv("room_created")["code"]
    return code


def test_a_client_on_one_node_plays_in_a_room_owned_by_the_other(
    cluster: dict[str, Node],
) -> None:
    host = Player(cluster["a"].ws, seed=1)
    guest = Player(cluster["b"].ws, seed=2)
    code = _create(host, ["person", "person", "bot", "bot"])
    # the lobby on the other node lists it (cluster-wide open rooms)
    listed = wait_for(
        lambda: [r for r in cluster["b"].get("/api/open-rooms") if r["code"] == code],
        what="the open room on node b",
    )
    assert listed[0]["node"] == "a"
    host.send({"type": "take_seat", "seat": 0, "name": "host"})
    host.recv("seated")
    guest.send({"type": "join", "code": code})
    assert guest.recv("room")["room"]["code"] == code
    guest.send({"type": "take_seat", "seat": 1, "name": "guest"})
    assert guest.recv("seated")["seat"] == 1
    made = 0
    deadline = time.monotonic() + 30
    while made < 3 and time.monotonic() < deadline:
        # both answer whatever they are asked; the guest's answers travel b → a → b
        for p in (host, guest):
            try:
                msg = p.recv(timeout=0.2)
            except TimeoutError:
                continue
            if p.act_if_asked(msg) and p is guest:
                made += 1
    assert made >= 3 and len(guest.acknowledged) >= 2
    described = cluster["b"].get("/api/cluster")
    assert sorted(described["nodes"]) == ["a", "b"]
    assert cluster["a"].get("/api/cluster")["counters"]["relayed_in"] >= 3
    host.close()
    guest.close()


def test_a_node_killed_mid_play_loses_no_decision(
    cluster: dict[str, Node], services: tuple[str, str]
) -> None:
    player = Player(cluster["a"].ws, seed=3)
    code = _create(player, ["person", "bot", "bot", "bot"], hands=2)
    player.send({"type": "take_seat", "seat": 0, "name": "p"})
    player.recv("seated")
    assert player.play(4) == 4
    game_id = cluster["a"].get(f"/api/rooms/{code}")["game_id"]
    seen_turn = player.last_turn
    told = list(player.acknowledged)
    cluster["a"].kill()
    killed_at = time.monotonic()
    player.close()

    # the client comes back with its seat token through the surviving node
    again = Player(cluster["b"].ws, seed=4)
    again.send({"type": "reconnect", "token": player.token})
    snapshot = again.recv("snapshot", timeout=20)
    pause = time.monotonic() - killed_at
    assert snapshot["room"]["code"] == code and snapshot["seat"] == 0
    state = snapshot
    while "turn" not in state:
        # between two hands the snapshot has no turn: the next deal brings one
        state = again.recv(timeout=20)
    assert state["turn"] >= seen_turn, "the table went back in time"
    assert pause < 15
    taken = cluster["b"].get("/api/cluster")["counters"]["taken_over"]
    assert taken == 1
    # every decision the client was told went through is in the log, in order, and play
    # goes on from there
    logged = [line["action"] for line in _logged_actions(services[1], game_id, seat=0)]
    assert logged[: len(told)] == told
    again.acted_turn = -1
    again.act_if_asked(state)
    assert again.play(2) >= 1
    logged = [line["action"] for line in _logged_actions(services[1], game_id, seat=0)]
    assert logged[: len(told)] == told and len(logged) > len(told)
    again.close()


def test_a_paused_node_that_wakes_after_its_lease_was_taken_writes_nothing(
    cluster: dict[str, Node], services: tuple[str, str]
) -> None:
    watcher = Player(cluster["a"].ws, seed=5)
    code = _create(watcher, ["bot", "bot", "bot", "bot"], hands=4)
    watcher.recv("hand_start")
    game_id = cluster["a"].get(f"/api/rooms/{code}")["game_id"]
    cluster["a"].pause()
    try:
        # node b sees a's leases lapse and takes the room (a still thinks it owns it)
        wait_for(
            lambda: cluster["b"].get("/api/cluster")["counters"]["taken_over"] == 1,
            what="node b to take the room over",
        )
        before = len(_logged_actions(services[1], game_id))
    finally:
        cluster["a"].wake()
    # a wakes with its bots' timers due and its writes queued: the fence refuses them,
    # and a drops the room when it sees the lease is gone
    wait_for(
        lambda: cluster["a"].get("/api/cluster")["leases"] == 0,
        what="node a to drop the room",
    )
    a_state = cluster["a"].get("/api/cluster")
    assert a_state["counters"]["lost"] + a_state["counters"]["fenced"] >= 1
    # b's log goes on without a gap or a foreign line (a table of bots plays while watched)
    second = Player(cluster["b"].ws, seed=6)
    second.send({"type": "join", "code": code})
    second.recv("snapshot")
    wait_for(
        lambda: len(_logged_actions(services[1], game_id)) > before + 5,
        what="node b to play on",
    )
    from paiju.engine.record import replay
    from paiju.server.storage import Storage

    async def lines() -> list[dict[str, Any]]:
        storage = Storage(services[1])
        await storage.start()
        try:
            return await storage.lines(game_id)
        finally:
            await storage.close()

    record = asyncio.run(lines())
    result = replay(record)
    assert result.ok or "end" in result.message, result.message
    watcher.close()
    second.close()
