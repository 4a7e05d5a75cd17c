"""我的对局 over REST (paiju.server.player_api): a player's games and statistics by the seat
tokens the browser kept, nothing of anyone else's."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.server import rest as R
from paiju.stats import seat_counts


def _play_one(client: TestClient, player_factory: Any, name: str) -> tuple[str, str]:
    """A one-hand Jiaxing match with a person at seat 0; returns (token, game id)."""
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 1})
        p.take(0, name)
        end = p.play_to("match_end")
    assert p.token is not None
    return p.token, end["game_id"]


def test_my_games_are_found_by_token_and_counted(client: TestClient, player_factory: Any) -> None:
    mine, first = _play_one(client, player_factory, "阿明")
    _, other = _play_one(client, player_factory, "别人")
    _, second = _play_one(client, player_factory, "阿明")
    # the second match was played with a new token: only the first is found by the first token
    reply = client.post("/api/mine", json={"tokens": [mine]})
    assert reply.status_code == 200
    doc = reply.json()
    R.MineAnswer.model_validate(doc)  # the answer the schema publishes
    assert [g["id"] for g in doc["games"]] == [first]
    game = doc["games"][0]
    assert game["seat"] == 0 and game["name"] == "阿明" and game["status"] == "finished"
    assert "token_hash" not in str(doc) and mine not in str(doc)
    lines = client.get(f"/api/games/{first}/record").text.splitlines()
    expected = seat_counts([json.loads(x) for x in lines])[0]
    stats = doc["stats"]
    assert stats["hands"] == expected.hands == 1 and stats["matches"] == 1
    assert stats["wins"] == expected.wins and stats["deal_ins"] == expected.deal_ins
    assert stats["points"] == expected.points == game["total"]
    assert stats["match_points"] == [game["total"]]
    assert doc["by_variant"]["jiaxing"]["hands"] == 1
    assert other not in str(doc) and second not in str(doc)


def test_several_tokens_give_several_games_oldest_first_in_the_chart(
    client: TestClient, player_factory: Any
) -> None:
    client.app.state.review_in_background = False  # type: ignore[attr-defined]
    t1, g1 = _play_one(client, player_factory, "阿明")
    t2, g2 = _play_one(client, player_factory, "阿明")
    doc = client.post("/api/mine", json={"tokens": [t1, t2, "not-a-token-of-anyone"]}).json()
    R.MineAnswer.model_validate(doc)
    assert [g["id"] for g in doc["games"]] == [g2, g1]  # newest first
    totals = {g["id"]: g["total"] for g in doc["games"]}
    assert doc["stats"]["matches"] == 2 and doc["stats"]["hands"] == 2
    assert doc["stats"]["match_points"] == [totals[g1], totals[g2]]  # oldest first
    assert doc["stats"]["agreement"] is None  # nothing reviewed yet


def test_a_reviewed_game_brings_its_agreement_also_after_a_restart(
    make_app: Any, player_factory: Any
) -> None:
    with TestClient(make_app()) as client:
        client.app.state.review_in_background = False  # type: ignore[attr-defined]
        token, game_id = _play_one(client, player_factory, "阿明")
        assert (
            "reviewed" not in client.post("/api/mine", json={"tokens": [token]}).json()["games"][0]
        )
        review = client.get(f"/api/games/{game_id}/review?seat=0").json()
    with TestClient(make_app()) as client:
        doc = client.post("/api/mine", json={"tokens": [token]}).json()
        R.MineAnswer.model_validate(doc)
    assert doc["games"][0]["review"]["status"] == "done"
    assert doc["games"][0]["reviewed"] == {
        "decisions": review["n_decisions"],
        "agreement": review["agreement"],
    }
    assert doc["stats"]["decisions_reviewed"] == review["n_decisions"]
    assert abs(doc["stats"]["agreement"] - review["agreement"]) < 0.02


def test_every_finished_game_of_mine_is_reviewed_in_the_background(
    make_app: Any, player_factory: Any
) -> None:
    # the page is looked at again and again here: no lookup limit
    with TestClient(make_app(lookup_rate=1e6, lookup_burst=1e6)) as client:
        _reviewed_in_the_background(client, player_factory)


def _reviewed_in_the_background(client: TestClient, player_factory: Any) -> None:
    token, game_id = _play_one(client, player_factory, "阿明")
    doc = client.post("/api/mine", json={"tokens": [token]}).json()
    R.MineAnswer.model_validate(doc)
    state = doc["games"][0]["review"]
    assert state["status"] in ("queued", "running", "done")
    assert "reviewed" in doc["games"][0] or doc["stats"]["agreement"] is None
    from paiju.server.review_api import review_queue

    queue = review_queue(client.app)
    # only the seat of the token this browser holds is queued, never another seat's
    assert {j.seat for j in [*queue.jobs.values(), *queue.done.values()]} == {0}
    for _ in range(600):
        doc = client.post("/api/mine", json={"tokens": [token]}).json()
        R.MineAnswer.model_validate(doc)
        if doc["games"][0]["review"]["status"] == "done":
            break
        assert doc["games"][0]["review"]["status"] in ("queued", "running")
        time.sleep(0.1)
    game = doc["games"][0]
    review = client.get(f"/api/games/{game_id}/review?seat=0").json()
    summary = {"decisions": review["n_decisions"], "agreement": review["agreement"]}
    assert game["reviewed"] == summary
    assert game["review"]["status"] == "done"
    assert doc["stats"]["decisions_reviewed"] == review["n_decisions"]
    # the background worker is the one a player's review runs in: with it off, nothing waits
    client.app.state.review_in_background = False  # type: ignore[attr-defined]
    other, _ = _play_one(client, player_factory, "阿明")
    listed = client.post("/api/mine", json={"tokens": [other]}).json()["games"][0]
    assert listed["review"] == {"status": "off"} and "reviewed" not in listed


def test_a_game_being_played_is_listed_without_its_record(
    client: TestClient, player_factory: Any
) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 1})
        p.take(0, "阿明")
        p.act_once()
        doc = client.post("/api/mine", json={"tokens": [p.token]}).json()
        R.MineAnswer.model_validate(doc)
    game = doc["games"][0]
    assert game["status"] == "playing" and game["seat"] == 0
    assert "stats" not in game and "totals" not in game
    assert doc["stats"]["hands"] == 0 and doc["stats"]["matches"] == 0


def test_bad_bodies_are_refused_with_a_reason(client: TestClient) -> None:
    cases: list[tuple[Any, str]] = [
        (b"{not json", "JSON"),
        (b"[]", "tokens"),
        (b'{"tokens": "abc"}', "list"),
        (b'{"tokens": [1]}', "tokens[0]"),
        (b'{"tokens": [""]}', "tokens[0]"),
        (b'{"tokens": ["' + b"x" * 65 + b'"]}', "tokens[0]"),
        (b'{"tokens": [' + b",".join([b'"a"'] * 201) + b"]}", "at most 200"),
    ]
    for body, word in cases:
        reply = client.post("/api/mine", content=body)
        assert reply.status_code == 422, body
        assert word in reply.json()["detail"], (body, reply.json())
    empty = client.post("/api/mine", json={"tokens": []})
    assert empty.status_code == 200 and empty.json()["games"] == []


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=70),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=st.one_of(_json, st.fixed_dictionaries({"tokens": _json})))
def test_any_body_is_answered_or_refused_never_a_500(client: TestClient, body: Any) -> None:
    reply = client.post("/api/mine", content=json.dumps(body).encode())
    # (429: a well-formed look-up beyond the look-up rate limit, also a clear refusal)
    assert reply.status_code in (200, 422, 429), (body, reply.text)
    if reply.status_code == 200:
        assert reply.json()["games"] == []  # no token of anyone's seat
    else:
        assert isinstance(reply.json()["detail"], str)
