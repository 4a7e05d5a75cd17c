"""Hidden information: no message lets a seat or a spectator see tiles it may not know."""

from __future__ import annotations

import asyncio
import json
import random
import tempfile
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import without_events

from paiju.engine.events import PRIVATE_TYPES
from paiju.engine.fairness import FairDeal
from paiju.engine.session import Session
from paiju.server import messages as M
from paiju.server.manager import RoomManager
from paiju.server.protocol import TimerSettings
from paiju.server.room import Connection, Room, Seat, ServerConfig
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
        # an RNG seed or the wall (a rule-book reference "seed": "J3" is no secret)
        if isinstance(node.get("seed"), int) and not isinstance(node.get("seed"), bool):
            found.append(f"seed in {msg['type']}")
        if "wall" in node:
            found.append(f"wall in {msg['type']}")
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


CASES = {
    "jiaxing": ("jiaxing", {"hands": 2}),
    # 混儿: the indicator is public, every seat's 混儿 stays hidden like any tile
    "jiaxing-hun": ("jiaxing", {"hun": True, "hands": 2}),
    "taixing": ("taixing", {"rounds": 1}),
    "qinger": ("qinger", {"hands": 2}),
    "qinger4": ("qinger", {"hands": 2, "participants": 4}),
}


def stream_leaks(msgs: list[dict[str, Any]], me: int | None) -> list[str]:
    """What the order and shape of the messages ``me`` received tell about others.

    A seat hears of a claim window only when it is asked in it; every decision it makes is
    acknowledged to it alone by an update with no events and nothing to decide (whether or
    not a window follows); nobody else's answers, questions or clocks reach it, and a
    spectator never sees a window at all. A reconnecting seat may be shown again the
    window it has answered, as its acknowledgement showed it (that tells it nothing new)."""
    found = []
    asked = False
    acked: tuple[Any, Any] | None = None
    for msg in msgs:
        kind = msg["type"]
        if kind == "timeout" and msg.get("seat") != me:
            found.append(f"timeout of seat {msg.get('seat')} told to {me}")
        if kind not in ("update", "snapshot") or "state" not in msg:
            continue
        state = msg.get("state") or {}
        in_window = state.get("phase") in ("claim", "rob", "declare")
        question = me is not None and bool(msg.get("legal"))
        ack = kind == "update" and not msg["events"] and not msg.get("legal") and asked
        if ack:
            asked = False
            acked = (msg["turn"], without_events(state))
            continue
        if kind == "snapshot" and not question and acked == (msg["turn"], without_events(state)):
            continue
        if kind == "update":
            acked = None
        if in_window and not question:
            found.append(f"{kind} shows a window {me} is not asked in (turn {msg['turn']})")
        elif kind == "update" and not msg["events"] and not question:
            found.append(f"an empty update tells {me} that something happened")
        asked = question
    return found


SNAPSHOT_FIELDS = {"type", "room", "seat", "turn", "hand", "state", "legal", "to_act"}
SNAPSHOT_FIELDS |= {"timers", "match"}


def snapshot_shape_leaks(msgs: list[dict[str, Any]]) -> list[str]:
    """Snapshots of a game in progress that differ in shape from the rest: every one has
    every game field, and its state the recent events whenever a hand is on (a snapshot
    without them would tell that a window this view may not know of is open)."""
    found = []
    for msg in msgs:
        if msg["type"] != "snapshot" or msg["room"]["status"] == "waiting":
            continue
        if set(msg) != SNAPSHOT_FIELDS:
            found.append(f"snapshot at turn {msg.get('turn')} has fields {sorted(msg)}")
        elif msg["hand"] is not None and not isinstance(msg["state"].get("events"), list):
            found.append(f"snapshot at turn {msg['turn']} has no recent events")
    return found


def test_snapshot_shape_checker_catches_a_bare_snapshot() -> None:
    room = {"status": "playing"}
    full = dict.fromkeys(SNAPSHOT_FIELDS) | {"type": "snapshot", "room": room}
    assert snapshot_shape_leaks([full]) == []
    assert snapshot_shape_leaks([{"type": "snapshot", "room": room, "seat": 1}])
    assert snapshot_shape_leaks([{**full, "hand": 1, "state": {"phase": "wait"}}])


def seed_leaks(messages: list[dict[str, Any]], secret: str) -> list[str]:
    """Messages before ``match_end`` that carry the fair deal's server seed (whoever knows
    it before the end knows every wall to come)."""
    found = []
    for index, msg in enumerate(messages):
        if msg["type"] == "match_end":
            if msg["fair"]["server_seed"] != secret:
                found.append("match_end does not reveal the server seed")
            break
        if secret in repr(msg):
            found.append(f"message {index} ({msg['type']}) carries the server seed")
    return found


def test_seed_checker_catches_an_early_reveal() -> None:
    secret = "ab" * 32
    early = {"type": "room", "room": {"fair": {"server_seed": secret}}}
    end = {"type": "match_end", "fair": {"server_seed": secret}}
    assert seed_leaks([early, end], secret)
    assert seed_leaks([{"type": "update"}, end], secret) == []
    assert seed_leaks([{"type": "match_end", "fair": {"server_seed": "00" * 32}}], secret)


