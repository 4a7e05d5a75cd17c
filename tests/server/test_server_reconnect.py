"""Reconnecting by seat token; a bot plays for a person who left, who can come back."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient
from server_helpers import without_events

from paiju.server.timers import ManualClock


def _tick(clock: ManualClock, room: Any, seconds: float = 1.0) -> None:
    """Advance the clock and give the server loop a moment to react (it runs in a thread)."""
    turn = room.session.turn
    clock.advance(seconds)
    deadline = time.monotonic() + 0.5
    while room.session.turn == turn and time.monotonic() < deadline:
        time.sleep(0.002)


def test_reconnect_with_token_gets_the_same_table(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        code = p.create("jiaxing", options={"hands": 1})
        p.take(0, "me")
        p.act_once()
        waiting = p.act_once()
        p.until("update")
        last = p.last_state
        token = p.token
    assert last is not None and token is not None
    room = client.get(f"/api/rooms/{code}").json()
    assert room["seats"][0]["connected"] is False
    assert room["seats"][0]["bot_playing"] is False  # within the grace period
    with client.websocket_connect("/ws") as ws:
        q = player_factory(ws)
        q.recv()
        q.send({"type": "reconnect", "token": token})
        you = q.until("room")
        assert you["you"] == {"seat": 0, "host": False, "client_seed": None}
        snap = q.until("snapshot")
        assert snap["seat"] == 0
        assert snap["turn"] >= waiting["turn"]
        assert snap["state"]["players"][0]["hand"]
        assert snap["state"]["seat"] == 0
        if snap["turn"] == last["turn"]:
            assert without_events(snap["state"]) == without_events(last["state"])
            assert snap["legal"] == last["legal"]
        q.play_to("match_end", snap)


def test_second_connection_with_the_token_replaces_the_first(
    client: TestClient, player_factory: Any
) -> None:
    with client.websocket_connect("/ws") as ws1:
        p = player_factory(ws1)
        p.recv()
        p.create("jiaxing", options={"hands": 1})
        p.take(0)
        p.until("hand_start")
        with client.websocket_connect("/ws") as ws2:
            q = player_factory(ws2)
            q.recv()
            q.send({"type": "reconnect", "token": p.token})
            snap = q.until("snapshot")
            assert snap["seat"] == 0
            assert p.until("error")["code"] == "replaced"
            q.play_to("match_end", snap)


def test_leaver_is_replaced_by_a_bot_and_comes_back(make_app: Any, player_factory: Any) -> None:
    clock = ManualClock()
    app = make_app(clock=clock, bot_delay=1.0)
    with TestClient(app) as client:
        with client.websocket_connect("/ws") as ws:
            p = player_factory(ws)
            p.recv()
            code = p.create("jiaxing", options={"hands": 3})
            p.take(0, "me")
            p.until("hand_start")
            p.send({"type": "leave"})
            p.until("left")
            token = p.token
        room = app.state.manager.rooms[code]
        assert room.seats[0].auto is True
        turn = room.session.turn
        for _ in range(3):
            _tick(clock, room)
        # bots alone and nobody watching: the table waits instead of playing to nobody
        assert room.session.turn == turn
        assert room.idle_since is not None
        with client.websocket_connect("/ws") as ws:
            w = player_factory(ws)
            w.recv()
            w.send({"type": "join", "code": code})
            w.until("snapshot")
            # a watcher came: the bot plays seat 0 while the person is away
            for _ in range(10):
                _tick(clock, room)
            assert room.session.turn > turn
            assert room.idle_since is None
            w.send({"type": "reconnect", "token": token})
            snap = w.until("snapshot")
            assert snap["seat"] == 0
            assert room.seats[0].auto is False
            public = client.get(f"/api/rooms/{code}").json()
            assert public["seats"][0]["bot_playing"] is False
            assert public["seats"][0]["connected"] is True
            # the person decides again (the bot that stood in never moves for them now)
            if snap["legal"]:
                w.play_to("update", snap)
            else:
                for _ in range(200):
                    if 0 in room.session.to_act() or room.status != "playing":
                        break
                    _tick(clock, room)
                assert 0 in room.session.to_act()
                assert w.act_once()["legal"]


def test_person_gone_past_the_grace_is_played_by_a_bot(make_app: Any, player_factory: Any) -> None:
    clock = ManualClock()
    app = make_app(clock=clock, rejoin_grace=10.0)
    with TestClient(app) as client:
        with client.websocket_connect("/ws") as ws:
            p = player_factory(ws)
            p.recv()
            code = p.create("jiaxing", options={"hands": 1})
            p.take(0)
            p.until("hand_start")
        room = app.state.manager.rooms[code]
        assert room.seats[0].auto is False
        with client.websocket_connect("/ws") as ws:
            w = player_factory(ws)
            w.recv()
            # watch first: once a bot has the seat the hand may end at once
            w.send({"type": "join", "code": code})
            w.until("snapshot")
            # the server notices the departure on its own loop; the grace only starts
            # then, so keep moving the clock until the seat is handed over
            deadline = time.monotonic() + 10
            while not room.seats[0].auto:
                assert time.monotonic() < deadline, "the seat was never handed to a bot"
                clock.advance(11.0)
                time.sleep(0.02)
            w.until("match_end")
