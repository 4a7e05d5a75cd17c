"""Taixing rules as the engine plays them: fixed walls, one scenario per flow rule, then
properties of random games (tiles conserved, zero sum, no leaks, record → replay)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.bots import GreedyBot, RandomBot
from paiju.cli import main
from paiju.components.notation import parse_tiles
from paiju.components.tiles import Tile
from paiju.engine import actions as A
from paiju.engine.events import for_seat
from paiju.engine.mahjong import ACT, CLAIM, DECLARE, END, MahjongHand, arrange_wall
from paiju.engine.match import Match, play_hand
from paiju.engine.record import record_match, replay
from paiju.engine.session import play_match
from paiju.engine.types import Meld, MeldType, WinType
from paiju.variants import find_variant
from paiju.variants.taixing.options import TaixingOptions
from paiju.variants.taixing.rules import TaixingRules, wall_break
from paiju.variants.taixing.variant import TAIXING

DATA = Path(__file__).resolve().parents[2] / "data" / "taixing"
ALL_TILES = TaixingRules().tiles()


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)] if text else []


def tile(text: str) -> int:
    return tiles(text)[0]


def make_hand(
    hands: list[str],
    draws: str = "",
    tail: str = "",
    *,
    dealer: int = 0,
    options: TaixingOptions | None = None,
    streak: int = 0,
    dice: tuple[int, int] = (2, 5),
) -> MahjongHand:
    wall = arrange_wall(
        [tiles(h) for h in hands], tiles(draws), tiles(tail), dealer=dealer, tiles=ALL_TILES
    )
    rules = TaixingRules(options or TaixingOptions(), streak)
    return MahjongHand(rules, wall=wall, dealer=dealer, dice=dice)


def act(hand: MahjongHand, text: str, seat: int | None = None) -> None:
    hand.apply(A.parse(text), seat)


def pass_declarations(hand: MahjongHand) -> None:
    while hand.phase == DECLARE:
        seat = hand.to_act()[0]
        act(hand, "pass", seat)


def events(hand: MahjongHand, *types: str) -> list[tuple[str, int, str]]:
    return [
        (e.type, e.seat, str(Tile(e.tile)) if e.tile >= 0 else "")
        for e in hand.log
        if e.type in types
    ]


def counts_of(text: str) -> bytearray:
    out = bytearray(34)
    for t in tiles(text):
        out[t] += 1
    return out


def item_ids(hand: MahjongHand, seat: int) -> list[str]:
    return [i.id for i in hand.win_results[seat].items]


# A table where nobody is ready and nobody can claim the dealer's first discard (an m
# tile): seats 2 and 3 hold no m at all, so seat 1's test hands may use the whole suit.
QUIET = [
    "159p159s1234567z",  # the dealer, plus the tile it lets go first
    "26p37p26s37s1357z8p",
    "1248p148s2467z6p7s",
    "36p9p36s9s1234z2s5p7p",
]


def quiet(dealer_extra: str = "5m", seat1: str | None = None) -> list[str]:
    deal = list(QUIET)
    deal[0] = QUIET[0] + dealer_extra
    if seat1 is not None:
        deal[1] = seat1
    return deal


# -- the set, dice and break (T1, T8, T10, TA10) -----------------------------------------


def test_the_set_is_144_tiles_with_each_flower_once() -> None:
    assert len(ALL_TILES) == 144
    assert [ALL_TILES.count(f) for f in range(34, 42)] == [1] * 8
    assert all(ALL_TILES.count(k) == 4 for k in range(34))


def test_a_shuffled_hand_deals_flowers_aside_and_keeps_34_counts() -> None:
    for seed in range(40):
        hand = MahjongHand(TaixingRules(), seed=seed, dealer=seed % 4)
        assert all(len(c) == 34 for c in hand.counts)
        assert [sum(c) for c in hand.counts] == [14 if s == hand.dealer else 13 for s in range(4)]
        aside = [f for fs in hand.flowers for f in fs]
        assert len(aside) == len(set(aside)) and all(f >= 34 for f in aside)
        dice = hand.log[0]
        assert dice.type == "dice" and dice.data["leopard"] == (hand.dice[0] == hand.dice[1])
        assert dice.data["break"]["stack"] == min(hand.dice)


def test_wall_break_cases() -> None:
    cases = json.loads((DATA / "wall_break_cases.json").read_text(encoding="utf-8"))
    assert cases
    for case in cases:
        side, stack = wall_break(tuple(case["dice"]), case["dealer"], case["rule"])
        assert [side, stack] == case["expect"], case


def test_leopard_dice_double_the_hand() -> None:
    """T10 豹子: equal dice double the win; both dice are recorded."""
    deal = quiet("5m", "1112345678999m")  # 清一色: no flower needed
    values = {}
    for dice in ((2, 5), (3, 3)):
        hand = make_hand(deal, dice=dice)
        pass_declarations(hand)
        act(hand, "d5m")
        act(hand, "hu", 1)
        assert hand.log[0].data["dice"] == list(dice)
        values[dice] = hand.win_results[1].per_payer
        assert hand.win_info[1].leopard == (dice == (3, 3))
        ids = item_ids(hand, 1)
        assert ("bao_zi" in ids) == (dice == (3, 3))
    assert values[(3, 3)] == 2 * values[(2, 5)]


# -- flowers (T2, T20) -------------------------------------------------------------------


def test_opening_replacement_goes_seat_by_seat_one_flower_at_a_time() -> None:
    """T2: from the dealer, each seat replaces one flower at a time from the tail (a
    replacement that is a flower is replaced too) until it has none, then the next seat."""
    deal = [
        "19m19p19s123456z12f",
        "28m28p28s123456z3f",
        "37m37p37s1234567z",
        "46m46p46s123456z4f",
    ]
    hand = make_hand(deal, tail="5f5m5p5s7z")
    assert events(hand, "flower", "replacement_draw") == [
        ("flower", 0, "1f"),
        ("replacement_draw", 0, "5f"),
        ("flower", 0, "2f"),
        ("replacement_draw", 0, "5m"),
        ("flower", 0, "5f"),
        ("replacement_draw", 0, "5p"),
        ("flower", 1, "3f"),
        ("replacement_draw", 1, "5s"),
        ("flower", 3, "4f"),
        ("replacement_draw", 3, "7z"),
    ]
    assert hand.flowers == [tiles("1f2f5f"), tiles("3f"), [], tiles("4f")]
    assert [sum(c) for c in hand.counts] == [14, 13, 13, 13]
    assert hand.counts[0][tile("5p")] == 1 and hand.drawn == tile("5p")
    assert hand.wall_left == 144 - 53 - 5
    # the replacement draws are private, the flowers public
    seen = [for_seat(e, 2) for e in hand.log if e.type == "replacement_draw"]
    assert all("tile" not in s for s in seen)
    assert [for_seat(e, 2)["tile"] for e in hand.log if e.type == "flower"] == [
        "1f",
        "2f",
        "5f",
        "3f",
        "4f",
    ]
    assert hand.view(2)["players"][0]["flowers"] == "1f 2f 5f"


def flower_draw_hand(draw: str, tail: str) -> MahjongHand:
    """Seat 1 waits on 9m or 5s with a 一条龙 (big: no flower minimum); the dealer lets
    5m go and seat 1 draws ``draw``."""
    return make_hand(quiet("5m", "123m456m789m99m55s"), draws=draw, tail=tail)


def test_a_flower_drawn_in_play_is_set_aside_and_replaced_from_the_tail() -> None:
    hand = flower_draw_hand("6f", "2z")
    pass_declarations(hand)
    head, tail_pos = hand.head, hand.tail
    act(hand, "d5m")
    assert events(hand, "draw", "flower", "replacement_draw")[-3:] == [
        ("draw", 1, "6f"),
        ("flower", 1, "6f"),
        ("replacement_draw", 1, "2z"),
    ]
    assert hand.head == head + 1 and hand.tail == tail_pos - 1
    assert hand.flowers[1] == tiles("6f") and hand.drawn == tile("2z")
    assert sum(hand.counts[1]) == 14 and hand.phase == ACT and hand.current == 1


def test_a_flower_replacement_that_completes_the_hand_is_not_gang_kai() -> None:
    """A win on a flower's replacement is a plain self-draw: no kong, no 杠开."""
    hand = flower_draw_hand("6f", "5s")
    pass_declarations(hand)
    act(hand, "d5m")
    assert A.ZIMO in hand.legal_actions(1)
    act(hand, "zimo")
    win = hand.win_info[1]
    assert "kong_replacement" not in win.flags
    assert "gang_kai" not in item_ids(hand, 1) and "yi_tiao_long" in item_ids(hand, 1)


