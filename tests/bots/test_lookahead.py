"""The lookahead search: its closed form, the scorer behind its values, and its play."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.bots import GreedyBot
from paiju.bots.lookahead import HAZARD, WinLookahead, lookahead_action, unseen_counts
from paiju.bots.strong import StrongBot
from paiju.components.analysis import MAHJONG
from paiju.components.notation import parse_tiles, tile_counts
from paiju.engine import actions as A
from paiju.engine.mahjong import ACT, END, MahjongHand
from paiju.engine.match import play_hand
from paiju.variants import VARIANTS
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules


def shanten_after(hand: MahjongHand, seat: int, discard: int) -> int:
    counts = bytearray(hand.counts[seat][:34])
    counts[discard] -= 1
    return MAHJONG.shanten(bytes(counts), len(hand.melds[seat]))


def key(text: str) -> bytes:
    return bytes(tile_counts(parse_tiles(text))[:34])


def jiaxing_hand(seat_tiles: str) -> MahjongHand:
    """A fresh Jiaxing hand with seat 0's concealed tiles replaced (nothing else read)."""
    hand = MahjongHand(JiaxingRules(JiaxingOptions()), seed=1, dealer=0)
    hand.counts[0] = bytearray(key(seat_tiles))
    return hand


def test_a_single_wait_has_the_closed_form_value() -> None:
    hand = jiaxing_hand("123456m789p123s1z")
    unseen = [4] * 34
    unseen[27] = 3  # the other three East winds
    look = WinLookahead(hand, 0, [], unseen=unseen)
    p = 3 / sum(unseen)
    keep = 1 - HAZARD
    p_ron = 1 - (1 - look.discard_rate * p) ** 3
    # a concealed self-draw takes 门清 4 from each of three; a discard win 2 from one
    assert look.win_gain(key("123456m789p123s11z"), 27, True) == 12
    assert look.win_gain(key("123456m789p123s11z"), 27, False) == 2
    gain = p_ron * 2 + (1 - p_ron) * p * 12
    expected = keep * gain / (1 - keep * (1 - p_ron) * (1 - p))
    assert look.value(key("123456m789p123s1z")) == pytest.approx(expected)


def test_a_dead_wait_and_a_far_hand_are_worth_nothing() -> None:
    hand = jiaxing_hand("123456m789p123s1z")
    unseen = [4] * 34
    unseen[27] = 0
    assert WinLookahead(hand, 0, [], unseen=unseen).value(key("123456m789p123s1z")) == 0
    # three from ready: beyond the search
    far = key("147m258p369s1234z")
    assert WinLookahead(hand, 0, []).value(far) == 0


def test_patterns_raise_the_value() -> None:
    hand = jiaxing_hand("1112345678m999p")
    look = WinLookahead(hand, 0, [], unseen=[4] * 34)
    plain = look.win_gain(key("111234567m88p999s"), 16, False)
    flush = look.win_gain(key("11123456788999m"), 7, False)
    assert plain == 2 and flush == 9  # 清一色 by discard
    # the same two-pair wait, in one suit or in three
    assert look.value(key("111234567m8899m")) > look.value(key("111234567m88p99s")) > 0


def test_a_sealed_seat_values_nothing() -> None:
    hand = jiaxing_hand("123456m789p123s1z")
    hand.fed[0][2] = JiaxingOptions().feng_hu_threshold  # 封胡: seat 0 fed seat 2 three sets
    look = WinLookahead(hand, 0, [], unseen=[4] * 34)
    assert not look.can_win
    assert look.value(key("123456m789p123s1z")) == 0


def test_taixing_values_only_wins_the_rules_accept() -> None:
    flow = VARIANTS["taixing"]
    hand: Any = flow.new_hand(flow.options_type(), seed=3, dealer=0, carry={})
    hand.flowers[0] = [34, 35, 36]
    look = WinLookahead(hand, 0, [], unseen=[4] * 34)
    # three suits: not 缺门, no win; two suits: a win
    three = key("123456m789p123s11z")
    two = key("123456m789p789p11z")
    assert look.win_gain(three, 27, True) == 0
    assert look.win_gain(two, 27, True) > 0


def test_unseen_counts_match_what_the_seat_sees() -> None:
    hand = MahjongHand(JiaxingRules(JiaxingOptions()), seed=4, dealer=0)
    bots = [GreedyBot(i) for i in range(4)]
    for _ in range(20):
        seat = hand.to_act()[0]
        hand.apply(bots[seat](hand, seat), seat)
    seat = 1
    unseen = unseen_counts(hand, seat)
    hidden = [0] * 34
    for s in range(4):
        if s != seat:
            for k in range(34):
                hidden[k] += hand.counts[s][k]
    for t in hand.wall[hand.head : hand.tail]:
        hidden[t] += 1
    assert unseen == hidden


@pytest.mark.parametrize("variant", ["jiaxing", "taixing"])
def test_lookahead_plays_whole_hands_legally(variant: str) -> None:
    flow = VARIANTS[variant]
    for seed in range(4):
        hand: Any = flow.new_hand(flow.options_type(), seed=seed, dealer=seed % 4, carry={})
        greedy = GreedyBot(seed)

        def checked(h: MahjongHand, seat: int, greedy: GreedyBot = greedy) -> int:
            legal = h.legal_actions(seat)
            default = greedy(h, seat)
            action = lookahead_action(h, seat, legal, default)
            assert action in legal
            if h.phase == ACT and action < 34 and default < 34:
                # the search never gives up shanten far from ready
                assert shanten_after(h, seat, action) <= max(1, shanten_after(h, seat, default))
            return action

        play_hand(hand, [checked, GreedyBot(1), GreedyBot(2), GreedyBot(3)])
        assert hand.phase == END and sum(hand.net()) == 0


