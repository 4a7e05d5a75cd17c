"""Every event a seat receives fits the typed models of ``paiju.server.events`` strictly
(no unknown field, none missing, no value of another type): seeded random games of every
variant, each step's events from every seat and a spectator, plus every event of the
golden records, so the published schema and the web client's types cannot drift."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError
from random_games import GAMES, walk

from paiju.engine.session import Session, Step
from paiju.server import events as E
from paiju.server.schema import schema_files

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN = sorted(DATA.glob("*/golden/*.jsonl"))


def _see(variant: str, session: Session, step: Step | None, seen: Counter[str]) -> None:
    for seat in [*range(session.n_seats), None]:
        for event in session.events_for(seat, step.events) if step else []:
            E.validate_event(json.loads(json.dumps(event)), variant)
            seen[event["type"]] += 1
        for event in session.view(seat).get("events", []):
            E.validate_event(json.loads(json.dumps(event)), variant)


@pytest.mark.parametrize(("variant", "overrides"), GAMES)
def test_every_event_of_seeded_games_fits_the_models(
    variant: str, overrides: dict[str, Any]
) -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        for session, step in walk(variant, overrides, seed):
            _see(variant, session, step, seen)
    # random play rarely wins: the golden records below carry the wins
    for kind in ("deal", "draw", "discard", "end"):
        assert seen[kind], (variant, kind)


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_every_event_of_the_golden_records_fits_the_models(path: Path) -> None:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    events = [line for line in lines if "type" in line]
    assert events
    for event in events:
        E.validate_event(event, path.parent.parent.name)


@pytest.mark.parametrize(
    "event",
    [
        {"type": "discard", "seat": 0, "tile": "1m", "surprise": 1},
        {"type": "discard", "tile": "1m"},
        {"type": "discard", "seat": "0", "tile": "1m"},
        {"type": "nonsense", "seat": 0},
        {"type": "win", "winners": [0], "how": "self_draw", "tile": "1m", "from": 1},
        {"type": "win", "winners": [0], "how": "by_magic", "tile": "1m"},
        {"type": "payment", "seat": 0, "payer": 1, "payee": 0, "amount": 1, "reason": "bao_zi_x"},
        {"type": "discard", "seat": 0, "card": "5h"},
        {"type": "fish", "seat": 0, "tiles": "1m", "hits": []},
    ],
)
def test_an_event_that_drifts_from_the_models_is_refused(event: dict[str, Any]) -> None:
    """Wrong fields and types, a set left open (how, reasons), another game's field or event."""
    with pytest.raises(ValidationError):
        E.validate_event(event, "taixing")


@pytest.mark.parametrize(
    ("variant", "event"),
    [
        ("qinger", {"type": "discard", "seat": 0, "tile": "1m"}),
        ("qinger", {"type": "exhaustive_draw"}),
        ("jiaxing", {"type": "exhausted"}),
        ("jiaxing", {"type": "flower", "seat": 0, "tile": "1f"}),
        ("jiaxing", {"type": "score", "seat": 0, "items": [], "hand": "", "per_payer": 1}),
    ],
)
def test_each_game_accepts_only_its_own_events(variant: str, event: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        E.validate_event(event, variant)


def test_the_published_schema_types_every_event_field() -> None:
    defs = schema_files()["web/src/schema/server-messages.json"]["$defs"]
    unions = {"JiaxingEvent", "TaixingEvent", "QingerEvent"}
    assert unions | {"MahjongDiscardEvent", "QingerWinEvent", "SeatEvent"} <= set(defs)
    assert "SeatEvent" in json.dumps(defs["Update"]["properties"]["events"])
    for game in ("Jiaxing", "Taixing", "Qinger"):
        events = json.dumps(defs[f"{game}View"]["properties"]["events"])
        assert f"#/$defs/{game}Event" in events, game
        assert defs[f"{game}Event"]["discriminator"]["propertyName"] == "type"
    # closed sets are enums in the schema, not open strings
    assert defs["MahjongWinEvent"]["properties"]["how"] == {"$ref": "#/$defs/WinType"}
    reasons = defs["QingerPaymentEvent"]["properties"]["reason"]["enum"]
    assert "bi_fen" in reasons and "zi_mo" in reasons