def test_hua_hu_is_offered_on_the_eighth_flower_whatever_the_tiles() -> None:
    """T20 花胡: the eighth flower wins at once (self-drawn, after its replacement), with no
    shape and no missing suit."""
    deal = quiet("5m", "28m28p28s1234567f")  # seven flowers and junk in all three suits
    hand = make_hand(deal, draws="8f", tail="3s4s5s6s7s8s9s 1s")
    pass_declarations(hand)
    assert len(hand.flowers[1]) == 7
    act(hand, "d5m")
    assert hand.flowers[1] == tiles("12345678f")
    assert A.ZIMO in hand.legal_actions(1)
    act(hand, "zimo")
    assert hand.win_info[1].win_type is WinType.SELF_DRAW
    ids = item_ids(hand, 1)
    assert ids[0] == "hua_hu"
    # eight flower tiles, no floor: 8 × 8 from each of the three
    assert hand.net() == [-64, 192, -64, -64]


def test_a_dealer_dealt_all_eight_flowers_wins_hua_hu_at_once() -> None:
    deal = list(QUIET)
    deal[0] = "19p19s12z12345678f"
    hand = make_hand(deal, tail="3p4p5p6p7p8p2s3s")
    assert len(hand.flowers[0]) == 8 and sum(hand.counts[0]) == 14
    assert hand.drawn == tile("3s")
    assert A.ZIMO in hand.legal_actions(0)
    act(hand, "zimo")
    assert item_ids(hand, 0)[0] == "hua_hu"


