"""Bounded input, headers and ops: frames, bodies, nesting, numbers, strict types, match
lengths, Origin, security headers, health and metrics, the published schemas, and no
HTTP 500 for any input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect

from paiju.server import messages as M
from paiju.server.protocol import ProtocolError, parse_client_message
from paiju.server.schema import schema_files

ROOT = Path(__file__).resolve().parents[2]
DEEP_OPTIONS = '{"type": "create_room", "variant": "jiaxing", "options": '
DEEP_OPTIONS += '{"a":' * 70 + "1" + "}" * 71


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ('{"type": "take_seat", "seat": "1"}', "seat"),
        ('{"type": "take_seat", "seat": true}', "seat"),
        ('{"type": "take_seat", "seat": 1.0}', "seat"),
        ('{"type": "act", "action": "d5m", "turn": "3"}', "turn"),
        ('{"type": "ping", "t": ' + "9" * 4000 + "}", "digits"),
        ("[" * 200 + "]" * 200, "arrays"),
        (
            '{"type": "create_room", "variant": "jiaxing", "options": '
            + '{"a":' * 70
            + "1"
            + "}" * 71,
            "arrays",
        ),
        (b'{"type": "ping", "t": 1, "\xff": 2}', "JSON"),
    ],
)
def test_malformed_messages_are_refused_before_or_by_parsing(raw: Any, fragment: str) -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message(raw)
    assert info.value.code == "bad_message"
    assert fragment.lower() in info.value.message.lower() or fragment in ("seat", "turn")


def test_a_frame_over_the_limit_is_refused() -> None:
    with pytest.raises(ProtocolError) as info:
        parse_client_message('{"type": "ping"}' + " " * 300, limit=256)
    assert info.value.code == "too_large"
    assert parse_client_message('{"type": "ping", "t": 1}').t == 1.0


def test_match_length_is_bounded(client: TestClient, player_factory: Any) -> None:
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.send({"type": "create_room", "variant": "jiaxing", "options": {"hands": 10**6}})
        err = p.until("error")
        assert err["code"] == "bad_options" and "hands" in err["message"]
        p.send({"type": "create_room", "variant": "taixing", "options": {"rounds": 100}})
        assert p.until("error")["code"] == "bad_options"
        assert client.app.state.manager.rooms == {}  # type: ignore[attr-defined]


def test_http_bodies_are_limited_while_streaming(client: TestClient) -> None:
    def chunks() -> Any:
        for _ in range(100):
            yield b"x" * 65536  # 6.5 MB, no Content-Length: refused on the way in

    response = client.post("/api/replay", content=chunks())
    assert response.status_code == 413
    declared = client.post("/api/score", content=b"{}", headers={"content-length": "999999999"})
    assert declared.status_code == 413
    assert client.post("/api/score", content=b"[" * 20000).status_code == 413


def test_security_headers_on_every_response(client: TestClient) -> None:
    for path in ("/api/health", "/api/variants", "/nope"):
        headers = client.get(path).headers
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        script = next(d for d in csp.split("; ") if d.startswith("script-src"))
        assert script == "script-src 'self'" and "unsafe-eval" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"


def test_websocket_origin_must_be_the_served_one(make_app: Any) -> None:
    evil = {"origin": "https://evil.example"}
    with TestClient(make_app()) as client:
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws", headers=evil) as ws,
        ):
            ws.receive_json()
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "welcome"
        with client.websocket_connect("/ws") as ws:  # programs send no Origin
            assert ws.receive_json()["type"] == "welcome"
    dev = {"origin": "http://localhost:5173"}
    app = make_app(allowed_origins=("http://localhost:5173",))
    with TestClient(app) as client, client.websocket_connect("/ws", headers=dev) as ws:
        assert ws.receive_json()["type"] == "welcome"


def test_health_and_metrics(client: TestClient) -> None:
    health = client.get("/api/health")
    assert health.status_code == 200
    body = health.json()
    assert body["ok"] is True and body["storage"]["paused"] is False
    assert body["tables"]["paused"] == 0
    metrics = client.get("/metrics")
    assert metrics.headers["content-type"].startswith("text/plain")
    lines = metrics.text.splitlines()
    assert "paiju_storage_paused 0" in lines
    assert any(line.startswith("paiju_storage_write_errors_total ") for line in lines)
    assert "# TYPE paiju_tables_paused gauge" in lines


def test_committed_schema_files_are_current() -> None:
    for relative, document in schema_files().items():
        path = ROOT / relative
        text = json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        assert path.read_text(encoding="utf-8") == text, f"{relative}: run scripts/server-schema.py"
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "server-schema.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, check.stderr


def test_schema_endpoint_and_every_message_of_a_game_fit_it(
    client: TestClient, player_factory: Any
) -> None:
    schema = client.get("/api/schema").json()
    assert schema["server_messages"]["title"] == "ServerMessage"
    assert "CreateRoom" in json.dumps(schema["client_messages"])
    with client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.create("jiaxing", options={"hands": 1})
        p.take(0)
        p.play_to("match_end")
        p.send({"type": "leave"})
        p.send({"type": "ping", "t": 5})
        p.until("pong")
        p.send({"type": "nonsense"})
        p.recv()
    for msg in p.log:
        M.validate(msg)
    assert {m["type"] for m in p.log} >= {"welcome", "room", "snapshot", "update", "match_end"}


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.one_of(
        st.binary(max_size=200),
        JSON_VALUES.map(lambda v: json.dumps(v).encode()),
        st.dictionaries(
            st.sampled_from(["variant", "hand", "win_tile", "melds", "flowers", "self_drawn"]),
            JSON_VALUES,
            max_size=5,
        ).map(lambda v: json.dumps(v).encode()),
    )
)
def test_no_input_gives_a_500(client: TestClient, body: bytes) -> None:
    for path in ("/api/score", "/api/replay"):
        response = client.post(path, content=body)
        assert response.status_code < 500, (path, body, response.text)
