"""Greedy's candidate values: its own measure read as a chance to win and expected points."""

from __future__ import annotations

from typing import Any

import pytest

from paiju.bots import make_bot
from paiju.bots.greedy import greedy_bot
from paiju.bots.greedy_values import TYPICAL_STEP, GreedyJudge, win_chance
from paiju.engine import actions as A
from paiju.engine.match import Match, play_hand
from paiju.variants import VARIANTS
from paiju.variants.qinger import hand as Q


def test_the_chance_grows_with_width_and_falls_with_distance() -> None:
    typical = TYPICAL_STEP["mahjong"]
    assert win_chance(0.2, 1, 20, typical, 4) > win_chance(0.1, 1, 20, typical, 4) > 0
    assert win_chance(0.2, 1, 20, typical, 4) > win_chance(0.2, 2, 20, typical, 4)
    # no improving tile, or fewer draws than steps: no chance
    assert win_chance(0.0, 0, 20, typical, 4) == 0.0
    assert win_chance(0.5, 3, 3, typical, 4) == 0.0
    assert 0 < win_chance(1.0, 0, 1, typical, 4) < 1


class Judging:
    """Plays greedy at every seat through a judge, checking each evaluation as it goes."""

    def __init__(self, variant: str, seed: int) -> None:
        # the greedy level a table plays is the judge review reads
        judge = make_bot("greedy", seed, variant)
        assert isinstance(judge, GreedyJudge)
        self.judge = judge
        self.twin = greedy_bot(variant, seed)
        self.valued = 0
        self.phases: set[str] = set()
        self.wins: list[float] = []

    def __call__(self, hand: Any, seat: int) -> int:
        legal = hand.legal_actions(seat)
        ev = self.judge.evaluate(hand, seat)
        # the choice is the greedy bot's own (the same seed decides the same)
        assert ev.choice == self.twin(hand, seat)
        if len(legal) > 1:
            # every candidate of every decision, Qing'er's knocks and takeoffs included
            assert set(ev.values) == set(legal), (hand.phase, legal, sorted(ev.values))
            self.valued += 1
            self.phases.add(str(hand.phase))
            assert ev.choice in ev.ties
            for v in ev.values.values():
                assert v.points is not None and v.win is not None and 0 <= v.win <= 1
            for a in ev.ties:
                assert ev.points(a) == pytest.approx(ev.points(ev.choice))
            for win in (A.ZIMO, A.HU):
                if win in ev.values and hasattr(hand, "wall_left"):
                    self.wins.append(ev.values[win].points or 0.0)
        return ev.choice


@pytest.mark.parametrize("variant", ["jiaxing", "taixing", "qinger"])
def test_every_candidate_is_valued_and_the_choice_is_greedys(variant: str) -> None:
    flow = VARIANTS[variant]
    match = Match(flow, flow.options_type(), 3)
    judges = [Judging(variant, 10 + s) for s in range(flow.seats(match.options))]
    hand = match.new_hand()
    play_hand(hand, judges)
    assert sum(j.valued for j in judges) > 10
    if variant == "qinger":
        assert Q.KNOCK_PHASE in set().union(*(j.phases for j in judges))
    # a win on the table is worth its exact score: a winner nets something
    assert all(w > 0 for j in judges for w in j.wins)


def test_a_discard_keeping_the_hand_closer_is_worth_more() -> None:
    variant = "jiaxing"
    flow = VARIANTS[variant]
    match = Match(flow, flow.options_type(), 1)
    hand = match.new_hand()
    judge = GreedyJudge(variant)
    seat = next(s for s in range(4) if len(hand.legal_actions(s)) > 1)
    ev = judge.evaluate(hand, seat)
    discards = {a: v for a, v in ev.values.items() if a < 34}
    assert len(discards) > 3
    from paiju.bots.simple import reader

    read = reader(hand, seat)
    counts = bytearray(hand.counts[seat][:34])
    declared = len(hand.melds[seat])

    def shanten(a: int) -> int:
        counts[a] -= 1
        got = read.shanten(bytes(counts), declared)
        counts[a] += 1
        return got

    by = {a: shanten(a) for a in discards}
    best = min(by.values())
    far = [a for a in discards if by[a] > best + 1]
    near = [a for a in discards if by[a] == best]
    if far:
        assert min(discards[a].points or 0 for a in near) > max(
            discards[a].points or 0 for a in far
        )


def qinger_knock_hand(seed: int) -> Any:
    flow = VARIANTS["qinger"]
    hand = Match(flow, flow.options_type(), seed).new_hand()
    assert hand.phase == Q.KNOCK_PHASE
    return hand


def test_a_knock_raises_the_stakes_on_what_the_hand_is_worth() -> None:
    from paiju.bots.greedy_values import WIN_POINTS, WON_SHARE, knock_values

    judge = GreedyJudge("qinger")
    better: list[bool] = []
    for seed in range(12):
        hand = qinger_knock_hand(seed)
        seat = hand.to_act()[0]
        ev = judge.evaluate(hand, seat)
        knock, passed = ev.values[Q.KNOCK], ev.values[Q.PASS]
        assert knock_values(hand, seat, [Q.KNOCK, Q.PASS], WIN_POINTS["qinger"])[Q.KNOCK] == knock
        # a hand likelier than its share to win gains by knocking, a weaker one loses
        w = knock.win or 0.0
        if abs(3 * w - WON_SHARE) > 1e-9:
            assert ((knock.points or 0.0) > (passed.points or 0.0)) == (3 * w > WON_SHARE)
            better.append(3 * w > WON_SHARE)
    assert True in better and False in better


def test_nobody_knocking_deals_again() -> None:
    from paiju.bots.greedy_values import knock_values

    hand = qinger_knock_hand(2)
    order = list(hand.players)
    last = order[-1]
    for s in order[:-1]:
        hand.knocked[s] = False
    got = knock_values(hand, last, [Q.KNOCK, Q.PASS], 257.0)
    assert got[Q.PASS].points == 0.0  # the last to answer passes: the hand is dealt again
    assert got[Q.KNOCK].points != 0.0


def test_a_takeoff_is_worth_its_set_points() -> None:
    from paiju.bots.greedy_values import takeoff_values

    for seed in range(200):
        flow = VARIANTS["qinger"]
        match = Match(flow, flow.options_type(), seed)
        hand = match.new_hand()
        bots = [greedy_bot("qinger", s) for s in range(3)]
        while hand.phase == Q.KNOCK_PHASE:
            seat = hand.to_act()[0]
            hand.apply(bots[seat](hand, seat), seat)
        if hand.phase == Q.TAKEOFF_PHASE:
            break
    else:
        pytest.skip("no takeoff dealt in 200 hands")
    seat = hand.to_act()[0]
    legal = hand.legal_actions(seat)
    before = (list(hand.counts[seat]), hand.running_value(seat))
    got = takeoff_values(hand, seat, legal, 257.0)
    assert set(got) == set(legal)
    # the hand itself is untouched (the takeoff is imagined on a copy)
    assert (list(hand.counts[seat]), hand.running_value(seat)) == before
    # without the shape's worth, what is left is the running score the takeoff adds
    # times the pair stakes: never negative (a takeoff scores at least what kept cards do)
    gains = takeoff_values(hand, seat, legal, 0.0)
    assert gains[Q.PASS].points == 0.0
    assert all((v.points or 0.0) >= 0.0 for v in gains.values())
    for a in legal:
        assert got[a].points == pytest.approx((gains[a].points or 0.0) + 257.0 * (got[a].win or 0))