def test_seven_flowers_give_no_win() -> None:
    deal = quiet("5m", "28m28p28s1234567f")
    hand = make_hand(deal, draws="1s", tail="3s4s5s6s7s8s9s")
    pass_declarations(hand)
    act(hand, "d5m")
    assert A.ZIMO not in hand.legal_actions(1)


# -- who may win (T4, T5, T6, T12, TA8) ------------------------------------------------


def dealer_complete(hand_text: str, flowers: str, tail: str) -> MahjongHand:
    deal = list(QUIET)
    deal[0] = hand_text + flowers
    return make_hand(deal, tail=tail)


def test_a_complete_hand_with_all_three_suits_is_not_offered_a_win() -> None:
    """T6 缺门: the same shape and flowers win only when one suit is missing."""
    # 123m 456p 789s 123s 77z: complete, three flowers, but all three suits
    three_suits = dealer_complete("123m456p789s77z", "123f", "123s")
    assert sum(three_suits.counts[0]) == 14 and len(three_suits.flowers[0]) == 3
    assert A.ZIMO not in three_suits.legal_actions(0)
    lacking = dealer_complete("123m456m789s77z", "123f", "123s")
    assert A.ZIMO in lacking.legal_actions(0)


def test_small_hand_flower_minimum_on_a_self_draw() -> None:
    """T12: a small hand self-draws with two flowers, not with one."""
    one = dealer_complete("123m456m789s12s77z", "1f", "3s")
    assert len(one.flowers[0]) == 1 and A.ZIMO not in one.legal_actions(0)
    two = dealer_complete("123m456m789s1s77z", "12f", "2s3s")
    assert len(two.flowers[0]) == 2 and A.ZIMO in two.legal_actions(0)
    act(two, "zimo")
    assert item_ids(two, 0)[0] == "xiao_hu"


DISCARD_WAIT = "123m456m789s12s77z"
"""Seat 1's small hand in the discard-minimum tests: it waits on 3s."""


def discard_minimum_hand(flowers: str) -> MahjongHand:
    """Seat 1 is dealt ``flowers`` in place of its last tiles and replaces them."""
    from paiju.components.notation import format_tiles

    held = parse_tiles(DISCARD_WAIT)
    n = len(tiles(flowers))
    deal = quiet("3s", format_tiles(held[:-n]) + flowers)
    return make_hand(deal, tail=format_tiles(held[-n:]))


