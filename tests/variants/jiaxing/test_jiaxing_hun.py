"""混儿 (option ``hun``): the indicator, what a 混儿 may not do, each fan and refusal on an
arranged wall, calculator cases (tests/data/jiaxing/hun_cases.json) and properties.

In an arranged wall the first ``tail`` tile is the one turned up as the indicator; the
tail tiles after it are the kong replacements.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any, Literal

import pytest

from paiju.bots import GreedyBot
from paiju.calculator import InputError, score
from paiju.components.notation import parse_tiles
from paiju.components.tiles import TILE_TEXT
from paiju.engine import actions as A
from paiju.engine.mahjong import END, MahjongHand, arrange_wall
from paiju.engine.match import Match
from paiju.engine.record import record_match, replay
from paiju.engine.types import MahjongWin, WinResult
from paiju.variants import find_variant
from paiju.variants.jiaxing import scoring
from paiju.variants.jiaxing.calculator import parse
from paiju.variants.jiaxing.hun import next_kind, wild_kinds
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.jiaxing.variant import JIAXING

HUN = JiaxingOptions(hun=True)
CASES_FILE = Path(__file__).parents[2] / "data" / "jiaxing" / "hun_cases.json"
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)]


def kind(text: str) -> int:
    return tiles(text)[0]


def make_hand(
    hands: list[str], draws: str = "", tail: str = "", *, options: JiaxingOptions = HUN
) -> MahjongHand:
    wall = arrange_wall([tiles(h) for h in hands], tiles(draws), tiles(tail))
    return MahjongHand(JiaxingRules(options), wall=wall, dealer=0)


def act(hand: MahjongHand, text: str, seat: int | None = None) -> None:
    hand.apply(A.parse(text), seat)


def items_of(hand: MahjongHand, seat: int) -> dict[str, int]:
    return {i.id: i.value for i in hand.win_results[seat].items}


# seat 1 holds 6z, a 混儿 when 5z is turned up, and waits on any tile (混儿吊)
DIAO_DEAL = [
    "2468m2468p2468s7z3z",
    "123m456p789s111z6z",
    "13579m13579p13s2z",
    "579s2344z77z8m8p8s9m",
]


# -- the cycles and the indicator ------------------------------------------------------


def test_cycles() -> None:
    assert next_kind(kind("9m")) == kind("1m")
    assert next_kind(kind("4z")) == kind("1z")
    assert next_kind(kind("7z")) == kind("5z")
    assert wild_kinds(kind("3p"), 2) == (kind("3p"), kind("4p"))
    assert wild_kinds(kind("3z"), 3) == (kind("3z"), kind("4z"), kind("1z"))
    assert wild_kinds(kind("6z"), 1) == (kind("6z"),)


def test_indicator_is_turned_set_aside_and_shown_to_every_seat() -> None:
    hand = make_hand(DIAO_DEAL, tail="5z")
    assert hand.indicator == kind("5z")
    assert hand.rules.wild_kinds == (kind("5z"), kind("6z"))
    assert hand.wall_left == 136 - 53 - 1
    events = [e for e in hand.log if e.type == "indicator"]
    assert len(events) == 1 and events[0].tile == kind("5z")
    for seat in (0, 1, 2, 3, None):
        view = hand.view(seat)
        assert view["indicator"] == "5z"
        assert view["wild_kinds"] == ["5z", "6z"]
    # the indicator is seen: no seat counts it among the unseen tiles
    for seat in range(4):
        assert kind("5z") not in hand.unseen_tiles(seat) or (
            hand.unseen_tiles(seat).count(kind("5z")) <= 3
        )
    assert hand.unseen_tiles(0).count(kind("5z")) == 3


def test_live_indicator_stays_in_the_wall() -> None:
    hand = make_hand(
        DIAO_DEAL, tail="5z", options=JiaxingOptions(hun=True, hun_indicator_out=False)
    )
    assert hand.indicator == kind("5z") and hand.wall_left == 136 - 53
    assert hand.set_aside == []


def test_off_by_default_nothing_is_turned() -> None:
    hand = make_hand(DIAO_DEAL, tail="5z", options=JiaxingOptions())
    assert hand.indicator == -1 and "indicator" not in hand.view(0)
    assert not any(e.type == "indicator" for e in hand.log)


# -- what a 混儿 may not do ------------------------------------------------------------


def test_a_wild_is_never_a_legal_discard() -> None:
    hand = make_hand(["6z123m456p789s777m5p", *DIAO_DEAL[1:3], "579s2344z77z8m8p9s9m"], tail="5z")
    legal = hand.legal_actions(0)
    assert kind("6z") not in legal and kind("5p") in legal


def test_dead_hand_may_discard_a_wild_but_never_wins_and_nobody_claims_it() -> None:
    options = JiaxingOptions(hun=True, hun_discard="dead_hand")
    # 6z has four copies: the dealer holds two, seat 1 two
    deal = ["66z123m456p789s777m", "66z12m456p789s111z", DIAO_DEAL[2], "579s2344z77z8m8p8s9m"]
    hand = make_hand(deal, draws="9p", tail="5z", options=options)
    assert kind("6z") in hand.legal_actions(0)
    act(hand, "d6z")
    # seat 1 holds 66z but may not pong a 混儿; nobody may win on it
    assert hand.claim_options(1, kind("6z")) == []
    assert not hand.rules.may_win(hand, 0)


def test_no_pong_or_added_kong_of_a_wild_and_no_chow_with_one() -> None:
    options = JiaxingOptions(hun=True, chi=True)
    hand = make_hand(DIAO_DEAL, tail="7s", options=options)  # 7s and 8s are wild
    # seat 3 holds 8s (a 混儿) and 9s... the dealer's 7z goes to seat 1 first
    rules = hand.rules
    assert not rules.may_meld(hand, 3, kind("8s"))
    assert rules.may_meld(hand, 3, kind("9s"))


# -- the fans on arranged walls --------------------------------------------------------


def test_hun_er_diao_by_discard() -> None:
    hand = make_hand(DIAO_DEAL, tail="5z")
    # any tile completes seat 1's hand: every kind but the wilds, plus the wilds by draw
    assert len(hand.waits(1)) == 34
    act(hand, "d7z")
    assert A.HU in hand.claim_options(1, kind("7z"))
    act(hand, "hu", 1)
    for s in hand.to_act():
        act(hand, "pass", s)
    assert hand.phase == END and hand.winners == [1]
    # the dealer's first discard: 人胡 8, and the 混儿 block on top (H8)
    assert items_of(hand, 1) == {"ren_hu": 8, "hun_er_diao": 2}
    assert hand.net() == [-10, 10, 0, 0]


def test_self_draw_only_offers_no_discard_win() -> None:
    hand = make_hand(
        DIAO_DEAL, tail="5z", options=JiaxingOptions(hun=True, hun_self_draw_only=True)
    )
    act(hand, "d7z")
    assert A.HU not in hand.claim_options(1, kind("7z"))


def test_qi_hu_refuses_a_small_win_in_play() -> None:
    # seat 1: 12m + a 混儿 for 3m, waiting on the 5p pair: no fan, H = 0; the dealer's
    # first discard is 5p (人胡 8 by J, but 起和 counts the 混儿 block H, HA6)
    deal = list(DIAO_DEAL)
    deal[0] = "2468m2468p2468s7z5p"
    deal[1] = "12m456p789s111z5p6z"
    hand = make_hand(deal, tail="5z", options=JiaxingOptions(hun=True, hun_qi_hu=2))
    act(hand, "d5p")
    assert A.HU not in hand.claim_options(1, kind("5p"))
    plain = make_hand(deal, tail="5z")
    act(plain, "d5p")
    assert A.HU in plain.claim_options(1, kind("5p"))


def test_gang_kai_and_mei_hun_er_on_a_kong_replacement() -> None:
    deal = ["1111z123m456p789s5p", *DIAO_DEAL[1:]]
    deal[1] = "2345m789p789s2z3z6z"  # keeps the 1z for the dealer
    hand = make_hand(deal, tail="5z5p")
    act(hand, "an1z")
    assert A.ZIMO in hand.legal_actions(0)
    act(hand, "zimo")
    assert items_of(hand, 0) == {
        "men_qing": 4,
        "gang_shang_hua_an": 9,
        "mei_hun_er": 2,
        "gang_kai": 2,
    }
    # 17 from each of three, plus the concealed kong's 1 each
    assert hand.net() == [54, -18, -18, -18]


def test_jin_gang_pays_each_seat() -> None:
    deal = ["6666z123m456p789s", *DIAO_DEAL[1:]]
    deal[0] = "6666z123m456p789s5p"
    deal[1] = "123m456p789s111z2z"
    hand = make_hand(deal, tail="5z9m", options=JiaxingOptions(hun=True, jin_gang=3))
    assert A.CONCEALED_KONG + kind("6z") in hand.legal_actions(0)
    act(hand, "an6z")
    assert hand.net() == [9, -3, -3, -3]
    plain = make_hand(deal, tail="5z9m")
    assert A.CONCEALED_KONG + kind("6z") not in plain.legal_actions(0)


def test_dead_hand_after_a_jin_gang_keeps_the_kong_money_and_never_wins() -> None:
    """HA14 b with HA15 b: the dealer konges four 6z (金杠, 2 from each seat), lets its
    last 混儿 (5z) go and is then a dead hand (小相公): its kong money stands, nobody may
    claim the 5z, and neither the 6s/9s discard nor the self-drawn 9s it waits on is a win.
    The same hand before the 5z goes is complete off the replacement (杠开 on a 金杠)."""
    options = JiaxingOptions(hun=True, hun_discard="dead_hand", jin_gang=2)
    deal = ["6666z5z123m456p78s9p", "123m456p789s111z2z", DIAO_DEAL[2], "579s2344z77z8m8p8s9m"]
    hand = make_hand(deal, draws="6s3z3z9s", tail="5z9p", options=options)
    act(hand, "an6z")
    assert hand.net() == [6, -2, -2, -2]
    # 5z stands for 6s or 9s beside the 78s, 99p the pair: the replacement 9p completes it
    assert A.ZIMO in hand.legal_actions(0)
    assert kind("5z") in hand.legal_actions(0)
    act(hand, "d5z")
    # the shape still waits on 6s and 9s; the hand may not win on them
    assert {kind("6s"), kind("9s")} <= set(hand.waits(0))
    assert not hand.rules.may_win(hand, 0)
    assert all(hand.claim_options(s, kind("5z")) == [] for s in (1, 2, 3))
    while hand.claim_window_open():
        for s in hand.to_act():
            act(hand, "pass", s)
    # seat 1 draws 6s and lets it go: the dealer's wait, not offered to a dead hand
    act(hand, "d6s", 1)
    assert 0 not in hand.to_act() or A.HU not in hand.legal_actions(0)
    while hand.claim_window_open():
        for s in hand.to_act():
            act(hand, "pass", s)
    act(hand, "d3z", 2)
    while hand.claim_window_open():
        for s in hand.to_act():
            act(hand, "pass", s)
    act(hand, "d3z", 3)
    while hand.claim_window_open():
        for s in hand.to_act():
            act(hand, "pass", s)
    # the dealer draws 9s, which would complete 789s: no self-drawn win either
    assert hand.drawn == kind("9s") and 0 in hand.to_act()
    assert A.ZIMO not in hand.legal_actions(0)
    assert hand.net() == [6, -2, -2, -2]


# -- calculator cases ------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_calculator_case(case: dict[str, Any]) -> None:
    if case["exit"] == 2:
        with pytest.raises(InputError) as err:
            score(case["situation"])
        assert err.value.field == case["field"]
        return
    status, out = score(case["situation"])
    assert status == case["exit"], out
    if status == 1:
        assert out["valid"] is False and case["reason"] in out["reason"]
        return
    assert {i["id"]: i["value"] for i in out["items"]} == case["items"]
    assert out["payments"] == case["payments"]
    assert out["kong_payments"] == case["kong_payments"]
    assert sum(out["payments"]) == 0 and sum(out["kong_payments"]) == 0
    assert out.get("fishing") == case.get("fishing")


@pytest.mark.parametrize("qi_hu", [2, 3])
def test_the_scoring_is_winning_did_is_the_score(
    qi_hu: Literal[2, 3], monkeypatch: pytest.MonkeyPatch
) -> None:
    # with a 起和 minimum is_winning scores the win; score_win right after it, for the
    # same win and options, hands that scoring on: the same result a fresh scoring gives
    fresh_scoring = scoring._score_win
    calls: list[MahjongWin] = []

    def counted(win: MahjongWin, options: JiaxingOptions) -> WinResult:
        calls.append(win)
        return fresh_scoring(win, options)

    monkeypatch.setattr(scoring, "_score_win", counted)
    met = 0
    for case in CASES:
        if case["exit"] == 2:
            continue
        win, options = parse(case["situation"])
        options = replace(options, hun_qi_hu=qi_hu)
        fresh = fresh_scoring(win, options)
        winning = scoring.is_winning(win, options)
        assert winning == fresh.valid, case["name"]
        before = len(calls)
        reused = scoring.score_win(win, options)
        assert reused == fresh, case["name"]
        if calls[before:] == []:
            met += 1
            # handed on once: the next scoring is a fresh one, sharing no ``extra``
            again = scoring.score_win(win, options)
            assert again == fresh and again.extra is not reused.extra
            assert calls[-1] is win
    assert met > 0


def test_every_fan_and_refusal_has_a_case() -> None:
    names = " ".join(c["rule"] for c in CASES)
    for token in ("hun_er_diao", "mei_hun_er", "zhuo_wu_er", "long", "ben_hun_er_long", "gang_kai"):
        assert token in names
    fields = {c.get("field") for c in CASES if c["exit"] == 2}
    assert {"hun", "melds[0]", "hand", "win_tile"} <= fields
    reasons = {c.get("reason") for c in CASES if c["exit"] == 1}
    assert {"未成牌", "未达起和", "混儿局只能自摸"} <= reasons


# -- properties over played matches ----------------------------------------------------


def _conserved(hand: MahjongHand) -> None:
    total = sum(sum(c) for c in hand.counts)
    total += sum(len(m.tiles) for ms in hand.melds for m in ms)
    total += sum(len(d) for d in hand.discards)
    total += hand.tail - hand.head + len(hand.set_aside)
    assert total == 136


@pytest.mark.parametrize("seed", range(6))
def test_played_hands_conserve_tiles_sum_to_zero_and_hide_hands(seed: int) -> None:
    rng = random.Random(seed)
    options = JiaxingOptions(hun=True, hun_kinds=rng.choice((1, 2, 3)), jin_gang=rng.choice((0, 2)))
    hand = JIAXING.new_hand(options, seed=seed, dealer=0, carry={})
    bots = [GreedyBot(i) for i in range(4)]
    wild = set(hand.rules.wild_kinds)
    while not hand.is_over:
        seat = hand.to_act()[0]
        legal = hand.legal_actions(seat)
        assert not any(a in wild for a in legal) or options.hun_discard == "dead_hand"
        hand.apply(bots[seat](hand, seat), seat)
        _conserved(hand)
        for viewer in range(4):
            view = hand.view(viewer)
            assert view["indicator"] == TILE_TEXT[hand.indicator]
            for p in view["players"]:
                if p["seat"] != viewer and hand.phase != END:
                    assert "hand" not in p
    assert sum(hand.net()) == 0


def test_replay_identity_with_hun() -> None:
    match = Match(JIAXING, JiaxingOptions(hun=True, hands=3), seed=11)
    lines = record_match(match, [GreedyBot(i) for i in range(4)], ["a", "b", "c", "d"])
    assert lines[0]["options"]["hun"] is True
    assert any(line.get("type") == "indicator" for line in lines)
    lines = json.loads(json.dumps(lines))
    assert replay(lines, find_variant).ok
    # changing the recorded indicator is caught
    for line in lines:
        if line.get("type") == "indicator":
            line["tile"] = "1m" if line["tile"] != "1m" else "2m"
            break
    assert not replay(lines, find_variant).ok


def test_strong_bot_plays_a_hun_hand_with_the_wild_aware_choice() -> None:
    from paiju.bots.strong import StrongBot

    hand = JIAXING.new_hand(HUN, seed=4, dealer=0, carry={})
    bots = [StrongBot(i) for i in range(4)]
    steps = 0
    while not hand.is_over and steps < 400:
        seat = hand.to_act()[0]
        choice = bots[seat](hand, seat)
        assert choice in hand.legal_actions(seat)
        assert not (choice < 34 and choice in hand.rules.wild_kinds)
        hand.apply(choice, seat)
        steps += 1
    assert hand.is_over and sum(hand.net()) == 0


GOLDEN = Path(__file__).parents[2] / "data" / "jiaxing" / "golden_hun.jsonl"


def test_golden_record_with_hun_replays() -> None:
    """Two greedy hands with 混儿 on (seed 16), recorded once: the engine must still
    produce every line (the indicator, the wild-aware play, the scores). A deliberate
    change of play or of the record's text regenerates it: ``record_match(Match(
    JIAXING, JiaxingOptions(hun=True, hands=2), seed=16), [GreedyBot(i) for i in
    range(4)], ["greedy"] * 4)`` written with ``dump_lines``."""
    lines = [json.loads(t) for t in GOLDEN.read_text("utf-8").splitlines()]
    assert lines[0]["options"]["hun"] is True
    assert lines[0]["profile"]["name"] == "jiaxing-hun"
    assert sum(1 for line in lines if line.get("type") == "indicator") == 2
    result = replay(lines, find_variant)
    assert result.ok, result


# -- data-driven scenarios on arranged walls (tests/data/jiaxing/hun_scenarios.json) -----

SCENARIOS_FILE = Path(__file__).parents[2] / "data" / "jiaxing" / "hun_scenarios.json"
SCENARIOS: list[dict[str, Any]] = json.loads(SCENARIOS_FILE.read_text(encoding="utf-8"))
_CLAIM_STEPS = ("hu", "pass", "pong", "kong", "chi0", "chi1", "chi2", "?hu", "?nohu")


def _play_scenario(case: dict[str, Any]) -> MahjongHand:
    """Plays ``steps`` ("SEAT ACTION"; "SEAT ?hu" / "SEAT ?nohu" check whether a win off
    the discard on the table is offered). Claim windows a step does not answer are passed
    by every seat asked, so each scenario lists only the moves that matter."""
    from paiju.variants.base import options_from_mapping
    from paiju.variants.jiaxing.options import OPTION_SPECS

    options = options_from_mapping(JiaxingOptions, case["options"], OPTION_SPECS)
    hand = make_hand(case["hands"], case["draws"], case["tail"], options=options)
    for step in case["steps"]:
        seat_text, text = step.split(" ", 1)
        seat = int(seat_text)
        while hand.claim_window_open() and (text not in _CLAIM_STEPS or seat not in hand.to_act()):
            if text.startswith("?") and seat not in hand.to_act():
                break
            for s in hand.to_act():
                act(hand, "pass", s)
        if text in ("?hu", "?nohu"):
            offered = seat in hand.to_act() and A.HU in hand.legal_actions(seat)
            assert offered is (text == "?hu"), step
            continue
        assert seat in hand.to_act(), step
        act(hand, text, seat)
    while hand.claim_window_open():
        for s in hand.to_act():
            act(hand, "pass", s)
    return hand


@pytest.mark.parametrize("case", SCENARIOS, ids=[c["name"] for c in SCENARIOS])
def test_scenario_on_an_arranged_wall(case: dict[str, Any]) -> None:
    hand = _play_scenario(case)
    expected = case.get("result")
    if expected is None:
        return
    assert hand.phase == END and hand.winners == expected["winners"]
    assert items_of(hand, expected["winners"][0]) == expected["items"]
    assert hand.net() == expected["net"]
    assert sum(hand.net()) == 0


def test_every_fan_and_refusal_has_an_arranged_wall_scenario() -> None:
    """Each of the six fans and each refusal in play is met on an arranged wall, here or
    in the tests above (杠开 and 没混儿: the kong bloom; 起和 2, 只能自摸: their own
    tests), and each fan-changing option too (HA4, the indicator live, and HA15, 金杠, have
    their own tests above)."""
    rules = " ".join(c["rule"] for c in SCENARIOS)
    for token in ("hun_er_diao", "mei_hun_er", "zhuo_wu_er", "long", "ben_hun_er_long"):
        assert token in rules, token
    for token in (*(f"HA{n}" for n in (1, 2, 3, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)), "JP4"):
        assert token in rules, token
    # a refusal scenario checks a win is not offered; a fan scenario settles a hand
    assert any("?nohu" in " ".join(c["steps"]) for c in SCENARIOS)
    assert all("result" in c or "?" in " ".join(c["steps"]) for c in SCENARIOS)


def test_every_rule_item_of_the_hun_section_is_tested() -> None:
    """Each H and HA item of the rule book's 混儿 section is named by a calculator case or
    an arranged-wall scenario, or has its own test here."""
    import re

    own = {"HA4": test_live_indicator_stays_in_the_wall}
    assert all(callable(t) for t in own.values())
    named = " ".join(c["rule"] for c in [*CASES, *SCENARIOS])
    for token in (*(f"H{n}" for n in range(1, 11)), *(f"HA{n}" for n in range(1, 16))):
        assert token in own or re.search(rf"\b{token}\b", named), token
