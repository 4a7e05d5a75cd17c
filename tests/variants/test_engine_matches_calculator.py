"""Property: every hand the engine settles, entered as a table would enter it into
``paiju score``, gets exactly the engine's payments (all three games).

Random matches between random or greedy bots; each winner becomes one calculator
situation built only from what the table saw (hands, melds in the order they were made,
the 连杠 links, flowers, flags, the fisher and the tail tiles, the discarder's melds, the
sets the winner fed). The calculator's win settlement, fishing and kong money must add up
to the engine's ledger.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.bots import GreedyBot, RandomBot
from paiju.bots.qinger import QingerGreedyBot
from paiju.calculator import score
from paiju.components.cards import Card
from paiju.components.notation import format_cards, format_tile_counts, format_tiles
from paiju.components.tiles import Tile
from paiju.engine.mahjong import MahjongHand
from paiju.engine.match import Match
from paiju.engine.session import play_match
from paiju.engine.types import Meld, MeldType, WinType, net
from paiju.variants.base import options_to_mapping
from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.jiaxing.variant import JiaxingVariant
from paiju.variants.qinger.options import QingerOptions
from paiju.variants.qinger.variant import QINGER
from paiju.variants.situation import FLAG_OWNERS
from paiju.variants.taixing.options import TaixingOptions
from paiju.variants.taixing.variant import TAIXING


class RecordingRules(JiaxingRules):
    """Jiaxing rules that note, at each kong that stands, whether it continued a chain."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.links: dict[tuple[int, int], bool] = {}

    def kong_money(self, hand: MahjongHand, seat: int, meld: Meld, chain_payer: int | None) -> Any:
        self.links[(seat, int(meld.tile))] = hand.kong_chain > 1
        return super().kong_money(hand, seat, meld, chain_payer)


class RecordingJiaxing(JiaxingVariant):
    def new_hand(self, options: Any, *, seed: int, dealer: int, carry: dict[str, Any]) -> Any:
        rules = RecordingRules(options, carry.get("fisher"))
        return MahjongHand(rules, seed=seed, dealer=dealer)


def ordered_melds(hand: MahjongHand, seat: int) -> list[Meld]:
    """The seat's melds in the order they were made (an added kong when it was added)."""
    order: list[tuple[str, int]] = []
    for ev in hand.log:
        if ev.seat != seat:
            continue
        if ev.type in ("pong", "kong", "concealed_kong"):
            order.append((ev.type, ev.tile))
        elif ev.type == "chi":
            order.append(("chi", ev.tile))
        elif ev.type == "added_kong":
            order = [o for o in order if o != ("pong", ev.tile)] + [("added_kong", ev.tile)]
    final = list(hand.melds[seat])
    out: list[Meld] = []
    for kind, tile in order:
        match = next(
            (
                m
                for m in final
                if (kind == "chi" and m.type is MeldType.CHI and tile in m.tiles)
                or (kind != "chi" and m.tile == tile and m.type.value == kind)
            ),
            None,
        )
        if match is not None:  # a robbed added kong stays a pong: listed where it was made
            final.remove(match)
            out.append(match)
    assert not final, (order, hand.melds[seat])
    return out


def meld_json(meld: Meld, chained: bool) -> dict[str, Any]:
    out: dict[str, Any] = {"type": meld.type.value, "tiles": format_tiles(meld.tiles)}
    if meld.source is not None:
        out["from"] = meld.source
    if chained:
        out["chain"] = True
    return out


def mahjong_situation(hand: MahjongHand, seat: int, variant: str, options: Any) -> dict[str, Any]:
    win = hand.win_info[seat]
    links = getattr(hand.rules, "links", {})
    melds = ordered_melds(hand, seat)
    situation: dict[str, Any] = {
        "variant": variant,
        "options": options_to_mapping(options),
        "dealer": win.dealer,
        "winner": seat,
        "hand": format_tile_counts(win.concealed),
        "melds": [meld_json(m, m.is_kong and links.get((seat, int(m.tile)), False)) for m in melds],
        "win_tile": str(win.win_tile),
        "win_type": win.win_type.value,
        "flags": sorted(f for f in win.flags if variant in FLAG_OWNERS[f].split()),
        "discard_winners": win.discard_winners,
    }
    if win.source is not None:
        situation["from"] = win.source
    if variant == "taixing":
        situation["flowers"] = format_tiles(win.flowers)
        situation["draw_streak"] = win.draw_streak
        situation["leopard"] = win.leopard
        situation["kong_chain"] = 1  # no kong money, and 杠开 needs no chain
    else:
        situation["fed_by_winner"] = list(hand.fed[seat])
        if win.win_type is WinType.DISCARD and win.source is not None:
            situation["discarder_melds"] = len(hand.melds[win.source])
        fisher = hand.rules.fisher  # type: ignore[attr-defined]
        if fisher is not None:
            tail = hand.remaining_tail(options.fishing_tiles)
            situation["fishing"] = {"fisher": fisher, "tail": format_tiles(Tile(t) for t in tail)}
    return situation


