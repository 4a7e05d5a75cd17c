"""The strong bot: legal choices only, and nothing read beyond what its seat may see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.bots import GreedyBot
from paiju.bots.candidates import mahjong_candidates
from paiju.bots.determinize import determinize
from paiju.bots.levels import make_player
from paiju.bots.montecarlo import RolloutBot
from paiju.bots.strong import StrongBot
from paiju.engine import actions as A
from paiju.engine.mahjong import ACT, CLAIM, END, MahjongHand
from paiju.engine.match import play_hand
from paiju.variants.jiaxing.flow import JiaxingRules
from paiju.variants.jiaxing.options import JiaxingOptions


def new_hand(seed: int) -> MahjongHand:
    return MahjongHand(JiaxingRules(JiaxingOptions()), seed=seed, dealer=seed % 4)


def advance(hand: MahjongHand, until: int, *, claim_for: int | None = None) -> bool:
    """Play greedy moves until ``until`` actions were made (or, with ``claim_for``, until
    that seat has a claim window to answer). False if the hand ended first."""
    bots = [GreedyBot(i) for i in range(4)]
    done = 0
    while not hand.is_over:
        for seat in hand.to_act():
            if claim_for is not None:
                if hand.phase == CLAIM and seat == claim_for and done >= until:
                    return True
            elif done >= until:
                return True
            hand.apply(bots[seat](hand, seat), seat)
            done += 1
            if hand.is_over:
                return False
    return False


def scrambled(hand: MahjongHand, seat: int, seed: int) -> MahjongHand:
    """The same public situation for ``seat`` with every hidden tile moved: the other
    seats' concealed tiles and the unused wall are shuffled together and dealt again."""
    other = hand.copy()
    pool: list[int] = []
    sizes = {}
    for s in range(4):
        if s != seat:
            sizes[s] = sum(other.counts[s])
            pool.extend(k for k in range(34) for _ in range(other.counts[s][k]))
    pool.extend(other.wall[other.head : other.tail])
    random.Random(seed).shuffle(pool)
    for s, size in sizes.items():
        counts = bytearray(34)
        for t in pool[:size]:
            counts[t] += 1
        del pool[:size]
        other.counts[s] = counts
    other.wall[other.head : other.tail] = pool
    other._waits = [None] * 4
    other._legal = {}
    return other


def test_strong_plays_only_legal_actions() -> None:
    for seed, rollout in ((3, "greedy"), (11, "rollout")):
        hand = new_hand(seed)
        strong = StrongBot(seed, rollouts=2, candidates=3, rollout=rollout, search="both")
        seen: list[int] = []

        def checked(
            h: MahjongHand, seat: int, strong: StrongBot = strong, seen: list[int] = seen
        ) -> int:
            legal = h.legal_actions(seat)
            action = strong(h, seat)
            assert action in legal
            seen.append(action)
            return action

        play_hand(hand, [checked, GreedyBot(1), GreedyBot(2), GreedyBot(3)])
        assert hand.phase == END and seen
        assert strong.samples and all(n == 2 for n in strong.samples)


def test_rollout_policy_plays_legally() -> None:
    for seed in range(5):
        hand = new_hand(seed)
        bots = [RolloutBot(seed * 4 + i) for i in range(4)]

        def checked(h: MahjongHand, seat: int, bots: list[RolloutBot] = bots) -> int:
            action = bots[seat](h, seat)
            assert action in h.legal_actions(seat)
            return action

        play_hand(hand, [checked] * 4)
        assert hand.is_over and sum(hand.net()) == 0


def test_unseen_tiles_are_the_hidden_multiset() -> None:
    hand = new_hand(5)
    assert advance(hand, 30)
    seat = hand.to_act()[0]
    unseen = hand.unseen_tiles(seat)
    hidden = [k for s in range(4) if s != seat for k in range(34) for _ in range(hand.counts[s][k])]
    hidden += hand.wall[hand.head : hand.tail]
    assert sorted(unseen) == sorted(hidden)


@pytest.mark.parametrize("seed", [1, 2, 7])
def test_determinization_keeps_the_public_state(seed: int) -> None:
    hand = new_hand(seed)
    assert advance(hand, 25)
    seat = hand.to_act()[0]
    det = determinize(hand, seat, random.Random(0))
    assert det.counts[seat] == hand.counts[seat]
    assert det.melds == hand.melds and det.discards == hand.discards
    assert det.wall_left == hand.wall_left and det.phase == hand.phase
    assert [sum(c) for c in det.counts] == [sum(c) for c in hand.counts]
    pool = sorted(
        [k for s in range(4) if s != seat for k in range(34) for _ in range(det.counts[s][k])]
        + det.wall[det.head : det.tail]
    )
    assert pool == sorted(hand.unseen_tiles(seat))
    assert det.legal_actions(seat) == hand.legal_actions(seat)
    # the sample is a playable hand
    play_hand(det, [GreedyBot(i) for i in range(4)])
    assert det.is_over and sum(det.net()) == 0


