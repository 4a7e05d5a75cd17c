"""Rule profiles: resolution of ``{"profile": ...}`` overrides and the record header."""

from __future__ import annotations

import pytest

from paiju.bots import GreedyBot
from paiju.components.notation import parse_tiles
from paiju.engine import actions as A
from paiju.engine.mahjong import MahjongHand, arrange_wall
from paiju.engine.match import Match
from paiju.engine.record import record_match, replay
from paiju.variants import VARIANTS, find_variant
from paiju.variants.base import OptionError, options_from_mapping
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.jiaxing.variant import JIAXING
from paiju.variants.profiles import PROFILES, describe, overrides, resolve


def test_every_profile_builds_valid_options() -> None:
    for profile in PROFILES.values():
        flow = VARIANTS[profile.variant]
        options = options_from_mapping(flow.options_type, dict(profile.options))
        assert describe(profile.variant, _mapping(options))["name"] == profile.name  # type: ignore[index]
        assert profile.version >= 1 and profile.zh and profile.en


def _mapping(options: object) -> dict[str, object]:
    from paiju.variants.base import options_to_mapping

    return dict(options_to_mapping(options))


def _tiles(text: str) -> list[int]:
    return [int(t) for t in parse_tiles(text)]


def _hand(values: dict[str, object], deal: list[str], tail: str = "") -> MahjongHand:
    """A Jiaxing hand under ``values`` (a profile and overrides) on an arranged wall."""
    options = options_from_mapping(JiaxingOptions, resolve("jiaxing", values))
    wall = arrange_wall([_tiles(h) for h in deal], (), _tiles(tail) if tail else ())
    return MahjongHand(JiaxingRules(options), wall=wall)


def _kong_bloom(overrides: dict[str, object]) -> MahjongHand:
    """The dealer's concealed kong of 1z and its bloom with 混儿 on (5z the indicator):
    17 a payer (门清 4, 暗杠杠上花 9, 没混儿 2, 杠开 2) and 1 kong money each."""
    deal = [
        "1111z123m456p789s5p",
        "2345m789p789s2z3z6z",
        "13579m13579p13s2z",
        "579s2344z77z8m8p8s9m",
    ]
    hand = _hand({"profile": "jiaxing-hun", **overrides}, deal, "5z5p")
    hand.apply(A.parse("an1z"), 0)
    hand.apply(A.parse("zimo"), 0)
    return hand


def test_resolve_expands_the_profile_and_keeps_overrides() -> None:
    assert resolve("jiaxing", {"profile": "jiaxing-hun", "hun_kinds": 1}) == {
        "hun": True,
        "hun_kinds": 1,
    }
    assert resolve("jiaxing", {"chi": True}) == {"chi": True}


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"profile": "nope"}, "unknown profile"),
        ({"profile": "taixing"}, "is for taixing"),
        ({"profile": 3}, "unknown profile"),
    ],
)
def test_bad_profiles_are_named(mapping: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError, match=message):
        resolve("jiaxing", mapping)


def test_describe_names_overrides() -> None:
    options = _mapping(JiaxingOptions(hun=True, hun_kinds=1))
    assert describe("jiaxing", options) == {"name": "jiaxing-hun", "version": 1}
    defaults = _mapping(JiaxingOptions())
    assert overrides("jiaxing", options, defaults) == {"hun_kinds": 1}
    assert overrides("jiaxing", defaults, defaults) == {}


def test_record_header_names_the_profile_and_replays() -> None:
    match = Match(JIAXING, JiaxingOptions(hun=True, hands=1), seed=5)
    lines = record_match(match, [GreedyBot(i) for i in range(4)], ["a", "b", "c", "d"])
    assert lines[0]["profile"] == {"name": "jiaxing-hun", "version": 1}
    assert lines[0]["options"]["hun"] is True
    assert replay(lines, find_variant).ok


def test_feng_ding_profile_caps_what_each_payer_pays_in_play() -> None:
    """封顶 (JP1) in a played hand: a concealed-kong bloom worth 17 a payer with 混儿 on
    (门清 4, 暗杠杠上花 9, 没混儿 2, 杠开 2) pays 10 each under a cap of 10; the kong money
    (1 each) is apart."""
    hand = _kong_bloom({"feng_ding": 10})
    items = {i.id: i.value for i in hand.win_results[0].items}
    assert items["feng_ding"] == 10 - 17 and sum(items.values()) == 10
    assert hand.net() == [33, -11, -11, -11]
    assert describe("jiaxing", _mapping(JiaxingOptions(feng_ding=20))) == {
        "name": "jiaxing-feng-ding-20",
        "version": 1,
    }


