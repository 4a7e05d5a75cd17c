"""The engine Session pulled by bots (play_hand, play_match) and without a record."""

from __future__ import annotations

import pytest

from paiju.bots import make_bot
from paiju.engine.errors import IllegalActionError
from paiju.engine.fairness import FairDeal, offline_server_seed
from paiju.engine.match import Decide, Match
from paiju.engine.record import RecordWriter, verify
from paiju.engine.session import ResumeError, Session, bot_seed, play_match
from paiju.variants import find_variant


def _bots(variant: str, seed: int, n: int) -> list[Decide]:
    return [make_bot("greedy", bot_seed(seed, s, n), variant) for s in range(n)]


@pytest.mark.parametrize("variant", ["jiaxing", "taixing", "qinger"])
def test_a_session_without_a_record_plays_the_same_match(variant: str) -> None:
    flow = find_variant(variant)
    options = flow.parse_options({"hands": 2})
    n = flow.seats(options)
    kept = Session(flow, options, 9, ["a"] * n)
    bare = Session(flow, options, 9, ["a"] * n, record=False)
    with_lines = list(kept.play(_bots(variant, 9, n)))
    without = list(bare.play(_bots(variant, 9, n)))
    assert with_lines == without
    assert bare.lines == kept.lines[:1]
    assert len(kept.lines) > 20 and kept.lines[-1]["type"] == "match_end"


def test_play_match_emits_what_the_record_is_written_from() -> None:
    flow = find_variant("jiaxing")
    options = flow.parse_options({"hands": 1})
    emitted: list[dict[str, object]] = []
    match = Match(flow, options, 4)
    summaries = list(play_match(match, _bots("jiaxing", 4, 4), RecordWriter(emitted.append)))
    session = Session(flow, options, 4, ["", "", "", ""])
    assert list(session.play(_bots("jiaxing", 4, 4))) == summaries
    # the session's lines are the header, what play_match emitted, and the match_end
    assert session.lines[1:-1] == emitted


def _window_of_several(seed: int) -> Session | None:
    """A session stopped at a claim window asking several seats (None: no such window)."""
    flow = find_variant("jiaxing")
    session = Session(flow, flow.parse_options({"hands": 1}), seed, ["a"] * 4)
    bots = _bots("jiaxing", seed, 4)
    session.start_hand()
    hand = session.hand
    assert hand is not None
    while not session.hand_over:
        if len(session.to_act()) > 1:
            return session
        seat = session.to_act()[0]
        session.act(seat, bots[seat](hand, seat))
    return None


def test_bots_cannot_be_pulled_while_answers_are_held() -> None:
    flow = find_variant("jiaxing")
    fresh = Session(flow, flow.parse_options({"hands": 1}), 1, ["a"] * 4)
    with pytest.raises(IllegalActionError):
        fresh.play_hand(_bots("jiaxing", 1, 4))
    session = next(s for s in map(_window_of_several, range(1, 200)) if s is not None)
    last = session.to_act()[-1]
    session.act(last, session.legal(last)[0])  # held: an earlier seat has not answered
    assert last in session.held
    with pytest.raises(IllegalActionError):
        session.play_hand(_bots("jiaxing", 1, 4))


@pytest.mark.parametrize("variant", ["jiaxing", "taixing", "qinger"])
def test_a_fair_log_resumes_from_what_storage_keeps(variant: str) -> None:
    """A server keeps the log (whose header only commits to the seed) and, apart, the
    server seed: the cut log resumes with that seed and plays on (fresh bots, as a
    restarted server's) to a whole record that verifies, revealing the same seed; without
    it, or with another, the log is refused at a named line."""
    flow = find_variant(variant)
    options = flow.parse_options({"hands": 2})
    n = flow.seats(options)
    secret = offline_server_seed(11)
    fair = FairDeal.create(secret, "ROOM", ["c"] + [""] * (n - 1))
    whole = Session(flow, options, 11, ["a"] * n, fair=fair)
    for _ in whole.play(_bots(variant, 11, n)):
        pass
    actions = [i for i, line in enumerate(whole.lines) if line.get("type") == "action"]
    stored = whole.lines[: actions[len(actions) // 2]]
    resumed = Session.resume(stored, find_variant, secret)
    assert resumed.lines == stored
    if resumed.hand is None:
        resumed.start_hand()
    for _ in resumed.play(_bots(variant, 12, n)):
        pass
    assert resumed.lines[: len(stored)] == stored
    assert resumed.lines[-1]["server_seed"] == secret.hex()
    assert verify(resumed.lines, find_variant).ok
    with pytest.raises(ResumeError) as no_seed:
        Session.resume(stored, find_variant)
    assert no_seed.value.line == len(stored)
    with pytest.raises(ResumeError) as other:
        Session.resume(stored, find_variant, offline_server_seed(12))
    assert other.value.line == 1