def _play_room(
    case: str, seed: int, rng: random.Random
) -> tuple[list[Connection], Connection, str]:
    """A room of people (plain connections, no sockets) playing random legal moves, some
    let run out of time; returns the seats' connections and a spectator's, each holding
    every message it was sent."""
    variant, overrides = CASES[case]

    async def body() -> tuple[list[Connection], Connection, str]:
        flow = VARIANTS[variant]
        options = options_from_mapping(flow.options_type, overrides)
        config = ServerConfig(bot_delay=0.0, next_hand_delay=0.0)
        clock = ManualClock()
        with tempfile.TemporaryDirectory() as tmp:
            storage = Storage(f"sqlite+aiosqlite:///{tmp}/hidden.db")
            await storage.start()
            manager = RoomManager(storage, config, clock)
            session = Session(flow, options, seed, [])
            n = session.n_seats
            seats = [Seat(i, "person", token_hash=f"t{i}") for i in range(n)]
            room = Room(manager, "TESTAAAAAA", variant, flow, options, seats, TimerSettings())
            conns = [Connection() for _ in range(n)]
            for i, conn in enumerate(conns):
                seats[i].conn, conn.room, conn.seat = conn, room, i
            watcher = Connection()
            room.spectators[watcher.id] = watcher
            watcher.room = room
            fair = FairDeal.create(room.server_seed, room.code, [f"s{i}" for i in range(n)])
            room.session = Session(flow, options, seed, [f"p{i}" for i in range(n)], fair=fair)
            room.game_id, room.status = "g", "playing"
            await storage.create_game("g", room.code, room.session.lines[0], room._setup())
            room.stored = 1
            room._make_bots(seed)
            room._start_hand()
            for _ in range(5000):
                await room._settled.wait()
                for _ in range(3):
                    await asyncio.sleep(0)
                session = room.session
                if room.status != "playing":
                    break
                if session.between_hands:
                    room._start_hand()
                    continue
                if rng.random() < 0.03:
                    clock.advance(10_000.0)  # every running clock runs out
                    continue
                if rng.random() < 0.05:
                    # a seat or the spectator reconnects: its snapshot, window or not
                    key = rng.choice([*range(n), None])
                    conn = watcher if key is None else conns[key]
                    room._deliver(None, [(conn, room.snapshot(key))])
                    continue
                waiting = session.to_act()
                if not waiting:
                    continue
                seat = rng.choice(waiting)
                action = session.hand.action_str(rng.choice(session.legal(seat)))
                room.act(conns[seat], action, session.turn)
            await room._settled.wait()
            assert room.status == "finished"
            await manager.close()
            await storage.close()
        return conns, watcher, room.server_seed.hex()

    return asyncio.run(body())


@pytest.mark.parametrize("case", sorted(CASES))
@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), choices=st.integers(0, 2**32))
def test_no_message_of_random_games_leaks(case: str, seed: int, choices: int) -> None:
    conns, watcher, secret = _play_room(case, seed, random.Random(choices))
    assert any(m["type"] == "update" for m in watcher.sent)
    assert seed_leaks(watcher.sent, secret) == []
    for msg in watcher.sent:
        assert leaks(msg, None) == [], msg
    assert stream_leaks(watcher.sent, None) == []
    assert snapshot_shape_leaks(watcher.sent) == []
    if case == "jiaxing-hun":
        # the turned-up indicator reaches everyone, the watcher included
        for got in (watcher.sent, *(c.sent for c in conns)):
            shown = [
                e
                for m in got
                if m["type"] == "update"
                for e in m.get("events", ())
                if e["type"] == "indicator"
            ]
            assert shown and all("tile" in e for e in shown)
    for seat, conn in enumerate(conns):
        assert any(m["type"] == "update" for m in conn.sent)
        for msg in conn.sent:
            assert leaks(msg, seat) == [], msg
            # the room builds updates without pydantic: they must be what the model dumps
            wire = json.loads(json.dumps(msg, ensure_ascii=False))
            assert M.validate(wire).json_dict() == wire
        assert stream_leaks(conn.sent, seat) == []
        assert snapshot_shape_leaks(conn.sent) == []
        assert seed_leaks(conn.sent, secret) == []


def test_stream_checker_catches_a_window_shown_to_the_unasked() -> None:
    window = {
        "type": "update",
        "events": [{"type": "discard", "seat": 0, "tile": "5m"}],
        "turn": 3,
        "to_act": [],
        "legal": [],
        "state": {"phase": "claim"},
    }
    assert stream_leaks([window], 1)
    assert stream_leaks([{**window, "to_act": [1], "legal": ["pass"]}], 1) == []
    empty = {
        "type": "update",
        "events": [],
        "turn": 3,
        "to_act": [],
        "legal": [],
        "state": {"phase": "act"},
    }
    assert stream_leaks([empty], 2)
    asked = {**empty, "events": window["events"], "legal": ["d5m"], "to_act": [2]}
    assert stream_leaks([asked, empty], 2) == []  # the acknowledgement of my own move
    assert stream_leaks([asked, empty, empty], 2)
    assert stream_leaks([{"type": "timeout", "seat": 0, "turn": 1}], 2)
    # answered in a window others still decide: a reconnect shows it as the ack did
    question = {**window, "to_act": [1], "legal": ["pass", "hu"]}
    ack = {**window, "events": []}
    again = {**ack, "type": "snapshot", "state": {"phase": "claim", "events": []}}
    assert stream_leaks([question, ack, again], 1) == []
    assert stream_leaks([question, ack, {**again, "turn": 4}], 1)
    assert stream_leaks([question, again], 1)  # no ack: the answer was never taken
