"""The frames the app sends: each message encoded once, as compact UTF-8 JSON."""

from __future__ import annotations

import json
from typing import Any

from random_games import GAMES, walk

from paiju.server.app import encode_message


def _stdlib(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))


def test_encoded_messages_are_the_standard_librarys_text() -> None:
    # orjson encodes the frames when installed: the text is the same, byte for byte
    checked = 0
    for variant, overrides in GAMES:
        for session, step in walk(variant, overrides, 3):
            events = step.events if step is not None else []
            for seat in (0, None):
                msg = {
                    "type": "update",
                    "events": session.events_for(seat, events),
                    "state": session.view(seat),
                    "legal": [],
                }
                assert encode_message(msg) == _stdlib(msg)
                checked += 1
    assert checked


def test_what_orjson_refuses_is_still_encoded() -> None:
    msg = {"type": "x", "big": 2**70, 3: "一", "nested": {"k": [1.5, None, True]}}
    text = encode_message(msg)
    assert json.loads(text) == json.loads(_stdlib(msg))
    assert "一" in text
