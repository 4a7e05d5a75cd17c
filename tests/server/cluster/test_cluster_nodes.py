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

from cluster_nodes import Node, Player, reconnect, start_nodes, wait_for

from paiju.server import messages as M
from paiju.server import rest as R


@pytest.fixture
def cluster(services: tuple[str, str], tmp_path: Path) -> Iterator[dict[str, Node]]:
    redis_url, pg_url = services
    nodes = start_nodes(("a", "b"), redis_url, pg_url, tmp_path)
    try:
        yield {node.name: node for node in nodes}
    finally:
        for node in nodes:
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
    # the published answers' models (paiju.server.rest)
    assert R.OpenRoom.model_validate(listed[0]).code == code
    assert [M.SeatInfo.model_validate(s).seat for s in listed[0]["seats"]] == [0, 1, 2, 3]
    assert R.ReadyAnswer.model_validate(cluster["b"].get("/api/ready")).ready
    host.send({"type": "take_seat", "seat": 0, "name": "host"})
    host.recv("seated")
    guest.send({"type": "join", "code": code})
    assert guest.recv("room")["room"]["code"] == code
    guest.send({"type": "take_seat", "seat": 1, "name": "guest"})
    assert guest.recv("seated")["seat"] == 1
    made = 0
    deadline = time.monotonic() + 180  # a hang's bound, not a speed
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
    assert R.ClusterAnswer.model_validate(described).node == "b"
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
    player.close()

    # the client comes back with its seat token through the surviving node
    again = reconnect(cluster["b"].ws, player.token, seed=4)
    snapshot = again.messages[-1]
    assert snapshot["room"]["code"] == code and snapshot["seat"] == 0
    state = snapshot
    while "turn" not in state:
        # between two hands the snapshot has no turn: the next deal brings one
        state = again.recv()
    assert state["turn"] >= seen_turn, "the table went back in time"
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
    from paiju.variants import find_variant

    async def lines() -> list[dict[str, Any]]:
        storage = Storage(services[1])
        await storage.start()
        try:
            return await storage.lines(game_id)
        finally:
            await storage.close()

    record = asyncio.run(lines())
    result = replay(record, find_variant)
    assert result.ok or "end" in result.message, result.message
    watcher.close()
    second.close()


def test_the_failover_drill_under_load_loses_no_told_decision(
    services: tuple[str, str], tmp_path: Path
) -> None:
    """paiju load's drill, small: tables of four wire players with their seats spread over
    two nodes (most messages relayed), node a killed with SIGKILL while they play. Every
    decision a client was answered must be in its seat's log, in order; every table plays
    to its end."""
    from paiju.server.cluster.load import ClusterPlan, drive

    redis_url, pg_url = services
    limits = {"create_rate": 1000, "create_burst": 1000, "lookup_rate": 1000, "lookup_burst": 1000}
    nodes = start_nodes(("a", "b"), redis_url, pg_url, tmp_path, settings=limits)
    try:
        plan = ClusterPlan(
            urls=[n.ws for n in nodes],
            tables=6,
            seconds=480,  # bounds a hang (pytest's own timeout is 600 s), not a speed
            think=0.1,
            kill_pid=nodes[0].proc.pid,
            kill_after=2.0,
            database=pg_url,
        )
        plan.check()
        figures = asyncio.run(drive(plan, 4))
    finally:
        for node in nodes:
            node.stop()
    assert figures["failover"]["killed_after_s"] == 2.0
    assert figures["decisions_told"] > 100
    assert figures["decisions_lost"] == 0, figures.get("lost_examples")
    assert figures["finished_tables"] == 6 and not figures["timed_out"], str(figures)
    assert figures["failover"]["tables_resumed"] >= 1
    assert figures["failover"]["turn_regressions"] == 0


def test_a_waiting_room_outlives_its_node(cluster: dict[str, Node]) -> None:
    """A room created and half seated on node a (not yet started: not in PostgreSQL) is
    taken over by node b when a is killed: the host's seat token brings them back to their
    seat through b (host again), the lobby lists the room on b, and the game starts when
    the last person sits down."""
    host = Player(cluster["a"].ws, seed=7)
    code = _create(host, ["person", "person", "bot", "bot"])
    host.send({"type": "take_seat", "seat": 0, "name": "host"})
    host.recv("seated")
    guest = Player(cluster["b"].ws, seed=8)
    guest.send({"type": "join", "code": code})
    guest.recv("room")
    cluster["a"].kill()
    host.close()
    back = reconnect(cluster["b"].ws, host.token, seed=9)
    snapshot = back.messages[-1]
    assert snapshot["room"]["code"] == code and snapshot["seat"] == 0
    assert snapshot["room"]["status"] == "waiting"
    assert cluster["b"].get("/api/cluster")["counters"]["waiting_taken_over"] == 1
    listed = wait_for(
        lambda: [r for r in cluster["b"].get("/api/open-rooms") if r["code"] == code],
        what="the room in b's lobby",
    )
    assert listed[0]["node"] == "b"
    # the host is host again: it may change a free seat
    back.send({"type": "set_seat", "seat": 1, "kind": "person", "level": "greedy"})
    room = back.recv("room")
    assert room["room"]["code"] == code
    # the guest was relayed to a; b brought it back into the room as a spectator
    guest.send({"type": "join", "code": code})
    guest.recv("room")
    guest.send({"type": "take_seat", "seat": 1, "name": "guest"})
    assert guest.recv("seated")["seat"] == 1
    assert guest.recv("hand_start")["type"] == "hand_start"
    back.close()
    guest.close()


