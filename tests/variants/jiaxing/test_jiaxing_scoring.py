"""Jiaxing settlement functions used directly by the engine: kong money, 连杠, 封胡,
全求人反冲, 钓鱼, options and the item table."""

from __future__ import annotations

import dataclasses

import pytest

from paiju.components.notation import parse_tile, parse_tiles, tile_counts
from paiju.components.tiles import N_PLAYING_KINDS, Tile
from paiju.engine.types import MahjongWin, Meld, MeldType, Payment, WinType, net
from paiju.variants.base import OptionError
from paiju.variants.jiaxing import (
    JiaxingOptions,
    fan_chong,
    fishing,
    is_winning,
    kong_money,
    liable_feeder,
    lian_gang_payer,
    melds_kong_money,
    score_win,
    sealed_seats,
)
from paiju.variants.jiaxing.items import ITEMS
from paiju.variants.situation import InputError, options_field

OPTS = JiaxingOptions()


def pong(tile: str, source: int) -> Meld:
    return Meld(MeldType.PONG, parse_tile(tile), source)


def kong(tile: str, source: int) -> Meld:
    return Meld(MeldType.KONG, parse_tile(tile), source)


def added(tile: str, source: int) -> Meld:
    return Meld(MeldType.ADDED_KONG, parse_tile(tile), source)


def concealed(tile: str) -> Meld:
    return Meld(MeldType.CONCEALED_KONG, parse_tile(tile))


def make_win(
    hand: str,
    win_tile: str,
    win_type: WinType = WinType.SELF_DRAW,
    *,
    melds: tuple[Meld, ...] = (),
    winner: int = 1,
    source: int | None = None,
    flags: frozenset[str] = frozenset(),
    kong_chain: int = 1,
) -> MahjongWin:
    counts = tile_counts(parse_tiles(hand), check=False)[:N_PLAYING_KINDS]
    return MahjongWin(
        dealer=0,
        winner=winner,
        concealed=tuple(counts),
        melds=melds,
        win_tile=parse_tile(win_tile),
        win_type=win_type,
        source=source,
        flags=flags,
        kong_chain=kong_chain,
    )


# -- kong money (J2, J27, J29) ------------------------------------------------------------


def test_exposed_kong_is_paid_by_its_feeder() -> None:
    assert kong_money(kong("1m", 3), 1, OPTS) == [Payment(3, 1, 1, "gang")]


def test_added_kong_is_paid_by_the_pong_feeder() -> None:
    assert kong_money(added("1m", 2), 0, OPTS) == [Payment(2, 0, 1, "gang")]


def test_concealed_kong_is_paid_by_each_other_seat() -> None:
    assert kong_money(concealed("1m"), 2, OPTS) == [
        Payment(0, 2, 1, "gang"),
        Payment(1, 2, 1, "gang"),
        Payment(3, 2, 1, "gang"),
    ]


def test_chain_payer_pays_a_concealed_kong_in_full() -> None:
    assert kong_money(concealed("1m"), 2, OPTS, chain_payer=0) == [Payment(0, 2, 3, "gang")]


def test_chain_payer_is_ignored_without_lian_gang() -> None:
    opts = JiaxingOptions(lian_gang=False)
    assert kong_money(added("1m", 3), 2, opts, chain_payer=0) == [Payment(3, 2, 1, "gang")]


def test_pong_pays_no_kong_money() -> None:
    with pytest.raises(ValueError, match="kongs only"):
        kong_money(pong("1m", 3), 1, OPTS)


def test_exposed_kong_needs_another_feeder() -> None:
    with pytest.raises(ValueError, match="feeder"):
        kong_money(Meld(MeldType.KONG, Tile.M1, None), 1, OPTS)
    with pytest.raises(ValueError, match="own"):
        kong_money(concealed("1m"), 1, OPTS, chain_payer=1)


def test_lian_gang_payer_starts_at_the_first_exposed_kong() -> None:
    assert lian_gang_payer([concealed("1z")]) is None
    assert lian_gang_payer([concealed("1z"), added("2m", 0)]) == 0
    assert lian_gang_payer([added("2m", 0), added("3m", 2), concealed("4p")]) == 0


@pytest.mark.parametrize(
    ("melds", "chain", "konger_gets", "first_feeder_pays"),
    [
        # the seed's four worked cases (J29); the first feeder is seat 0, winner seat 1
        ((added("1m", 0), added("2m", 2), added("3m", 3)), 3, 3, 3),
        ((added("1m", 0), concealed("2p"), concealed("3s")), 3, 7, 7),
        ((concealed("1z"), added("2m", 0), added("3m", 2), concealed("4p")), 3, 8, 5),
        ((concealed("1z"), added("2m", 0), added("3m", 2)), 3, 5, 2),
    ],
)
def test_seed_chain_cases(
    melds: tuple[Meld, ...], chain: int, konger_gets: int, first_feeder_pays: int
) -> None:
    payments = melds_kong_money(melds, 1, OPTS, kong_chain=chain)
    ledger = net(payments, 4)
    assert ledger[1] == konger_gets
    # a leading 暗杠 (cases 3 and 4) stands alone and costs seat 0 its ordinary 1 as well
    leading = 1 if melds[0].type is MeldType.CONCEALED_KONG else 0
    assert -ledger[0] == first_feeder_pays + leading
    assert sum(ledger) == 0


