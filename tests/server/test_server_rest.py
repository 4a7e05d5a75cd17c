"""REST endpoints: health, variants, protocol schema, rooms and games lookups."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from paiju.server.protocol import PROTOCOL_VERSION
from paiju.variants.registry import flows


def test_health_reports_protocol_version(client: TestClient) -> None:
    body = client.get("/api/health").json()
    assert body["ok"] is True
    assert body["protocol"] == PROTOCOL_VERSION


def test_variants_lists_every_registered_flow_with_seat_counts(client: TestClient) -> None:
    body = client.get("/api/variants").json()
    assert {v["name"]: v["n_seats"] for v in body} == {
        name: flow.n_seats for name, flow in flows().items()
    }
    for v in body:
        assert "greedy" in v["bots"]
        assert isinstance(v["options"], dict)
        # rule profiles (issue 16): the seed's defaults first, each valid for its variant
        assert v["profiles"][0]["name"] == v["name"] and v["profiles"][0]["options"] == {}
    # the strong bot sits at the tables where it decides in milliseconds
    assert {v["name"]: "strong" in v["bots"] for v in body} == {
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