@pytest.mark.parametrize("seed", [4, 9, 12])
def test_decisions_ignore_hidden_tiles_in_turn(seed: int) -> None:
    hand = new_hand(seed)
    assert advance(hand, 20)
    seat = hand.to_act()[0]
    assert hand.phase == ACT
    other = scrambled(hand, seat, seed)
    assert other.counts != hand.counts or other.wall != hand.wall
    for probe in (0, 1):
        for search in ("lookahead", "both"):
            a = StrongBot(probe, rollouts=3, search=search)(hand, seat)
            b = StrongBot(probe, rollouts=3, search=search)(other, seat)
            assert a == b
        rng_a, rng_b = random.Random(probe), random.Random(probe)
        det_a = determinize(hand, seat, rng_a)
        det_b = determinize(other, seat, rng_b)
        assert det_a.counts == det_b.counts and det_a.wall == det_b.wall


def test_decisions_ignore_hidden_tiles_in_a_claim_window() -> None:
    for seed in range(40):
        hand = new_hand(seed)
        if not advance(hand, 4, claim_for=seed % 4):
            continue
        seat = seed % 4
        other = scrambled(hand, seat, seed)
        det_a = determinize(hand, seat, random.Random(3))
        det_b = determinize(other, seat, random.Random(3))
        # the claim window is rebuilt from the sample: the real claimants are not read
        assert det_a.pending == det_b.pending and det_a.answers == {}
        assert det_a.pending[seat] == hand.legal_actions(seat)
        for search in ("lookahead", "both"):
            a = StrongBot(seed, rollouts=3, search=search)(hand, seat)
            assert a == StrongBot(seed, rollouts=3, search=search)(other, seat)
        return
    pytest.fail("no claim window found in 40 hands")


def test_candidates_and_shortcuts() -> None:
    hand = new_hand(8)
    seat = hand.to_act()[0]
    legal = hand.legal_actions(seat)
    cands = mahjong_candidates(hand, seat, legal, 3)
    assert len([a for a in cands if a < 34]) == 3
    assert set(cands) <= set(legal)
    # a self-drawn win is always taken
    for seed in range(200):
        h = new_hand(seed)
        bots = [GreedyBot(i) for i in range(4)]
        while not h.is_over:
            for s in h.to_act():
                if A.ZIMO in h.legal_actions(s):
                    assert StrongBot(0, rollouts=1)(h, s) == A.ZIMO
                    return
                h.apply(bots[s](h, s), s)
    pytest.fail("no self-drawn win found")


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="budget"):
        StrongBot(0, budget=0)
    with pytest.raises(ValueError, match="rollouts"):
        StrongBot(0, rollouts=0)
    with pytest.raises(ValueError, match="unknown bot"):
        make_player("nobody")
    assert isinstance(make_player("strong", 1, budget=0.05), StrongBot)
    from paiju.bots import make_bot

    assert isinstance(make_bot("strong", 1, "taixing"), StrongBot)


