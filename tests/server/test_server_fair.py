"""Provably fair deals at a server table (docs/spec/fair-deal.md, docs/protocol.md "Fair
deals"): the commitment is shown before the deal, each client's seed goes into it, the seed
is revealed at the end, and the downloaded record passes ``paiju verify``."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from paiju.cli import main as cli_main
from paiju.engine.fairness import FairDeal, rebuild_wall
from paiju.engine.record import verify
from paiju.variants import find_variant


def _room_messages(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [m for m in log if m["type"] == "room"]


def test_a_table_commits_takes_the_seats_seeds_and_reveals_at_the_end(
    make_app: Any, player_factory: Any, tmp_path: Path
) -> None:
    app = make_app()
    with (
        TestClient(app) as client,
        client.websocket_connect("/ws") as ws_a,
        client.websocket_connect("/ws") as ws_b,
    ):
        a, b = player_factory(ws_a), player_factory(ws_b)
        a.recv()
        b.recv()
        seats = [{"kind": "person"}] * 2 + [{"kind": "bot", "level": "greedy"}] * 2
        # A answers nothing until B has played to the end: short clocks keep that quick
        timers = {"turn_seconds": 1, "claim_seconds": 1, "bank_seconds": 0}
        code = a.create(
            "jiaxing", options={"hands": 1}, seats=seats, client_seed="alice-1", timers=timers
        )
        first = _room_messages(a.log)[0]
        commitment = first["room"]["fair"]["commitment"]
        assert len(commitment) == 64 and first["room"]["fair"]["scheme"] == "paiju-fair-1"
        assert first["you"]["client_seed"] == "alice-1"
        a.take(0, "甲")
        b.send({"type": "join", "code": code, "client_seed": "bob_2"})
        joined = b.until("room")
        # the commitment is shown before the deal, the same to every client
        assert joined["room"]["fair"]["commitment"] == commitment
        assert joined["room"]["fair"]["client_seeds"][0] == "alice-1"
        secret = app.state.manager.rooms[code].server_seed.hex()
        b.take(1, "乙")
        start_b = b.until("hand_start")
        before_deal = _room_messages(b.log)[-1]["room"]["fair"]
        assert before_deal == {
            "scheme": "paiju-fair-1",
            "commitment": commitment,
            "room": code,
            "client_seeds": ["alice-1", "bob_2", "", ""],
        }
        assert start_b["hand"] == 0
        # nobody can read the seed while the match is on
        game_id = app.state.manager.rooms[code].game_id
        for url in (f"/api/rooms/{code}", f"/api/games/{game_id}", "/api/games"):
            assert secret not in client.get(url).text
        b_end = b.play_to("match_end")
        a_end = a.play_to("match_end")
    for log in (a.log, b.log):
        before_end = log[: next(i for i, m in enumerate(log) if m["type"] == "match_end")]
        assert secret not in json.dumps(before_end)
    for end in (a_end, b_end):
        assert end["fair"] == {**before_deal, "server_seed": secret}
        assert hashlib.sha256(bytes.fromhex(end["fair"]["server_seed"])).hexdigest() == commitment
    with TestClient(app) as client:
        text = client.get(f"/api/games/{game_id}/record").text
    lines = [json.loads(line) for line in text.splitlines()]
    assert lines[0]["fair"] == before_deal
    assert lines[-1]["server_seed"] == secret
    result = verify(lines, find_variant)
    assert result.ok, result.message
    # the walls come from the seeds the seats sent: hand 0's first wall is the fair one
    walls = next(line["walls"] for line in lines if line.get("type") == "hand_end")
    fair = FairDeal.create(bytes.fromhex(secret), code, ["alice-1", "bob_2", "", ""])
    other = FairDeal.create(bytes.fromhex(secret), code, ["alice-1", "", "", ""])
    assert rebuild_wall(fair.key(0), 0, walls[0]) == walls[0]
    assert rebuild_wall(other.key(0), 0, walls[0]) != walls[0]
    path = tmp_path / "game.jsonl"
    path.write_text(text, encoding="utf-8")
    assert cli_main(["verify", str(path)]) == 0


def test_a_bad_client_seed_is_refused_and_changes_nothing(
    client: TestClient, player_factory: Any
) -> None:
    with client.websocket_connect("/ws") as ws_a, client.websocket_connect("/ws") as ws_b:
        a, b = player_factory(ws_a), player_factory(ws_b)
        a.recv()
        b.recv()
        code = a.create("jiaxing")
        for bad in ("has space", "x" * 65, "é", 7):
            b.send({"type": "join", "code": code, "client_seed": bad})
            err = b.recv()
            assert err["type"] == "error" and err["code"] == "bad_message", err
            assert "client_seed" in err["message"]
        b.send({"type": "ping"})
        assert b.recv()["type"] == "pong"  # still in no room: nothing was joined
        b.send({"type": "take_seat", "seat": 1})
        assert b.recv()["code"] == "no_room"


def test_a_seat_given_up_before_the_start_forgets_its_seed(
    client: TestClient, player_factory: Any
) -> None:
    with client.websocket_connect("/ws") as ws_a:
        a = player_factory(ws_a)
        a.recv()
        seats = [{"kind": "person"}] * 2 + [{"kind": "bot"}] * 2
        code = a.create("jiaxing", seats=seats)
        with client.websocket_connect("/ws") as ws_b:
            b = player_factory(ws_b)
            b.recv()
            b.send({"type": "join", "code": code})
            b.until("snapshot")
            b.send({"type": "take_seat", "seat": 1, "client_seed": "leaving"})
            b.until("seated")
            while not a.until("room")["room"]["seats"][1]["taken"]:
                pass
            assert a.log[-1]["room"]["fair"]["client_seeds"][1] == "leaving"
        while True:
            room = a.until("room")["room"]
            if not room["seats"][1]["taken"]:
                break
        assert room["fair"]["client_seeds"] == ["", "", "", ""]


def test_a_restarted_server_deals_on_under_the_same_commitment(
    make_app: Any, player_factory: Any, sqlite_url: str
) -> None:
    app = make_app(sqlite_url)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        code = p.create("jiaxing", options={"hands": 2}, client_seed="mine")
        p.take(0)
        p.act_once()
        commitment = _room_messages(p.log)[-1]["room"]["fair"]["commitment"]
        token = p.token
    app = make_app(sqlite_url)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.send({"type": "reconnect", "token": token})
        room = p.until("room")["room"]
        assert room["code"] == code and room["fair"]["commitment"] == commitment
        assert room["fair"]["client_seeds"] == ["mine", "", "", ""]
        end = p.play_to("match_end")
        assert end["fair"]["commitment"] == commitment
        lines = [
            json.loads(line)
            for line in client.get(f"/api/games/{end['game_id']}/record").text.splitlines()
        ]
    result = verify(lines, find_variant)
    assert result.ok and result.hands == 2, result.message


def test_a_seat_asked_in_a_claim_window_is_asked_again_after_a_restart(tmp_path: Path) -> None:
    """A restart in the middle of a claim window: the asked seat's snapshot is its question
    again (and the table deals on under its committed seed)."""
    import asyncio

    from paiju.server.manager import RoomManager
    from paiju.server.protocol import TimerSettings
    from paiju.server.room import Connection, Room, Seat, ServerConfig
    from paiju.server.storage import Storage
    from paiju.server.timers import ManualClock
    from paiju.variants import VARIANTS

    url = f"sqlite+aiosqlite:///{tmp_path / 'window.db'}"
    flow = VARIANTS["jiaxing"]

    async def until_a_window() -> tuple[str, int, list[str]]:
        storage = Storage(url)
        await storage.start()
        manager = RoomManager(storage, ServerConfig(bot_delay=0, seed=5), ManualClock())
        seats = [Seat(i, "person", token_hash=f"t{i}") for i in range(4)]
        room = Room(
            manager, "WINDOWAAAA", "jiaxing", flow, flow.default_options(), seats, TimerSettings()
        )
        conns = [Connection() for _ in range(4)]
        for i, conn in enumerate(conns):
            seats[i].conn, conn.room, conn.seat = conn, room, i
        await room.start_game()
        session = room.session
        assert session is not None
        for _ in range(400):
            await room._settled.wait()
            hand = session.hand
            assert hand is not None and not hand.is_over
            if hand.claim_window_open():
                break
            seat = session.to_act()[0]
            room.act(conns[seat], hand.action_str(hand.default_action(seat)), session.turn)
        else:
            raise AssertionError("no claim window in 400 decisions")
        asked = session.to_act()[0]
        legal = [hand.action_str(a) for a in session.legal(asked)]
        await room._settled.wait()
        await storage.flush()
        await manager.close()
        await storage.close()
        return room.code, asked, legal

    async def after_restart(code: str, asked: int) -> dict[str, Any]:
        storage = Storage(url)
        await storage.start()
        manager = RoomManager(storage, ServerConfig(bot_delay=0, seed=5), ManualClock())
        assert await manager.resume_all() == [code]
        snap = manager.rooms[code].snapshot(asked)
        await manager.close()
        await storage.close()
        return snap

    code, asked, legal = asyncio.run(until_a_window())
    snap = asyncio.run(after_restart(code, asked))
    assert snap["legal"] == legal and snap["to_act"] == [asked]
