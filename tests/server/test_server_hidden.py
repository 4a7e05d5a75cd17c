"""Hidden information: no message lets a seat or a spectator see tiles it may not know."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.engine.events import PRIVATE_TYPES
from paiju.engine.session import Session
from paiju.server.protocol import TimerSettings
from paiju.server.rooms import Connection, Room, RoomManager, Seat, ServerConfig
from paiju.server.storage import Storage
from paiju.server.timers import ManualClock
from paiju.variants import VARIANTS
from paiju.variants.base import options_from_mapping
from paiju.variants.qinger.hand import PRIVATE_TYPES as QINGER_PRIVATE


def _walk(obj: Any) -> Any:
    yield obj
    if isinstance(obj, dict):
        for value in obj.values():
            yield from _walk(value)
    elif isinstance(obj, list):
        for value in obj:
            yield from _walk(value)


def _winners(msg: dict[str, Any]) -> set[int]:
    """Seats that won in ``msg`` (their hands are shown to everyone at the end)."""
    found = set(msg.get("winners") or [])
    for node in _walk(msg):
        if isinstance(node, dict) and node.get("type") == "win":
            found.update(node.get("winners") or [])
    return found


def leaks(msg: dict[str, Any], me: int | None) -> list[str]:
    """Every place in ``msg`` where a tile hidden from ``me`` (None: spectator) shows."""
    found = []
    winners = _winners(msg)
    for node in _walk(msg):
        if not isinstance(node, dict):
            continue
        # a hand's random seed or wall order; an explanation's ``seed`` is a rule item id
        found.extend(
            f"{key} in {msg['type']}"
            for key in ("seed", "wall")
            if key in node and not isinstance(node[key], str)
        )
        etype = node.get("type")
        hidden = etype in PRIVATE_TYPES | QINGER_PRIVATE and node.get("seat") != me
        shows = any(k in node for k in ("tile", "card")) or any(
            isinstance(node.get(k), str) for k in ("tiles", "cards")
        )
        if hidden and shows:
            found.append(f"{etype} of seat {node.get('seat')} shows tiles")
        if node.get("phase") in ("claim", "rob", "declare"):
            others = [s for s in node.get("to_act", []) if s != me]
            if others:
                found.append(f"claim options of seats {others} in {msg['type']}")
            state_of_msg = msg.get("state")
            if node is state_of_msg:
                shown = set(msg.get("to_act", []))
                shown |= {t["seat"] for t in msg.get("timers", [])}
                if shown - {me}:
                    found.append(f"claim window of seats {sorted(shown - {me})} shown")
        if "players" in node:
            found.extend(
                f"hand of seat {p['seat']} in {msg['type']}"
                for p in node["players"]
                if p["seat"] != me
                and "hand" in p
                and not (node.get("phase") == "end" and p["seat"] in winners)
            )
            if me is None and "drawn" in node:
                found.append("drawn tile shown to a spectator")
            if me is None and node.get("legal_actions"):
                found.append("legal actions shown to a spectator")
    return found


SHORT_MATCH = {"jiaxing": {"hands": 2}, "taixing": {"rounds": 1}, "qinger": {"hands": 2}}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_spectator_and_player_never_see_concealed_tiles(
    client: TestClient, player_factory: Any, variant: str
) -> None:
    n = VARIANTS[variant].seats(VARIANTS[variant].default_options())
    me = 1
    with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
        player, watcher = player_factory(ws1), player_factory(ws2)
        player.recv()
        watcher.recv()
        seats = [{"kind": "person" if s == me else "bot"} for s in range(n)]
        code = player.create(variant, options=SHORT_MATCH.get(variant, {}), seats=seats)
        watcher.send({"type": "join", "code": code})
        watcher.until("snapshot")
        player.take(me, "p")
        player.play_to("match_end")
        watcher.until("match_end")
        private_types = PRIVATE_TYPES | QINGER_PRIVATE
        private = [
            e
            for m in watcher.log
            if m["type"] == "update"
            for e in m["events"]
            if e["type"] in private_types
        ]
        assert private, "the spectator saw no deals or draws at all"
        for msg in watcher.log:
            assert leaks(msg, None) == [], msg
            assert msg["type"] != "seated"
        for msg in player.log:
            assert leaks(msg, me) == [], msg
        own_draws = [
            e
            for m in player.log
            if m["type"] == "update"
            for e in m["events"]
            if e["type"] == "draw" and e["seat"] == me
        ]
        assert own_draws and all("tile" in e or "card" in e for e in own_draws)


def test_leak_checker_catches_a_leak() -> None:
    msg = {
        "type": "update",
        "events": [{"type": "draw", "seat": 1, "tile": "5m"}],
        "state": {"phase": "act", "players": [{"seat": 1, "hand": "123m"}]},
    }
    assert len(leaks(msg, None)) == 2
    assert leaks(msg, 1) == []
    claim = {
        "type": "update",
        "to_act": [1, 3],
        "timers": [],
        "state": {"phase": "claim", "to_act": [1, 3], "players": []},
    }
    assert len(leaks(claim, 1)) == 2
    assert leaks({**claim, "to_act": [1], "state": {"phase": "claim", "to_act": [1]}}, 1) == []


def _play_room(variant: str, seed: int, rng: random.Random) -> tuple[list[Connection], Connection]:
    """A room of people (plain connections, no sockets) playing random legal moves; returns
    the seats' connections and a spectator's, each holding every message it was sent."""

    async def body() -> tuple[list[Connection], Connection]:
        flow = VARIANTS[variant]
        n = flow.seats(flow.default_options())
        options = options_from_mapping(flow.options_type, SHORT_MATCH.get(variant, {}))
        config = ServerConfig(bot_delay=0.0, next_hand_delay=0.0)
        manager = RoomManager(Storage("sqlite+aiosqlite:///:memory:"), config, ManualClock())
        seats = [Seat(i, "person", token_hash=f"t{i}") for i in range(n)]
        room = Room(manager, "TESTAA", variant, flow, options, seats, TimerSettings())
        conns = [Connection() for _ in range(n)]
        for i, conn in enumerate(conns):
            seats[i].conn, conn.room, conn.seat = conn, room, i
        watcher = Connection()
        room.spectators[watcher.id] = watcher
        watcher.room = room
        room.session = Session(flow, options, seed, [f"p{i}" for i in range(n)])
        room.game_id, room.status = "g", "playing"
        room._make_bots(seed)
        room._start_hand()
        for _ in range(3000):
            session = room.session
            if room.status != "playing":
                break
            if session.between_hands:
                room._start_hand()
                continue
            seat = rng.choice(session.to_act())
            hand = session.hand
            action = hand.action_str(rng.choice(session.legal(seat)))
            room.act(conns[seat], action, session.turn)
        assert room.status == "finished"
        await manager.close()
        return conns, watcher

    return asyncio.run(body())


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), choices=st.integers(0, 2**32))
def test_no_message_of_random_games_leaks(variant: str, seed: int, choices: int) -> None:
    conns, watcher = _play_room(variant, seed, random.Random(choices))
    for msg in watcher.sent:
        assert leaks(msg, None) == [], msg
    for seat, conn in enumerate(conns):
        assert any(m["type"] == "update" for m in conn.sent)
        for msg in conn.sent:
            assert leaks(msg, seat) == [], msg