def test_bench_lines(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from paiju.bench import main

    assert main(["greedy_decisions"], repeats=1, quick=True) == 0
    line = json.loads(capsys.readouterr().out)
    assert line["name"] == "greedy_decisions" and line["ours_per_s"] > 0
    assert line["peer"] is None


def _qinger_hidden(hand: object, seat: int) -> list[int]:
    from collections import Counter

    h: Any = hand
    pool: Counter[int] = Counter()
    for s in h.players:
        if s != seat:
            pool.update({k: n for k, n in enumerate(h.counts[s]) if n})
    pool.update(h.stock[h.head :])
    if not h.revealed:
        pool[h.indicator] += 1
    return sorted(pool.elements())


def test_qinger_determinization_conserves_cards_and_plays_on() -> None:
    from paiju.bots import make_bot
    from paiju.engine import qinger as Q
    from paiju.variants.registry import flows

    flow = flows()["qinger"]
    options = flow.options_type()
    phases = set()
    for seed in range(6):
        hand: Any = flow.new_hand(options, seed=seed, dealer=seed % 3, carry={})
        bots = [make_bot("greedy", i, "qinger") for i in range(hand.n_seats)]
        step = 0
        while not hand.is_over:
            for s in hand.to_act():
                if step % 7 == 0:
                    det = determinize(hand, s, random.Random(step))
                    phases.add(hand.phase)
                    assert det.counts[s] == hand.counts[s] and det.phase == hand.phase
                    assert len(det.stock) == len(hand.stock) and det.head == hand.head
                    assert _qinger_hidden(det, s) == _qinger_hidden(hand, s)
                    assert det.legal_actions(s) == hand.legal_actions(s)
                    if hand.phase == Q.CLAIM:
                        assert s in det.pending and det.answers == {}
                step += 1
                hand.apply(bots[s](hand, s), s)
        play_hand(det, [make_bot("greedy", i, "qinger") for i in range(det.n_seats)])
        assert det.is_over
    assert {Q.KNOCK_PHASE, Q.ACT} <= phases


def test_strong_plays_qinger_legally() -> None:
    from paiju.bots import make_bot
    from paiju.variants.registry import flows

    flow = flows()["qinger"]
    options = flow.options_type()
    hand: Any = flow.new_hand(options, seed=2, dealer=0, carry={})
    strong = StrongBot(2, "qinger", rollouts=1, candidates=2)

    def checked(h: Any, seat: int) -> int:
        action = strong(h, seat)
        assert action in h.legal_actions(seat)
        return action

    players = [checked] + [make_bot("greedy", i, "qinger") for i in range(1, hand.n_seats)]
    play_hand(hand, players)
    assert hand.is_over and strong.samples


def test_deal_in_chances_read_only_what_the_seat_sees() -> None:
    from paiju.bots.lookahead import Model, deal_in_chances

    hand = new_hand(6)
    assert advance(hand, 28)
    seat = hand.to_act()[0]
    tiles = sorted({k for k in range(34) if hand.counts[seat][k]})
    risk = deal_in_chances(hand, seat, tiles, 12)
    assert set(risk) == set(tiles) and all(0.0 <= p <= 1.0 for p in risk.values())
    assert risk == deal_in_chances(scrambled(hand, seat, 6), seat, tiles, 12)
    model = Model(danger_samples=8)
    mine = StrongBot(0, lookahead=model)(hand, seat)
    assert mine == StrongBot(0, lookahead=model)(scrambled(hand, seat, 6), seat)
    with pytest.raises(ValueError, match="depth"):
        Model(depth=3)


@pytest.mark.parametrize("size", [1, 4, 7, 10, 13])
def test_shaped_samples_keep_the_hand_size(size: int) -> None:
    # regression: a seat with four melds holds one tile, and a sampled "two from ready"
    # once gave it two (the determinization then failed its conservation check)
    from paiju.bots.determinize import _shaped_hand

    rng = random.Random(size)
    for target in range(3):
        for _ in range(20):
            avail = [4] * 34
            tiles = _shaped_hand(avail, size, target, rng)
            if tiles is not None:
                assert len(tiles) == size
                assert sum(avail) == 136 - size


def _twin_decisions(hand: Any, bot_for: Any, seats: int, n: int) -> int:
    """Play greedy to many decisions; at each, a fresh deterministic bot decides on the
    hand and on a resampled twin of it (the hand's own determinization, seeded anew);
    returns how many decisions were compared."""
    from paiju.bots import make_bot

    players = [make_bot("greedy", i, hand_variant(hand)) for i in range(seats)]
    compared = 0
    step = 0
    while not hand.is_over and compared < n:
        for s in hand.to_act():
            if len(hand.legal_actions(s)) > 1:
                twin = hand.determinize(s, random.Random(step))
                assert twin.legal_actions(s) == hand.legal_actions(s)
                assert bot_for()(hand, s) == bot_for()(twin, s)
                compared += 1
            step += 1
            hand.apply(players[s](hand, s), s)
            if hand.is_over:
                break
    return compared


def hand_variant(hand: Any) -> str:
    return "qinger" if not isinstance(hand, MahjongHand) else hand.rules.name


@pytest.mark.parametrize("variant", ["jiaxing", "taixing"])
def test_a_bot_decides_alike_on_a_hand_and_its_resampled_twin(variant: str) -> None:
    from paiju.variants.registry import flows

    flow = flows()[variant]
    compared = 0
    for seed in range(2):
        hand: Any = flow.new_hand(flow.options_type(), seed=seed, dealer=seed % 4, carry={})
        compared += _twin_decisions(
            hand,
            lambda: StrongBot(
                5, variant, rollouts=1, candidates=2, rollout="rollout", search="both"
            ),
            4,
            8,
        )
    assert compared == 16


def test_a_qinger_bot_decides_alike_on_a_hand_and_its_resampled_twin() -> None:
    from paiju.variants.registry import flows

    flow = flows()["qinger"]
    hand: Any = flow.new_hand(flow.options_type(), seed=3, dealer=0, carry={})
    bot = lambda: StrongBot(5, "qinger", rollouts=1, candidates=2)  # noqa: E731
    assert _twin_decisions(hand, bot, hand.n_seats, 8) == 8
