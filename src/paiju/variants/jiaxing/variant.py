"""Jiaxing 嘉兴麻将 as a :class:`~paiju.variants.variant.Variant`: the match flow (dealer
rotation, what carries from hand to hand) and the facts every front end reads."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.engine.events import Event, for_seat
from paiju.engine.fairness import HandRandom
from paiju.engine.mahjong import MahjongHand
from paiju.variants.jiaxing.items import ITEMS
from paiju.variants.jiaxing.options import OPTION_SPECS, JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.variant import Names, Variant


class JiaxingVariant(Variant):
    name = "jiaxing"
    names = Names("嘉兴麻将", "嘉興麻將", "Jiaxing mahjong")
    pieces = "tiles"
    options_type = JiaxingOptions
    option_specs = OPTION_SPECS
    rule_book = "docs/rules/jiaxing.md"
    strong_search = "lookahead"

    def item_rows(self) -> Mapping[str, Any]:
        return ITEMS

    def score_json(self, doc: Any) -> dict[str, Any]:
        from paiju.variants.jiaxing.calculator import score_json

        return score_json(doc)

    def new_hand(
        self,
        options: Any,
        *,
        seed: int,
        dealer: int,
        carry: dict[str, Any],
        rng: HandRandom | None = None,
    ) -> MahjongHand:
        return MahjongHand(
            JiaxingRules(options, carry.get("fisher")), seed=seed, dealer=dealer, rng=rng
        )

    def after_hand(
        self, options: JiaxingOptions, hand: MahjongHand, carry: dict[str, Any]
    ) -> tuple[bool, dict[str, Any]]:
        # the dealer keeps the deal on their own win, and on 荒庄 by default (JA22)
        keeps = hand.dealer in hand.winners or (hand.exhausted and options.dealer_stays_on_draw)
        fisher = None
        if hand.winners and hand.win_info[hand.winners[0]].self_drawn:
            fisher = hand.winners[0]
        return keeps, {"fisher": fisher}

    def for_seat(self, event: Event, seat: int | None) -> dict[str, Any]:
        return for_seat(event, seat)


JIAXING = JiaxingVariant()