def test_room_lookups_are_limited_cluster_wide(cluster: dict[str, Node]) -> None:
    """Guessing room codes over both nodes at once earns no more tries than over one: the
    lookup bucket (10 at once by default) is kept in Redis."""
    players = [Player(cluster[n].ws, seed=i) for i, n in enumerate(("a", "b"))]
    codes = []
    for i in range(14):
        players[i % 2].send({"type": "join", "code": "ZZZZZZZZZ" + "ABCDEFGHJK"[i % 10]})
        codes.append(players[i % 2].recv("error")["code"])
    assert codes[:10] == ["no_such_room"] * 10
    assert "rate_limited" in codes[10:]
    for p in players:
        p.close()


def test_seat_tokens_still_route_after_a_paused_node_drops_the_room(
    cluster: dict[str, Node],
) -> None:
    """The node that lost a room must not forget its seat tokens cluster-wide as if the
    room had ended: the new owner's entries are the same ones (it answered bad_token)."""
    host = Player(cluster["a"].ws, seed=7)
    code = _create(host, ["person", "bot", "bot", "bot"], hands=4)
    host.send({"type": "take_seat", "seat": 0, "name": "host"})
    host.recv("seated")
    host.recv("hand_start")
    token = host.token
    cluster["a"].pause()
    try:
        wait_for(
            lambda: cluster["b"].get("/api/cluster")["counters"]["taken_over"] == 1,
            what="node b to take the room over",
        )
    finally:
        cluster["a"].wake()
    wait_for(lambda: cluster["a"].get("/api/cluster")["leases"] == 0, what="a to drop it")
    # a few of a's ticks: what it forgets, it has forgotten by then
    ticks = cluster["a"].get("/api/cluster")["ticks"]
    wait_for(lambda: cluster["a"].get("/api/cluster")["ticks"] >= ticks + 3, what="a's ticks")
    for node in ("a", "b"):
        back = Player(cluster[node].ws, seed=8)
        back.send({"type": "reconnect", "token": token})
        snapshot = back.recv("snapshot")
        assert snapshot["room"]["code"] == code
        back.close()
    host.close()


def test_a_node_with_live_tables_and_relays_stops_on_sigterm(cluster: dict[str, Node]) -> None:
    """SIGTERM while tables play, with clients relayed both ways (a guest on b in a room of
    a, a guest on a in a room of b): the node hands its rooms over and exits, and its
    room's people come back through the other node. A node once kept renewing its leases
    after SIGTERM and never exited (a cancellation lost inside redis-py: .tasks)."""
    players: list[Player] = []
    hosts: dict[str, Player] = {}
    for owner, other, seed in (("a", "b", 11), ("b", "a", 13)):
        host = Player(cluster[owner].ws, seed=seed)
        code = _create(host, ["person", "person", "bot", "bot"], hands=4)
        host.send({"type": "take_seat", "seat": 0, "name": "host"})
        host.recv("seated")
        guest = Player(cluster[other].ws, seed=seed + 1)
        guest.send({"type": "join", "code": code})
        guest.recv("room")
        guest.send({"type": "take_seat", "seat": 1, "name": "guest"})
        guest.recv("seated")
        players += [host, guest]
        hosts[owner] = host
    # play until every client has answered a few times (relayed answers among them)
    made = dict.fromkeys(range(len(players)), 0)
    deadline = time.monotonic() + 180  # a hang's bound, not a speed
    while min(made.values()) < 2 and time.monotonic() < deadline:
        for i, p in enumerate(players):
            try:
                msg = p.recv(timeout=0.2)
            except TimeoutError:
                continue
            if p.act_if_asked(msg):
                made[i] += 1
    assert min(made.values()) >= 2, made
    assert cluster["a"].get("/api/cluster")["counters"]["relayed_in"] >= 2
    assert cluster["b"].get("/api/cluster")["counters"]["relayed_in"] >= 2
    # the bots play on while a is told to stop
    assert cluster["a"].stop(timeout=120), "node a did not exit after SIGTERM"
    assert cluster["a"].proc.returncode in (0, -15), cluster["a"].log_path.read_text()[-2000:]
    back = reconnect(cluster["b"].ws, hosts["a"].token, seed=21)
    assert back.messages[-1]["seat"] == 0
    back.close()
    assert cluster["b"].stop(timeout=120), "node b did not exit after SIGTERM"
    for p in players:
        p.close()