def test_feng_ding_is_its_own_step_after_the_doubling() -> None:
    """The explanation sums the items without the cap, then shows the cap as its own last
    step (after any floor or 连杠 doubling), so each line adds up."""
    from paiju.calculator import score

    situation = {
        "variant": "jiaxing",
        "options": {"feng_ding": 5},
        "dealer": 0,
        "winner": 1,
        "melds": [],
        "flags": [],
        "hand": "11123455678999m",
        "win_tile": "5m",
        "win_type": "discard",
        "from": 2,
    }
    status, out = score(situation)
    assert status == 0
    steps = out["explanation"]["formula"]
    assert steps[-1]["zh"] == "封顶 5：9 → 5" and steps[-1]["rule"] == "JP1"
    assert "封顶" not in steps[-2]["zh"]


def test_di_fen_multiplies_every_payment_in_play() -> None:
    """底分 (JP2) in a played hand: the same concealed-kong bloom as above, 17 a payer and
    1 kong money each, paid at 3 a point."""
    hand = _kong_bloom({"di_fen": 3})
    assert sum(i.value for i in hand.win_results[0].items) == 17
    assert hand.net() == [54 * 3, -18 * 3, -18 * 3, -18 * 3]
    with pytest.raises(OptionError, match="di_fen"):
        JiaxingOptions(di_fen=0)


def test_zi_mo_profile_offers_no_discard_win_in_play() -> None:
    """只许自摸 (JP3): seat 1's 清一色 waits on 5万 alone; the dealer's 5万 is a win for it
    with the seed's defaults and no win under the profile."""
    deal = [
        "5m2468p2468s7z3z1z2z6z",
        "1112346789995m",
        "13579p13579s1z2z3z",
        "2468p2468s4z4z5z6z6z",
    ]
    five = _tiles("5m")[0]
    for profile, offered in (("jiaxing", True), ("jiaxing-zi-mo", False)):
        hand = _hand({"profile": profile}, deal)
        assert five in hand.waits(1)
        hand.apply(five, 0)
        assert (A.HU in hand.claim_options(1, five)) is offered


def test_no_qi_dui_profile_offers_no_seven_pairs_win_in_play() -> None:
    """七小对 off (JP4): seat 1 holds six pairs and a lone 7z. With the seed's defaults it
    waits on 7z and may win the dealer's 7z (七小对 12); under ``jiaxing-no-qi-dui`` it
    waits on nothing, is not ready (shanten > 0) and is offered no win."""
    deal = [
        "9m2468p2468s7z3z1z2z6z",
        "1122m3344p5566s7z",
        "13579p13579s1z2z3z",
        "2468p2468s4z4z5z6z6z",
    ]
    seven = _tiles("7z")[0]
    for profile, offered in (("jiaxing", True), ("jiaxing-no-qi-dui", False)):
        hand = _hand({"profile": profile}, deal)
        rules = hand.rules
        assert hand.waits(1) == ([seven] if offered else [])
        key = bytes(hand.counts[1])
        assert (rules.shanten(hand, 1, key, 0) == 0) is offered
        hand.apply(seven, 0)
        assert (A.HU in hand.claim_options(1, seven)) is offered
    assert describe("jiaxing", _mapping(JiaxingOptions(qi_xiao_dui=False))) == {
        "name": "jiaxing-no-qi-dui",
        "version": 1,
    }


def test_taixing_profiles_in_play() -> None:
    """Taixing 只许自摸 (TP3), 封顶 (TP1) and 底分 (TP2) on one arranged wall: seat 1's
    清一色 (3番, no flowers: the discard floor of 3 花, 9 a payer) may take the dealer's
    5万 by default and under the cap, not under ``taixing-zi-mo``; capped at 5 and paid at
    2 a 花 it takes 10."""
    from paiju.components.notation import parse_tiles
    from paiju.engine import actions as A
    from paiju.engine.mahjong import DECLARE, MahjongHand, arrange_wall
    from paiju.variants.taixing.options import TaixingOptions
    from paiju.variants.taixing.rules import TaixingRules

    def tiles(text: str) -> list[int]:
        return [int(t) for t in parse_tiles(text)]

    deal = [
        "159p159s1234567z5m",
        "1112345678999m",
        "1248p148s2467z6p7s",
        "36p9p36s9s1234z2s5p7p",
    ]
    five = tiles("5m")[0]
    rules_tiles = TaixingRules().tiles()
    cases = (
        ({"profile": "taixing"}, True, [-9, 9, 0, 0]),
        ({"profile": "taixing-zi-mo"}, False, None),
        ({"profile": "taixing-feng-ding-50", "feng_ding": 5, "di_fen": 2}, True, [-10, 10, 0, 0]),
        ({"profile": "taixing-di-fen-2"}, True, [-18, 18, 0, 0]),
    )
    for mapping, offered, net in cases:
        from paiju.variants.taixing.options import OPTION_SPECS

        options = options_from_mapping(TaixingOptions, resolve("taixing", mapping), OPTION_SPECS)
        wall = arrange_wall([tiles(h) for h in deal], (), (), tiles=rules_tiles)
        hand = MahjongHand(TaixingRules(options), wall=wall, dealer=0, dice=(2, 5))
        while hand.phase == DECLARE:
            hand.apply(A.PASS, hand.to_act()[0])
        hand.apply(five, 0)
        assert (A.HU in hand.legal_actions(1)) is offered, mapping
        if net is not None:
            hand.apply(A.HU, 1)
            assert hand.net() == net, mapping
    with pytest.raises(OptionError, match="di_fen"):
        TaixingOptions(di_fen=0)