def test_small_hand_flower_minimum_on_a_discard() -> None:
    """T12: a small hand wins on a discard with three flowers, not with two."""
    two = discard_minimum_hand("12f")
    assert len(two.flowers[1]) == 2
    assert bytes(two.counts[1]) == bytes(counts_of(DISCARD_WAIT))
    pass_declarations(two)
    act(two, "d3s")
    assert A.HU not in two.legal_actions(1)
    three = discard_minimum_hand("123f")
    pass_declarations(three)
    act(three, "d3s")
    assert A.HU in three.legal_actions(1)


def test_a_big_hand_needs_no_flowers() -> None:
    """T12/T17: 清一色 wins on a discard with no flower at all."""
    hand = make_hand(quiet("5m", "1112345678999m"))
    pass_declarations(hand)
    assert hand.flowers[1] == []
    act(hand, "d5m")
    assert A.HU in hand.legal_actions(1)
    act(hand, "hu", 1)
    assert "qing_yi_se" in item_ids(hand, 1)


def test_feng_yi_se_wins_on_any_honour_without_a_shape() -> None:
    """T19 / TA12: all honours, no shape needed, on any honour tile."""
    deal = ["258m258p258s12357z", "1122334z5566z77z", "369m369p369s46z47m", "147m147p147s2468s"]
    hand = make_hand(deal)
    pass_declarations(hand)
    act(hand, "d7z")
    assert A.HU in hand.legal_actions(1)
    act(hand, "hu", 1)
    assert "feng_yi_se" in item_ids(hand, 1)


MULTI = [
    "5m2468s1234z2468p7z",
    "1112345678999m",
    "123p456p789p5m666z",
    "123s456s789s5m777z",
]


def test_one_discard_several_winners_discarder_pays_each() -> None:
    """T5 有炮两响: every seat that can win on the discard wins; the discarder pays each."""
    hand = make_hand(MULTI)
    assert hand.phase == DECLARE and sorted(hand.to_act()) == [1, 2, 3]
    pass_declarations(hand)
    act(hand, "d5m")
    assert hand.phase == CLAIM and sorted(hand.to_act()) == [1, 2, 3]
    for seat in (3, 1, 2):
        act(hand, "hu", seat)
    assert hand.winners == [1, 2, 3]
    assert all(p.payer == 0 for p in hand.ledger)
    assert {p.payee for p in hand.ledger} == {1, 2, 3}
    assert hand.net()[0] == -sum(hand.win_results[s].per_payer for s in (1, 2, 3))


def test_max_winners_option_keeps_the_nearest_in_turn_order() -> None:
    """TA8: ``max_winners_per_discard`` caps the winners, nearest after the discarder."""
    hand = make_hand(MULTI, options=TaixingOptions(max_winners_per_discard=2))
    pass_declarations(hand)
    act(hand, "d5m")
    for seat in (1, 2, 3):
        act(hand, "hu", seat)
    assert hand.winners == [1, 2]


def test_pong_and_kong_but_no_chow() -> None:
    """T4: pong and kong are offered, chow never."""
    deal = quiet("5m", "55m26p37p26s37s135z")
    hand = make_hand(deal)
    pass_declarations(hand)
    act(hand, "d5m")
    legal = hand.legal_actions(1)
    assert A.PONG in legal
    assert not {A.CHI_LOW, A.CHI_MID, A.CHI_HIGH} & set(legal)


# -- 杠开 (T22) --------------------------------------------------------------------------

KONG_DEAL = [
    "1111m234p567p99p11z",
    "28m28p28s234567z5s",
    "37m37p37s1234567z",
    "46m46p46s23456z7s8s",
]


def test_kong_replacement_win_is_gang_kai() -> None:
    hand = make_hand(KONG_DEAL, tail="1z")
    act(hand, "an1m")
    assert A.ZIMO in hand.legal_actions(0)
    act(hand, "zimo")
    assert "kong_replacement" in hand.win_info[0].flags
    assert "gang_kai" in item_ids(hand, 0)
    assert not any(p.reason == "gang" for p in hand.ledger)  # no kong money in Taixing


def test_a_flower_on_the_kong_replacement_still_wins_gang_kai() -> None:
    """The flower's replacement finishes the kong's replacement: still 杠开."""
    hand = make_hand(KONG_DEAL, tail="5f1z")
    act(hand, "an1m")
    assert hand.flowers[0] == tiles("5f") and hand.drawn == tile("1z")
    act(hand, "zimo")
    assert "gang_kai" in item_ids(hand, 0)


