"""Review over REST (paiju.server.review_api): the paiju review --json object."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from paiju.bots import make_player
from paiju.engine.match import Match
from paiju.engine.record import record_match
from paiju.variants.registry import flows


def _record() -> str:
    flow = flows()["jiaxing"]
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
    assert client.get("/api/games/nope/review?seat=0").status_code == 404