def test_the_engine_can_pay_a_chain_kong_by_kong() -> None:
    """Kong by kong with lian_gang_payer over the chain so far equals the melds' replay."""
    melds = (concealed("1z"), added("2m", 0), added("3m", 2), concealed("4p"))
    live: list[Payment] = []
    for i, meld in enumerate(melds):
        live += kong_money(meld, 1, OPTS, chain_payer=lian_gang_payer(melds[: i + 1]))
    assert live == melds_kong_money(melds, 1, OPTS, kong_chain=4)


# -- 封胡 and 包胡 (J17, J21, J31) -----------------------------------------------------------


def test_sealed_seats_counts_fed_sets_per_opponent() -> None:
    melds_by_seat = [
        [],
        [pong("1m", 0), added("2p", 0), pong("3s", 0)],  # seat 0 fed seat 1 three sets
        [pong("4m", 3), pong("5m", 3), concealed("6m")],  # 暗杠 does not count
        [pong("7m", 2)],
    ]
    assert sealed_seats(melds_by_seat, OPTS) == frozenset({0})
    assert sealed_seats(melds_by_seat, JiaxingOptions(feng_hu_threshold=2)) == frozenset({0, 3})
    assert sealed_seats(melds_by_seat, JiaxingOptions(feng_hu=False)) == frozenset()


def test_liable_feeder() -> None:
    assert liable_feeder([pong("1m", 0), pong("2m", 0), pong("3m", 0)], OPTS) == 0
    assert liable_feeder([pong("1m", 0), pong("2m", 0), pong("3m", 2)], OPTS) is None
    low = JiaxingOptions(feng_hu_threshold=2)
    melds = [pong("1m", 2), pong("2m", 0), pong("3m", 0), pong("4m", 2)]
    assert liable_feeder(melds, low) == 2  # a tie goes to the seat that fed first
    assert liable_feeder(melds[:3], low) == 0
    assert liable_feeder(melds, JiaxingOptions(feng_hu=False)) is None


def test_feng_hu_on_self_draw_feeder_pays_three_shares() -> None:
    win = make_win("456m55z", "4m", melds=(pong("1m", 0), pong("2p", 0), pong("3s", 0)))
    result = score_win(win, OPTS)
    assert result.per_payer == 3
    assert result.payments == (Payment(0, 1, 3, "zi_mo"), Payment(0, 1, 6, "feng_hu"))


# -- 全求人反冲 (J30) ---------------------------------------------------------------------


def test_fan_chong() -> None:
    assert fan_chong(2, 1, OPTS) == [Payment(2, 1, 9, "quan_qiu_ren_fan_chong")]
    assert fan_chong(2, 1, JiaxingOptions(quan_qiu_ren_fan_chong=0)) == []


# -- 钓鱼 (J32) ----------------------------------------------------------------------------


def test_fishing_seed_example() -> None:
    """The seed's tail 7条 红中 5万: counted from the fisher as 1 in turn order."""
    tail = parse_tiles("7s5z5m")
    payments, hits = fishing(tail, 0, {0: 10, 2: 6}, OPTS)
    assert hits == [2, 0, 0]  # 7 → two seats on from the fisher's 1, 5 → back to the fisher
    # seat 2 hit once (6 each, seat 2 itself pays too); the fisher hit twice (2 × 10 each)
    assert net(payments, 4) == [3 * 6 + 3 * 20, -26, -26, -26]
    assert all(p.payee == 0 and p.reason == "diao_yu" for p in payments)


def test_fishing_hits_only_winners() -> None:
    payments, hits = fishing(parse_tiles("2m3m4m"), 1, {0: 5}, OPTS)
    assert hits == [2, 3, 0]
    assert net(payments, 4) == [-5, 15, -5, -5]


def test_fishing_three_hits_on_one_winner() -> None:
    payments, hits = fishing(parse_tiles("1m5p9s"), 3, {3: 4}, OPTS)
    assert hits == [3, 3, 3]
    assert net(payments, 4) == [-12, -12, -12, 36]


def test_fishing_honours_count_east_1_to_white_7() -> None:
    _, hits = fishing(parse_tiles("1234567z"), 0, {}, JiaxingOptions(fishing_tiles=7))
    assert hits == [0, 1, 2, 3, 0, 1, 2]