# -- 天听 (T21, TA5) ---------------------------------------------------------------------


def test_non_dealer_declares_ready_right_after_the_deal() -> None:
    hand = make_hand(quiet("5m", "1112345678999m"))
    assert hand.phase == DECLARE
    assert hand.to_act() == [1]
    assert hand.legal_actions(1) == [A.PASS, A.DECLARE]
    assert hand.legal_actions(0) == []
    act(hand, "ting", 1)
    assert hand.ready[1] and hand.phase == ACT and hand.current == 0
    assert ("ready", 1, "") in events(hand, "ready")
    assert hand.view(2)["players"][1]["ready"] is True
    act(hand, "d5m")
    act(hand, "hu", 1)
    win = hand.win_info[1]
    assert "ready_at_deal" in win.flags
    assert "tian_ting" in item_ids(hand, 1)


def test_tian_ting_seats_dealer_only_the_dealer_may_declare() -> None:
    """TA5 「莊家…」: with ``tian_ting_seats = "dealer"`` the others are never asked."""
    options = TaixingOptions(tian_ting_seats="dealer")
    hand = make_hand(quiet("5m", "1112345678999m"), options=options)
    assert hand.phase == ACT and hand.to_act() == [0]
    assert A.DECLARE not in hand.legal_actions(1)


def test_a_declared_hand_is_locked() -> None:
    """After 天听 the seat lets every drawn tile go and may not pong or kong."""
    deal = quiet("9m", "1112345678999m")
    hand = make_hand(deal, draws="2z")
    act(hand, "ting", 1)
    act(hand, "d9m")
    assert hand.legal_actions(1) == [A.PASS, A.HU]  # no pong or kong of 9m
    act(hand, "pass", 1)
    assert hand.current == 1 and hand.drawn == tile("2z")
    assert hand.legal_actions(1) == [tile("2z")]
    undeclared = make_hand(deal, draws="2z")
    act(undeclared, "pass", 1)
    act(undeclared, "d9m")
    assert A.PONG in undeclared.legal_actions(1) and A.KONG in undeclared.legal_actions(1)


def test_a_locked_hand_may_kong_the_drawn_tile_only_if_the_waits_stay() -> None:
    hand = make_hand(quiet("5m", "111m456p789p1155z"), draws="1m")  # waits on 1z or 5z
    act(hand, "ting", 1)
    act(hand, "d5m")
    assert hand.legal_actions(1) == [tile("1m"), A.CONCEALED_KONG + tile("1m")]
    changes = make_hand(quiet("6z", "1112345678999m"), draws="1m")
    act(changes, "ting", 1)
    act(changes, "d6z")
    legal = changes.legal_actions(1)
    assert A.CONCEALED_KONG + tile("1m") not in legal and A.ZIMO in legal


def test_dealer_declares_with_the_first_discard() -> None:
    deal = list(QUIET)
    deal[0] = "1112345678999m1z"
    hand = make_hand(deal, draws="2z2z")
    legal = hand.legal_actions(0)
    assert A.TING + tile("1z") in legal and tile("1z") in legal
    assert A.TING + tile("1m") not in legal  # 112345678999m 1z is not ready
    act(hand, "ting1z")
    assert hand.ready[0]
    kinds = [e.type for e in hand.log]
    assert kinds[kinds.index("ready") + 1] == "discard"
    # on the dealer's next turn only the drawn tile may go
    while hand.current != 0 or hand.phase != ACT:
        seat = hand.to_act()[0]
        legal = hand.legal_actions(seat)
        hand.apply(A.PASS if A.PASS in legal else legal[0], seat)
    assert hand.legal_actions(0) == [hand.drawn] or A.ZIMO in hand.legal_actions(0)


def test_no_declaration_under_the_heavenly_reading() -> None:
    hand = make_hand(quiet("5m", "1112345678999m"), options=TaixingOptions(tian_ting="heavenly"))
    assert hand.phase == ACT and hand.to_act() == [0]
    assert not any(a >= A.TING for a in hand.legal_actions(0))


