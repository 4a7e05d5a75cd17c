"""The browser client's REST helpers (paiju.server.web_api): calculator, item names, replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paiju.calculator import score
from paiju.server import rest as R

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "jiaxing-score.json"
DATA = Path(__file__).resolve().parents[1] / "data"


def test_score_endpoint_gives_what_paiju_score_gives(client: TestClient) -> None:
    situation = json.loads(EXAMPLE.read_text())
    reply = client.post("/api/score", content=json.dumps(situation))
    assert reply.status_code == 200
    status, expected = score(situation)
    assert reply.json() == {"status": status, **expected}
    assert isinstance(R.SCORE.validate_python(reply.json()), R.JiaxingScore)


@pytest.mark.parametrize("variant", ["jiaxing", "taixing", "qinger"])
def test_every_score_case_fits_the_answer_model(variant: str) -> None:
    cases = json.loads((DATA / variant / "score_cases.json").read_text(encoding="utf-8"))
    exits = set()
    for case in cases["cases"] if isinstance(cases, dict) else cases:
        if case.get("exit", 0) == 2:
            continue  # malformed: a 422 refusal, no answer
        status, out = score(case.get("situation", case.get("input")))
        answer = R.SCORE.validate_python({"status": status, **out})
        assert answer.status == status and answer.valid == (status == 0), case["name"]
        exits.add(status)
    assert exits == {0, 1}


def test_score_endpoint_names_the_bad_field(client: TestClient) -> None:
    situation = json.loads(EXAMPLE.read_text())
    situation["hand"] = "5x"
    reply = client.post("/api/score", content=json.dumps(situation))
    assert reply.status_code == 422
    assert reply.json()["error"].startswith("hand")
    assert client.post("/api/score", content="{not json").status_code == 422
    assert client.post("/api/score", content="x" * 20000).status_code == 413


def test_items_have_both_languages(client: TestClient) -> None:
    items = client.get("/api/items").json()
    assert set(items) == {"jiaxing", "taixing", "qinger"}
    assert items["jiaxing"]["quan_qiu_ren"]["zh"] == "全求人"
    assert items["jiaxing"]["fang_pao"]["en"] != "fang_pao"


def _finished_game(client: TestClient, player_factory: Any) -> str:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 1}, seats=[{"kind": "bot", "level": "random"}] * 4)
        end = p.until("match_end")
    game_id: str = end["game_id"]
    return game_id


def test_frames_step_through_a_finished_game(client: TestClient, player_factory: Any) -> None:
    game_id = _finished_game(client, player_factory)
    data = client.get(f"/api/games/{game_id}/frames").json()
    frames = data["frames"]
    assert data["variant"] == "jiaxing" and data["hands"] == 1
    assert frames[0]["action"] is None
    # every seat's tiles are shown (the record reveals them anyway) and the last frame ends
    assert all("hand" in p for p in frames[0]["state"]["players"])
    assert frames[-1]["state"]["phase"] == "end"
    assert sum(frames[-1]["state"]["net"]) == 0
    record = client.get(f"/api/games/{game_id}/record").text
    uploaded = client.post("/api/replay", content=record).json()
    assert uploaded["frames"] == frames


def test_frames_refuse_tampered_and_unknown_records(
    client: TestClient, player_factory: Any
) -> None:
    game_id = _finished_game(client, player_factory)
    lines = client.get(f"/api/games/{game_id}/record").text.splitlines()
    index = next(i for i, line in enumerate(lines) if '"action"' in line)
    action = json.loads(lines[index])
    action["seat"] = (action["seat"] + 1) % 4
    lines[index] = json.dumps(action)
    reply = client.post("/api/replay", content="\n".join(lines))
    assert reply.status_code == 422 and "line" in reply.json()["detail"]
    assert client.post("/api/replay", content="[1]").status_code == 422
    assert client.get("/api/games/nope/frames").status_code == 404


def test_frames_wait_for_the_end_of_the_game(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 1})
        p.take(0)
        p.until("hand_start")
        games = client.get("/api/games?status=playing").json()
        assert games
        assert client.get(f"/api/games/{games[0]['id']}/frames").status_code == 409


def test_a_replay_runs_off_the_event_loop(
    client: TestClient, player_factory: Any, monkeypatch: Any
) -> None:
    # a long record replays for seconds: on the loop it would stop every table that long
    import threading

    from paiju.server import web_api

    game_id = _finished_game(client, player_factory)
    threads: list[str] = []
    real = web_api.replay_frames

    def spy(lines: list[dict[str, Any]]) -> dict[str, Any]:
        threads.append(threading.current_thread().name)
        return real(lines)

    monkeypatch.setattr(web_api, "replay_frames", spy)
    loop_thread: list[str] = []

    @client.app.get("/test-loop-thread")  # type: ignore[attr-defined, untyped-decorator]
    async def where() -> str:
        loop_thread.append(threading.current_thread().name)
        return "ok"

    record = client.get(f"/api/games/{game_id}/record").text
    assert client.post("/api/replay", content=record).status_code == 200
    assert client.get(f"/api/games/{game_id}/frames").status_code == 200
    assert client.get("/test-loop-thread").status_code == 200
    assert len(threads) == 2 and loop_thread[0] not in threads
