"""Engine properties over random games: conservation, zero sum, no leaks, replay identity."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.bots import GreedyBot, RandomBot
from paiju.cli import main
from paiju.engine import actions as A
from paiju.engine.events import for_seat
from paiju.engine.mahjong import END, MahjongHand
from paiju.engine.match import Match, play_hand
from paiju.engine.record import RecordError, parse_lines, record_match, replay
from paiju.variants import find_variant
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.jiaxing.variant import JIAXING


def tiles_in_play(hand: MahjongHand) -> int:
    held = sum(sum(c) for c in hand.counts)
    melded = sum(m.type.size for melds in hand.melds for m in melds)
    discarded = sum(len(d) for d in hand.discards)
    return held + melded + discarded + hand.wall_left


def check_invariants(hand: MahjongHand) -> None:
    assert tiles_in_play(hand) == 136
    assert sum(hand.net()) == 0
    assert all(0 <= n <= 4 for c in hand.counts for n in c)
    for seat in range(4):
        view = hand.view(seat)
        text = json.dumps(view)
        assert "wall" not in {k for k in view if k != "wall_left"}
        for p in view["players"]:
            if p["seat"] != seat and not (hand.phase == END and p["seat"] in hand.winners):
                assert "hand" not in p
        for ev in hand.log:
            seen = for_seat(ev, seat)
            if ev.type in ("draw", "deal") and ev.seat != seat:
                assert "tile" not in seen and not isinstance(seen.get("tiles"), str)
        assert '"wall":' not in text


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3), greedy=st.booleans())
def test_random_hands_keep_every_invariant_after_every_action(
    seed: int, dealer: int, greedy: bool
) -> None:
    fisher = seed % 5 if seed % 5 < 4 else None
    hand = MahjongHand(JiaxingRules(JiaxingOptions(), fisher), seed=seed, dealer=dealer)
    bots = [(GreedyBot if greedy else RandomBot)(seed + i) for i in range(4)]
    check_invariants(hand)
    steps = 0
    while hand.phase != END:
        for seat in hand.to_act():
            legal = hand.legal_actions(seat)
            assert legal == sorted(set(legal))
            hand.apply(bots[seat](hand, seat), seat)
            steps += 1
            if steps % 7 == 0 or hand.phase == END:
                check_invariants(hand)
    assert hand.exhausted or hand.winners


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(["jiaxing", "taixing"]))
def test_claim_window_is_every_seats_claim_options(seed: int, variant: str) -> None:
    # the window skips claim_options for seats that can only pass: it must still be
    # exactly the seats with options, for every tile a seat to move could let go
    flow = find_variant(variant)
    hand = flow.new_hand(flow.parse_options({}), seed=seed, dealer=seed % 4, carry={})
    bots = [RandomBot(seed + i) for i in range(4)]
    checked = 0
    while hand.phase != END:
        if hand.phase == "act":
            source, kept = hand.current, hand.claim_from
            hand.claim_from = source
            for tile in range(34):
                plain = {}
                for s in ((source + 1) % 4, (source + 2) % 4, (source + 3) % 4):
                    opts = hand.claim_options(s, tile)
                    if opts:
                        plain[s] = opts
                assert hand._claim_window(source, tile) == plain
            hand.claim_from = kept
            checked += 1
        for seat in hand.to_act():
            hand.apply(bots[seat](hand, seat), seat)
    assert checked


def test_copy_is_independent() -> None:
    hand = MahjongHand(JiaxingRules(), seed=5)
    clone = hand.copy()
    bots = [RandomBot(i) for i in range(4)]
    play_hand(clone, bots)
    assert clone.phase == END
    assert hand.phase != END and len(hand.log) < len(clone.log)
    play_hand(hand, [RandomBot(i) for i in range(4)])
    assert list(hand.log) == list(clone.log)


def test_legal_action_codes_round_trip_through_strings() -> None:
    for code in range(A.N_ACTIONS):
        try:
            text = A.to_str(code)
        except ValueError:
            continue
        assert A.parse(text) == code


@pytest.mark.parametrize("hands", [200])
def test_many_random_hands_run_without_error(hands: int) -> None:
    bots = [RandomBot(i) for i in range(4)]
    wins = 0
    for seed in range(hands):
        hand = MahjongHand(JiaxingRules(), seed=seed, dealer=seed % 4)
        play_hand(hand, bots)
        assert sum(hand.net()) == 0
        wins += bool(hand.winners)
    assert wins > 0


def test_ten_thousand_random_hands() -> None:
    bots = [RandomBot(i) for i in range(4)]
    for seed in range(10_000):
        hand = MahjongHand(JiaxingRules(), seed=seed, dealer=seed % 4)
        play_hand(hand, bots)
        assert sum(hand.net()) == 0


def _recorded(seed: int = 11, hands: int = 3) -> list[dict[str, object]]:
    match = Match(JIAXING, JiaxingOptions(hands=hands), seed)
    return record_match(match, [GreedyBot(i) for i in range(4)], ["greedy"] * 4)


def test_record_replays_identically() -> None:
    lines = _recorded()
    assert lines[0]["variant"] == "jiaxing" and lines[0]["seed"] == 11
    assert lines[-1]["type"] == "match_end"
    result = replay(lines, find_variant)
    assert result.ok, result.message
    assert result.hands == 3


def test_tampered_record_names_the_first_differing_line() -> None:
    lines = _recorded()
    index = next(
        i for i, r in enumerate(lines) if r.get("type") == "payment" or r.get("type") == "end"
    )
    tampered = [dict(r) for r in lines]
    if tampered[index]["type"] == "end":
        tampered[index]["net"] = [9, -9, 0, 0]
    else:
        tampered[index]["amount"] = int(tampered[index]["amount"]) + 1  # type: ignore[call-overload]
    result = replay(tampered, find_variant)
    assert not result.ok and result.line == index + 1


def test_record_with_a_changed_decision_is_rejected() -> None:
    lines = _recorded()
    index = next(i for i, r in enumerate(lines) if r.get("type") == "action")
    tampered = [dict(r) for r in lines]
    tampered[index]["action"] = "d9z"
    result = replay(tampered, find_variant)
    assert not result.ok and result.line == index + 1


def test_foreign_header_is_rejected() -> None:
    lines = _recorded()
    lines[0] = {**lines[0], "seed": 12}
    assert not replay(lines, find_variant).ok


def test_malformed_lines_raise_record_error() -> None:
    with pytest.raises(RecordError) as info:
        parse_lines(['{"record": "paiju"}', "not json"])
    assert info.value.line == 2
    with pytest.raises(RecordError):
        parse_lines(['{"record": "paiju"}', "[1, 2]"])


def test_cli_simulate_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "games.jsonl"
    code = main(
        [
            "simulate",
            "jiaxing",
            "--games",
            "2",
            "--seed",
            "4",
            "--bots",
            "greedy,random,greedy,random",
            "--options",
            '{"hands": 2}',
            "--record",
            str(record),
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["hands"] == 4 and summary["hands_per_s"] > 0
    assert main(["replay", str(record)]) == 0
    lines = record.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5].replace('"seat":', '"seat": 1, "x":', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(bad)]) == 1
    assert "line 6" in capsys.readouterr().err
    broken = tmp_path / "broken.jsonl"
    broken.write_text(lines[0] + "\n{oops\n", encoding="utf-8")
    assert main(["replay", str(broken)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_cli_simulate_rejects_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "jiaxing", "--options", '{"nope": 1}']) == 2
    assert "nope" in capsys.readouterr().err
    assert main(["simulate", "jiaxing", "--bots", "random,random"]) == 2


@pytest.mark.parametrize("seed", [3, 8])
def test_deal_hidden_deals_what_determinize_deals(seed: int) -> None:

    hand = MahjongHand(JiaxingRules(), seed=seed, dealer=seed % 4)
    bots = [GreedyBot(i) for i in range(4)]
    for _ in range(12):  # a few turns in: discards and claims already made
        s = hand.to_act()[0]
        hand.apply(bots[s](hand, s), s)
    assert not hand.is_over
    seat = hand.to_act()[0]
    det = hand.determinize(seat, random.Random(seed))
    hidden, rest = hand.deal_hidden(seat, random.Random(seed), pool=hand.unseen_tiles(seat))
    assert [bytes(c) for c in hidden] == [bytes(c) for c in det.counts]
    assert rest == det.wall[det.head : det.tail]