def test_no_declaration_for_a_ready_hand_that_cannot_lack_a_suit() -> None:
    hand = make_hand(quiet("5m", "123m456p789s1155z"))  # ready, but on all three suits
    assert hand.phase == ACT


# -- the match (T3, T7, T9, TA7, TA9) ----------------------------------------------------


def exhausted_hand(streak: int = 0, options: TaixingOptions | None = None) -> MahjongHand:
    hand = make_hand(quiet("5m"), streak=streak, options=options)
    pass_declarations(hand)
    hand.tail = hand.head
    act(hand, "d5m")
    assert hand.exhausted and hand.ledger == []
    return hand


def won_hand(dealer_wins: bool, streak: int = 0, options: TaixingOptions | None = None) -> Any:
    hand = make_hand(quiet("5m", "1112345678999m"), streak=streak, options=options)
    pass_declarations(hand)
    if dealer_wins:
        hand.winners = [0]
        return hand
    act(hand, "d5m")
    act(hand, "hu", 1)
    return hand


def test_draw_streak_doubles_and_compounds_then_resets() -> None:
    """T9 / TA7: each 荒庄 doubles the next hand, consecutive ones compound, a win resets."""
    flow, options = TAIXING, TaixingOptions()
    carry: dict[str, Any] = {}
    for expected in (1, 2, 3):
        keeps, carry = flow.after_hand(options, exhausted_hand(carry.get("draw_streak", 0)), carry)
        assert carry == {"draw_streak": expected} and not keeps
    hand = flow.new_hand(options, seed=1, dealer=0, carry=carry)
    assert isinstance(hand, MahjongHand) and hand.rules.draw_streak == 3
    base = won_hand(False).win_results[1].per_payer
    doubled = won_hand(False, streak=1).win_results[1]
    compounded = won_hand(False, streak=3).win_results[1]
    assert doubled.per_payer == 2 * base and compounded.per_payer == 8 * base
    assert ("huang_zhuang", 8) in [(i.id, i.value) for i in compounded.items]
    linear = won_hand(False, streak=3, options=TaixingOptions(draw_streak_growth="linear"))
    assert linear.win_results[1].per_payer == 4 * base
    _, carry = flow.after_hand(options, won_hand(False, streak=3), carry)
    assert carry == {"draw_streak": 0}


def test_dealer_keeps_the_deal_only_on_his_own_win() -> None:
    """T7 / TA9."""
    flow, options = TAIXING, TaixingOptions()
    assert flow.after_hand(options, won_hand(True), {})[0] is True
    assert flow.after_hand(options, won_hand(False), {})[0] is False
    assert flow.after_hand(options, exhausted_hand(), {})[0] is False
    stays = TaixingOptions(dealer_rotates_on_draw=False)
    assert flow.after_hand(stays, exhausted_hand(), {})[0] is True


@pytest.mark.parametrize("rounds", [1, 4])
def test_a_match_is_wind_rounds_ending_after_north(rounds: int) -> None:
    """T3: every seat deals in each wind round; the match ends once the last round does."""
    match = Match(TAIXING, TaixingOptions(rounds=rounds), seed=rounds)
    summaries = list(play_match(match, [GreedyBot(i) for i in range(4)]))
    planned = [s for s in summaries if s.round_wind < rounds]
    extra = summaries[len(planned) :]
    assert {s.round_wind for s in planned} == set(range(rounds))
    # T9: hands past North only while the hands before were drawn, and the last is won
    assert all(s.exhausted for s in [planned[-1], *extra][:-1])
    assert not summaries[-1].exhausted
    assert match.extra_hands == len(extra)
    streak = 0
    for prev, cur in itertools.pairwise(summaries):
        keeps = prev.dealer in prev.winners
        assert (cur.dealer == prev.dealer) == keeps
    for summary in summaries:
        streak = streak + 1 if summary.exhausted else 0
    assert match.carry == {"draw_streak": streak}
    assert sum(match.totals()) == 0