def test_fishing_with_fewer_tiles_left_and_when_off() -> None:
    payments, hits = fishing(parse_tiles("6z"), 2, {3: 7}, OPTS)
    assert hits == [3]
    assert net(payments, 4) == [-7, -7, 21, -7]
    assert fishing(parse_tiles("1m1m1m"), 0, {0: 5}, JiaxingOptions(fishing=False)) == ([], [])
    assert fishing(parse_tiles("1m2m3m4m"), 0, {}, OPTS)[1] == [0, 1, 2]


# -- score_win directly -------------------------------------------------------------------


def test_score_win_reports_the_per_payer_value_and_how_it_counts() -> None:
    win = make_win(
        "345s678s55z",
        "5z",
        melds=(pong("1m", 2), kong("2p", 3)),
        flags=frozenset({"kong_replacement"}),
    )
    result = score_win(win, OPTS)
    assert result.valid
    assert result.per_payer == 18
    assert result.extra == {"counts_as": "discard", "payer": 3}
    assert [i.id for i in result.items] == ["gang_shang_hua_ming"]
    assert result.kong_payments == (Payment(3, 1, 1, "gang"),)


@pytest.mark.parametrize(
    ("hand", "melds", "zh"),
    [
        ("123m456p789s234s56z", (), "未成牌"),
        ("123m456p789s234s5z", (), "相公"),
        ("123m456p789s555z", (pong("1m", 2),), "相公"),
    ],
)
def test_score_win_invalid(hand: str, melds: tuple[Meld, ...], zh: str) -> None:
    win = make_win(hand, "5z", melds=melds)
    result = score_win(win, OPTS)
    assert not result.valid
    assert zh in result.reason_zh
    assert result.reason_en
    assert not is_winning(win, OPTS)


def test_is_winning_agrees_with_score_win() -> None:
    hands = ["1133m2255p4477s11z", "1111m3355p4477s11z", "123m456p789s234s55z", "11122233344455m"]
    for option in ("da_qi_dui", "qi_xiao_dui", "not_allowed"):
        opts = JiaxingOptions(quad_in_seven_pairs=option)
        for hand in hands:
            win = make_win(hand, str(parse_tiles(hand)[0]))
            assert is_winning(win, opts) == score_win(win, opts).valid


def test_best_reading_is_chosen() -> None:
    win = make_win("11122233344455m", "4m")
    result = score_win(win, OPTS)
    assert {i.id for i in result.items} == {"qing_yi_se", "peng_peng_hu", "men_qing"}
    assert result.per_payer == 16


# -- options and items --------------------------------------------------------------------


def test_options_defaults_follow_decisions() -> None:
    assert OPTS.chi is False
    assert OPTS.ting_declaration is False
    assert OPTS.max_winners_per_discard is None
    assert OPTS.hands is None
    assert OPTS.rounds == 4  # JA22: four wind rounds
    assert OPTS.floor_winners == 3  # J18 一炮三响
    assert OPTS.feng_hu_other_discard == "lv_you"
    assert OPTS.feng_hu_self_draw == "feeder_pays_all"
    assert OPTS.quan_qiu_ren == "flat"
    assert OPTS.floor == 5


def test_options_from_json() -> None:
    opts = options_field(
        {"options": {"chi": True, "max_winners_per_discard": 2, "hands": None, "rounds": 4}},
        JiaxingOptions,
    )
    assert opts == JiaxingOptions(chi=True, max_winners_per_discard=2, rounds=4)
    with pytest.raises(InputError, match="options"):
        options_field({"options": {"qiang_gang": "maybe"}}, JiaxingOptions)
    with pytest.raises(InputError, match="rounds"):
        options_field({"options": {"rounds": 0}}, JiaxingOptions)


@pytest.mark.parametrize(
    "bad",
    [
        {"fishing_tiles": -1},
        {"feng_hu_threshold": 0},
        {"hands": 0},
        {"max_winners_per_discard": 0},
        {"floor": -5},
    ],
)
def test_option_ranges(bad: dict[str, int]) -> None:
    with pytest.raises(OptionError):
        JiaxingOptions(**bad)  # type: ignore[arg-type]


def test_every_option_is_documented_in_the_rule_book() -> None:
    from pathlib import Path

    book = (Path(__file__).parents[3] / "docs" / "rules" / "jiaxing.md").read_text("utf-8")
    for f in dataclasses.fields(JiaxingOptions):
        assert f"`{f.name}`" in book, f.name
    for item_id in ITEMS:
        assert f"`{item_id}`" in book, item_id
    for n in range(33):
        assert f"| J{n} " in book, f"J{n}"
    for n in range(1, 23):
        assert f"| JA{n} " in book, f"JA{n}"


def test_item_table() -> None:
    for item_id, entry in ITEMS.items():
        assert entry.id == item_id
        assert item_id.isascii() and item_id == item_id.lower()
        assert entry.zh and entry.zh_hant and entry.en and entry.rule.startswith("J")
    assert ITEMS["qi_xiao_dui"].value == 12 and ITEMS["qi_xiao_dui"].alt_value == 8
    assert ITEMS["da_qi_dui"].zh_hant == "大七對"