def test_strong_uses_the_lookahead_by_default_on_mahjong() -> None:
    assert StrongBot(0, "jiaxing").search == "lookahead"
    assert StrongBot(0, "taixing").search == "lookahead"
    assert StrongBot(0, "qinger").search == "montecarlo"
    with pytest.raises(ValueError, match="unknown search"):
        StrongBot(0, search="deep")


def test_wins_are_always_taken() -> None:
    hand = jiaxing_hand("123456m789p123s1z")
    legal = [A.PASS, A.HU]
    assert lookahead_action(hand, 0, legal, A.HU) == A.HU


def test_a_feed_risks_sealing_only_towards_a_seat_one_set_short() -> None:
    from paiju.bots.simple import _would_seal

    hand = jiaxing_hand("123456m789p123s1z")
    limit = hand.rules.feeding_limit
    assert limit == 3
    unseen = unseen_counts(hand, 0)
    assert not _would_seal(hand, 0, 27, unseen)  # nobody fed yet
    hand.fed[0][2] = limit - 1
    assert _would_seal(hand, 0, 27, unseen)  # seat 2 may hold a pair of East
    unseen[27] = 1
    assert not _would_seal(hand, 0, 27, unseen)  # three Easts seen: no pair left
    hand.ready[2] = True  # a locked hand cannot pong: no risk
    unseen[27] = 3
    assert not _would_seal(hand, 0, 27, unseen)


def test_feeding_limit_is_jiaxing_only() -> None:
    assert JiaxingRules(JiaxingOptions(feng_hu=False)).feeding_limit is None
    taixing = VARIANTS["taixing"]
    hand: Any = taixing.new_hand(taixing.options_type(), seed=1, dealer=0, carry={})
    assert hand.rules.feeding_limit is None


def taixing_hand(seed: int = 3) -> Any:
    flow = VARIANTS["taixing"]
    return flow.new_hand(flow.options_type(), seed=seed, dealer=0, carry={})


def test_taixing_greedy_drops_its_shortest_suit() -> None:
    from paiju.bots import make_bot
    from paiju.bots.simple import TaixingGreedyBot, void_suit
    from paiju.components.tiles import Tile
    from paiju.engine.types import Meld, MeldType

    # the greedy level of Taixing plays as Taixing's greedy bot, decision for decision
    flow = VARIANTS["taixing"]
    played = flow.new_hand(flow.options_type(), seed=5, dealer=0, carry={})
    level, twin = make_bot("greedy", 0, "taixing"), TaixingGreedyBot(0)
    decisions = 0
    while not played.is_over:
        seat = played.to_act()[0]
        code = level(played, seat)
        assert code == twin(played, seat)
        played.apply(code, seat)
        decisions += 1
    assert decisions > 20
    hand = taixing_hand()
    counts = bytearray(len(hand.counts[0]))
    counts[:34] = key("1234567m23456p1s11z")
    hand.counts[0] = counts
    assert void_suit(hand, 0) == 2  # one 索, five 筒, seven 万
    hand.melds[0] = [Meld(MeldType.PONG, Tile(18), 1)]  # a melded 索 cannot be dropped
    assert void_suit(hand, 0) == 1
    counts[18] = 0
    hand.melds[0] = []
    assert void_suit(hand, 0) is None  # no 索 left: 缺门 already


def test_taixing_greedy_never_keeps_three_suits_by_choice() -> None:
    from paiju.bots.simple import TaixingGreedyBot, void_suit

    for seed in range(6):
        hand = taixing_hand(seed)
        bots = [TaixingGreedyBot(seed * 4 + s) for s in range(4)]
        while not hand.is_over:
            for seat in hand.to_act():
                action = bots[seat](hand, seat)
                void = void_suit(hand, seat)
                legal = hand.legal_actions(seat)
                if void is not None and A.PASS in legal and hand.claim_tile // 9 == void:
                    assert action in (A.PASS, A.HU)  # never melds the suit it drops
                held = [k for k in range(27) if k // 9 == void and hand.counts[seat][k]]
                if hand.phase == ACT and action < 34 and held and A.ZIMO not in legal:
                    assert action // 9 == void  # throws the dropped suit first
                hand.apply(action, seat)
        assert sum(hand.net()) == 0


def test_taixing_greedy_pongs_a_wind_for_a_missing_flower() -> None:
    from paiju.bots.simple import _flower_pong

    hand = taixing_hand()
    counts = bytearray(len(hand.counts[0]))
    counts[:34] = key("123456m789p11z5z9p")
    hand.counts[0] = counts
    hand.flowers[0] = []
    hand.claim_tile = 27  # East on offer: a 风碰 is one flower
    assert _flower_pong(hand, 0)
    hand.flowers[0] = [34, 35, 36]  # the discard minimum is already met
    assert not _flower_pong(hand, 0)
    hand.flowers[0] = []
    hand.claim_tile = 8  # 9万 is no flower
    assert not _flower_pong(hand, 0)
