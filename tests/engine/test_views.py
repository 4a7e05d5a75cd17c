"""Seat views carry the rules' facts and tell a seat nothing it may not know.

Random bots play whole hands of every game; after every decision each seat's view, the
spectator's view and each seat's event JSON are checked.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from paiju.bots import RandomBot
from paiju.engine.types import Phase
from paiju.variants import VARIANTS

OPTIONS = {
    "jiaxing": {},
    "jiaxing_hun": {"hun": True},
    "taixing": {},
    "qinger": {},
    "qinger4": {"participants": 4},
}
GAME = {"jiaxing_hun": "jiaxing", "qinger4": "qinger"}


def _hands(name: str, seeds: range) -> Any:
    variant = VARIANTS[GAME.get(name, name)]
    options = variant.parse_options(OPTIONS[name])
    for seed in seeds:
        match = variant.new_match(options, seed)
        yield match.new_hand()


def _check_view(hand: Any, seat: int | None) -> None:
    view = hand.view(seat)
    asked = seat is not None and seat in hand.to_act()
    if hand.claim_window_open() and not asked:
        # an open window looks like any other wait to a seat it does not ask
        assert view["phase"] == "wait"
        assert view["to_act"] == []
        assert "claim_tile" not in view and "claim_card" not in view
    if hand.claim_window_open():
        assert set(view["to_act"]) <= {seat}
    for info in view["players"]:
        if info["seat"] != seat and not hand.is_over:
            assert "hand" not in info
    if seat is None:
        assert view["legal_actions"] == []
        assert "waits" not in view


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_views_and_events_hide_what_a_seat_may_not_see(name: str) -> None:
    for hand in _hands(name, range(6)):
        n = len(hand.view(None)["players"])
        bots = [RandomBot(s) for s in range(n)]
        seen_events = 0
        while not hand.is_over:
            for seat in hand.to_act():
                events = hand.apply(bots[seat](hand, seat), seat)
                for other in [*range(n), None]:
                    for ev, out in zip(events, hand.events_for(other, events), strict=True):
                        if ev.type in ("draw", "deal", "replacement_draw") and ev.seat != other:
                            assert "tile" not in out and "card" not in out
                            assert not isinstance(out.get("tiles", 0), str)
                            assert not isinstance(out.get("cards", 0), str)
                    seen_events += len(events)
                for other in [*range(n), None]:
                    _check_view(hand, other)
        assert seen_events


@pytest.mark.parametrize("name", ["jiaxing", "jiaxing_hun", "taixing"])
def test_a_wait_is_a_legal_discard_win_exactly_when_the_claim_offers_hu(name: str) -> None:
    from paiju.bots import make_bot
    from paiju.engine import actions as A

    checked = 0
    for hand in _hands(name, range(30)):
        bots = [make_bot("greedy", 100 + s, GAME.get(name, name)) for s in range(4)]
        while not hand.is_over:
            if hand.phase == Phase.CLAIM:  # compare each asked seat's wait facts with its options
                for seat in hand.to_act():
                    facts = {w["tile"]: w for w in hand.view(seat)["waits"]}
                    tile = hand.view(seat)["claim_tile"]
                    if tile in facts:
                        offered = A.HU in hand.legal_actions(seat)
                        assert offered == (facts[tile]["discard"] is None), (facts[tile], offered)
                        checked += 1
            for seat in hand.to_act():
                hand.apply(bots[seat](hand, seat), seat)
    assert checked


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_default_action_is_always_legal(name: str) -> None:
    rng = random.Random(5)
    for hand in _hands(name, range(4)):
        while not hand.is_over:
            for seat in hand.to_act():
                code = hand.default_action(seat)
                assert code in hand.legal_actions(seat)
                legal = hand.legal_actions(seat)
                hand.apply(code if rng.random() < 0.5 else rng.choice(legal), seat)


def test_waits_carry_unseen_copies_and_reasons() -> None:
    # Taixing refuses a complete hand that does not lack a suit: the facts say so
    from paiju.bots import make_bot

    found = set()
    for hand in _hands("taixing", range(30)):
        bots = [make_bot("greedy", 7 + s, "taixing") for s in range(4)]
        while not hand.is_over:
            for seat in range(4):
                for wait in hand.view(seat).get("waits", []):
                    assert 0 <= wait["left"] <= 4
                    for key in ("self_draw", "discard"):
                        if wait[key] is not None:
                            assert wait[key]["zh"] and wait[key]["en"]
                            found.add(wait[key]["code"])
            for seat in hand.to_act():
                hand.apply(bots[seat](hand, seat), seat)
    assert found & {"no_missing_suit", "too_few_flowers"}


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_views_built_together_are_each_seats_own_view(name: str) -> None:
    # a server builds every seat's view (and events) of a decision at once, sharing the
    # public parts
    import json

    for hand in _hands(name, range(3)):
        n = len(hand.view(None)["players"])
        keys: list[int | None] = [*range(n), None]
        bots = [RandomBot(s) for s in range(n)]
        while True:
            for recent in (True, False):
                together = hand.views(keys, recent=recent)
                apart = [hand.view(key, recent=recent) for key in keys]
                # the same JSON, key order included
                assert [json.dumps(v) for v in together] == [json.dumps(v) for v in apart]
            if hand.is_over:
                break
            for seat in hand.to_act():
                events = hand.apply(bots[seat](hand, seat), seat)
                together_events = hand.events_for_seats(keys, events)
                apart_events = [hand.events_for(key, events) for key in keys]
                assert together_events == apart_events
