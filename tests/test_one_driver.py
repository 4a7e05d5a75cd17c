"""One session driver and one replayer (issue 11, item 4).

The terminal's session, ``play_match`` (and so ``paiju simulate``) and a server room all run
on :class:`paiju.engine.session.Session`: with the same seed, the same fair deal and the
same bots they write the same record, line for line. ``paiju replay``, a server's resume and
the web replay frames all run :meth:`Session.replay`: they accept the same records and
refuse a tampered one with the same error.
"""

from __future__ import annotations

import asyncio
import copy
import tempfile
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.bots import make_bot
from paiju.engine.fairness import FairDeal, offline_server_seed
from paiju.engine.match import Match
from paiju.engine.record import record_match, replay
from paiju.engine.session import ResumeError, Session, bot_seed, play_match
from paiju.server.manager import RoomManager
from paiju.server.protocol import TimerSettings
from paiju.server.room import Connection, Room, Seat, ServerConfig
from paiju.server.storage import Storage
from paiju.server.timers import ManualClock
from paiju.server.web_api import replay_frames
from paiju.tui.session import PlaySession
from paiju.variants import find_variant

CASES = [
    ("jiaxing", {"hands": 2}, 3),
    ("taixing", {"hands": 2}, 4),
    ("qinger", {"hands": 2}, 5),
    ("qinger", {"hands": 2, "participants": 4}, 6),
]


def _fair(seed: int, n_seats: int) -> FairDeal:
    return FairDeal.create(offline_server_seed(seed), "play", [""] * n_seats)


def _terminal(variant: str, options: Any, seed: int) -> list[dict[str, Any]]:
    """The terminal's session, its person's moves chosen by the greedy bot of that seat."""
    session = PlaySession(variant, seed=seed, options=options)
    person = make_bot("greedy", bot_seed(seed, session.human, session.n_seats), variant)
    while not session.match_over:
        session.start_hand()
        while True:
            session.run_bots()
            if session.next_seat() is None:
                break
            session.human_act(person(session.hand, session.human))
        session.finish_hand()
    return session.record()


def _pulled(variant: str, options: Any, seed: int) -> list[dict[str, Any]]:
    flow = find_variant(variant)
    n = flow.seats(options)
    match = Match(flow, options, seed, fair=_fair(seed, n))
    bots = [make_bot("greedy", bot_seed(seed, s, n), variant) for s in range(n)]
    seen: list[Any] = []
    lines = record_match(match, bots, ["greedy"] * n)
    # play_match is the same driver: the same match gives the same hands
    again = Match(flow, options, seed, fair=_fair(seed, n))
    bots = [make_bot("greedy", bot_seed(seed, s, n), variant) for s in range(n)]
    summaries = list(play_match(again, bots, seen.append))
    assert [s.net for s in summaries] == [
        line["net"] for line in lines if line.get("type") == "hand_end"
    ]
    assert sum(1 for item in seen if isinstance(item, tuple) and item[0] == "action") == sum(
        1 for line in lines if line.get("type") == "action"
    )
    return lines


def _room(variant: str, options: Any, seed: int) -> tuple[list[dict[str, Any]], list[Any]]:
    """A server room of greedy bot seats (watched, so that it plays) driven by its own
    tasks; returns the session's record lines and the lines the room stored."""

    async def body() -> tuple[list[dict[str, Any]], list[Any]]:
        flow = find_variant(variant)
        n = flow.seats(options)
        config = ServerConfig(bot_delay=0.0, next_hand_delay=0.0)
        with tempfile.TemporaryDirectory() as tmp:
            storage = Storage(f"sqlite+aiosqlite:///{tmp}/driver.db")
            await storage.start()
            manager = RoomManager(storage, config, ManualClock())
            seats = [Seat(i, "bot", "greedy") for i in range(n)]
            room = Room(manager, "TESTAAAAAA", variant, flow, options, seats, TimerSettings())
            watcher = Connection()
            room.spectators[watcher.id] = watcher
            watcher.room = room
            names = [f"bot:{s.level}" for s in seats]
            room.session = Session(flow, options, seed, names, fair=_fair(seed, n))
            room.game_id, room.status = "g", "playing"
            await storage.create_game("g", room.code, room.session.lines[0], room._setup())
            room.stored = 1
            room._make_bots(seed)
            room._start_hand()
            # the bots think in the manager's worker pool: wait for the room to finish
            for _ in range(200_000):
                if room.status == "finished":
                    break
                await asyncio.sleep(0.001)
            assert room.status == "finished"
            await room._settled.wait()
            await storage.flush()
            stored = await storage.lines("g")
            lines = room.session.lines
            await manager.close()
            await storage.close()
        return lines, stored

    return asyncio.run(body())


