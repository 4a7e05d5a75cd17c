"""Nothing acknowledged is lost: a failing disk pauses the table (and play resumes with no
gap), a damaged game is set aside while the others resume, an unwritable data directory is
a one-line error, and a ``paiju serve`` killed with SIGKILL keeps every decision a client
was told of."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paiju.engine.record import replay
from paiju.server.storage import Storage, check_database

ROOT = Path(__file__).resolve().parents[2]


def test_a_failing_disk_pauses_the_table_and_play_resumes_without_a_gap(
    make_app: Any, player_factory: Any
) -> None:
    app = make_app()
    storage: Storage = app.state.storage
    failing = {"on": False, "attempts": 0}
    real_write = storage._write

    async def flaky(batch: Any) -> None:
        if failing["on"]:
            failing["attempts"] += 1
            raise OSError(28, "No space left on device")
        await real_write(batch)

    storage._write = flaky  # type: ignore[method-assign]
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        code = p.create("jiaxing", options={"hands": 1})
        p.take(0)
        room = app.state.manager.rooms[code]
        state = p.act_once()
        p.until("update")
        # the disk fills up: my next decision is applied but told to nobody until stored
        while True:
            msg = p.recv()
            if msg["type"] in ("update", "snapshot") and msg.get("legal"):
                failing["on"] = True
                p.send({"type": "act", "action": p.choose(msg), "turn": msg["turn"]})
                break
        paused = p.until("paused", "update")
        assert paused["type"] == "paused", "an update was sent before its decision was stored"
        health = client.get("/api/health")
        assert health.status_code == 503
        assert health.json()["storage"]["paused"] is True
        assert health.json()["tables"]["paused"] == 1
        assert "paiju_storage_paused 1" in client.get("/metrics").text.splitlines()
        assert room.public()["status"] == "paused"
        failing["on"] = False
        assert p.until("resumed", "update")["type"] == "resumed"
        end = p.play_to("match_end", None)
        assert failing["attempts"] >= 3
        body = client.get("/api/health").json()
        assert body["ok"] is True
        assert body["storage"]["pauses"] == 1 and body["storage"]["resumes"] == 1
        assert body["tables"]["resumed_total"] == 1
        record = client.get(f"/api/games/{end['game_id']}/record")
        lines = [json.loads(line) for line in record.text.splitlines()]
        assert lines == room.session.lines
        result = replay(lines)
        assert result.ok, result.message
    del state


def _two_games(make_app: Any, player_factory: Any, url: str) -> list[str]:
    app = make_app(url)
    with TestClient(app) as client:
        ids = []
        for _ in range(3):
            with client.websocket_connect("/ws") as ws:
                p = player_factory(ws)
                p.recv()
                code = p.create("jiaxing", options={"hands": 2})
                p.take(0)
                p.act_once()
                p.until("update")
                ids.append(app.state.manager.rooms[code].game_id)
        client.portal.call(app.state.storage.flush)
    return ids


def test_a_damaged_game_is_set_aside_and_the_others_resume(
    make_app: Any, player_factory: Any, tmp_path: Path
) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    good, tampered, garbled = _two_games(make_app, player_factory, url)
    db = sqlite3.connect(tmp_path / "games.db")
    with db:
        db.execute(
            "UPDATE game_events SET payload = ? WHERE game_id = ? AND seq = 1",
            (json.dumps({"type": "hand", "hand": 0, "dealer": 3, "seed": 1}), tampered),
        )
        db.execute("UPDATE games SET room = 'not json {' WHERE id = ?", (garbled,))
    db.close()
    app = make_app(url)
    with TestClient(app) as client:  # the server starts whatever it found
        games = {g["id"]: g for g in client.get("/api/games").json() if g["id"] != garbled}
        assert games[good]["status"] == "playing"
        assert games[tampered]["status"] == "broken"
        assert "line 2" in games[tampered]["result"]["error"]
        health = client.get("/api/health").json()
        assert health["games"] == {
            "resumed_at_start": 1,
            "broken_at_start": 2,
            "idle_reaped": 0,
        }
        rooms = app.state.manager.rooms
        assert [r.game_id for r in rooms.values()] == [good]
    db = sqlite3.connect(tmp_path / "games.db")
    status = db.execute("SELECT status, result FROM games WHERE id = ?", (garbled,)).fetchone()
    db.close()
    assert status[0] == "broken" and "error" in status[1]


def test_an_unwritable_data_directory_is_a_one_line_error(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the data directory should be")
    url = f"sqlite:///{blocker / 'paiju.db'}"
    problem = check_database(url)
    assert problem is not None and "\n" not in problem and "paiju.db" in problem
    serve = [sys.executable, "-c", "import sys; from paiju.cli import main; sys.exit(main())"]
    run = subprocess.run(
        [*serve, "serve", "--database", url],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        timeout=60,
        check=False,
    )
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and run.stderr.startswith("paiju serve: cannot")
    assert run.stdout == ""
    assert check_database(f"sqlite:///{tmp_path / 'ok' / 'paiju.db'}") is None


# -- kill -9 --------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(db: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-c", "import sys; from paiju.cli import main; sys.exit(main())"]
    command += ["serve", "--port", str(port), "--database", f"sqlite:///{db}"]
    command += ["--bot-delay", "0.05", "--log-level", "warning"]
    proc = subprocess.Popen(
        command,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src"), "PAIJU_STATIC_DIR": "/nonexistent"},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return proc
        except OSError:
            time.sleep(0.05)
    proc.kill()
    raise RuntimeError("paiju serve did not start")


def _choose(msg: dict[str, Any]) -> str:
    legal: list[str] = msg["legal"]
    for pick in ("zimo", "hu", "pass"):
        if pick in legal:
            return pick
    return legal[0]


def _play_and_kill(db: Path, rng: random.Random) -> tuple[str, list[str]]:
    """Play seat 0 until a random number of my decisions were acknowledged, then SIGKILL
    the server at once; returns the game id and the decisions I was told of."""
    pytest.importorskip("websockets")
    from websockets.sync.client import connect

    port = _free_port()
    proc = _serve(db, port)
    told: list[str] = []
    stop_after = rng.randint(1, 4)
    try:
        with connect(f"ws://127.0.0.1:{port}/ws", max_size=2**20) as ws:
            ws.recv()
            ws.send(json.dumps({"type": "create_room", "variant": "jiaxing", "options": {}}))
            pending: tuple[int, str] | None = None
            game_id = ""
            seated = False
            while True:
                msg = json.loads(ws.recv(timeout=60))
                kind = msg["type"]
                if kind == "snapshot" and not seated:
                    ws.send(json.dumps({"type": "take_seat", "seat": 0}))
                    seated = True
                if kind == "error":
                    raise AssertionError(f"the server refused a move: {msg}")
                if kind == "room" and msg["room"]["game_id"]:
                    game_id = msg["room"]["game_id"]
                if kind != "update":
                    continue
                if pending is not None and msg["turn"] > pending[0]:
                    # the update after my decision: it has been acknowledged
                    told.append(pending[1])
                    pending = None
                    if len(told) >= stop_after:
                        proc.send_signal(signal.SIGKILL)
                        break
                if msg["legal"] and pending is None:
                    action = _choose(msg)
                    pending = (msg["turn"], action)
                    ws.send(json.dumps({"type": "act", "action": action, "turn": msg["turn"]}))
    finally:
        proc.kill()
        proc.wait(timeout=30)
    return game_id, told


def _stored_actions(db: Path, game_id: str) -> list[str]:
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT payload FROM game_events WHERE game_id = ? ORDER BY seq", (game_id,)
    ).fetchall()
    con.close()
    lines = [json.loads(r[0]) for r in rows]
    return [x["action"] for x in lines if x.get("type") == "action" and x.get("seat") == 0]


def _kill_runs(tmp_path: Path, runs: int) -> None:
    rng = random.Random(20261201)
    for run in range(runs):
        db = tmp_path / f"kill{run}.db"
        game_id, told = _play_and_kill(db, rng)
        assert game_id and told
        stored = _stored_actions(db, game_id)
        assert stored[: len(told)] == told, (run, told, stored)
        # and the restarted server takes the game up again
        port = _free_port()
        proc = _serve(db, port)
        try:
            from urllib.request import urlopen

            with urlopen(f"http://127.0.0.1:{port}/api/games/{game_id}", timeout=10) as r:
                assert json.load(r)["status"] == "playing"
            with urlopen(f"http://127.0.0.1:{port}/api/health", timeout=10) as r:
                assert json.load(r)["games"]["resumed_at_start"] == 1
        finally:
            proc.kill()
            proc.wait(timeout=30)


def test_kill_9_loses_no_acknowledged_decision(tmp_path: Path) -> None:
    _kill_runs(tmp_path, 1)


@pytest.mark.slow
def test_kill_9_at_many_moments_loses_no_acknowledged_decision(tmp_path: Path) -> None:
    _kill_runs(tmp_path, 8)
