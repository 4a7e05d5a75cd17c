"""Unit tests of Taixing scoring: options, the item table, flowers, shapes, settlement."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.components.notation import parse_tile, parse_tiles
from paiju.components.tiles import FLOWER_TILES, N_PLAYING_KINDS, Tile
from paiju.engine.types import MahjongWin, Meld, MeldType, WinType, net
from paiju.variants.base import OptionError, options_from_mapping
from paiju.variants.taixing import (
    TaixingOptions,
    flower_count,
    is_winning,
    is_winning_shape,
    meets_minimum,
    score_win,
)
from paiju.variants.taixing.items import BY_ID, FAN_ORDER, ITEMS
from paiju.variants.taixing.scoring import feeder, meld_flowers, streak_factor

DEFAULT = TaixingOptions()


def counts(text: str) -> tuple[int, ...]:
    out = [0] * N_PLAYING_KINDS
    for t in parse_tiles(text):
        out[t] += 1
    return tuple(out)


def meld(kind: str, tiles: str, source: int | None = None) -> Meld:
    return Meld(MeldType(kind), parse_tiles(tiles)[0], source)


def win(
    hand: str,
    win_tile: str,
    *,
    melds: Sequence[Meld] = (),
    flowers: str = "",
    win_type: WinType = WinType.SELF_DRAW,
    source: int | None = None,
    winner: int = 1,
    flags: frozenset[str] = frozenset(),
    draw_streak: int = 0,
    leopard: bool = False,
) -> MahjongWin:
    return MahjongWin(
        dealer=0,
        winner=winner,
        concealed=counts(hand),
        melds=tuple(melds),
        win_tile=parse_tile(win_tile),
        win_type=win_type,
        source=source,
        flags=flags,
        flowers=tuple(parse_tiles(flowers)),
        draw_streak=draw_streak,
        leopard=leopard,
    )


# -- options and table ---------------------------------------------------------------------


def test_defaults_follow_decisions() -> None:
    o = DEFAULT
    assert (o.flower_base, o.floor_self_draw, o.floor_discard, o.floor_kong_replacement) == (
        "floor",
        2,
        3,
        3,
    )
    assert o.max_winners_per_discard is None  # TA8: no cap
    assert (o.min_flowers_self_draw, o.min_flowers_discard) == (2, 3)
    assert o.threshold_flowers == "all"  # TA2(a)
    assert (o.feng_an_ke_flowers, o.feng_bu_gang_flowers) == (1, 2)  # TA3(a)
    assert o.dragons_are_feng  # TA4(a)
    assert o.tian_ting == "ready_at_deal"  # TA5(a)
    assert o.gang_kai == "fan_and_floor"  # TA6(a)
    assert o.draw_streak_growth == "compound"  # TA7(a)
    assert o.dealer_rotates_on_draw  # TA9(a)
    assert o.wall_break == "standard"  # TA10(a)
    assert (o.bao_pai, o.bao_pai_threshold) == (True, 3)  # TA11
    assert not o.feng_yi_se_needs_shape  # TA12(a)
    assert o.shapes == "any_mix"  # TA13(a)
    assert o.qi_dui_quad and o.da_diao_che_self_draw  # TA14
    assert o.qiang_gang_payer == "robbed"  # TA15
    assert o.rounds == 4


def test_options_from_json() -> None:
    o = options_from_mapping(
        TaixingOptions,
        {"max_winners_per_discard": 2, "shapes": "seed_abc", "dragons_are_feng": False},
    )
    assert (o.max_winners_per_discard, o.shapes, o.dragons_are_feng) == (2, "seed_abc", False)
    with pytest.raises(OptionError, match="shapes"):
        options_from_mapping(TaixingOptions, {"shapes": "abc"})
    with pytest.raises(OptionError, match="rounds"):
        options_from_mapping(TaixingOptions, {"rounds": 5})
    with pytest.raises(OptionError, match="floor_discard"):
        options_from_mapping(TaixingOptions, {"floor_discard": -1})


def test_every_option_field_is_documented_with_its_item() -> None:
    import ast
    import inspect

    from paiju.variants.taixing import options as module

    tree = ast.parse(inspect.getsource(module))
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef))
    docs: dict[str, str] = {}
    body = cls.body
    for node, nxt in itertools.pairwise(body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(nxt, ast.Expr)
            and isinstance(nxt.value, ast.Constant)
        ):
            docs[node.target.id] = str(nxt.value.value)
    names = {f.name for f in dataclasses.fields(TaixingOptions)}
    assert set(docs) == names
    small_hand_minimums = {"min_flowers_self_draw", "min_flowers_discard"}
    for name, doc in docs.items():
        if name not in small_hand_minimums:
            assert "TA" in doc or "T" in doc.split(".")[0], name


def test_item_table() -> None:
    ids = [i.id for i in ITEMS]
    assert len(ids) == len(set(ids))
    fan = {i.id: i.value for i in ITEMS if i.kind == "fan"}
    assert fan == {
        "xiao_hu": 1,
        "hun_yi_se": 2,
        "yi_tiao_long": 3,
        "dui_dui_hu": 3,
        "qi_dui": 3,
        "qing_yi_se": 3,
        "da_diao_che": 3,
        "feng_yi_se": 8,
        "hua_hu": 8,
        "tian_ting": 8,
        "gang_kai": 8,
        "qiang_gang": 8,
    }
    assert tuple(fan) == FAN_ORDER
    flowers = {i.id: i.value for i in ITEMS if i.kind == "flower"}
    assert {k: flowers[k] for k in ("feng_peng", "ming_gang", "an_gang", "feng_gang")} == {
        "feng_peng": 1,
        "ming_gang": 1,
        "an_gang": 2,
        "feng_gang": 2,
    }
    assert flowers["feng_an_gang"] == 3
    for item in ITEMS:
        assert item.id.isascii() and item.id == item.id.lower()
        assert item.zh and item.zh_hant and item.en
        assert item.rule.startswith("T")


# -- flowers (T11, TA2, TA3, TA4) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "tiles", "expected"),
    [
        ("pong", "555m", None),
        ("pong", "111z", ("feng_peng", 1)),
        ("pong", "555z", ("feng_peng", 1)),
        ("kong", "5555m", ("ming_gang", 1)),
        ("added_kong", "5555m", ("ming_gang", 1)),
        ("concealed_kong", "5555m", ("an_gang", 2)),
        ("kong", "4444z", ("feng_gang", 2)),
        ("added_kong", "4444z", ("feng_bu_gang", 2)),
        ("concealed_kong", "6666z", ("feng_an_gang", 3)),
    ],
)
def test_meld_flowers(kind: str, tiles: str, expected: tuple[str, int] | None) -> None:
    source = None if kind == "concealed_kong" else 2
    assert meld_flowers(meld(kind, tiles, source), DEFAULT) == expected


def test_ta3_b_and_ta4_b() -> None:
    ta3b = TaixingOptions(feng_an_ke_flowers=2, feng_bu_gang_flowers=1)
    assert meld_flowers(meld("added_kong", "1111z", 2), ta3b) == ("feng_bu_gang", 1)
    no_dragons = TaixingOptions(dragons_are_feng=False)
    assert meld_flowers(meld("pong", "555z", 2), no_dragons) is None
    assert meld_flowers(meld("kong", "6666z", 2), no_dragons) == ("ming_gang", 1)
    assert meld_flowers(meld("concealed_kong", "7777z", None), no_dragons) == ("an_gang", 2)
    assert meld_flowers(meld("pong", "444z", 2), no_dragons) == ("feng_peng", 1)
    w = win("123m456m999p11z555z", "1z", flowers="1f")
    assert flower_count(w, DEFAULT) == 2
    assert flower_count(w, ta3b) == 3
    assert flower_count(w, no_dragons) == 1


def test_concealed_triplet_finished_by_a_discard_is_a_pong() -> None:
    ta3b = TaixingOptions(feng_an_ke_flowers=2)
    drawn = win("123m456m999p11z555z", "5z", flowers="1f2f")
    dealt_in = dataclasses.replace(drawn, win_type=WinType.DISCARD, source=3)
    assert flower_count(drawn, ta3b) == 4
    assert flower_count(dealt_in, ta3b) == 3
    assert score_win(dealt_in, ta3b).extra["flower_sources"] == {"hua_pai": 2, "feng_peng": 1}


def test_flower_count_of_seven_pairs_counts_no_triplets() -> None:
    w = win("1111z22z33z55m66m77m", "7m", flowers="1f2f")
    assert flower_count(w, DEFAULT) == 2


def test_meets_minimum() -> None:
    small = win("123m456m789p234p11z", "4p", flowers="1f")
    assert not meets_minimum(small, DEFAULT)
    assert meets_minimum(dataclasses.replace(small, flowers=tuple(FLOWER_TILES[:2])), DEFAULT)
    on_discard = dataclasses.replace(
        small, flowers=tuple(FLOWER_TILES[:2]), win_type=WinType.DISCARD, source=2
    )
    assert not meets_minimum(on_discard, DEFAULT)
    assert meets_minimum(on_discard, TaixingOptions(min_flowers_discard=2))
    big = win("123456789m11z222z", "2z")
    assert meets_minimum(big, DEFAULT)
    with_kong = win("123m456m234p11z", "1z", melds=[meld("kong", "9999m", 2)], flowers="1f")
    assert meets_minimum(with_kong, DEFAULT)
    assert not meets_minimum(with_kong, TaixingOptions(threshold_flowers="tiles_only"))


# -- shapes (T6, T20, TA12, TA13, TA14) ---------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "melds", "flowers", "expected"),
    [
        ("123m456m789p234p11z", [], "", True),
        ("123m456p789s234p11z", [], "", False),  # all three suits
        ("147m258p369s12345z", [], "12345678f", True),  # 花胡
        ("147m258p369s12345z", [], "1234567f", False),
        ("1112223456667z7z", [], "", True),  # 风一色, no shape
        ("11223344m556677p", [], "", True),  # 七对
        (
            "123p44p",
            [meld("pong", "222m", 2), meld("pong", "555m", 2), meld("pong", "888p", 2)],
            "",
            True,
        ),
        (
            "123p45p",
            [meld("pong", "222m", 2), meld("pong", "555m", 2), meld("pong", "888p", 2)],
            "",
            False,
        ),
    ],
)
def test_is_winning_shape(hand: str, melds: list[Meld], flowers: str, expected: bool) -> None:
    tiles = tuple(parse_tiles(flowers))
    assert is_winning_shape(counts(hand), melds, tiles, DEFAULT) is expected


def test_shape_options() -> None:
    all_honours = counts("1112223456667z7z")
    assert not is_winning_shape(all_honours, [], (), TaixingOptions(feng_yi_se_needs_shape=True))
    mixed = counts("123m456m777p999p11z")
    assert is_winning_shape(mixed, [], (), DEFAULT)
    assert not is_winning_shape(mixed, [], (), TaixingOptions(shapes="seed_abc"))
    for shape in ("123m456m789m234p11z", "123m456m789m222p11z", "111m444m777m222p11z"):
        assert is_winning_shape(counts(shape), [], (), TaixingOptions(shapes="seed_abc")), shape


# -- settlement (T9, T10, T24, T25, TA7, TA8) -----------------------------------------------


def test_streak_factor() -> None:
    assert [streak_factor(n, DEFAULT) for n in range(5)] == [1, 2, 4, 8, 16]
    linear = TaixingOptions(draw_streak_growth="linear")
    assert [streak_factor(n, linear) for n in range(5)] == [1, 2, 3, 4, 5]


def test_feeder_needs_three_sets_from_one_seat() -> None:
    two = [meld("pong", "222m", 2), meld("kong", "5555m", 2), meld("pong", "888p", 3)]
    w = win("123p44p", "4p", melds=two, flowers="1f2f")
    assert feeder(w, DEFAULT) is None
    assert feeder(w, TaixingOptions(bao_pai_threshold=2)) == 2
    three = [*two[:2], meld("added_kong", "8888p", 2)]
    assert feeder(dataclasses.replace(w, melds=tuple(three)), DEFAULT) == 2
    concealed = [*two[:2], meld("concealed_kong", "8888p")]
    assert feeder(dataclasses.replace(w, melds=tuple(concealed)), DEFAULT) is None


def test_two_winners_on_one_discard_are_each_paid_by_the_discarder() -> None:
    """TA8 (有炮两响): the engine scores each winner alone; the discarder pays both."""
    a = win("123m456m789p234p11z", "1z", flowers="1f2f3f", win_type=WinType.DISCARD, source=3)
    b = win(
        "123s456s789s11z222z",
        "1z",
        winner=2,
        win_type=WinType.DISCARD,
        source=3,
        flags=frozenset({"multiple_winners"}),
    )
    ra, rb = score_win(a, DEFAULT), score_win(b, DEFAULT)
    assert ra.valid and rb.valid
    total = [x + y for x, y in zip(net(ra.payments, 4), net(rb.payments, 4), strict=True)]
    # a: 小胡 with 3 flowers = 3; b: 混一色 2 + 一条龙 3 with one 风暗刻 floored to 3 = 15
    assert total == [0, 3, 15, -18]


def test_per_payer_and_extra() -> None:
    w = win(
        "11122255588899s", "9s", flowers="1f2f", win_type=WinType.DISCARD, source=2, leopard=True
    )
    r = score_win(w, DEFAULT)
    assert r.per_payer == 36
    assert r.extra["fan"] == 6 and r.extra["flowers"] == 2 and r.extra["base"] == 3
    assert [p.reason for p in r.payments] == ["fang_pao"]
    assert r.kong_payments == ()


def test_invalid_results_carry_both_languages() -> None:
    r = score_win(win("123m456m789p234p1z", "1z", flowers="1f2f"), DEFAULT)
    assert not r.valid and "牌数" in r.reason_zh and "tile count" in r.reason_en
    r = score_win(win("123m456p789s234p11z", "1z", flowers="1f2f"), DEFAULT)
    assert (r.reason_zh, r.reason_en) == ("未缺门", "hand does not lack a suit")


# -- property: every settlement sums to zero ----------------------------------------------

_SUIT_STARTS = (0, 9, 18)


@st.composite
def situations(draw: st.DrawFn) -> tuple[MahjongWin, TaixingOptions]:
    suits = draw(st.sets(st.sampled_from(_SUIT_STARTS), min_size=0, max_size=3))
    kinds = [s + r for s in sorted(suits) for r in range(9)] + list(range(27, 34))
    total = [0] * N_PLAYING_KINDS
    blocks: list[tuple[str, int]] = []
    while len(blocks) < 4:
        start = draw(st.sampled_from(kinds))
        run = start < 27 and start % 9 <= 6 and draw(st.booleans())
        need = [start, start + 1, start + 2] if run else [start] * 3
        if all(total[k] + need.count(k) <= 4 for k in need):
            for k in need:
                total[k] += 1
            blocks.append(("run" if run else "triplet", start))
    pair = draw(st.sampled_from([k for k in kinds if total[k] <= 2]))
    winner = draw(st.integers(0, 3))
    others = [s for s in range(4) if s != winner]
    concealed = [0] * N_PLAYING_KINDS
    concealed[pair] += 2
    melds: list[Meld] = []
    for shape, start in blocks:
        if shape == "triplet" and draw(st.booleans()):
            mtype = draw(st.sampled_from(list(MeldType)))
            if mtype.is_kong and total[start] != 3:
                mtype = MeldType.PONG
            source = None if mtype is MeldType.CONCEALED_KONG else draw(st.sampled_from(others))
            melds.append(Meld(mtype, Tile(start), source))
        elif shape == "run":
            for k in (start, start + 1, start + 2):
                concealed[k] += 1
        else:
            concealed[start] += 3
    win_tile = Tile(draw(st.sampled_from([k for k in range(N_PLAYING_KINDS) if concealed[k]])))
    win_type = draw(st.sampled_from(list(WinType)))
    flags = set(draw(st.sets(st.sampled_from(["ready_at_deal", "heavenly", "multiple_winners"]))))
    if win_type is WinType.SELF_DRAW and any(m.is_kong for m in melds) and draw(st.booleans()):
        flags.add("kong_replacement")
    situation = MahjongWin(
        dealer=draw(st.integers(0, 3)),
        winner=winner,
        concealed=tuple(concealed),
        melds=tuple(melds),
        win_tile=win_tile,
        win_type=win_type,
        source=None if win_type is WinType.SELF_DRAW else draw(st.sampled_from(others)),
        flags=frozenset(flags),
        flowers=tuple(draw(st.sets(st.sampled_from(FLOWER_TILES)))),
        draw_streak=draw(st.integers(0, 4)),
        leopard=draw(st.booleans()),
    )
    options = TaixingOptions(
        flower_base=draw(st.sampled_from(["floor", "plus_one"])),
        qiang_gang_payer=draw(st.sampled_from(["robbed", "all_three"])),
        bao_pai_threshold=draw(st.integers(1, 4)),
        draw_streak_growth=draw(st.sampled_from(["compound", "linear"])),
        gang_kai=draw(st.sampled_from(["fan_and_floor", "floor_only"])),
    )
    return situation, options


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(situations())
def test_payments_sum_to_zero(case: tuple[MahjongWin, TaixingOptions]) -> None:
    w, options = case
    r = score_win(w, options)
    assert is_winning(w, options) is r.valid
    if not r.valid:
        assert r.reason_zh and r.reason_en
        return
    nets = net(r.payments, 4)
    assert sum(nets) == 0
    assert all(p.payee == w.winner and p.payer != w.winner and p.amount > 0 for p in r.payments)
    shares = (
        3
        if w.self_drawn
        or (w.win_type is WinType.ROBBED_KONG and options.qiang_gang_payer == "all_three")
        else 1
    )
    assert nets[w.winner] == r.per_payer * shares
    fan = sum(i.value for i in r.items if BY_ID[i.id].kind == "fan")
    assert r.per_payer % fan == 0
    assert r.per_payer >= fan * (2 if w.self_drawn else 3)
