"""Whole games over the websocket: one person driven by the test against bots."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from fastapi.testclient import TestClient

from paiju.engine.record import replay
from paiju.variants import VARIANTS, find_variant


def _one_hand_options(variant: str) -> dict[str, Any]:
    names = {f.name for f in dataclasses.fields(VARIANTS[variant].options_type)}
    return {"hands": 1} if "hands" in names else {}


def test_person_plays_a_whole_jiaxing_match_against_three_bots(
    client: TestClient, player_factory: Any
) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        welcome = p.recv()
        assert welcome["type"] == "welcome" and welcome["protocol"] == 1
        p.create("jiaxing", options={"hands": 1})
        p.take(0, "测试")
        start = p.until("hand_start")
        assert start["hand"] == 0
        acted = 0
        while True:
            msg = p.recv()
            if msg["type"] == "hand_end":
                break
            assert msg["type"] != "error", msg
            if msg["type"] == "update" and msg["legal"]:
                p.send({"type": "act", "action": p.choose(msg), "turn": msg["turn"]})
                acted += 1
        assert acted > 0
        assert sum(msg["net"]) == 0
        assert msg["match"]["hands_played"] == 1
        end = p.until("match_end")
        assert end["totals"] == msg["match"]["totals"]
        game_id = end["game_id"]
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200
    import json

    lines = [json.loads(line) for line in record.text.splitlines()]
    assert lines[0]["record"] == "paiju" and lines[-1]["type"] == "match_end"
    result = replay(lines, find_variant)
    assert result.ok, result.message
    game = client.get(f"/api/games/{game_id}").json()
    assert game["status"] == "finished" and game["result"]["totals"] == end["totals"]
    assert [s["kind"] for s in game["seats"]] == ["person", "bot", "bot", "bot"]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_registered_variant_plays_a_hand_and_records_it(
    client: TestClient, player_factory: Any, variant: str
) -> None:
    n = VARIANTS[variant].seats(VARIANTS[variant].default_options())
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create(variant, options=_one_hand_options(variant))
        p.take(0)
        end = p.play_to("hand_end")
        assert len(end["net"]) == n and sum(end["net"]) == 0
        assert end["state"]["players"][0]["seat"] == 0


def test_tampered_record_fails_replay(client: TestClient, player_factory: Any) -> None:
    import json

    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", seats=[{"kind": "bot", "level": "random"}] * 4)
        end = p.until("match_end")
    text = client.get(f"/api/games/{end['game_id']}/record").text
    lines = [json.loads(line) for line in text.splitlines()]
    assert replay(lines, find_variant).ok
    actions = [i for i, line in enumerate(lines) if line.get("type") == "action"]
    lines[actions[3]]["action"] = "pass" if lines[actions[3]]["action"] != "pass" else "d1m"
    assert not replay(lines, find_variant).ok


def test_host_sets_seats_and_starts_with_bots_for_empty_person_seats(
    client: TestClient, player_factory: Any
) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", seats=[{"kind": "person"}] * 4)
        p.send({"type": "set_seat", "seat": 3, "kind": "bot", "level": "random"})
        room = p.until("room")["room"]
        assert room["seats"][3]["kind"] == "bot" and room["seats"][3]["level"] == "random"
        p.take(1, "host")
        p.send({"type": "start"})
        room = p.until("room")["room"]
        while room["status"] != "playing":
            room = p.until("room")["room"]
        assert [s["kind"] for s in room["seats"]] == ["bot", "person", "bot", "bot"]
        p.play_to("match_end")


def test_friend_joins_by_code_and_game_starts_when_all_person_seats_are_taken(
    client: TestClient, player_factory: Any
) -> None:
    with client.websocket_connect("/ws") as ws1, client.websocket_connect("/ws") as ws2:
        host, friend = player_factory(ws1), player_factory(ws2)
        host.recv()
        friend.recv()
        code = host.create(
            "jiaxing",
            seats=[{"kind": "person"}, {"kind": "person"}, {"kind": "bot"}, {"kind": "bot"}],
        )
        host.take(0, "主人")
        friend.send({"type": "join", "code": code.lower()})
        snap = friend.until("snapshot")
        assert snap["seat"] is None and "state" not in snap
        friend.take(1, "朋友")
        assert host.until("hand_start")["hand"] == 0
        assert friend.until("hand_start")["hand"] == 0
        room = client.get(f"/api/rooms/{code}").json()
        assert room["status"] == "playing"
        assert [s["name"] for s in room["seats"][:2]] == ["主人", "朋友"]