def test_taixing_no_qi_dui_profile_in_play() -> None:
    """七对 off (TP4): seat 1's six pairs of 万 and a lone 9万 wait on 9万 (七对 + 清一色)
    by default; under ``taixing-no-qi-dui`` they wait on nothing and no win is offered."""
    from paiju.components.notation import parse_tiles
    from paiju.engine import actions as A
    from paiju.engine.mahjong import DECLARE, MahjongHand, arrange_wall
    from paiju.variants.taixing.options import TaixingOptions
    from paiju.variants.taixing.rules import TaixingRules

    def tiles(text: str) -> list[int]:
        return [int(t) for t in parse_tiles(text)]

    deal = [
        "159p159s1234567z9m",
        "1122m4455m7788m9m",
        "1248p148s2467z6p7s",
        "36p9p36s9s1234z2s5p7p",
    ]
    nine = tiles("9m")[0]
    for profile, offered in (("taixing", True), ("taixing-no-qi-dui", False)):
        options = options_from_mapping(TaixingOptions, resolve("taixing", {"profile": profile}))
        rules = TaixingRules(options)
        wall = arrange_wall([tiles(h) for h in deal], (), (), tiles=rules.tiles())
        hand = MahjongHand(rules, wall=wall, dealer=0, dice=(2, 5))
        while hand.phase == DECLARE:
            hand.apply(A.PASS, hand.to_act()[0])
        assert hand.waits(1) == ([nine] if offered else [])
        assert (rules.shanten(hand, 1, bytes(hand.counts[1][:34]), 0) == 0) is offered
        hand.apply(nine, 0)
        assert (A.HU in hand.legal_actions(1)) is offered


def test_qinger_profiles_in_play() -> None:
    """Qing'er 只许自摸 (QP3) and 封顶 (QP1) on an arranged deck: seat 1 may win the
    dealer's ♠6 by default, not under ``qinger-zi-mo``; under a cap of 30 every pair pays
    at most 30."""
    from paiju.components.cards import Card
    from paiju.components.notation import parse_cards
    from paiju.variants.qinger import hand as Q
    from paiju.variants.qinger.hand import QingerHand, arrange_deck
    from paiju.variants.qinger.options import OPTION_SPECS, QingerOptions

    def cards(text: str) -> list[int]:
        return [int(c) for c in parse_cards(text)]

    dealer = "1122336s 112233h 112233c JJQQh"
    waits = "4599s 123456789h 123456789c"
    results = {}
    for mapping in ({}, {"profile": "qinger-zi-mo"}, {"feng_ding": 30}):
        options = options_from_mapping(QingerOptions, resolve("qinger", mapping), OPTION_SPECS)
        deck = arrange_deck([cards(dealer), cards(waits), cards(waits)], int(Card.H5))
        hand = QingerHand(options, seed=0, dealer=0, decks=[deck])
        for action in (Q.KNOCK, Q.PASS, Q.PASS, Q.DISCARD + Card.S6):
            hand.apply(action)
        offered = Q.HU in hand.legal_actions(1)
        results[str(mapping)] = offered
        if offered:
            hand.apply(Q.HU, 1)
            hand.apply(Q.PASS, 2)
            assert hand.winners == [1] and hand.result is not None
            amounts = [p.amount for p in hand.result.payments]
            # the same hand pays more than 30 in some pair without the cap
            assert (max(amounts) <= 30) is bool(options.feng_ding)
    assert results == {"{}": True, "{'profile': 'qinger-zi-mo'}": False, "{'feng_ding': 30}": True}