def test_a_drawn_last_hand_is_played_on_until_a_win_or_the_cap() -> None:
    """T9 「荒莊…且下盤必須要打」: the match does not end on a drawn hand."""
    flow = TAIXING
    options = TaixingOptions(hands=1, max_extra_hands=3)
    assert flow.play_on(options, {"draw_streak": 1}, 0)
    assert flow.play_on(options, {"draw_streak": 2}, 2)
    assert not flow.play_on(options, {"draw_streak": 4}, 3)
    assert not flow.play_on(options, {"draw_streak": 0}, 0)
    assert not flow.play_on(TaixingOptions(max_extra_hands=0), {"draw_streak": 1}, 0)
    for seed in range(40):
        match = Match(flow, options, seed=seed)
        summaries = list(play_match(match, [GreedyBot(i) for i in range(4)]))
        assert len(summaries) == 1 + match.extra_hands <= 4
        if summaries[0].exhausted and len(summaries) < 4:
            assert not summaries[-1].exhausted
        if len(summaries) > 1:
            return
    raise AssertionError("no drawn first hand in 40 seeds")


# -- random games ----------------------------------------------------------------------


def tiles_in_play(hand: MahjongHand) -> int:
    held = sum(sum(c) for c in hand.counts)
    melded = sum(m.type.size for melds in hand.melds for m in melds)
    discarded = sum(len(d) for d in hand.discards)
    flowers = sum(len(f) for f in hand.flowers)
    return held + melded + discarded + flowers + hand.wall_left


def check_invariants(hand: MahjongHand) -> None:
    assert tiles_in_play(hand) == 144
    flowers = [f for fs in hand.flowers for f in fs]
    assert len(flowers) == len(set(flowers)) and all(34 <= f < 42 for f in flowers)
    assert sum(hand.net()) == 0
    assert all(0 <= n <= 4 for c in hand.counts for n in c)
    for seat in range(4):
        view = hand.view(seat)
        assert '"wall":' not in json.dumps(view)
        for p in view["players"]:
            if p["seat"] != seat and not (hand.phase == END and p["seat"] in hand.winners):
                assert "hand" not in p
        for ev in hand.log:
            seen = for_seat(ev, seat)
            if ev.type in ("draw", "deal", "replacement_draw") and ev.seat != seat:
                assert "tile" not in seen and not isinstance(seen.get("tiles"), str)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), dealer=st.integers(0, 3), greedy=st.booleans())
def test_random_hands_keep_every_invariant_after_every_action(
    seed: int, dealer: int, greedy: bool
) -> None:
    hand = MahjongHand(TaixingRules(TaixingOptions(), seed % 3), seed=seed, dealer=dealer)
    bots = [(GreedyBot if greedy else RandomBot)(seed + i) for i in range(4)]
    check_invariants(hand)
    steps = 0
    while hand.phase != END:
        for seat in hand.to_act():
            legal = hand.legal_actions(seat)
            assert legal == sorted(set(legal))
            hand.apply(bots[seat](hand, seat), seat)
            steps += 1
            if steps % 5 == 0 or hand.phase == END:
                check_invariants(hand)
    assert hand.exhausted or hand.winners
    for seat in hand.winners:
        win = hand.win_info[seat]
        assert win.leopard == (hand.dice[0] == hand.dice[1])
        assert win.draw_streak == seed % 3
        assert hand.win_results[seat].valid


def test_hundreds_of_random_hands_run_without_error() -> None:
    random_bots = [RandomBot(i) for i in range(4)]
    greedy_bots = [GreedyBot(i) for i in range(4)]
    wins = declared = flowers = 0
    for seed in range(400):
        bots = greedy_bots if seed % 8 == 0 else random_bots
        hand = MahjongHand(TaixingRules(TaixingOptions(), seed % 2), seed=seed, dealer=seed % 4)
        play_hand(hand, bots)
        assert hand.phase == END and sum(hand.net()) == 0
        assert tiles_in_play(hand) == 144
        wins += bool(hand.winners)
        declared += sum(hand.ready)
        flowers += sum(len(f) for f in hand.flowers)
    assert wins > 0 and flowers > 0


