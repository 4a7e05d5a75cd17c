"""Between hands: the pause before the next deal, ``ready`` that ends it early, the lobby's
list of open rooms, and the caching headers of the built client."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient


def test_hand_end_says_when_the_next_hand_comes_and_ready_deals_it_at_once(
    make_app: Any, player_factory: Any
) -> None:
    # an hour's pause: only ``ready`` can bring the second hand
    with (
        TestClient(make_app(next_hand_delay=3600.0)) as client,
        client.websocket_connect("/ws") as ws,
    ):
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 2})
        p.take(0, "甲")
        end = p.play_to("hand_end")
        assert end["next_hand_ms"] == 3_600_000
        p.send({"type": "ready"})
        start = p.until("hand_start")
        assert start["hand"] == 1
        # a second ``ready`` during the hand is refused and changes nothing
        p.send({"type": "ready"})
        while True:
            msg = p.recv()
            if msg["type"] == "error":
                assert msg["code"] == "not_between_hands"
                break
        last = p.play_to("hand_end")
        assert last["next_hand_ms"] is None  # the match is over: no next hand


def test_spectator_cannot_ready(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing")
        p.send({"type": "ready"})
        msg = p.recv()
        while msg["type"] != "error":
            msg = p.recv()
        assert msg["code"] == "not_seated"


def test_open_rooms_lists_rooms_with_a_free_person_seat(
    client: TestClient, player_factory: Any
) -> None:
    assert client.get("/api/rooms?status=bogus").status_code == 422
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        code = p.create(
            "taixing", seats=[{"kind": "person"}, {"kind": "person"}] + [{"kind": "bot"}] * 2
        )
        listed = client.get("/api/rooms?status=waiting").json()
        assert [r["code"] for r in listed] == [code]
        assert listed[0]["variant"] == "taixing"
        p.take(0, "甲")
        # one person seat is still free
        assert [r["code"] for r in client.get("/api/rooms?status=waiting").json()] == [code]


def test_hashed_assets_are_cached_for_good_and_the_page_is_not(
    sqlite_url: str, tmp_path: Path
) -> None:
    from paiju.server.app import create_app
    from paiju.server.room import ServerConfig

    dist = tmp_path / "dist"
    (dist / "assets").mkdir(parents=True)
    (dist / "index.html").write_text("<!doctype html><title>t</title>" + " " * 2000)
    (dist / "assets" / "index-abc123.js").write_text("console.log(1);" * 200)
    app = create_app(sqlite_url, ServerConfig(bot_delay=0.0), static_dir=str(dist))
    with TestClient(app) as client:
        asset = client.get("/assets/index-abc123.js", headers={"accept-encoding": "gzip"})
        assert asset.status_code == 200
        assert asset.headers["cache-control"] == "public, max-age=31536000, immutable"
        assert asset.headers["content-encoding"] == "gzip"
        page = client.get("/", headers={"accept-encoding": "gzip"})
        assert page.headers["cache-control"] == "no-cache"
        assert client.get("/assets/missing.js").status_code == 404
