"""Qing'er with ``participants: 4`` (one seat sits each hand out) plays whole matches in
every front end that drives matches: the simulator, the arena and the terminal's session
(the server room is covered by tests/server/test_server_hidden.py)."""

from __future__ import annotations

import io

from paiju.arena import arena
from paiju.engine.record import parse_lines, replay
from paiju.simulator import simulate
from paiju.tui.session import PlaySession
from paiju.variants import find_variant

OPTIONS = {"participants": 4, "hands": 5}


def test_simulate_plays_and_records_four_participant_matches() -> None:
    out = io.StringIO()
    summary = simulate(
        "qinger",
        games=2,
        bots=["greedy"] * 4,
        seed=3,
        options=OPTIONS,
        record=out,
        progress=False,
    )
    assert summary["hands"] == 10
    assert len(summary["match_totals_by_seat"]) == 4
    assert sum(summary["match_totals_by_seat"]) == 0
    assert replay(parse_lines(out.getvalue().splitlines()), find_variant).ok


def test_arena_rotates_four_seats() -> None:
    report = arena(
        "qinger",
        ["greedy", "greedy", "greedy", "random"],
        deals=2,
        seed=1,
        options=OPTIONS,
        progress=False,
    )
    assert report["hands"] == 2 * 4


def test_the_terminal_session_plays_every_hand_with_the_person_sitting_some_out() -> None:
    options = find_variant("qinger").parse_options(OPTIONS)
    session = PlaySession("qinger", seed=7, bots=["greedy"], options=options)
    sat_out = 0
    while not session.match_over:
        hand = session.start_hand()
        if hand.sitting_out == session.human:
            sat_out += 1
        while not hand.is_over:
            session.run_bots()
            if not hand.is_over:
                session.human_act(hand.default_action(session.human))
        session.finish_hand()
    assert len(session.totals()) == 4 and sum(session.totals()) == 0
    assert sat_out >= 1
    assert replay(session.record(), find_variant).ok
