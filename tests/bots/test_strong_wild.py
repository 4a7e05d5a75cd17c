"""The strong bot with 混儿 (Jiaxing ``hun``): its search reads the hand with the rules'
wild-aware shanten and waits, never lets a 混儿 go, and finds the ready discard in an
arranged position where reading the hand without wilds gets it wrong."""

from __future__ import annotations

import pytest

from paiju.bots import GreedyBot
from paiju.bots.strong import StrongBot
from paiju.components.notation import parse_tiles
from paiju.engine import actions as A
from paiju.engine.mahjong import MahjongHand, arrange_wall
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.jiaxing.variant import JIAXING


def tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)]


# the dealer holds three 3万, all 混儿 when 2万 is turned up (2万 and 3万 are wild)
POSITION = [
    "3m3m3m5m7m8m9m9m2p2p9p9p4s7s",
    "1m4m6m1p3p4p5p6p7p8p1s2s3s",
    "5s6s8s9s1z1z2z2z3z3z4z4z5z",
    "5z6z6z7z7z1s2s3s5p6p7p8s8s",
]


def _position(options: JiaxingOptions) -> MahjongHand:
    wall = arrange_wall([tiles(h) for h in POSITION], (), tiles("2m"))
    return MahjongHand(JiaxingRules(options), wall=wall, dealer=0)


def _left(hand: MahjongHand, discard: int) -> int:
    counts = bytearray(hand.counts[0])
    counts[discard] -= 1
    return hand.rules.shanten(hand, 0, bytes(counts), 0)


def _plain_greedy(hand: MahjongHand) -> int:
    """Greedy's answer reading the same hand as if nothing were wild."""
    rules = hand.rules
    wild = rules.wild_kinds
    legal = hand.legal_actions(0)
    rules.wild_kinds = ()
    try:
        hand._legal[0] = legal  # the real legal moves: a 混儿 still may not go
        return GreedyBot(0)(hand, 0)
    finally:
        rules.wild_kinds = wild


def test_arranged_position_the_wild_aware_search_is_ready_where_plain_reading_is_not() -> None:
    hand = _position(JiaxingOptions(hun=True))
    assert hand.rules.wild_kinds == (tiles("2m")[0], tiles("3m")[0])
    plain = _plain_greedy(hand)
    # read without wilds, the three 3万 are a triplet and 9万 looks spare: one from ready
    assert plain < 34 and _left(hand, plain) == 1
    evaluation = StrongBot(0).evaluate(hand, 0)
    choice = evaluation.choice
    assert evaluation.search == "lookahead"
    assert choice < 34 and choice not in hand.rules.wild_kinds
    assert _left(hand, choice) == 0
    assert choice != plain
    # the values come from the wild-aware scorer: the ready discard is worth points, the
    # plain answer's hand less
    assert (evaluation.values[choice].points or 0) > (evaluation.values[plain].points or 0)


@pytest.mark.parametrize("discard", ["forbidden", "dead_hand"])
def test_strong_never_lets_a_wild_go(discard: str) -> None:
    options = JiaxingOptions(hun=True, hun_discard=discard)
    for seed in range(3):
        hand = JIAXING.new_hand(options, seed=seed, dealer=0, carry={})
        bots = [StrongBot(i) for i in range(4)]
        wild = set(hand.rules.wild_kinds)
        searched = 0
        while not hand.is_over:
            seat = hand.to_act()[0]
            legal = hand.legal_actions(seat)
            if discard == "forbidden":
                assert not wild & set(legal)
            evaluation = bots[seat].evaluate(hand, seat)
            searched += evaluation.search == "lookahead"
            assert evaluation.choice in legal
            others = [a for a in legal if a not in wild]
            if evaluation.choice in wild or evaluation.choice - A.TING in wild:
                assert not others, "a 混儿 let go while another move was legal"
            hand.apply(evaluation.choice, seat)
        assert sum(hand.net()) == 0
        assert searched > 0


def _offered_a_small_discard_win(options: JiaxingOptions) -> MahjongHand:
    """Seat 1 holds 123万 456筒 7索 6z 111z 55筒 with 5z turned up (5z, 6z wild): a
    concealed hand ready on many tiles, offered the dealer's 8索 on the second go-round,
    a plain win worth 2 off the discard."""
    deal = [
        "2468m2468p2468s7z3z",
        "123m456p7s6z111z55p",
        "13579m13579p13s2z",
        "579s2344z77z8m8p8s9m",
    ]
    wall = arrange_wall([tiles(h) for h in deal], tiles("9p1s7p1p"), tiles("5z"))
    hand = MahjongHand(JiaxingRules(options), wall=wall, dealer=0)
    for seat, text in ((0, "d7z"), (1, "d9p"), (2, "d1s"), (3, "d7p"), (0, "d8s")):
        while hand.claim_window_open():
            for s in hand.to_act():
                hand.apply(A.PASS, s)
        hand.apply(A.parse(text), seat)
    return hand


def test_with_wilds_strong_passes_a_small_discard_win_for_the_self_draw() -> None:
    """A drawn 混儿 completes a ready hand and a self-draw pays 门清 from all three: the
    search values playing on above the 2 the discard pays and passes (lookahead
    ``wait_for_self_draw``); with that switched off it takes the win."""
    from paiju.bots.lookahead import Model

    hand = _offered_a_small_discard_win(JiaxingOptions(hun=True))
    assert A.HU in hand.legal_actions(1)
    evaluation = StrongBot(1).evaluate(hand, 1)
    assert evaluation.choice == A.PASS and evaluation.search == "lookahead"
    assert evaluation.values[A.HU].points == 2
    assert (evaluation.values[A.PASS].points or 0) > 2
    off = StrongBot(1, lookahead=Model(wait_for_self_draw=False)).evaluate(hand, 1)
    assert off.choice == A.HU


def test_with_wilds_a_ready_hand_is_valued_net_of_being_beaten() -> None:
    """``Model.count_beaten``: with 混儿 the search ranks a hand by its wins less
    ``beaten_cost`` times the chance that another seat wins first. A ready hand has no
    choice left, so that is exactly ``value - beaten_cost * (1 - chance)``; without
    the option (or without wilds) it is the value alone."""
    from paiju.bots.lookahead import BEATEN_COST, Model, WinLookahead

    hand = _offered_a_small_discard_win(JiaxingOptions(hun=True))
    key = bytes(hand.counts[1][:34])
    look = WinLookahead(hand, 1, hand.melds[1])
    value, chance = look.value(key), look.chance(key)
    assert value > 0 and 0 < chance < 1
    assert look.net(key) == pytest.approx(value - BEATEN_COST * (1 - chance))
    off = WinLookahead(hand, 1, hand.melds[1], model=Model(count_beaten=False))
    assert off.net(key) == off.value(key) == pytest.approx(value)
    plain = _offered_a_small_discard_win(JiaxingOptions())
    look = WinLookahead(plain, 1, plain.melds[1])
    assert look.bonus == 0 and look.net(bytes(plain.counts[1][:34])) == look.value(
        bytes(plain.counts[1][:34])
    )
