"""Session: the server's push-driven match writes exactly the engine's record."""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.bots import make_bot
from paiju.engine.errors import IllegalActionError
from paiju.engine.match import Match
from paiju.engine.record import record_match, replay
from paiju.engine.session import ResumeError, Session
from paiju.variants import VARIANTS, find_variant
from paiju.variants.base import options_from_mapping


def _setup(variant: str, seed: int) -> tuple[Any, Any, list[Any]]:
    flow = VARIANTS[variant]
    overrides = {"hands": 2} if variant != "taixing" else {}
    options = options_from_mapping(flow.options_type, overrides)
    bots = [
        make_bot("greedy", seed * 10 + i, variant)
        for i in range(flow.seats(flow.default_options()))
    ]
    return flow, options, bots


def _drive(session: Session, bots: list[Any], rng: random.Random | None, hands: int) -> None:
    """Answer with the bots; with ``rng``, several answers arrive in a shuffled order."""
    while not session.finished and len(session.match.hands) < hands:
        if session.between_hands:
            session.start_hand()
            continue
        if session.hand_over:
            session.end_hand()
            continue
        seats = session.to_act()
        decisions = [(s, bots[s](session.hand, s)) for s in seats]
        if rng is not None:
            rng.shuffle(decisions)
        for seat, code in decisions:
            session.act(seat, code)


@pytest.mark.parametrize("variant", ["jiaxing", "qinger"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_session_lines_equal_record_match(variant: str, seed: int) -> None:
    if variant not in VARIANTS:
        pytest.skip(f"{variant} is not registered")
    flow, options, bots = _setup(variant, seed)
    expected = record_match(
        Match(flow, options, seed),
        bots,
        ["a"] * flow.seats(flow.default_options()),
    )
    flow, options, bots = _setup(variant, seed)
    session = Session(flow, options, seed, ["a"] * flow.seats(flow.default_options()))
    _drive(session, bots, None, 99)
    assert session.finished
    assert session.lines == expected


@pytest.mark.parametrize("seed", [4, 5, 6, 7])
def test_answers_in_any_order_give_the_same_record(seed: int) -> None:
    flow, options, bots = _setup("jiaxing", seed)
    in_order = Session(flow, options, seed, ["a"] * 4)
    _drive(in_order, bots, None, 99)
    flow, options, bots = _setup("jiaxing", seed)
    shuffled = Session(flow, options, seed, ["a"] * 4)
    _drive(shuffled, bots, random.Random(seed), 99)
    assert shuffled.lines == in_order.lines
    assert replay(shuffled.lines, find_variant).ok


def test_resume_rebuilds_every_prefix_and_regenerates_a_missing_tail() -> None:
    flow, options, bots = _setup("jiaxing", 11)
    full = Session(flow, options, 11, ["a"] * 4)
    _drive(full, bots, None, 99)
    lines = full.lines
    for cut in (1, 2, len(lines) // 3, len(lines) // 2, len(lines) - 2, len(lines)):
        rebuilt = Session.resume(lines[:cut], find_variant)
        assert rebuilt.lines[:cut] == lines[:cut]
        # the regenerated tail after the last stored decision is what the engine said then
        assert lines[: len(rebuilt.lines)] == rebuilt.lines


def test_resume_refuses_a_tampered_log() -> None:
    flow, options, bots = _setup("jiaxing", 12)
    full = Session(flow, options, 12, ["a"] * 4)
    _drive(full, bots, None, 99)
    lines = [dict(line) for line in full.lines]
    discard = next(i for i, line in enumerate(lines) if line.get("type") == "discard")
    lines[discard]["tile"] = "9z" if lines[discard]["tile"] != "9z" else "1m"
    with pytest.raises(ResumeError, match=f"line {discard + 1}"):
        Session.resume(lines, find_variant)
    with pytest.raises(ResumeError, match="unknown variant"):
        Session.resume([{**lines[0], "variant": "chess"}], find_variant)
    with pytest.raises(ResumeError):
        Session.resume([], find_variant)


def test_session_refuses_out_of_turn_and_double_answers() -> None:
    flow, options, _ = _setup("jiaxing", 13)
    session = Session(flow, options, 13, ["a"] * 4)
    session.start_hand()
    actor = session.to_act()[0]
    other = (actor + 1) % 4
    with pytest.raises(IllegalActionError):
        session.act(other, 0)
    code = session.legal(actor)[0]
    turn = session.turn
    session.act(actor, code)
    assert session.turn == turn + 1
    with pytest.raises(IllegalActionError):
        session.start_hand()
