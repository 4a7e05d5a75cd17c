"""Qing'er scoring on typed input: 见牌, seats, rounding, readings, multipliers, settlement."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest

from paiju.components.cards import Card
from paiju.components.notation import parse_card, parse_cards
from paiju.engine.types import MeldType, WinType
from paiju.variants.base import OptionError, options_from_mapping
from paiju.variants.qinger.items import ITEMS
from paiju.variants.qinger.options import DEFAULT_OPTIONS, QingerOptions
from paiju.variants.qinger.scoring import (
    QingerMeld,
    QingerPlayer,
    QingerSituation,
    can_win,
    hand_value_before_multipliers,
    jian_pai_ranks,
    round_up_10,
    score_hand,
    seat_role,
    settle_pairwise,
)


def player(
    hand: str = "",
    melds: tuple[QingerMeld, ...] = (),
    flowers: str = "",
    takeoffs: tuple[str, ...] = (),
    knocked: bool = False,
) -> QingerPlayer:
    return QingerPlayer.from_cards(
        parse_cards(hand),
        melds,
        parse_cards(flowers),
        [parse_cards(t) for t in takeoffs],
        knocked,
    )


def win(
    winner_player: QingerPlayer,
    win_card: str,
    indicator: str = "5h",
    others: tuple[QingerPlayer, QingerPlayer] | None = None,
) -> QingerSituation:
    rest = others or (player("6s"), player("6h"))
    return QingerSituation(
        dealer=0,
        indicator=parse_card(indicator),
        players=(winner_player, *rest),
        winner=0,
        win_type=WinType.SELF_DRAW,
        win_card=parse_card(win_card),
    )


def ids(items: tuple[object, ...]) -> list[str]:
    return [item.id for item in items]  # type: ignore[attr-defined]


# -- Q22 / QA8: 见牌 ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("indicator", "extra"),
    [
        ("1s", "47"),
        ("4h", "47"),
        ("7c", "47"),
        ("2s", "258"),
        ("5h", "258"),
        ("8c", "258"),
        ("3s", "36"),
        ("6h", "36"),
        ("9c", "36"),
        ("BJ", ""),
        ("SJ", ""),
        ("AD", ""),
        ("Jh", ""),
        ("Kc", ""),
    ],
)
def test_jian_pai_ranks(indicator: str, extra: str) -> None:
    expected = {"1", "9", "J", "Q", "K"} | set(extra)
    assert jian_pai_ranks(parse_card(indicator)) == frozenset(expected)


def test_seat_roles_from_the_dealer() -> None:
    assert [seat_role(s, 0) for s in range(3)] == [0, 1, 2]
    assert [seat_role(s, 2) for s in range(3)] == [1, 2, 0]


@pytest.mark.parametrize(("points", "rounded"), [(0, 0), (1, 10), (10, 10), (32, 40), (41, 50)])
def test_round_up_10(points: int, rounded: int) -> None:
    assert round_up_10(points) == rounded


# -- input validation ---------------------------------------------------------------


def test_meld_and_player_validation() -> None:
    assert QingerMeld.of(MeldType.PONG, Card.S7, 1).cards == (Card.S7,) * 3
    with pytest.raises(ValueError, match="one kind"):
        QingerMeld(MeldType.PONG, (Card.S7, Card.S7, Card.S8), 1)
    with pytest.raises(ValueError, match="feeder"):
        QingerMeld.of(MeldType.CONCEALED_KONG, Card.S7, 1)
    with pytest.raises(ValueError, match="feeder"):
        QingerMeld.of(MeldType.PONG, Card.S7)
    assert QingerMeld(MeldType.PONG, (Card.HK, Card.HK, Card.CK), 2).kind == 29
    with pytest.raises(ValueError, match="takeoff"):
        player(takeoffs=("111s2s",))
    assert player(takeoffs=("KhKhKhKc",)).declared == 1
    assert player(takeoffs=("BJBJBJSJSJ",)).declared == 0


def test_hand_validation() -> None:
    p = player("123s")
    with pytest.raises(ValueError, match="3 players"):
        QingerSituation(0, Card.H5, (p, p))
    with pytest.raises(ValueError, match="include the winning card"):
        QingerSituation(0, Card.H5, (p, p, p), 0, WinType.SELF_DRAW, Card.S9)
    with pytest.raises(ValueError, match="discarder"):
        QingerSituation(0, Card.H5, (p, p, p), 0, WinType.DISCARD, Card.S1, source=0)
    with pytest.raises(ValueError, match="self-draw or by discard"):
        QingerSituation(0, Card.H5, (p, p, p), 0, WinType.ROBBED_KONG, Card.S1, source=1)


# -- options -------------------------------------------------------------------------


def test_options_from_json() -> None:
    opts = options_from_mapping(QingerOptions, {"participants": 4, "stake_form": "3-4-5"})
    assert opts.participants == 4 and opts.stakes == (3, 4, 5)
    assert DEFAULT_OPTIONS.stakes == (1, 2, 3)
    assert DEFAULT_OPTIONS.redeal_if_nobody_knocks
    with pytest.raises(OptionError):
        options_from_mapping(QingerOptions, {"participants": 5})
    with pytest.raises(OptionError):
        options_from_mapping(QingerOptions, {"win_threshold": -1})
    with pytest.raises(OptionError):
        options_from_mapping(QingerOptions, {"rounding_scope": "everything"})


# -- the winner's reading -------------------------------------------------------------

_ALL_RED_TRIPLETS = player("JhJhJhQhQhQhKhKhKh111s999s555h888c22c")


def test_multipliers_multiply_together() -> None:
    result = score_hand(win(_ALL_RED_TRIPLETS, "2c"))
    assert result.valid
    items = result.items[0]
    # 3×8 (JQK) + 4×8 = 56 → 60; + 20 + 10 = 90; 三红 ×2, 穷狠 ×2, 飘胡 ×2 → 720
    assert result.before_multipliers[0] == 90
    assert result.scores[0] == 720
    assert [(i.id, i.value) for i in items if ITEMS[i.id].kind == "multiplier"] == [
        ("san_hong", 90),
        ("qiong_hen", 180),
        ("piao_hu", 360),
    ]
    assert sum(i.value for i in items) == 720
    assert items[-1].zh == "飘胡 ×2"


def test_qiong_qiong_hen_replaces_qiong_hen() -> None:
    result = score_hand(win(_ALL_RED_TRIPLETS, "2c", indicator="SJ"))
    multipliers = [i.id for i in result.items[0] if ITEMS[i.id].kind == "multiplier"]
    assert multipliers == ["san_hong", "qiong_qiong_hen", "piao_hu"]
    # 见牌 under a joker 见张: 1, 9, J, Q, K only → 8×5 + 2×2 = 44 → 50; +30 = 80; ×16
    assert result.before_multipliers[0] == 80
    assert result.scores[0] == 80 * 16


def test_best_reading_takes_the_single_wait() -> None:
    hand = win(player("123h456h789h234c678c234s456s66s", flowers="BJSJ"), "6s")
    result = score_hand(hand)
    assert "dan_diao" in ids(result.items[0])
    # three 6s are held, so the triplet still scores (有多少算多少): 2 → 10
    assert result.scores[0] == 10 + 10 + 20 + 100 + 10


def test_partial_san_hong_only_for_the_winner() -> None:
    other = player(
        "KhKc", (QingerMeld.of(MeldType.PONG, Card.HJ, 0), QingerMeld.of(MeldType.PONG, Card.HQ, 2))
    )
    hand = QingerSituation(0, Card.H5, (player("123s"), other, player("6h")))
    result = score_hand(hand)
    assert "san_hong" not in ids(result.items[1])
    # two 见牌 pongs 8 → 10, ♣K held by 下家 (not their card) 10
    assert result.scores[1] == 20


def test_rounding_scope_total() -> None:
    p = player("123s123s123s123s456h789h234c55c", flowers="SJ")
    options = QingerOptions(wen_qian_four_points=85)
    assert score_hand(win(p, "7h"), options).scores[0] == 20 + 20 + 100 + 10 + 85
    total = replace(options, rounding_scope="total")
    result = score_hand(win(p, "7h"), total)
    assert result.scores[0] == 240  # 18 + 20 + 100 + 10 + 85 = 233 → 240
    assert ("jin_zheng", 7) in [(i.id, i.value) for i in result.items[0]]


# -- the threshold (Q8, QA7) and the engine helpers ------------------------------------

_SIXTY = player("123h456h789h234c678c345s99s", (QingerMeld.of(MeldType.PONG, Card.S7, 1),), "SJ")


def test_threshold_helpers_agree_with_score_hand() -> None:
    hand = win(_SIXTY, "9s")
    assert hand_value_before_multipliers(hand) == 60
    assert not can_win(hand)
    result = score_hand(hand)
    assert not result.valid and result.reason_zh == "不足60分"
    lenient = QingerOptions(win_threshold_strict=False)
    assert can_win(hand, lenient)
    assert score_hand(hand, lenient).scores[0] == 60


def test_incomplete_hand_has_no_value() -> None:
    hand = win(player("123h456h789h234c678c345s9s8s", flowers="SJ"), "9s")
    assert hand_value_before_multipliers(hand) is None
    assert not can_win(hand)
    assert score_hand(hand).reason_en == "hand is not complete (7 sets and a pair)"


def test_threshold_on_set_points() -> None:
    by_sets = QingerOptions(win_threshold_basis="set_points")
    # set points 56 → 60: not more than 60, although the total is 90
    assert not can_win(win(_ALL_RED_TRIPLETS, "2c"), by_sets)
    assert can_win(win(_ALL_RED_TRIPLETS, "2c"), replace(by_sets, win_threshold=50))


def test_helpers_need_a_winner() -> None:
    hand = QingerSituation(0, Card.H5, (player(), player(), player()))
    with pytest.raises(ValueError):
        can_win(hand)
    with pytest.raises(ValueError):
        hand_value_before_multipliers(hand)


# -- settlement (Q9) ------------------------------------------------------------------


@pytest.mark.parametrize("stakes", [(1, 2, 3), (2, 3, 4), (3, 4, 5)])
@pytest.mark.parametrize(
    "knocked",
    [(False, False, False), (True, False, False), (True, True, False), (True, True, True)],
)
def test_pairwise_settlement(stakes: tuple[int, int, int], knocked: tuple[bool, ...]) -> None:
    scores = (100, 40, 10)
    payments = settle_pairwise(scores, knocked, stakes)
    assert len(payments) == 3
    for p in payments:
        assert scores[p.payer] < scores[p.payee]
        stake = stakes[knocked[p.payer] + knocked[p.payee]]
        assert p.amount == (scores[p.payee] - scores[p.payer]) * stake
        assert p.reason == "bi_fen"


def test_equal_scores_pay_nothing() -> None:
    assert settle_pairwise((30, 30, 30), (True, False, True), (1, 2, 3)) == ()


def test_exhausted_stock_settles_always_scored_items() -> None:
    hand = QingerSituation(
        1,
        Card.H5,
        (player(flowers="BJ", knocked=True), player("KhKhKh"), player("23s", takeoffs=("1111s",))),
    )
    result = score_hand(hand)
    assert result.valid
    assert result.scores == (10, 10, 40)
    assert result.net == (-60, -30, 90)  # 30×2 and 30×1 to seat 2
    assert sum(result.net) == 0
    assert not score_hand(hand, QingerOptions(exhausted_stock_settles=False)).payments


def test_item_table() -> None:
    for item_id, item in ITEMS.items():
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", item_id)
        assert item.zh and item.zh_hant and item.en
    seeds = {s for item in ITEMS.values() for s in re.findall(r"Q\d+", item.rule)}
    assert {f"Q{n}" for n in range(10, 31)} - {"Q22", "Q24"} <= seeds


def test_several_winners_on_one_discard_option() -> None:
    first = player("123s456s789s123h456h789h234c55c", flowers="BJ", knocked=True)
    second = player("JhJhJhQhQhQh123s456s789s123h456h55c", flowers="SJ")
    discarder = player("6c")
    hand = QingerSituation(
        0, Card.H5, (first, second, discarder), 0, WinType.DISCARD, Card.C5, 2, also_won=(1,)
    )
    with pytest.raises(ValueError, match="one_winner_per_discard"):
        score_hand(hand)
    result = score_hand(hand, QingerOptions(one_winner_per_discard=False))
    # seat 0: 10 + 100 + 10 (单调) + 20 (文钱) = 140
    # seat 1: two 见牌 triplets 16 → 20, 小鬼 20, 20 + 10 + 20 = 90, no 三红 (no K pair)
    assert result.scores == (140, 90, 0)
    assert "hu_pai" in ids(result.items[1]) and "dan_diao" in ids(result.items[1])
    assert result.net == (50 * 2 + 140 * 2, -50 * 2 + 90, -140 * 2 - 90)
    with pytest.raises(ValueError, match="discarder"):
        replace(hand, also_won=(2,))
    with pytest.raises(ValueError, match="only a discard"):
        replace(hand, win_type=WinType.SELF_DRAW, source=None)
