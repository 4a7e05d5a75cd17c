"""Qing'er matches: first dealer by drawing cards, dealer rotation, the four-participant
table, match length, and records that replay (and tampered ones that do not)."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from paiju.bots import RandomBot, make_bot
from paiju.bots.greedy_values import GreedyJudge
from paiju.bots.qinger import QingerGreedyBot
from paiju.cli import main
from paiju.components.cards import Card
from paiju.components.notation import parse_cards
from paiju.engine.match import Match
from paiju.engine.record import parse_lines, record_match, replay
from paiju.engine.session import play_match
from paiju.variants import VARIANTS, find_variant
from paiju.variants.base import OptionError, options_from_mapping
from paiju.variants.qinger import hand as Q
from paiju.variants.qinger.hand import QingerHand, arrange_deck
from paiju.variants.qinger.options import QingerOptions
from paiju.variants.qinger.variant import QINGER, QingerVariant

DATA = Path(__file__).parents[2] / "data" / "qinger"


def C(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def test_registered_for_simulate_and_replay() -> None:
    flow = VARIANTS["qinger"]
    assert isinstance(flow, QingerVariant) and flow.options_type is QingerOptions
    assert flow.seats(QingerOptions()) == 3
    assert flow.seats(QingerOptions(participants=4)) == 4
    # greedy plays through its judge (the one function play and review share), which
    # decides with the Qing'er greedy bot
    judge = make_bot("greedy", 1, "qinger")
    assert isinstance(judge, GreedyJudge) and isinstance(judge.bot, QingerGreedyBot)
    assert isinstance(make_bot("random", 1, "qinger"), RandomBot)


def test_match_options_are_checked() -> None:
    with pytest.raises(OptionError):
        QingerOptions(hands=0)
    with pytest.raises(OptionError):
        QingerOptions(hands=None, rounds=0)
    with pytest.raises(OptionError):
        options_from_mapping(QingerOptions, {"participants": 5})
    opts = options_from_mapping(QingerOptions, {"hands": None, "stake_form": "2-3-4"})
    assert opts.hands is None and opts.stakes == (2, 3, 4)


@pytest.mark.parametrize(
    "case",
    json.loads((DATA / "dealer_rotation.json").read_text(encoding="utf-8"))["cases"],
    ids=lambda c: c["name"],
)
def test_dealer_rotation(case: dict[str, Any]) -> None:
    options = options_from_mapping(QingerOptions, case["options"])
    hand = SimpleNamespace(
        dealer=case["dealer"],
        winners=case["winners"],
        exhausted=case["exhausted"],
        n_seats=case["participants"],
    )
    keeps, carry = QINGER.after_hand(options, hand, {})  # type: ignore[arg-type]
    assert keeps is case["keeps"] and carry == {"dealer": case["next"]}


def test_a_real_win_by_the_next_player_passes_the_deal() -> None:
    dealer = "1122336s 112233h 112233c JJQQh"
    waits = "4599s 123456789h 123456789c"
    deck = arrange_deck([C(dealer), C(waits), C(waits)], int(Card.H5))
    hand = QingerHand(QingerOptions(), seed=0, dealer=0, decks=[deck])
    for action in (Q.KNOCK, Q.PASS, Q.PASS, Q.DISCARD + Card.S6):
        hand.apply(action)
    hand.apply(Q.HU, 1)
    hand.apply(Q.PASS, 2)
    assert hand.winners == [1]
    keeps, carry = QINGER.after_hand(QingerOptions(), hand, {})
    assert not keeps and carry == {"dealer": 1}


def _play(options: QingerOptions, seed: int, greedy: bool = False) -> Match:
    flow = QINGER
    n = flow.seats(options)
    match = Match(flow, options, seed)
    bot = QingerGreedyBot if greedy else RandomBot
    for _ in play_match(match, [bot(seed * 4 + i) for i in range(n)]):
        pass
    return match


def test_first_dealer_is_drawn_for_and_then_rotates() -> None:
    for seed in range(6):
        flow = QINGER
        match = Match(flow, QingerOptions(), seed)
        bots = [RandomBot(i) for i in range(3)]
        first = match.new_hand()
        assert first.log[0].type == "draw_for_dealer" and first.log[0].seat == first.dealer
        from paiju.engine.match import play_hand

        play_hand(first, bots)
        match.finish_hand(first)
        second = match.new_hand()
        assert all(e.type != "draw_for_dealer" for e in second.log)
        keeps = first.exhausted or first.dealer in first.winners
        assert second.dealer == (first.dealer if keeps else (first.dealer + 1) % 3)


def test_match_summaries_follow_the_rotation() -> None:
    match = _play(QingerOptions(hands=8), seed=3, greedy=True)
    assert len(match.hands) == 8 and sum(match.totals()) == 0
    for before, after in zip(match.hands, match.hands[1:], strict=False):
        keeps = before.exhausted or before.dealer in before.winners
        assert after.dealer == (before.dealer if keeps else (before.dealer + 1) % 3)
    assert any(h.winners for h in match.hands)


def test_match_in_dealer_rounds_ends_when_every_seat_has_dealt() -> None:
    options = QingerOptions(
        hands=None, rounds=1, dealer_stays_on_win=False, dealer_stays_on_exhausted_stock=False
    )
    match = _play(options, seed=9)
    assert len(match.hands) == 3
    assert [h.dealer for h in match.hands] == [(match.hands[0].dealer + i) % 3 for i in range(3)]


def test_four_participants_the_seat_before_the_dealer_sits_out() -> None:
    options = QingerOptions(
        participants=4, hands=8, dealer_stays_on_exhausted_stock=False, dealer_stays_on_win=False
    )
    match = _play(options, seed=5)
    assert len(match.hands) == 8 and sum(match.totals()) == 0
    sitters = set()
    for h in match.hands:
        sitter = (h.dealer - 1) % 4
        sitters.add(sitter)
        assert h.net[sitter] == 0 and len(h.net) == 4
    assert sitters == {0, 1, 2, 3}
    assert [h.dealer for h in match.hands] == [(match.hands[0].dealer + i) % 4 for i in range(8)]


def _record(options: QingerOptions, seed: int) -> list[dict[str, Any]]:
    flow = QINGER
    n = flow.seats(options)
    match = Match(flow, options, seed)
    bots = [QingerGreedyBot(i) for i in range(n)]
    lines = record_match(match, list(bots), ["greedy"] * n)
    return json.loads(json.dumps(lines))  # as read back from a file


@pytest.mark.parametrize("participants", [3, 4])
def test_record_replays_identically(participants: int) -> None:
    lines = _record(QingerOptions(participants=participants, hands=3), seed=21)
    kinds = {line.get("type") for line in lines}
    assert {"draw_for_dealer", "deal", "knock", "indicator", "score", "hand_end"} <= kinds
    result = replay(lines, find_variant)
    assert result.ok, result.message
    assert result.hands == 3


def test_tampered_record_names_the_first_differing_line() -> None:
    lines = _record(QingerOptions(hands=2), seed=4)
    i = next(i for i, line in enumerate(lines) if line.get("type") == "indicator")
    lines[i] = dict(lines[i], card="BJ")
    result = replay(lines, find_variant)
    assert not result.ok and result.line == i + 1
    lines = _record(QingerOptions(hands=2), seed=4)
    j = next(i for i, line in enumerate(lines) if line.get("type") == "payment")
    lines[j] = dict(lines[j], amount=lines[j]["amount"] + 1)
    result = replay(lines, find_variant)
    assert not result.ok and result.line == j + 1


def test_record_with_a_changed_decision_is_rejected() -> None:
    lines = _record(QingerOptions(hands=1), seed=6)
    i = next(
        i
        for i, line in enumerate(lines)
        if line.get("type") == "action" and line["action"].startswith("d")
    )
    lines[i] = dict(lines[i], action="knock")
    assert not replay(lines, find_variant).ok


def test_cli_simulate_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "qinger.jsonl"
    assert main(["simulate", "qinger", "--games", "2", "--seed", "7", "--record", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == "qinger" and summary["hands"] == 12
    assert len(summary["totals"]) == 3 and sum(summary["totals"]) == 0
    assert main(["replay", str(path)]) == 0
    assert "12 hands verified" in capsys.readouterr().out
    lines = parse_lines(path.read_text(encoding="utf-8").splitlines())
    k = next(i for i, line in enumerate(lines) if line.get("type") == "deal")
    lines[k] = dict(lines[k], cards="123456789s")
    bad = tmp_path / "tampered.jsonl"
    bad.write_text(
        "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8"
    )
    assert main(["replay", str(bad)]) == 1
    assert f"line {k + 1}" in capsys.readouterr().err


def test_cli_simulate_four_participants(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "four.jsonl"
    options = json.dumps({"participants": 4, "hands": 4})
    argv = ["simulate", "qinger", "--bots", "random", "--options", options, "--record", str(path)]
    assert main(argv) == 0
    summary = json.loads(capsys.readouterr().out)
    assert len(summary["totals"]) == 4 and summary["hands"] == 4
    assert main(["replay", str(path)]) == 0
    assert main(["simulate", "qinger", "--bots", "random,random,random", "--options", options]) == 2
