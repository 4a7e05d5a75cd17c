"""The play session without a screen: decision order, legality, and records that
``paiju replay`` verifies after every hand and at the end of the match."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from paiju.cli import main
from paiju.engine.errors import IllegalActionError
from paiju.engine.fairness import commitment
from paiju.engine.record import parse_lines, replay
from paiju.tui.session import HUMAN, PlaySession
from paiju.variants import VARIANTS, find_variant


def play_hand(session: PlaySession, rng: random.Random) -> None:
    session.start_hand()
    while True:
        session.run_bots()
        if session.next_seat() is None:
            return
        session.human_act(rng.choice(session.human_legal()))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_a_random_person_plays_a_match_and_every_record_replays(
    variant: str, tmp_path: Path
) -> None:
    path = tmp_path / "match.jsonl"
    options_type = VARIANTS[variant].options_type
    fields = {f.name for f in dataclasses.fields(options_type)}
    # a short match: three hands where the variant can say so, else one wind round
    options = options_type(hands=3) if "hands" in fields else options_type(rounds=1)
    session = PlaySession(variant, seed=11, options=options, record_path=str(path))
    rng = random.Random(5)
    while not session.match_over:
        play_hand(session, rng)
        session.finish_hand()
        if "hands" not in fields and not session.match_over:
            # without a hands option a match cut short cannot be recorded
            assert session.record() == []
            continue
        with open(path, encoding="utf-8") as fh:
            records = parse_lines(fh)
        result = replay(records, find_variant)
        assert result.ok, (variant, result.line, result.message)
        assert result.hands == len(session.summaries)
        assert records[0]["seats"][0] == HUMAN
    played = len(session.summaries)
    # Taixing plays on after a drawn last hand (T9): those hands count too
    assert played == 3 + session.match.extra_hands if "hands" in fields else played >= 4
    end = dict(records[-1])
    # the fair deal's server seed is revealed at the end and hashes to the commitment
    assert commitment(bytes.fromhex(end.pop("server_seed"))) == records[0]["fair"]["commitment"]
    assert end == {"type": "match_end", "totals": session.totals(), "hands": played}
    assert sum(session.totals()) == 0


def test_a_partial_record_is_a_shorter_match() -> None:
    session = PlaySession("jiaxing", seed=4)
    assert session.record() == []
    play_hand(session, random.Random(1))
    assert session.record() == [], "an unfinished hand is not recorded"
    session.finish_hand()
    records = session.record()
    assert records[0]["options"]["hands"] == 1
    assert replay(records, find_variant).ok
    # the person's tiles in the live session are still the full match's (no hands cap)
    assert session.options.hands is None


def test_only_the_person_acts_on_their_turn() -> None:
    session = PlaySession("jiaxing", seed=2)
    session.start_hand()
    session.run_bots()
    assert session.human_to_act
    legal = session.human_legal()
    illegal = next(a for a in range(34) if a not in legal) if len(legal) < 34 else None
    before = len(session.lines)
    if illegal is not None:
        with pytest.raises(IllegalActionError):
            session.human_act(illegal)
    assert len(session.lines) == before
    with pytest.raises(RuntimeError, match="person must act"):
        session.bot_step()
    session.human_act(legal[0])
    assert len(session.lines) > before
    if not session.human_to_act and session.next_seat() is not None:
        with pytest.raises(IllegalActionError):
            session.human_act(legal[0])


def test_finishing_twice_or_early_is_refused() -> None:
    session = PlaySession("jiaxing", seed=2)
    with pytest.raises(RuntimeError):
        session.finish_hand()
    play_hand(session, random.Random(0))
    session.finish_hand()
    with pytest.raises(RuntimeError, match="already finished"):
        session.finish_hand()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"variant": "mahjong"}, "unknown variant 'mahjong'"),
        ({"bots": ["greedy", "random"]}, "one bot name or 3"),
        ({"bots": ["nobody"]}, "unknown bot 'nobody'"),
        ({"human": 4}, "seat must be 0–3"),
    ],
)
def test_bad_sessions_are_refused(kwargs: dict[str, object], message: str) -> None:
    args: dict[str, object] = {"variant": "jiaxing", "seed": 1, **kwargs}
    variant = args.pop("variant")
    with pytest.raises(ValueError, match=message):
        PlaySession(str(variant), **args)  # type: ignore[arg-type]


def test_cli_rejects_bad_play_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "mahjong"]) == 2
    assert "unknown variant 'mahjong'" in capsys.readouterr().err
    assert main(["play", "jiaxing", "--bots", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["play", "jiaxing", "--options", '{"rounds": 0}']) == 2
    assert "rounds" in capsys.readouterr().err
    assert main(["play", "jiaxing", "--delay", "-1"]) == 2
    assert "--delay" in capsys.readouterr().err
