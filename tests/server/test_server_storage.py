"""Storage: every line is logged; a restarted server resumes unfinished tables from the log.

Runs on SQLite always and on PostgreSQL when PAIJU_TEST_POSTGRES_URL is set
(scripts/postgres-test.sh starts a throwaway cluster and sets it).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import delete, func, select

from paiju.engine.record import replay
from paiju.server.storage import Storage, database_url, game_events
from paiju.variants import find_variant


def _start_and_play(
    app: Any, player_factory: Any, decisions: int
) -> tuple[str, str, dict[str, Any]]:
    """Seat a person with three bots, make ``decisions`` decisions, return the table as the
    person then sees it (code, token, snapshot)."""
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        code = p.create("jiaxing", options={"hands": 2})
        p.take(0, "甲")
        for _ in range(decisions):
            p.act_once()
        while True:
            msg = p.recv()
            if msg["type"] == "update" and msg["legal"]:
                break
        p.send({"type": "join", "code": code})
        snap = p.until("snapshot")
        assert p.token is not None
        return code, p.token, snap


def test_restart_resumes_the_table_exactly(make_app: Any, player_factory: Any, db_url: str) -> None:
    code, token, before = _start_and_play(make_app(db_url), player_factory, 3)
    app = make_app(db_url)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        assert code in app.state.manager.rooms
        p = player_factory(ws)
        p.recv()
        p.send({"type": "reconnect", "token": token})
        after = p.until("snapshot")
        for key in ("turn", "hand", "legal", "to_act", "match", "seat"):
            assert after[key] == before[key], key
        assert after["state"] == before["state"]
        assert after["room"]["code"] == code and after["room"]["status"] == "playing"
        end = p.play_to("match_end", after)
        record = client.get(f"/api/games/{end['game_id']}/record")
        lines = [json.loads(line) for line in record.text.splitlines()]
        result = replay(lines, find_variant)
        assert result.ok, result.message
        assert result.hands == 2


def test_every_line_is_stored_as_it_happens(
    make_app: Any, player_factory: Any, db_url: str
) -> None:
    app = make_app(db_url)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        code = p.create("jiaxing", options={"hands": 1})
        p.take(0)
        p.act_once()
        p.until("update")
        room = app.state.manager.rooms[code]
        storage: Storage = app.state.storage
        seen = len(room.session.lines)
        client.portal.call(storage.flush)
        stored = client.portal.call(storage.lines, room.game_id)
        # the bots play on meanwhile: the store holds all that was seen, in order
        assert len(stored) >= seen
        assert stored == room.session.lines[: len(stored)]
        games = client.get("/api/games?status=playing").json()
        assert [g["id"] for g in games] == [room.game_id]
        assert client.get(f"/api/games/{room.game_id}/record").status_code == 409


def test_restart_regenerates_lines_lost_before_the_flush(
    make_app: Any, player_factory: Any, db_url: str
) -> None:
    """Lines lost before a flush (a crash between play and write: in the server nobody
    was told of them, as a line is committed before any seat hears of it) are decided
    again at the restart: the bots play on from the last stored line until the person
    must answer, and the store then holds exactly what the table played. The bots need
    not choose as before (their tie-breaks draw from a stream that a restart begins
    anew, and a strong bot's search depends on its time), so the lines after the cut
    are checked for being stored and played, not for being the lost ones."""
    code, token, _before = _start_and_play(make_app(db_url), player_factory, 2)

    async def drop_tail() -> list[dict[str, Any]]:
        storage = Storage(db_url)
        await storage.start()
        assert storage.engine is not None
        async with storage.engine.begin() as conn:
            top = (await conn.execute(select(func.max(game_events.c.seq)))).scalar_one()
            # lose the last few lines, as a crash between play and flush would
            await conn.execute(delete(game_events).where(game_events.c.seq > top - 3))
            rows = await conn.execute(select(game_events.c.payload).order_by(game_events.c.seq))
            kept = [row[0] for row in rows]
        await storage.close()
        return kept

    kept = asyncio.run(drop_tail())
    app = make_app(db_url)
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        room = app.state.manager.rooms[code]
        session = room.session
        # the lost lines come back as the bots decide again, in their pool: wait until the
        # person is the one awaited (a bound, not a timing assertion: a slow machine only
        # waits longer)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
            len(session.lines) > len(kept) and session.to_act() == [0]
        ):
            time.sleep(0.02)
        assert session.to_act() == [0] and len(session.lines) > len(kept)
        client.portal.call(app.state.storage.flush)
        stored = client.portal.call(app.state.storage.lines, room.game_id)
        assert stored[: len(kept)] == kept
        assert stored == session.lines
        p = player_factory(ws)
        p.recv()
        p.send({"type": "reconnect", "token": token})
        after = p.until("snapshot")
        assert after["legal"] and after["to_act"] == [0]
        assert after["state"] == room.snapshot(0)["state"]


def test_a_damaged_log_marks_the_game_broken_and_the_server_still_starts(
    make_app: Any, player_factory: Any, db_url: str
) -> None:
    code, _token, _ = _start_and_play(make_app(db_url), player_factory, 1)

    async def tamper() -> None:
        storage = Storage(db_url)
        await storage.start()
        assert storage.engine is not None
        async with storage.engine.begin() as conn:
            rows = (await conn.execute(select(game_events.c.seq, game_events.c.payload))).all()
            seq, payload = next((s, p) for s, p in rows if p.get("type") == "action")
            payload = {**payload, "action": "zimo"}
            await conn.execute(
                game_events.update().where(game_events.c.seq == seq).values(payload=payload)
            )
        await storage.close()

    asyncio.run(tamper())
    app = make_app(db_url)
    with TestClient(app) as client:
        assert code not in app.state.manager.rooms
        games = client.get("/api/games?status=broken").json()
        assert len(games) == 1 and "line" in games[0]["result"]["error"]


def test_database_url_adds_async_drivers(monkeypatch: Any) -> None:
    monkeypatch.delenv("PAIJU_DATABASE_URL", raising=False)
    assert database_url() == "sqlite+aiosqlite:///data/paiju.db"
    assert database_url("postgresql://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert database_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    monkeypatch.setenv("PAIJU_DATABASE_URL", "postgres://h/d")
    assert database_url() == "postgresql+asyncpg://h/d"


def test_games_are_found_by_seat_token_hash_and_keep_their_review(db_url: str) -> None:
    """我的对局's two storage calls, on SQLite and PostgreSQL alike."""
    from paiju.server.room import hash_token

    mine, theirs = hash_token("mine"), hash_token("theirs")

    async def run() -> None:
        storage = Storage(db_url)
        await storage.start()
        try:
            head = {"variant": "jiaxing", "seed": 1, "seats": ["甲", "乙"], "options": {}}
            for game_id, hashes in (
                ("g1", [mine, None]),
                ("g2", [theirs, mine]),
                ("g3", [theirs, None]),
            ):
                room = {"seats": [{"kind": "person", "token_hash": h} for h in hashes]}
                await storage.create_game(game_id, "ROOM", head, room)
            storage.finish("g1", {"totals": [1, -1], "hands": 1})
            await storage.flush()
            found = await storage.games_with_tokens([mine], 10)
            assert sorted(g.id for g in found) == ["g1", "g2"]
            assert [g.id for g in await storage.games_with_tokens([mine], 1)] == [found[0].id]
            assert await storage.games_with_tokens([], 10) == []
            assert await storage.games_with_tokens([hash_token("nobody")], 10) == []
            await storage.note_review("g1", 0, 12, 0.75)
            await storage.note_review("g1", 1, 10, 0.5)
            await storage.note_review("g2", 0, 5, 1.0)  # not finished: nothing is noted
            await storage.note_review("nope", 0, 5, 1.0)
            g1 = await storage.get_game("g1")
            g2 = await storage.get_game("g2")
            assert g1 is not None and g2 is not None
            assert g1.result == {
                "totals": [1, -1],
                "hands": 1,
                "reviews": {
                    "0": {"decisions": 12, "agreement": 0.75},
                    "1": {"decisions": 10, "agreement": 0.5},
                },
            }
            assert g2.result is None
        finally:
            await storage.close()

    asyncio.run(run())


def test_the_writer_threads_raw_insert_stores_what_the_column_types_store(tmp_path: Any) -> None:
    """SQLite's writer thread sends its many-row INSERT as text: every column, the JSON
    payload (Chinese and nesting included) and a null seat, reads back as through
    SQLAlchemy's own statement."""
    from sqlalchemy import create_engine

    from paiju.server.storage import _statements, metadata

    lines = [
        {"type": "header", "note": "庄家 东", "nested": {"a": [1, 2.5, None, True]}},
        {"type": "discard", "seat": 2, "tile": "5m"},
        {"type": "draw", "seat": "2"},  # not an int seat: stored as null
    ]
    ops: list[Any] = [("events", (f"g{i}", 1, lines, 12.5), None) for i in range(2)]
    stored = []
    for raw in (False, True):
        engine = create_engine(f"sqlite:///{tmp_path / f'raw{raw}.db'}")
        metadata.create_all(engine)
        with engine.begin() as conn:
            for statement, rows in _statements(ops, raw_events=raw):
                if isinstance(statement, str):
                    conn.exec_driver_sql(statement, rows)
                else:
                    conn.execute(statement, rows)
        with engine.connect() as conn:
            stored.append(conn.execute(select(game_events).order_by("game_id", "seq")).all())
            text = conn.exec_driver_sql("SELECT payload FROM game_events").scalars().all()
        stored.append(text)
        engine.dispose()
    assert stored[0] == stored[2] and len(stored[0]) == 6
    assert stored[1] == stored[3]
    assert [row.payload for row in stored[0][:3]] == lines
    assert [row.seat for row in stored[0][:3]] == [None, 2, None]
