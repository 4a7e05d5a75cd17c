"""REST endpoints: health, variants, protocol schema, rooms and games lookups, and the
answers' models (paiju.server.rest) published in the schema."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from paiju.review import Decision
from paiju.server import events as E
from paiju.server import messages as M
from paiju.server import rest as R
from paiju.server import views as V
from paiju.server.protocol import PROTOCOL_VERSION
from paiju.variants import VARIANTS


def test_health_reports_protocol_version(client: TestClient) -> None:
    body = client.get("/api/health").json()
    assert body["ok"] is True
    assert body["protocol"] == PROTOCOL_VERSION


def test_variants_publishes_what_each_variant_says(client: TestClient) -> None:
    body = client.get("/api/variants").json()
    assert body == [v.describe() for v in VARIANTS.values()]
    assert {v["name"]: v["seats"] for v in body} == {"jiaxing": 4, "taixing": 4, "qinger": 3}
    for v in body:
        assert "greedy" in v["bots"]["server"]
        names = [o["name"] for o in v["options"]]
        assert "hands" in names and all(o["label"]["zh"] and o["rule"] for o in v["options"])
        # rule profiles: the seed's defaults first, each valid for its variant
        assert v["profiles"][0]["name"] == v["name"] and v["profiles"][0]["options"] == {}
    # the strong bot sits at the tables where it decides in milliseconds
    assert {v["name"]: "strong" in v["bots"]["server"] for v in body} == {
        "jiaxing": True,
        "taixing": True,
        "qinger": False,
    }


def test_protocol_schema_names_every_client_message(client: TestClient) -> None:
    body = client.get("/api/protocol").json()
    assert body["version"] == PROTOCOL_VERSION
    text = str(body["client_messages"])
    for kind in ("create_room", "join", "take_seat", "set_seat", "start", "act", "ping"):
        assert f"'{kind}'" in text
    assert "'reconnect'" in text and "'leave'" in text


def test_unknown_room_and_game_are_404(client: TestClient) -> None:
    assert client.get("/api/rooms/ZZZZZZ").status_code == 404
    assert client.get("/api/games/nope").status_code == 404
    assert client.get("/api/games/nope/record").status_code == 404


def test_games_status_filter_is_checked(client: TestClient) -> None:
    assert client.get("/api/games?status=bogus").status_code == 422
    assert client.get("/api/games?status=finished").json() == []


def test_room_lookup_shows_public_setup(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        assert p.recv()["type"] == "welcome"
        code = p.create()
        room = client.get(f"/api/rooms/{code}").json()
        assert room["code"] == code and room["status"] == "waiting"
        assert [s["kind"] for s in room["seats"]] == ["person", "bot", "bot", "bot"]
        assert client.get(f"/api/rooms/{code.lower()}").status_code == 200


def _finished_game(client: TestClient, player_factory: Any, variant: str = "jiaxing") -> str:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        n = VARIANTS[variant].describe()["seats"]
        p.create(variant, options={"hands": 1}, seats=[{"kind": "bot", "level": "random"}] * n)
        end = p.until("match_end")
    game_id: str = end["game_id"]
    return game_id


def test_the_schema_publishes_the_rest_answers_beside_the_messages(client: TestClient) -> None:
    body = client.get("/api/schema").json()
    # the URLs and keys the client already reads stay as they were
    assert set(body) == {"version", "client_messages", "server_messages"}
    assert client.get("/api/protocol").json()["client_messages"] == body["client_messages"]
    schema = body["server_messages"]
    assert schema["title"] == "ServerMessage" and "oneOf" in schema
    rest = schema["rest"]
    assert set(rest) == set(R.REST_ANSWERS)
    assert rest["GET /api/games"] == {"type": "array", "items": {"$ref": "#/$defs/GameSummary"}}
    defs = schema["$defs"]
    assert rest["POST /api/review"] == {
        "anyOf": [{"$ref": "#/$defs/ReviewAnswer"}, {"$ref": "#/$defs/ReviewProgress"}]
    }
    names = ("GameSummary", "GameSeat", "GameResult", "ReplayAnswer", "ReplayFrame")
    for name in (*names, "ReviewAnswer", "ReviewDecision", "ReviewProgress"):
        assert name in defs, name
    frame = defs["ReplayFrame"]["properties"]
    assert frame["state"] == {"$ref": "#/$defs/SeatView"}
    assert frame["events"]["items"] == {"$ref": "#/$defs/SeatEvent"}
    assert "paiju:ref:" not in json.dumps(schema)


def test_lobby_and_server_answers_fit_their_models(client: TestClient, player_factory: Any) -> None:
    R.HealthAnswer.model_validate(client.get("/api/health").json())
    variants = [R.VariantInfo.model_validate(v) for v in client.get("/api/variants").json()]
    assert [v.name for v in variants] == list(VARIANTS)
    items = R.ItemNames.model_validate(client.get("/api/items").json())
    assert set(items.root) == set(VARIANTS)
    R.ProtocolAnswer.model_validate(client.get("/api/protocol").json())
    R.SchemaAnswer.model_validate(client.get("/api/schema").json())
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        code = p.create("qinger")
        one = M.RoomInfo.model_validate(client.get(f"/api/rooms/{code}").json())
        waiting = client.get("/api/rooms?status=waiting").json()
        assert [M.RoomInfo.model_validate(r) for r in waiting] == [one]
        assert client.get("/api/rooms").json() == waiting
    rest = client.get("/api/schema").json()["server_messages"]["rest"]
    assert rest["GET /api/rooms/{code}"] == {"$ref": "#/$defs/RoomInfo"}
    assert rest["GET /api/variants"] == {"type": "array", "items": {"$ref": "#/$defs/VariantInfo"}}


NOT_JSON = {"GET /metrics", "GET /api/games/{game_id}/record", "GET /rules/{name}"}
CLUSTER_ONLY = {"GET /api/cluster", "GET /api/open-rooms", "GET /api/ready"}


def test_every_json_route_has_its_answer_published(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    routes = {f"{method.upper()} {path}" for path, ops in paths.items() for method in ops}
    # a new JSON endpoint needs its answer's model in rest.REST_ANSWERS (and docs/protocol.md)
    assert routes - NOT_JSON == set(R.REST_ANSWERS) - CLUSTER_ONLY


def test_refusals_fit_the_error_model(client: TestClient) -> None:
    for path, status in [
        ("/api/rooms/ZZZZZZ", 404),
        ("/api/rooms?status=bogus", 422),
        ("/api/rooms?limit=many", 422),
        ("/api/games/nope", 404),
        ("/api/games?status=bogus", 422),
    ]:
        reply = client.get(path)
        assert reply.status_code == status, path
        refusal = R.ErrorAnswer.model_validate(reply.json())
        assert refusal.detail, path
    refusal = R.ErrorAnswer.model_validate(client.post("/api/score", content="[").json())
    assert refusal.error and refusal.error.startswith("(json)")


def test_game_answers_fit_their_models(client: TestClient, player_factory: Any) -> None:
    game_id = _finished_game(client, player_factory)
    listed = client.get("/api/games").json()
    games = R.GAME_LIST.validate_python(listed)
    assert [g.id for g in games] == [game_id]
    one = client.get(f"/api/games/{game_id}").json()
    assert one == listed[0]
    game = R.GameSummary.model_validate(one)
    assert game.status == "finished" and game.result is not None
    assert game.result.hands == 1 and game.result.totals is not None
    assert sum(game.result.totals) == 0
    assert [s.kind for s in game.seats] == ["bot"] * 4
    # an unfinished result is absent fields, not nulls (as it was before the models)
    assert set(one["result"]) == {"totals", "hands"}


@pytest.mark.parametrize("variant", ["jiaxing", "qinger"])
def test_replay_frames_fit_their_models(
    client: TestClient, player_factory: Any, variant: str
) -> None:
    game_id = _finished_game(client, player_factory, variant)
    answer = client.get(f"/api/games/{game_id}/frames").json()
    replay = R.validate_replay(answer)
    assert replay.variant == variant and replay.hands == 1 and replay.frames
    for frame in answer["frames"]:
        V.validate_view(frame["state"])
        for event in frame["events"]:
            E.validate_event(event, variant)
    record = client.get(f"/api/games/{game_id}/record").text
    assert R.validate_replay(client.post("/api/replay", content=record).json()) == replay


@dataclass
class _Odd:
    name: str
    """Its name."""
    tiles: list[str]


def test_a_review_decision_is_made_from_the_reviews_own_dataclass() -> None:
    assert list(R.ReviewDecision.model_fields) == [f.name for f in dataclasses.fields(Decision)]
    assert R.ReviewDecision.model_fields["bot"].description == "The strong bot's choice."
    schema = R.ReviewDecision.model_json_schema(mode="serialization")
    assert "view" not in schema["required"] and "hand" in schema["required"]
    # a field that is no JSON scalar must be given its answer's type
    with pytest.raises(TypeError, match=r"_Odd\.tiles"):
        R._answer_of(_Odd, "Odd", {})
    assert R._answer_of(_Odd, "Odd", {"tiles": list[str]}).model_fields["name"].description == (
        "Its name."
    )


def test_a_damaged_result_is_listed_as_such() -> None:
    from paiju.server.app import _game_json
    from paiju.server.storage import StoredGame

    room = {"seats": [{"kind": "alien", "name": "x"}, "junk"]}
    result = {"reviews": "not a mapping"}
    row = StoredGame("g1", "ABCD", "jiaxing", "finished", room, result, 1.0, 2.0)
    answer = _game_json(row)
    game = R.GameSummary.model_validate(answer)
    assert game.result is not None and game.result.error
    assert answer["seats"] == [{"kind": None, "level": None, "name": "x"}]


def test_a_bad_answer_does_not_fit() -> None:
    good: dict[str, Any] = {"variant": "jiaxing", "seats": [], "options": {}, "hands": 0}
    good.update(totals=[], frames=[])
    R.validate_replay(good)
    with pytest.raises(ValidationError):
        R.validate_replay({**good, "frames": [{"hand": 0}]})
    with pytest.raises(ValidationError):
        R.validate_replay({**good, "surprise": 1})