def _without_labels(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The record without its seat labels (the person is ``human`` in the terminal)."""
    out = copy.deepcopy(lines)
    out[0].pop("seats")
    return out


@pytest.mark.parametrize(("variant", "overrides", "seed"), CASES)
def test_terminal_play_match_and_a_server_room_write_the_same_record(
    variant: str, overrides: dict[str, Any], seed: int
) -> None:
    options = find_variant(variant).parse_options(overrides)
    terminal = _terminal(variant, options, seed)
    pulled = _pulled(variant, options, seed)
    room, stored = _room(variant, options, seed)
    assert sum(1 for line in pulled if line.get("type") == "action") > 20
    assert _without_labels(terminal) == _without_labels(pulled)
    assert _without_labels(room) == _without_labels(pulled)
    assert stored == room
    assert replay(room, find_variant).ok


# -- one replayer ------------------------------------------------------------------------


def _record(variant: str, seed: int, fair: bool) -> list[dict[str, Any]]:
    flow = find_variant(variant)
    options = flow.parse_options({"hands": 1})
    n = flow.seats(options)
    match = Match(flow, options, seed, fair=_fair(seed, n) if fair else None)
    bots = [make_bot("greedy", bot_seed(seed, s, n), variant) for s in range(n)]
    return record_match(match, bots, ["greedy"] * n)


RECORDS = {
    (variant, fair): _record(variant, 7, fair)
    for variant in ("jiaxing", "taixing", "qinger")
    for fair in (False, True)
}


def _verdicts(lines: list[dict[str, Any]]) -> tuple[Any, Any, Any]:
    """What ``paiju replay``, a server's resume and the web replay frames say of ``lines``:
    None for accepted, else (line, problem)."""
    result = replay(lines, find_variant)
    by_replay = None if result.ok else (result.line, result.message)
    try:
        Session.resume(lines, find_variant)
        by_resume = None
    except ResumeError as exc:
        by_resume = (exc.line, exc.problem)
    try:
        replay_frames(lines)
        by_frames = None
    except ResumeError as exc:
        by_frames = (exc.line, exc.problem)
    return by_replay, by_resume, by_frames


@pytest.mark.parametrize("key", sorted(RECORDS))
def test_replay_resume_and_frames_accept_a_record_alike(key: tuple[str, bool]) -> None:
    lines = RECORDS[key]
    assert _verdicts(lines) == (None, None, None)
    assert Session.resume(lines, find_variant).lines == lines
    frames = replay_frames(lines)
    assert frames["hands"] == 1
    assert frames["totals"] == lines[-1]["totals"]
    decisions = sum(1 for line in lines if line.get("type") == "action")
    assert 1 < len(frames["frames"]) <= decisions + 1


def _tamper(lines: list[dict[str, Any]], how: str) -> list[dict[str, Any]]:
    out = copy.deepcopy(lines)
    actions = [i for i, line in enumerate(out) if line.get("type") == "action"]
    events = [i for i, line in enumerate(out) if line.get("type") not in ("action", "hand")][1:]
    if how == "event":
        out[events[len(events) // 2]]["forged"] = 1
    elif how == "action":
        target = out[actions[len(actions) // 2]]
        target["action"] = "hu" if target["action"] != "hu" else "pass"
    elif how == "seat":
        out[actions[0]]["seat"] = True
    elif how == "dropped":
        del out[actions[len(actions) // 3]]
    elif how == "bool_for_int":
        hand_end = next(line for line in out if line.get("type") == "hand_end")
        hand_end["index"] = False
    elif how == "header":
        out[0]["seed"] += 1
    return out


@pytest.mark.parametrize("key", sorted(RECORDS))
@pytest.mark.parametrize("how", ["event", "action", "seat", "dropped", "bool_for_int", "header"])
def test_replay_resume_and_frames_refuse_a_tampered_record_alike(
    key: tuple[str, bool], how: str
) -> None:
    by_replay, by_resume, by_frames = _verdicts(_tamper(RECORDS[key], how))
    assert by_replay is not None
    assert by_replay == by_resume == by_frames


@settings(max_examples=30, deadline=None)
@given(
    key=st.sampled_from(sorted(RECORDS)),
    where=st.floats(0, 1, exclude_max=True),
    value=st.one_of(st.integers(-2, 2), st.booleans(), st.text(max_size=3), st.none()),
)
def test_any_changed_line_is_refused_alike(key: tuple[str, bool], where: float, value: Any) -> None:
    lines = copy.deepcopy(RECORDS[key])
    index = 1 + int(where * (len(lines) - 1))
    line = lines[index]
    field = sorted(line)[index % len(line)]
    if field == "type" or (line[field] == value and type(line[field]) is type(value)):
        field = "extra"
    line[field] = value
    by_replay, by_resume, by_frames = _verdicts(lines)
    assert by_replay is not None
    assert by_replay[0] == index + 1
    assert by_replay == by_resume == by_frames
