"""Every seat view the engine produces fits the typed models of ``paiju.server.views``
strictly (no unknown field, none missing, no value of another type), so the published
schema and the web client's generated types cannot drift from the engine: seeded random
games of every variant, viewed from every seat and a spectator after every change,
claim windows, hand ends and between hands included."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from pydantic import ValidationError
from random_games import GAMES, walk

from paiju.engine.session import Session
from paiju.server import views as V
from paiju.server.schema import schema_files
from paiju.variants import VARIANTS


def _check(session: Session, seen: Counter[str]) -> None:
    for seat in [*range(session.n_seats), None]:
        view = session.view(seat)
        V.validate_view(view)
        seen[str(view["phase"])] += 1
        seen.update(k for k in view if k not in ("phase",))


@pytest.mark.parametrize(("variant", "overrides"), GAMES)
def test_every_view_of_seeded_games_fits_the_models(
    variant: str, overrides: dict[str, Any]
) -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        for session, _ in walk(variant, overrides, seed):
            _check(session, seen)
    # the games reached the states whose fields matter: claim windows, ends, between hands
    for phase in ("act", "claim", "wait", "end", "between_hands", "finished"):
        assert seen[phase], (variant, phase)
    assert seen["waits"] and seen["drawn"] and seen["events"]
    assert seen["claim_card" if variant == "qinger" else "claim_tile"]


@pytest.mark.parametrize(
    "change",
    [
        lambda v: v.update(surprise=1),
        lambda v: v.pop("players"),
        lambda v: v["players"][0].update(hand=3),
        lambda v: v.update(phase="nonsense"),
    ],
)
def test_a_view_that_drifts_from_the_models_is_refused(change: Any) -> None:
    flow = VARIANTS["jiaxing"]
    session = Session(flow, flow.default_options(), 1, ["a", "b", "c", "d"])
    session.start_hand()
    view = json.loads(json.dumps(session.view(0)))
    V.validate_view(view)
    change(view)
    with pytest.raises(ValidationError):
        V.validate_view(view)


def test_the_published_schema_types_every_state() -> None:
    schema = schema_files()["web/src/schema/server-messages.json"]
    defs = schema["$defs"]
    assert {"JiaxingView", "TaixingView", "QingerView", "BetweenHandsView"} <= set(defs)
    for name in ("Update", "HandEnd", "Snapshot"):
        state = json.dumps(defs[name]["properties"]["state"])
        assert "SeatView" in state, name
