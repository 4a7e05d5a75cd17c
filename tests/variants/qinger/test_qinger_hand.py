"""Qing'er hand engine: a scenario per flow rule on arranged decks, then random-game
properties (126 cards conserved, zero-sum ledger, no view leaks) and an action codec."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.bots import RandomBot
from paiju.bots.qinger import QingerGreedyBot
from paiju.components.cards import Card, full_deck
from paiju.components.notation import parse_cards
from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.match import play_hand
from paiju.engine.types import MeldType
from paiju.variants.qinger import hand as Q
from paiju.variants.qinger.hand import QingerHand, arrange_deck, deal_sequence, for_seat
from paiju.variants.qinger.options import QingerOptions


def C(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


# Scenario A: the dealer (seat 0) leads ♠6; seats 1 and 2 both wait on ♠3/♠6 with a 青儿
# (runs only: 100 before multipliers). The 见张 is ♥5 (见牌 1 2 5 8 9 J Q K).
DEALER_A = "1122336s 112233h 112233c JJQQh"
QING_ER_WAIT = "4599s 123456789h 123456789c"
LOW_WAIT = "4599s 123456789h 123456777c"
"""Waits on ♠3/♠6 too, but with a non-见牌 triplet: 10 + 20 = 30, not over 60."""
INDICATOR = int(Card.H5)


def hand_of(
    hands: list[str],
    draws: str = "",
    *,
    dealer: int = 0,
    indicator: int = INDICATOR,
    options: QingerOptions | None = None,
) -> QingerHand:
    options = options or QingerOptions()
    deck = arrange_deck(
        [C(h) for h in hands],
        indicator,
        C(draws),
        dealer=dealer,
        participants=options.participants,
        deal_order=options.deal_order,
    )
    return QingerHand(options, seed=1, dealer=dealer, decks=[deck])


def knock_round(hand: QingerHand, answers: str = "kpp") -> None:
    """Answer the knock round in order from the dealer: k = knock, p = pass."""
    for a in answers:
        hand.apply(Q.KNOCK if a == "k" else Q.PASS)


def passive(hand: QingerHand, seat: int) -> int:
    """Never claims, never wins, never shows a takeoff: discards what it drew."""
    legal = hand.legal_actions(seat)
    if hand.phase != Q.ACT:
        return Q.PASS
    if 0 <= hand.drawn < 36 and hand.drawn in legal:
        return hand.drawn
    return next(a for a in legal if a < Q.CONCEALED_KONG)


def play_out(hand: QingerHand) -> None:
    play_hand(hand, [passive] * hand.n_seats)


def events(hand: QingerHand, kind: str) -> list[dict[str, object]]:
    return [for_seat(e, None) | {"seat": e.seat} for e in hand.log if e.type == kind]


def item_ids(hand: QingerHand, seat: int) -> dict[str, int]:
    assert hand.result is not None
    return {i.id: i.value for i in hand.result.items[hand.role(seat)]}


# -- deck, deal, 见张 -----------------------------------------------------------------


def test_deck_and_deal_are_126_cards_dealt_23_22_22_one_at_a_time() -> None:
    hand = QingerHand(seed=3, dealer=1)
    sizes = {
        e.seat: sum(1 for _ in parse_cards(e.data["cards"])) for e in hand.log if e.type == "deal"
    }
    assert sizes == {1: 23, 2: 22, 0: 22}
    assert hand.stock_left == 126 - 67 - 1  # the 见张 is still face down
    assert hand.cards_in_play() == 126
    # one card at a time from the dealer clockwise: dealer, dealer − 1, dealer − 2
    seq = deal_sequence(1, 3)
    assert seq[:6] == [1, 0, 2, 1, 0, 2] and seq[-1] == 1 and len(seq) == 67
    assert Counter(seq) == {1: 23, 0: 22, 2: 22}
    assert deal_sequence(1, 3, "play_order")[:3] == [1, 2, 0]


def test_arranged_deck_deals_the_given_hands_and_indicator() -> None:
    hand = hand_of([DEALER_A, QING_ER_WAIT, LOW_WAIT])
    for seat, text in enumerate([DEALER_A, QING_ER_WAIT, LOW_WAIT]):
        assert sorted(c for c in range(36) for _ in range(hand.counts[seat][c])) == sorted(C(text))
    assert hand.indicator == INDICATOR and not hand.revealed
    with pytest.raises(ValueError, match="23 cards"):
        arrange_deck([C(QING_ER_WAIT)] * 3, INDICATOR)
    with pytest.raises(ValueError, match="too many copies"):
        arrange_deck([C(DEALER_A), C(QING_ER_WAIT), C(QING_ER_WAIT)], int(Card.S9))
    with pytest.raises(ValueError, match="126"):
        QingerHand(decks=[[0] * 126])


def test_indicator_is_turned_up_by_the_first_knocker_and_drawn_last() -> None:
    hand = hand_of([DEALER_A, QING_ER_WAIT, LOW_WAIT])
    hand.apply(Q.PASS)
    assert not hand.revealed and hand.view(None)["indicator"] is None
    hand.apply(Q.KNOCK)  # seat 1 is the first to knock
    (ind,) = events(hand, "indicator")
    assert ind["seat"] == 1 and ind["card"] == "5h" and ind["jian_pai"] == "1 2 5 8 9 J Q K"
    assert hand.stock[-1] == INDICATOR and hand.stock_left == 59
    hand.apply(Q.KNOCK)  # a later knock turns nothing more up
    assert len(events(hand, "indicator")) == 1
    assert hand.knocked == [False, True, True]
    play_out(hand)
    assert hand.exhausted
    draws = [e for e in hand.log if e.type == "draw"]
    assert draws[-1].data["card"] == "5h"


def test_the_view_gives_each_pair_the_stake_its_knocks_make() -> None:
    hand = hand_of([DEALER_A, QING_ER_WAIT, LOW_WAIT], options=QingerOptions(stake_form="2-3-4"))
    pairs = {(0, 1): 2, (0, 2): 2, (1, 2): 2}
    assert {tuple(p["seats"]): p["stake"] for p in hand.view(None)["stakes"]} == pairs
    hand.apply(Q.PASS)
    hand.apply(Q.KNOCK)  # seat 1 knocks: its two pairs play for the one-knock stake
    pairs.update({(0, 1): 3, (1, 2): 3})
    for seat in (None, 0, 1, 2):
        assert {tuple(p["seats"]): p["stake"] for p in hand.view(seat)["stakes"]} == pairs
    hand.apply(Q.KNOCK)  # seat 2 too: the pair of knockers plays for the top stake
    pairs.update({(0, 2): 3, (1, 2): 4})
    assert {tuple(p["seats"]): p["stake"] for p in hand.view(0)["stakes"]} == pairs


def test_nobody_knocks_means_a_redeal_within_the_hand() -> None:
    first = arrange_deck([C(DEALER_A), C(QING_ER_WAIT), C(LOW_WAIT)], INDICATOR)
    second = list(reversed(first))
    hand = QingerHand(seed=2, dealer=0, decks=[first, second])
    knock_round(hand, "ppp")
    assert [e.type for e in hand.log].count("redeal") == 1
    assert hand.deals == 2 and hand.phase == Q.KNOCK_PHASE and hand.current == 0
    assert hand.knocked == [None, None, None]
    assert hand.indicator == second[67] and hand.cards_in_play() == 126
    knock_round(hand, "pkp")
    assert hand.revealed and hand.knocked == [False, True, False]


def test_without_redeal_the_dealer_turns_up_the_indicator() -> None:
    hand = hand_of(
        [DEALER_A, QING_ER_WAIT, LOW_WAIT], options=QingerOptions(redeal_if_nobody_knocks=False)
    )
    knock_round(hand, "ppp")
    (ind,) = events(hand, "indicator")
    assert ind["seat"] == 0 and hand.phase == Q.ACT and hand.deals == 1


# -- 补花 and 起飞 ----------------------------------------------------------------------


def test_flowers_are_set_aside_with_chained_replacements() -> None:
    dealer = "1122336s 112233h 112233c JJQh BJ"
    seat1 = "599s 123456789h 123456789c AD"
    hand = hand_of([dealer, seat1, QING_ER_WAIT], "SJ Qh 4s")
    knock_round(hand)
    assert hand.flowers == [[Card.BJ, Card.SJ], [Card.AD], []]
    assert sum(hand.counts[0]) == 23 and sum(hand.counts[1]) == 22
    assert hand.counts[0][Card.HQ] == 2 and hand.counts[1][Card.S4] == 1
    seq = [(e.type, e.seat, e.data["card"]) for e in hand.log if e.type in ("flower", "draw")]
    assert seq == [
        ("flower", 0, "BJ"),
        ("draw", 0, "SJ"),
        ("flower", 0, "SJ"),
        ("draw", 0, "Qh"),
        ("flower", 1, "AD"),
        ("draw", 1, "4s"),
    ]
    assert hand.phase == Q.ACT and hand.cards_in_play() == 126


def test_advert_kept_as_a_dead_card_when_not_a_flower() -> None:
    seat1 = "599s 123456789h 123456789c AD"
    options = QingerOptions(advert_is_flower=False)
    hand = hand_of([DEALER_A, seat1, QING_ER_WAIT], options=options)
    knock_round(hand)
    assert hand.flowers == [[], [], []] and hand.counts[1][Card.AD] == 1
    hand.apply(Q.DISCARD + Card.S6)  # nobody can take it: seat 1's dead card blocks its win
    assert hand.pending == {2: [Q.PASS, Q.HU]}
    hand.apply(Q.PASS, 2)
    assert Q.DISCARD + Card.AD in hand.legal_actions(1)
    hand.apply(Q.DISCARD + Card.AD)
    assert hand.phase == Q.ACT and hand.current == 2  # a dead card is never claimed


def test_takeoff_of_four_alike_at_the_deal_draws_a_replacement_and_scores() -> None:
    dealer = "7777888s 112233h 112233c JJQQh"
    hand = hand_of([dealer, QING_ER_WAIT, QING_ER_WAIT], "5c")
    knock_round(hand)
    assert hand.phase == Q.TAKEOFF_PHASE and hand.to_act() == [0]
    assert hand.legal_actions(0) == [Q.TAKEOFF + Card.S7, Q.PASS]
    assert Q.to_str(Q.TAKEOFF + Card.S7) == "qifei7s"
    hand.apply(Q.TAKEOFF + Card.S7)
    assert hand.takeoffs[0] == [(Card.S7,) * 4]
    assert hand.declared[0] == 1 and sum(hand.counts[0]) == 20 and hand.counts[0][Card.C5] == 1
    (shown,) = events(hand, "takeoff")
    assert shown["cards"] == "7777s"
    assert hand.phase == Q.ACT  # nobody else holds four alike: play starts
    play_out(hand)
    assert item_ids(hand, 0)["qi_fei"] == 8  # 7 is not 见牌 under ♥5


def test_five_joker_takeoff_at_the_deal() -> None:
    dealer = "112233s 112233h 112233c BJ BJ BJ SJ SJ"
    hand = hand_of([dealer, QING_ER_WAIT, QING_ER_WAIT], "JJQQh 6s")
    knock_round(hand)
    assert hand.flowers[0] == [Card.BJ] * 3 + [Card.SJ] * 2
    assert hand.legal_actions(0) == [Q.TAKEOFF_JOKERS, Q.PASS]
    hand.apply(Q.parse("wuxi"))
    assert hand.flowers[0] == [] and hand.takeoffs[0] == [(33, 33, 33, 34, 34)]
    assert hand.declared[0] == 0 and sum(hand.counts[0]) == 23
    play_out(hand)
    assert item_ids(hand, 0)["wu_xi_qi_fei"] == 400


def test_four_face_cards_of_one_rank_are_not_a_takeoff_by_default() -> None:
    """Q6 「4張花色相同并且同字」: ♥K♥K♥K♣K is not four of one suit."""
    dealer = "7777s 1122336s 112233h JJQQh 11c"
    seat2 = "KKKh Kc 4599s 123456789h 12345c"
    hand = hand_of([dealer, QING_ER_WAIT, seat2], "5c 6c")
    knock_round(hand)
    hand.apply(Q.TAKEOFF + Card.S7)
    assert hand.phase == Q.ACT and hand.takeoffs[2] == []


def test_takeoffs_are_declared_in_order_from_the_dealer_face_cards_by_rank() -> None:
    dealer = "7777s 1122336s 112233h JJQQh 11c"
    seat2 = "KKKh Kc 4599s 123456789h 12345c"  # three ♥K and the ♣K: four kings
    options = QingerOptions(takeoff_face_quads_by_rank=True)
    hand = hand_of([dealer, QING_ER_WAIT, seat2], "5c 6c", options=options)
    knock_round(hand)
    assert hand.to_act() == [0] and hand.legal_actions(0) == [Q.TAKEOFF + Card.S7, Q.PASS]
    hand.apply(Q.TAKEOFF + Card.S7)
    assert hand.to_act() == [2]  # seat 1 has nothing to show and is not asked
    assert hand.legal_actions(2) == [Q.parse("qifeiK"), Q.PASS]
    hand.apply(Q.parse("qifeiK"))
    assert hand.takeoffs[2] == [(Card.HK, Card.HK, Card.HK, Card.CK)]
    assert hand.counts[2][Card.C6] == 1 and hand.phase == Q.ACT and hand.current == 0
    spectator = hand.view(None)
    assert spectator["players"][2]["takeoffs"] == ["KKKhKc"] and spectator["indicator"] == "5h"
    assert spectator["jian_pai"] == "1 2 5 8 9 J Q K" and spectator["legal_actions"] == []
    assert "hand" not in spectator["players"][0] and "hand" in hand.view(0)["players"][0]
    play_out(hand)
    items = item_ids(hand, 2)
    assert items["jian_pai_qi_fei"] == 32  # K is always 见牌
    assert items["mei_hua_k"] == 10  # ♣K is the dealer's card; seat 2 is 对家


def test_takeoff_can_be_declined_then_the_quad_is_a_concealed_kong() -> None:
    dealer = "7777888s 112233h 112233c JJQQh"
    hand = hand_of([dealer, QING_ER_WAIT, QING_ER_WAIT], "5c")
    knock_round(hand)
    hand.apply(Q.PASS)
    assert hand.phase == Q.ACT and Q.CONCEALED_KONG + Card.S7 in hand.legal_actions(0)


def test_takeoff_round_is_skipped_when_turned_off() -> None:
    dealer = "7777888s 112233h 112233c JJQQh"
    options = QingerOptions(takeoff_at_deal=False)
    hand = hand_of([dealer, QING_ER_WAIT, QING_ER_WAIT], options=options)
    knock_round(hand)
    assert hand.phase == Q.ACT


def test_a_quad_formed_later_is_a_concealed_kong_an_du() -> None:
    seat1 = "777s 123456789h 123456789c 9s"  # 22 cards, draws the fourth ♠7
    hand = hand_of([DEALER_A, seat1, QING_ER_WAIT], "7s 8c")
    knock_round(hand)
    assert hand.phase == Q.ACT  # three alike is no takeoff
    hand.apply(Q.DISCARD + Card.S6)
    hand.apply(Q.PASS, 2)  # seat 2 could win on ♠6
    assert hand.current == 1 and hand.drawn == Card.S7
    legal = hand.legal_actions(1)
    assert Q.CONCEALED_KONG + Card.S7 in legal and Q.to_str(Q.CONCEALED_KONG + 6) == "an7s"
    hand.apply(Q.CONCEALED_KONG + Card.S7)
    assert hand.melds[1][0].type is MeldType.CONCEALED_KONG
    assert hand.current == 1 and hand.drawn == Card.C8  # the replacement
    play_out(hand)
    assert item_ids(hand, 1)["an_du"] == 6


# -- play -------------------------------------------------------------------------------


def test_play_goes_counter_clockwise_from_the_dealer() -> None:
    hand = QingerHand(seed=8, dealer=1)
    knock_round(hand, "kkk")
    while hand.phase == Q.TAKEOFF_PHASE:
        hand.apply(Q.PASS)
    play_out(hand)
    turns = [e.seat for e in hand.log if e.type == "discard"]
    assert turns[:6] == [1, 2, 0, 1, 2, 0]


def test_four_participants_one_sits_out_and_play_skips_that_seat() -> None:
    options = QingerOptions(participants=4)
    hand = QingerHand(options, seed=4, dealer=2)
    assert hand.sitting_out == 1 and hand.players == [2, 3, 0]
    assert deal_sequence(2, 4)[:3] == [2, 0, 3]  # clockwise: the dealer, then 0, then 3
    assert sum(hand.counts[1]) == 0 and not any(e.seat == 1 for e in hand.log)
    knock_round(hand, "kpp")
    with pytest.raises(IllegalActionError):
        hand.apply(Q.PASS, 1)
    while hand.phase == Q.TAKEOFF_PHASE:
        hand.apply(Q.PASS)
    play_out(hand)
    turns = [e.seat for e in hand.log if e.type == "discard"]
    assert turns[:6] == [2, 3, 0, 2, 3, 0]
    assert hand.net()[1] == 0 and sum(hand.net()) == 0 and hand.cards_in_play() == 126
    assert hand.view(1)["sitting_out"] == 1 and "hand" not in hand.view(1)["players"][2]
    # the seat sitting out is in no pair; seat 2 knocked ("kpp" from the dealer)
    stakes = {tuple(p["seats"]): p["stake"] for p in hand.view(1)["stakes"]}
    assert stakes == {(0, 2): 2, (0, 3): 1, (2, 3): 2}


def test_pong_only_no_chow_and_a_discard_follows_the_pong() -> None:
    seat1 = "4599s 123456789h 123456789c"  # holds ♠4 ♠5: no chow of ♠6 exists
    seat2 = "1669s 123456789h 123456789c"  # holds two ♠6
    hand = hand_of([DEALER_A, seat1, seat2])
    knock_round(hand)
    hand.apply(Q.DISCARD + Card.S6)
    assert hand.pending == {1: [Q.PASS, Q.HU], 2: [Q.PASS, Q.PONG]}
    hand.apply(Q.PASS, 1)
    hand.apply(Q.PONG, 2)
    assert hand.melds[2][0].type is MeldType.PONG and hand.melds[2][0].source == 0
    assert hand.current == 2 and hand.discards[0] == []
    assert all(a < Q.CONCEALED_KONG for a in hand.legal_actions(2))  # discard only
    hand.apply(Q.DISCARD + Card.H5)
    assert hand.current == 0  # play continues after the ponger: seat 0 is next


def test_kong_of_a_discard_draws_a_replacement() -> None:
    seat2 = "666s 9s 123456789h 123456789c"
    hand = hand_of([DEALER_A, QING_ER_WAIT, seat2], "8c")
    knock_round(hand)
    hand.apply(Q.DISCARD + Card.S6)
    assert hand.pending == {1: [Q.PASS, Q.HU], 2: [Q.PASS, Q.PONG, Q.KONG]}
    hand.apply(Q.PASS, 1)
    hand.apply(Q.KONG, 2)
    (meld,) = hand.melds[2]
    assert meld.type is MeldType.KONG and meld.source == 0 and len(meld.cards) == 4
    assert hand.current == 2 and hand.drawn == Card.C8 and hand.declared[2] == 1
    assert sum(hand.counts[2]) == 3 * 6 + 2


def test_one_winner_per_discard_the_nearest_in_turn_order() -> None:
    hand = hand_of([DEALER_A, QING_ER_WAIT, QING_ER_WAIT])
    knock_round(hand)
    hand.apply(Q.DISCARD + Card.S6)
    assert hand.pending == {1: [Q.PASS, Q.HU], 2: [Q.PASS, Q.HU]}
    hand.apply(Q.HU, 2)
    hand.apply(Q.HU, 1)
    assert hand.winners == [1] and hand.is_over and not hand.self_drawn
    assert item_ids(hand, 1)["qing_er"] == 100
    assert sum(hand.net()) == 0 and hand.net()[1] > 0


def test_the_farther_claimant_wins_when_the_nearer_passes() -> None:
    hand = hand_of([DEALER_A, QING_ER_WAIT, QING_ER_WAIT])
    knock_round(hand)
    hand.apply(Q.DISCARD + Card.S6)
    hand.apply(Q.PASS, 1)
    hand.apply(Q.HU, 2)
    assert hand.winners == [2]


def test_several_winners_when_the_option_allows() -> None:
    options = QingerOptions(one_winner_per_discard=False)
    hand = hand_of([DEALER_A, QING_ER_WAIT, QING_ER_WAIT], options=options)
    knock_round(hand)
    hand.apply(Q.DISCARD + Card.S6)
    hand.apply(Q.HU, 1)
    hand.apply(Q.HU, 2)
    assert hand.winners == [1, 2] and sum(hand.net()) == 0
    assert hand.net()[1] > 0 and hand.net()[2] > 0


def test_running_score_counts_rounded_sets_and_bonuses_hidden_before_the_jian_zhang() -> None:
    # seat 1 (下家): with the ♥5 见张 (见牌 1 2 5 8 9 J Q K) the concealed ♥888 is a 见牌
    # triplet, 8, and ♣777 a plain one, 2; set points round up to 10 (QA10); its own ♣Q 20
    seat1 = "45s 1234567888h 123456777c Qc"
    hand = hand_of([DEALER_A, seat1, QING_ER_WAIT])
    assert hand.view(1)["gate"] == {"threshold": 60, "strict": True, "running": None}
    knock_round(hand)
    assert hand.view(1)["gate"]["running"] == 30
    assert hand.view(2)["gate"]["running"] == 0  # runs only
    assert hand.view(None)["gate"]["running"] is None  # a spectator has no seat
    by_sets = hand_of(
        [DEALER_A, seat1, QING_ER_WAIT], options=QingerOptions(win_threshold_basis="set_points")
    )
    knock_round(by_sets)
    assert by_sets.view(1)["gate"]["running"] == 10  # the gate counts set points only


def test_a_win_not_over_60_is_not_offered() -> None:
    hand = hand_of([DEALER_A, LOW_WAIT, QING_ER_WAIT])
    knock_round(hand)
    hand.apply(Q.DISCARD + Card.S6)
    assert hand.pending == {2: [Q.PASS, Q.HU]}  # seat 1 completes at 30 only
    with pytest.raises(IllegalActionError):
        hand.apply(Q.HU, 1)
    low = hand_of([DEALER_A, LOW_WAIT, QING_ER_WAIT], options=QingerOptions(win_threshold=29))
    knock_round(low)
    low.apply(Q.DISCARD + Card.S6)
    assert low.pending[1] == [Q.PASS, Q.HU]


def test_self_drawn_win_is_offered_and_scored() -> None:
    hand = hand_of([DEALER_A, QING_ER_WAIT, QING_ER_WAIT], "3s")
    knock_round(hand)
    hand.apply(Q.DISCARD + Card.S1)  # nobody completes on ♠1; seat 1 draws ♠3
    assert hand.current == 1 and Q.ZIMO in hand.legal_actions(1)
    hand.apply(Q.ZIMO)
    assert hand.winners == [1] and hand.self_drawn
    assert [e.data["card"] for e in hand.log if e.type == "win"] == ["3s"]


@pytest.mark.parametrize(
    ("stake_form", "net"),
    [("1-2-3", [60, 30, -90]), ("2-3-4", [90, 60, -150]), ("3-4-5", [120, 90, -210])],
)
def test_exhausted_stock_settles_the_always_scored_items(stake_form: str, net: list[int]) -> None:
    # every flower is dealt, so the stock holds none: the bonuses stay as dealt
    dealer = "1122336s 112233h 112233c JQh SJ AD"
    seat1 = "4599s 123456789h 123456c BJ BJ BJ"
    seat2 = "459s 123456789h 123456789c SJ"
    options = QingerOptions(stake_form=stake_form)  # type: ignore[arg-type]
    hand = hand_of([dealer, seat1, seat2], "Qh Jh 789c 6s", options=options)
    knock_round(hand, "kpp")
    play_out(hand)
    assert hand.exhausted and not hand.winners
    assert hand.result is not None
    assert hand.result.scores == (50, 50, 20)  # 小鬼 + 广告; 结婚 of 大鬼; 小鬼
    # only the dealer knocked: pairs with the dealer pay the middle stake, 1–2 the lowest
    assert hand.net() == net
    assert [(p.payer, p.payee) for p in hand.ledger] == [(2, 0), (2, 1)]
    assert all(p.reason for p in hand.ledger)
    # the running score against 60, in each seat's own view once the 见张 is up
    assert [hand.view(s)["gate"]["running"] for s in range(3)] == [50, 50, 20]
    no_settle = hand_of(
        [dealer, seat1, seat2],
        "Qh Jh 789c 6s",
        options=QingerOptions(exhausted_stock_settles=False),
    )
    knock_round(no_settle, "kpp")
    play_out(no_settle)
    assert no_settle.exhausted and no_settle.ledger == []


# -- errors and codec ----------------------------------------------------------------


def test_actions_round_trip_and_bad_input_is_named() -> None:
    for code in range(Q.N_ACTIONS):
        assert Q.parse(Q.to_str(code)) == code
    assert Q.to_str(Q.DISCARD + Card.CK) == "dKc"
    assert Q.to_str(Q.CONCEALED_KONG + 29) == "anK" and Q.parse("jiaQ") == Q.ADDED_KONG + 28
    for bad in ("x", "dZ", "an", "qifeiKh", "anBJ", ""):
        with pytest.raises(InvalidActionError):
            Q.parse(bad)
    hand = QingerHand(seed=1, dealer=0)
    for bad_code in (-1, Q.N_ACTIONS, True, "pass"):
        with pytest.raises(InvalidActionError):
            hand.apply(bad_code)  # type: ignore[arg-type]
    log = list(hand.log)
    with pytest.raises(IllegalActionError):
        hand.apply(Q.DISCARD)
    with pytest.raises(IllegalActionError):
        hand.apply(Q.PASS, 5)
    assert hand.log == log


# -- random games -----------------------------------------------------------------------


def check_invariants(hand: QingerHand) -> None:
    assert hand.cards_in_play() == 126
    assert sum(hand.net()) == 0
    for seat in [None, *range(hand.n_seats)]:
        view = hand.view(seat)
        assert "stock" not in view and "deck" not in view
        if not hand.revealed:
            assert view["indicator"] is None
        for p in view["players"]:
            if p["seat"] != seat and not (hand.phase == Q.END and p["seat"] in hand.winners):
                assert "hand" not in p
        for ev in hand.log:
            if ev.type in ("deal", "draw") and ev.seat != seat:
                seen = for_seat(ev, seat)
                assert "card" not in seen and not isinstance(seen.get("cards"), str)
        json.dumps(view)
        running = view["gate"]["running"]
        if seat is None or seat not in hand.players or not hand.revealed:
            assert running is None
        elif hand.phase != Q.END:
            # the running score is the seat's own: another deal of what it cannot see
            # gives the same number
            other = hand.determinize(seat, random.Random(len(hand.log)))
            assert other.view(seat)["gate"]["running"] == running
    if hand.exhausted and hand.result is not None:
        # nobody won: each player's pre-multiplier total is just the running score
        for seat in hand.players:
            running = hand.view(seat)["gate"]["running"]
            assert running == hand.result.before_multipliers[hand.role(seat)]


OPTION_SETS = [
    QingerOptions(),
    QingerOptions(participants=4),
    QingerOptions(one_winner_per_discard=False, stake_form="3-4-5"),
    QingerOptions(advert_is_flower=False, takeoff_at_deal=False, deal_order="play_order"),
    QingerOptions(redeal_if_nobody_knocks=False, win_threshold=20),
]


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    which=st.integers(0, len(OPTION_SETS) - 1),
    greedy=st.booleans(),
)
def test_random_hands_keep_every_invariant(seed: int, which: int, greedy: bool) -> None:
    options = OPTION_SETS[which]
    hand = QingerHand(options, seed=seed, dealer=seed % options.participants)
    bots = [(QingerGreedyBot if greedy else RandomBot)(seed + i) for i in range(4)]
    check_invariants(hand)
    steps = 0
    while not hand.is_over:
        for seat in hand.to_act():
            legal = hand.legal_actions(seat)
            assert legal == sorted(set(legal)) and legal
            hand.apply(bots[seat](hand, seat), seat)
            steps += 1
            if steps % 11 == 0 or hand.is_over:
                check_invariants(hand)
    assert hand.exhausted != bool(hand.winners)
    assert hand.result is not None and hand.net() == [
        sum(p.amount for p in hand.ledger if p.payee == s)
        - sum(p.amount for p in hand.ledger if p.payer == s)
        for s in range(hand.n_seats)
    ]


def test_dealer_hand_may_be_drawn_for() -> None:
    for seed in range(20):
        hand = QingerHand(seed=seed)
        first = hand.log[0]
        assert first.type == "draw_for_dealer" and first.seat == hand.dealer
        last_round = first.data["draws"][-1]
        values = {s: Q.DRAW_VALUE[int(parse_cards(c)[0])] for s, c in last_round}
        assert max(values, key=values.__getitem__) == hand.dealer
        assert sorted(values.values()).count(max(values.values())) == 1


def test_copy_is_independent() -> None:
    hand = QingerHand(seed=5, dealer=0)
    clone = hand.copy()
    play_hand(clone, [RandomBot(i) for i in range(3)])
    assert clone.is_over and not hand.is_over
    play_hand(hand, [RandomBot(i) for i in range(3)])
    assert hand.log == clone.log and hand.ledger == clone.ledger


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: str(o.participants))
def test_hundreds_of_random_hands_run_without_error(options: QingerOptions) -> None:
    bots = [RandomBot(i) for i in range(4)]
    wins = 0
    for seed in range(80):
        hand = QingerHand(options, seed=seed, dealer=seed % options.participants)
        play_hand(hand, bots)
        assert hand.cards_in_play() == 126 and sum(hand.net()) == 0
        wins += bool(hand.winners)
    assert wins < 80


def test_greedy_bots_win_hands() -> None:
    bots = [QingerGreedyBot(i) for i in range(3)]
    wins = 0
    for seed in range(15):
        hand = QingerHand(seed=seed, dealer=seed % 3)
        play_hand(hand, bots)
        wins += bool(hand.winners)
        for seat in hand.winners:
            assert hand.result is not None
            assert hand.result.before_multipliers[hand.role(seat)] > 60
    assert wins >= 3


def test_full_deck_matches_card_counts() -> None:
    assert len(full_deck()) == 126


@pytest.mark.parametrize("seed", [0, 1, 7, 2**40 + 3])
def test_the_deal_is_the_deck_random_shuffle_makes(seed: int) -> None:
    # the engine shuffles with its own loop over the generator's draws
    hand = QingerHand(seed=seed, dealer=0)
    deck = [int(c) for c in full_deck()]
    random.Random(seed).shuffle(deck)
    assert hand.indicator == deck[67] and hand.stock == deck[68:]
