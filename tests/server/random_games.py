"""Seeded random games of every variant, walked step by step: what the tests of the typed
models (seat views, events) check the engine's output on."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from paiju.engine.session import Session, Step
from paiju.variants import VARIANTS
from paiju.variants.base import options_from_mapping

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("jiaxing", {"hands": 2}),
    ("jiaxing", {"hands": 2, "hun": True, "ting_declaration": True, "chi": True}),
    ("taixing", {"hands": 2}),
    ("taixing", {"hands": 2, "tian_ting": "heavenly"}),
    ("qinger", {"hands": 2}),
    ("qinger", {"hands": 2, "participants": 4}),
]


def walk(
    variant: str, overrides: dict[str, Any], seed: int
) -> Iterator[tuple[Session, Step | None]]:
    """The session before the first hand (no step), then after every step: each hand's
    start, every random legal action, each hand's end."""
    flow = VARIANTS[variant]
    options = options_from_mapping(flow.options_type, overrides)
    session = Session(flow, options, seed, [f"p{i}" for i in range(flow.seats(options))])
    rng = random.Random(seed)
    yield session, None
    while not session.finished:
        yield session, session.start_hand()
        while not session.hand_over:
            seat = rng.choice(session.to_act())
            yield session, session.act(seat, rng.choice(session.legal(seat)))
        yield session, session.end_hand()