def check_mahjong_hand(hand: MahjongHand, variant: str, options: Any) -> None:
    if hand.exhausted or not hand.winners:
        return
    wins = [0, 0, 0, 0]
    kong = [0, 0, 0, 0]
    for seat in hand.winners:
        status, out = score(mahjong_situation(hand, seat, variant, options))
        assert status == 0, out
        assert out["explanation"]["text"]["zh"] and out["explanation"]["text"]["en"]
        lines = out["explanation"]["payments"]
        explained = net(
            [_payment(p) for p in lines if p["reason"] != "gang" or variant != "jiaxing"], 4
        )
        expected_win = [
            a + b
            for a, b in zip(
                out["payments"], out.get("fishing", {}).get("payments", [0] * 4), strict=True
            )
        ]
        assert explained == expected_win, lines
        wins = [a + b for a, b in zip(wins, expected_win, strict=True)]
        kong = [a + b for a, b in zip(kong, out["kong_payments"], strict=True)]
        engine_kong = net([p for p in hand.ledger if p.reason == "gang" and p.payee == seat], 4)
        assert out["kong_payments"] == engine_kong
    assert wins == net([p for p in hand.ledger if p.reason != "gang"], 4)


def _payment(line: dict[str, Any]) -> Any:
    from paiju.engine.types import Payment

    return Payment(line["payer"], line["payee"], line["amount"], line["reason"])


def bots(kind: str, seed: int, n: int, greedy: Any = GreedyBot) -> list[Any]:
    return [(greedy if kind == "greedy" else RandomBot)(seed * 4 + i) for i in range(n)]


SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)


@SETTINGS
@given(seed=st.integers(0, 2**31), kind=st.sampled_from(["random", "greedy"]))
def test_jiaxing_hands_settle_as_the_calculator_does(seed: int, kind: str) -> None:
    options = JiaxingOptions(hands=4)
    match = Match(RecordingJiaxing(), options, seed)
    seen = []

    def emit(item: Any) -> None:
        if isinstance(item, tuple) and item and item[0] == "hand":
            seen.append(item[2])

    for _ in play_match(match, bots(kind, seed, 4), emit):
        check_mahjong_hand(seen[-1], "jiaxing", options)


@SETTINGS
@given(seed=st.integers(0, 2**31), kind=st.sampled_from(["random", "greedy"]))
def test_taixing_hands_settle_as_the_calculator_does(seed: int, kind: str) -> None:
    options = TaixingOptions(hands=4, max_extra_hands=2)
    match = Match(TAIXING, options, seed)
    seen = []

    def emit(item: Any) -> None:
        if isinstance(item, tuple) and item and item[0] == "hand":
            seen.append(item[2])

    for _ in play_match(match, bots(kind, seed, 4), emit):
        check_mahjong_hand(seen[-1], "taixing", options)


def qinger_situation(hand: Any) -> dict[str, Any]:
    scoring = hand._scoring_hand(hand.winners, hand.win_how, hand.win_card, hand.win_source)
    players = []
    for p in scoring.players:
        cards = [Card(k) for k, n in enumerate(p.concealed) for _ in range(n)]
        players.append(
            {
                "hand": format_cards(cards),
                "melds": [
                    {"type": m.type.value, "tiles": format_cards(m.cards)}
                    | ({} if m.source is None else {"from": m.source})
                    for m in p.melds
                ],
                "flowers": format_cards(p.flowers),
                "takeoffs": [format_cards(t) for t in p.takeoffs],
                "knocked": p.knocked,
            }
        )
    return {
        "variant": "qinger",
        "options": {
            k: v
            for k, v in options_to_mapping(hand.options).items()
            if k not in ("hands", "rounds")
        },
        "stakes": list(scoring.stakes),
        "dealer": scoring.dealer,
        "indicator": str(scoring.indicator),
        "winner": scoring.winner,
        "win_type": None if scoring.win_type is None else scoring.win_type.value,
        "win_tile": None if scoring.win_card is None else str(scoring.win_card),
        "from": scoring.source,
        "players": players,
    }


@SETTINGS
@given(seed=st.integers(0, 2**31), kind=st.sampled_from(["random", "greedy"]))
def test_qinger_hands_settle_as_the_calculator_does(seed: int, kind: str) -> None:
    options = QingerOptions(hands=3)
    match = Match(QINGER, options, seed)
    seen = []

    def emit(item: Any) -> None:
        if isinstance(item, tuple) and item and item[0] == "hand":
            seen.append(item[2])

    for _ in play_match(match, bots(kind, seed, 3, QingerGreedyBot), emit):
        hand = seen[-1]
        if hand.result is None:  # redealt: nobody knocked
            continue
        status, out = score(qinger_situation(hand))
        assert status == 0, out
        by_role = [hand.net()[seat] for seat in hand.players]
        assert out["payments"] == by_role
        assert out["explanation"] == hand.explanation or hand.players != [0, 1, 2]