def test_a_declared_hand_stays_locked_through_a_random_game() -> None:
    for seed in range(30):
        hand = make_hand(quiet("6z", "1112345678999m"))
        act(hand, "ting", 1)
        bots = [RandomBot(seed * 4 + i) for i in range(4)]
        while hand.phase != END:
            for seat in hand.to_act():
                legal = hand.legal_actions(seat)
                if seat == 1 and hand.phase == ACT:
                    drawn = hand.drawn
                    assert set(legal) <= {drawn, A.CONCEALED_KONG + drawn, A.ZIMO}
                if seat == 1 and hand.phase == CLAIM:
                    assert set(legal) <= {A.PASS, A.HU}
                hand.apply(bots[seat](hand, seat), seat)
        assert not hand.melds[1] or all(m.type is MeldType.CONCEALED_KONG for m in hand.melds[1])
        if 1 in hand.winners:
            assert "tian_ting" in item_ids(hand, 1)


def _recorded(seed: int = 7, rounds: int = 1) -> list[dict[str, Any]]:
    match = Match(TAIXING, TaixingOptions(rounds=rounds), seed)
    return record_match(match, [GreedyBot(i) for i in range(4)], ["greedy"] * 4)


def test_record_replays_identically() -> None:
    lines = _recorded()
    assert lines[0]["variant"] == "taixing"
    types = {r.get("type") for r in lines}
    assert {"dice", "flower", "replacement_draw", "hand_end", "match_end"} <= types
    result = replay(lines, find_variant)
    assert result.ok, result.message


def test_the_draw_streak_is_carried_across_the_hands_of_a_match() -> None:
    """T9: each hand's dice line shows the 荒庄 in a row before it; a win resets it."""
    lines = _recorded(seed=2, rounds=2)
    streak = 0
    checked = 0
    for line in lines:
        if line.get("type") == "dice":
            assert line["draw_streak"] == streak
            checked += 1
        elif line.get("type") == "hand_end":
            streak = streak + 1 if line["exhausted"] else 0
    assert checked >= 8
    assert any(line.get("type") == "dice" and line["draw_streak"] > 0 for line in lines)


def test_tampered_record_names_the_first_differing_line() -> None:
    lines = _recorded()
    index = next(i for i, r in enumerate(lines) if r.get("type") == "flower")
    tampered = [dict(r) for r in lines]
    tampered[index]["tile"] = "8f" if tampered[index]["tile"] != "8f" else "7f"
    result = replay(tampered, find_variant)
    assert not result.ok and result.line == index + 1


def test_cli_simulate_and_replay_taixing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "taixing.jsonl"
    code = main(
        [
            "simulate",
            "taixing",
            "--games",
            "1",
            "--seed",
            "3",
            "--bots",
            "random,greedy,random,greedy",
            "--record",
            str(record),
        ]
    )
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["variant"] == "taixing" and summary["hands"] >= 16
    assert main(["replay", str(record)]) == 0
    lines = record.read_text(encoding="utf-8").splitlines()
    index = next(i for i, line in enumerate(lines) if '"type":"dice"' in line)
    lines[index] = lines[index].replace('"dice":[', '"dice":[9,', 1)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["replay", str(bad)]) == 1
    assert f"line {index + 1}" in capsys.readouterr().err


def test_melded_wins_are_scored_with_their_sources() -> None:
    """A win after pongs: 包牌 is judged from the meld sources the engine records."""
    bots = [GreedyBot(i) for i in range(4)]
    found = False
    for seed in range(200):
        hand = MahjongHand(TaixingRules(), seed=seed, dealer=seed % 4)
        play_hand(hand, bots)
        for seat in hand.winners:
            win = hand.win_info[seat]
            if any(m.type is MeldType.PONG for m in win.melds):
                found = True
                assert all(m.source is not None for m in win.melds if m.type is MeldType.PONG)
        if found:
            break
    assert found


def test_bao_pai_moves_the_payment_to_the_feeder_of_three_sets() -> None:
    """T24 包牌: seat 2 fed seat 1 three pongs; seat 0 deals in, seat 2 pays."""
    hand = make_hand(quiet("5m", "111m222m333m55m99m"))
    pass_declarations(hand)
    for kind in ("1m", "2m", "3m"):
        hand.counts[1][tile(kind)] -= 3
        hand.melds[1].append(Meld(MeldType.PONG, Tile(tile(kind)), 2))
    hand._waits[1] = None
    hand._legal.clear()
    act(hand, "d5m")
    act(hand, "hu", 1)
    assert [(p.payer, p.payee, p.reason) for p in hand.ledger] == [(2, 1, "bao_pai")]
    assert hand.net()[0] == 0 and "bao_pai" in item_ids(hand, 1)
