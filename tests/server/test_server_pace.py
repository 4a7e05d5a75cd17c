"""The bot-pace setting: each device says how long bots should take over their own moves
(``pace``), and a table plays at the slowest pace of its seated, connected people."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from paiju.server.timers import RealClock


class RecordingClock(RealClock):
    """The real clock, remembering every pause asked of it."""

    def __init__(self) -> None:
        self.sleeps: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        await super().sleep(seconds)


def _settled(p: Any) -> None:
    """Wait until the server has handled everything sent so far (pings are answered in order)."""
    p.send({"type": "ping", "t": 1.0})
    p.until("pong")


def test_bots_take_the_pace_a_player_asked_for(make_app: Any, player_factory: Any) -> None:
    clock = RecordingClock()
    with TestClient(make_app(clock=clock)) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.send({"type": "pace", "bot_seconds": 0.015})
        p.create("jiaxing")
        p.take(0, "甲")
        p.play_to("hand_end")
    # every bot turn paused for the asked pace (the server's own is 0 here)
    assert clock.sleeps.count(0.015) >= 3


def test_the_slowest_seated_person_sets_the_pace_and_a_watcher_does_not(
    make_app: Any, player_factory: Any
) -> None:
    app = make_app(next_hand_delay=3600.0)
    manager = app.state.manager
    seats = [{"kind": "person"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}]
    with (
        TestClient(app) as client,
        client.websocket_connect("/ws") as ws_a,
        client.websocket_connect("/ws") as ws_b,
        client.websocket_connect("/ws") as ws_c,
    ):
        a, b, c = (player_factory(ws) for ws in (ws_a, ws_b, ws_c))
        for p in (a, b, c):
            p.recv()
        code = a.create("jiaxing", seats=seats)
        a.take(0, "甲")
        room = manager.rooms[code]
        assert room.bot_delay() == 0.0  # nobody asked: the server's default
        a.send({"type": "pace", "bot_seconds": 0.5})
        _settled(a)
        assert room.bot_delay() == 0.5
        b.send({"type": "join", "code": code})
        b.until("snapshot")
        b.send({"type": "pace", "bot_seconds": 1.5})
        _settled(b)
        assert room.bot_delay() == 0.5  # watching only: not counted
        b.take(1, "乙")
        assert room.bot_delay() == 1.5  # seated: the slower of the two
        c.send({"type": "join", "code": code})
        c.until("snapshot")
        c.send({"type": "pace", "bot_seconds": 5})
        _settled(c)
        assert room.bot_delay() == 1.5
        b.send({"type": "pace", "bot_seconds": None})  # back to the default for that device
        _settled(b)
        assert room.bot_delay() == 0.5


def test_a_pace_out_of_bounds_is_refused_and_changes_nothing(
    client: TestClient, player_factory: Any
) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.send({"type": "pace", "bot_seconds": 0.2})
        for bad in (9, -1, "fast", True):
            p.send({"type": "pace", "bot_seconds": bad})
            msg = p.recv()
            assert msg["type"] == "error" and msg["code"] == "bad_message", msg
            assert "bot_seconds" in msg["message"]
        code = p.create("jiaxing")
        manager = client.app.state.manager  # type: ignore[attr-defined]
        p.take(0, "甲")
        assert manager.rooms[code].bot_delay() == 0.2
