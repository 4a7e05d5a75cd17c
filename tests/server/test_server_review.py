"""Review over REST (paiju.server.review_api): the paiju review --json object, and its
answers fit the models published in the schema (paiju.server.rest)."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from paiju.bots import make_player
from paiju.engine.match import Match
from paiju.engine.record import record_match
from paiju.server import rest as R
from paiju.variants import VARIANTS


def _record() -> str:
    flow = VARIANTS["jiaxing"]
    options = flow.options_type(hands=1)
    players = [make_player("random", 0, "jiaxing")] + [
        make_player("greedy", s, "jiaxing") for s in range(1, 4)
    ]
    lines = record_match(Match(flow, options, 9), players, ["random"] + ["greedy"] * 3)
    return "\n".join(json.dumps(x, ensure_ascii=False) for x in lines) + "\n"


def test_an_uploaded_record_is_reviewed(client: TestClient) -> None:
    text = _record()
    reply = client.post("/api/review?seat=0", content=text.encode())
    assert reply.status_code == 200
    doc = reply.json()
    assert doc["seat"] == 0 and doc["bot"] == "strong" and 0 <= doc["agreement"] <= 1
    assert doc["n_decisions"] == len(doc["decisions"]) > 0
    costs = [m["given_up"] for m in doc["mistakes"]]
    assert costs == sorted(costs, reverse=True)
    # bad input: a clear 4xx, never a 500
    assert client.post("/api/review?seat=9", content=text.encode()).status_code == 422
    assert client.post("/api/review", content=text.encode()).status_code == 422
    assert client.post("/api/review?seat=0", content=b"{not json").status_code == 422
    tampered = text.replace('"action": "d', '"action": "x', 1)
    assert client.post("/api/review?seat=0", content=tampered.encode()).status_code == 422
    assert client.post("/api/review?seat=0", content=b"x" * 4_000_001).status_code == 413


def test_a_finished_game_is_reviewed(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 1}, seats=[{"kind": "bot", "level": "random"}] * 4)
        end = p.until("match_end")
    game_id = end["game_id"]
    reply = client.get(f"/api/games/{game_id}/review?seat=2")
    assert reply.status_code == 200 and reply.json()["seat"] == 2
    doc = reply.json()
    assert doc["seats"] == ["bot:random"] * 4
    # a second look is the same review, kept
    assert client.get(f"/api/games/{game_id}/review?seat=2").json() == doc
    assert client.get("/api/games/nope/review?seat=0").status_code == 404
    for bad in ("seat=4", "seat=-1", "seat=x", ""):
        got = client.get(f"/api/games/{game_id}/review?{bad}")
        assert got.status_code == 422, bad
    assert "no seat 4" in client.get(f"/api/games/{game_id}/review?seat=4").json()["detail"]


def test_each_decision_shows_the_table_as_that_seat_saw_it(client: TestClient) -> None:
    doc = client.post("/api/review?seat=0", content=_record().encode()).json()
    assert doc["decisions"]
    for d in doc["decisions"]:
        view = d["view"]
        assert view["seat"] == 0 and "events" not in view
        assert view["match_totals"] == [0, 0, 0, 0]  # a one-hand match: nothing before it
        # the choice made and the bot's are among what the seat could do then
        assert d["choice"] in view["legal_actions"] and d["bot"] in view["legal_actions"]
        players = view["players"]
        assert "hand" in players[0]
        # nothing of another seat's concealed hand
        assert all("hand" not in p for p in players[1:]), players


def test_a_game_still_being_played_is_not_reviewed(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 1})
        p.take(0)
        p.act_once()
        game_id = client.get("/api/games?status=playing").json()[0]["id"]
        reply = client.get(f"/api/games/{game_id}/review?seat=0")
    assert reply.status_code == 409 and "finished" in reply.json()["detail"]


def test_a_dead_review_worker_is_a_clear_503_and_then_replaced(client: TestClient) -> None:
    import os
    import signal

    from paiju.server import review_api

    text = _record().encode()
    assert client.post("/api/review?seat=0", content=text).status_code == 200
    pool = review_api._reviewer()
    for pid in list(pool._processes):  # the worker is killed from outside
        os.kill(pid, signal.SIGKILL)
    reply = client.post("/api/review?seat=0", content=text)
    assert reply.status_code == 503 and "worker" in reply.json()["detail"]
    assert client.post("/api/review?seat=0", content=text).status_code == 200


def test_a_review_asked_not_to_wait_says_how_far_it_got(client: TestClient) -> None:
    import time

    text = _record().encode()
    actions = sum(1 for line in text.splitlines() if b'"type":"action"' in line.replace(b" ", b""))
    reply = client.post("/api/review?seat=0&wait=0", content=text)
    seen: list[dict[str, Any]] = []
    for _ in range(600):
        if reply.status_code != 202:
            break
        state = reply.json()
        seen.append(state)
        assert state["status"] in ("queued", "running") and 0 <= state["done"] <= state["total"]
        assert state["total"] in (0, actions) and state["ahead"] >= 0
        assert isinstance(R.validate_review(state), R.ReviewProgress)  # as published
        time.sleep(0.1)
        reply = client.get(f"/api/review/jobs/{state['job']}")
    assert reply.status_code == 200
    doc = reply.json()
    assert doc["seat"] == 0 and doc["n_decisions"] > 0
    review = R.validate_review(doc)
    assert isinstance(review, R.ReviewAnswer) and review.decisions[0].view is not None
    assert len(review.decisions) == review.n_decisions
    # the same answer as a review that waits
    assert client.post("/api/review?seat=0", content=text).json() == doc
    if seen:  # a finished job stays to be fetched
        assert client.get(f"/api/review/jobs/{seen[0]['job']}").json() == doc
    assert client.get("/api/review/jobs/nope").status_code == 404
    bad = client.post("/api/review?seat=7&wait=0", content=text)
    for _ in range(600):
        if bad.status_code != 202:
            break
        time.sleep(0.1)
        bad = client.get(f"/api/review/jobs/{bad.json()['job']}")
    assert bad.status_code == 422 and "no seat 7" in bad.json()["detail"]
