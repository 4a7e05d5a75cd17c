"""Turn clocks: a base time per decision, a time bank, and a default action at the end."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from paiju.server.timers import ManualClock, TurnClock


def test_turn_clock_charges_overtime_to_the_bank() -> None:
    clock = TurnClock(bank=30.0)
    clock.start(100.0, 10.0)
    assert clock.deadline() == 140.0
    clock.stop(105.0)
    assert clock.bank == 30.0 and clock.deadline() is None
    clock.start(200.0, 10.0)
    clock.stop(225.0)
    assert clock.bank == 15.0
    clock.start(300.0, 10.0)
    clock.stop(400.0)
    assert clock.bank == 0.0


def _wait_for_my_decision(p: Any) -> dict[str, Any]:
    while True:
        msg = p.recv()
        # a match that ends first would leave the socket silent: fail instead of waiting
        assert msg["type"] != "match_end", "the match ended before seat 0 was asked again"
        if msg["type"] == "update" and msg["legal"]:
            return msg


def test_timeout_plays_the_default_and_empties_the_bank(make_app: Any, player_factory: Any) -> None:
    clock = ManualClock()
    app = make_app(clock=clock)
    timers = {"turn_seconds": 10, "claim_seconds": 5, "bank_seconds": 20}
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        # two hands: a bot may win the first before seat 0 is asked again (the bank is
        # the match's, so the second hand's question shows it just the same)
        p.create("jiaxing", options={"hands": 2}, timers=timers)
        p.take(0)
        msg = _wait_for_my_decision(p)
        mine = [t for t in msg["timers"] if t["seat"] == 0]
        assert len(mine) == 1
        base = 5000 if "pass" in msg["legal"] else 10000
        assert mine[0]["remaining_ms"] == base + 20000
        assert mine[0]["bank_ms"] == 20000
        clock.advance(base / 1000 + 19.0)
        # still within the bank: nothing happens yet; then the bank runs out
        clock.advance(2.0)
        timeout = p.until("timeout")
        assert timeout["seat"] == 0 and timeout["turn"] == msg["turn"]
        after = p.until("update")
        if not after["events"] and not after["legal"]:
            after = p.until("update")  # past the acknowledgement of the timed-out move
        if "pass" in msg["legal"]:
            expected = None
        else:
            drawn = msg["state"].get("drawn")
            expected = drawn if drawn and f"d{drawn}" in msg["legal"] else msg["legal"][0][1:]
        if expected is not None:
            discards = [e for e in after["events"] if e["type"] == "discard"]
            assert discards and discards[0]["seat"] == 0 and discards[0]["tile"] == expected
        nxt = _wait_for_my_decision(p)
        mine = [t for t in nxt["timers"] if t["seat"] == 0]
        assert mine[0]["bank_ms"] == 0
        room = next(iter(app.state.manager.rooms.values()))
        assert room.seats[0].auto is False  # connected people are never replaced


def test_acting_in_time_keeps_the_bank(make_app: Any, player_factory: Any) -> None:
    clock = ManualClock()
    app = make_app(clock=clock)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 1}, timers={"bank_seconds": 30})
        p.take(0)
        msg = _wait_for_my_decision(p)
        clock.advance(1.0)
        p.send({"type": "act", "action": p.choose(msg), "turn": msg["turn"]})
        nxt = _wait_for_my_decision(p)
        assert [t["bank_ms"] for t in nxt["timers"] if t["seat"] == 0] == [30000]
