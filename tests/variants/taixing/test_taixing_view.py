"""The Taixing view's facts: the 缺门 suit a seat is dropping (T6), in that seat's own view
only, computed from its own tiles and melds; the 荒庄 multiplier (T9, TA7), in every view."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from paiju.bots import RandomBot
from paiju.components.notation import parse_tiles
from paiju.components.tiles import Tile
from paiju.engine.mahjong import END, MahjongHand
from paiju.engine.types import Meld, MeldType
from paiju.variants.taixing.options import TaixingOptions
from paiju.variants.taixing.rules import TaixingRules
from paiju.variants.taixing.scoring import dropping_suit


def counts(text: str) -> list[int]:
    out = [0] * 42
    for t in parse_tiles(text):
        out[int(t)] += 1
    return out


def pong(text: str) -> Meld:
    return Meld(MeldType.PONG, Tile(int(parse_tiles(text)[0])), source=1)


def test_the_suit_held_fewest_is_dropped() -> None:
    assert dropping_suit(counts("1234567m23456p9s1z"), []) == 2  # one 索
    assert dropping_suit(counts("1234567m2p345678s1z"), []) == 1  # one 筒


def test_a_melded_suit_is_never_the_one_dropped() -> None:
    # one 索 in hand, but a pong of 索: the fewest of the others goes
    assert dropping_suit(counts("1234m23456p9s1z"), [pong("5s")]) == 0


def test_a_tie_takes_the_first_suit_and_a_missing_suit_is_its_own_answer() -> None:
    assert dropping_suit(counts("12m12p12s1234567z"), []) == 0
    assert dropping_suit(counts("1234567m1234567p"), []) == 2
    assert dropping_suit(counts("1z"), [pong("1m"), pong("1p"), pong("1s")]) is None


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_only_the_seat_itself_is_told_and_only_from_its_own_tiles(seed: int) -> None:
    hand = MahjongHand(TaixingRules(), seed=seed)
    bots = [RandomBot(seed + s) for s in range(4)]
    for _ in range(60):
        if hand.phase == END:
            break
        for seat in range(4):
            view = hand.view(seat)
            suit = dropping_suit(hand.counts[seat], hand.melds[seat])
            assert view.get("dropping") == (None if suit is None else "mps"[suit])
            assert all("dropping" not in p for p in view["players"])
        assert "dropping" not in hand.view(None)
        seat = hand.to_act()[0]
        hand.apply(bots[seat](hand, seat), seat)


def test_every_view_says_what_the_drawn_hands_before_multiply_this_one_by() -> None:
    assert "draw_multiplier" not in MahjongHand(TaixingRules(), seed=1).view(None)
    for growth, streak, factor in (("compound", 2, 4), ("linear", 2, 3), ("compound", 1, 2)):
        rules = TaixingRules(TaixingOptions(draw_streak_growth=growth), draw_streak=streak)
        hand = MahjongHand(rules, seed=1)
        assert {hand.view(s).get("draw_multiplier") for s in (0, 1, 2, 3, None)} == {factor}
