"""Hostile input: every bad message gets an error reply and changes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paiju.server.protocol import MAX_MESSAGE_BYTES


def _table_state(client: TestClient, code: str) -> tuple[int, int, list[int]]:
    room = client.app.state.manager.rooms[code]  # type: ignore[attr-defined]
    session = room.session
    return session.turn, len(session.lines), session.to_act()


@pytest.fixture
def table(client: TestClient, player_factory: Any) -> Any:
    """A started table: a person in seat 0 waiting for their turn, plus a spectator."""
    with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
        p, spy = player_factory(ws1), player_factory(ws2)
        p.recv()
        spy.recv()
        code = p.create("jiaxing", options={"hands": 1})
        p.take(0, "me")
        spy.send({"type": "join", "code": code})
        spy.until("snapshot")
        while True:
            msg = p.recv()
            if msg["type"] == "update" and msg["legal"]:
                break
        yield p, spy, code, msg


BAD_FRAMES = [
    ("not json", "bad_message"),
    ("[1, 2]", "bad_message"),
    ('{"type": "fly"}', "bad_message"),
    ('{"no_type": 1}', "bad_message"),
    ('{"type": "act"}', "bad_message"),
    ('{"type": "act", "action": "d1m", "extra": 1}', "bad_message"),
    ('{"type": "act", "action": "d1m", "v": 2}', "bad_message"),
    ('{"type": "act", "action": 5}', "bad_message"),
    ('{"type": "act", "action": "' + "x" * 40 + '"}', "bad_message"),
    ('{"type": "take_seat", "seat": -1}', "bad_message"),
    ('{"type": "join", "code": "ABCDEFGHIJK"}', "bad_message"),
    ("x" * (MAX_MESSAGE_BYTES + 1), "too_large"),
]


@pytest.mark.parametrize(("frame", "code"), BAD_FRAMES)
def test_malformed_messages_get_errors_and_change_nothing(
    client: TestClient, table: Any, frame: str, code: str
) -> None:
    p, _spy, room_code, _msg = table
    before = _table_state(client, room_code)
    p.ws.send_text(frame)
    reply = p.until("error")
    assert reply["code"] == code and reply["message"]
    assert _table_state(client, room_code) == before


def test_illegal_and_foreign_actions_are_refused(client: TestClient, table: Any) -> None:
    p, spy, code, msg = table
    before = _table_state(client, code)
    legal = set(msg["legal"])
    illegal = next(f"d{t}" for t in ("1m", "9p", "5s", "1z", "7z") if f"d{t}" not in legal)
    cases = [
        (p, {"type": "act", "action": illegal}, "illegal_action"),
        (p, {"type": "act", "action": "dzz"}, "bad_action"),
        (p, {"type": "act", "action": "d8f"}, "bad_action"),
        (p, {"type": "act", "action": msg["legal"][0], "turn": msg["turn"] - 1}, "stale_turn"),
        (spy, {"type": "act", "action": msg["legal"][0]}, "not_seated"),
        (spy, {"type": "take_seat", "seat": 0}, "game_started"),
        (spy, {"type": "take_seat", "seat": 9}, "bad_message"),
        (spy, {"type": "set_seat", "seat": 1, "kind": "person"}, "not_host"),
        (spy, {"type": "start"}, "not_host"),
        (spy, {"type": "reconnect", "token": "x" * 20}, "bad_token"),
        (p, {"type": "take_seat", "seat": 1}, "game_started"),
        (p, {"type": "join", "code": "QQQQQQQQQQ"}, "no_such_room"),
    ]
    for who, message, expected in cases:
        who.send(message)
        reply = who.until("error")
        assert reply["code"] == expected, (message, reply)
        assert _table_state(client, code) == before, message
    # the rightful move still works afterwards
    p.send({"type": "act", "action": msg["legal"][0], "turn": msg["turn"]})
    ack = p.until("update")
    assert ack["events"] == [] and ack["legal"] == []  # the move is acknowledged first
    nxt = p.until("update")
    assert nxt["turn"] > msg["turn"]


def test_nobody_can_act_for_another_seat(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
        a, b = player_factory(ws1), player_factory(ws2)
        a.recv()
        b.recv()
        code = a.create(
            "jiaxing", seats=[{"kind": "person"}, {"kind": "person"}] + [{"kind": "bot"}] * 2
        )
        a.take(0)
        b.send({"type": "join", "code": code})
        b.until("snapshot")
        b.take(1)
        # wait until seat 0 must discard; seat 1 tries seat 0's move
        while True:
            msg = a.recv()
            if msg["type"] == "update" and msg["legal"] and msg["state"]["phase"] == "act":
                break
        before = _table_state(client, code)
        if 1 not in before[2]:
            b.send({"type": "act", "action": msg["legal"][0]})
            assert b.until("error")["code"] == "not_your_turn"
            assert _table_state(client, code) == before
        # an act message has no seat field at all: naming one is a validation error
        b.send({"type": "act", "action": msg["legal"][0], "seat": 0})
        assert b.until("error")["code"] == "bad_message"
        assert _table_state(client, code) == before


def test_messages_before_joining_a_room(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        for message, expected in [
            ({"type": "act", "action": "d1m"}, "no_room"),
            ({"type": "take_seat", "seat": 0}, "no_room"),
            ({"type": "create_room", "variant": "chess"}, "bad_variant"),
            ({"type": "create_room", "variant": "jiaxing", "options": {"bogus": 1}}, "bad_options"),
            (
                {"type": "create_room", "variant": "jiaxing", "seats": [{"kind": "bot"}]},
                "bad_seats",
            ),
            (
                {
                    "type": "create_room",
                    "variant": "jiaxing",
                    "seats": [{"kind": "bot", "level": "god"}] * 4,
                },
                "bad_bot",
            ),
            (
                # Qing'er's strong bot thinks 0.3 s a move: not offered at a server table
                {
                    "type": "create_room",
                    "variant": "qinger",
                    "seats": [{"kind": "bot", "level": "strong"}] * 3,
                },
                "bad_bot",
            ),
            ({"type": "take_seat", "seat": 0, "name": "<script>"}, "bad_message"),
        ]:
            p.send(message)
            assert p.until("error")["code"] == expected, message
        p.send({"type": "ping", "t": 5})
        pong = p.until("pong")
        assert pong["t"] == 5
        assert client.app.state.manager.rooms == {}  # type: ignore[attr-defined]


def test_binary_frames_are_validated_too(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        ws.send_bytes(json.dumps({"type": "ping"}).encode())
        assert p.until("pong")["type"] == "pong"
        ws.send_bytes(b"\xff\xfe")
        assert p.until("error")["code"] == "bad_message"


def test_a_profile_of_another_game_is_bad_options(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.send({"type": "create_room", "variant": "jiaxing", "options": {"profile": "taixing"}})
        assert p.until("error")["code"] == "bad_options"
