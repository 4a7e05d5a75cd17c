"""Jiaxing 嘉兴麻将 as a :class:`~paiju.variants.variant.Variant`: the match flow (dealer
rotation, what carries from hand to hand) and the facts every front end reads."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.engine.mahjong import MahjongHand
from paiju.variants.items import ItemRow
from paiju.variants.jiaxing.calculator import score_json
from paiju.variants.jiaxing.items import ITEMS
from paiju.variants.jiaxing.options import OPTION_SPECS, JiaxingOptions
from paiju.variants.jiaxing.rules import JiaxingRules
from paiju.variants.variant import MahjongVariant, Names


class JiaxingVariant(MahjongVariant):
    name = "jiaxing"
    names = Names("嘉兴麻将", "嘉興麻將", "Jiaxing mahjong")
    options_type = JiaxingOptions
    option_specs = OPTION_SPECS
    rule_book = "docs/rules/jiaxing.md"
    added_fields = frozenset({"score.counts_as"})
    # learned: greedy with a danger network over its discards; its weights ship
    # (paiju/bots/weights/jiaxing.npz): +0.023 [+0.001, +0.046] a hand in place of greedy,
    # seeds 9101-9120, 2,000 deals (docs/rl.md); numpy, milliseconds a move, so at server
    # tables too
    bot_levels = ("random", "greedy", "strong", "learned")
    server_bot_levels = ("random", "greedy", "strong", "learned")

    def rules(self, options: Any, carry: dict[str, Any]) -> JiaxingRules:
        return JiaxingRules(options, carry.get("fisher"))

    calculator = staticmethod(score_json)

    def item_rows(self) -> Mapping[str, ItemRow]:
        return ITEMS

    def after_hand(
        self, options: JiaxingOptions, hand: MahjongHand, carry: dict[str, Any]
    ) -> tuple[bool, dict[str, Any]]:
        # the dealer keeps the deal on their own win, and on 荒庄 by default (JA22)
        keeps = hand.dealer in hand.winners or (hand.exhausted and options.dealer_stays_on_draw)
        fisher = None
        if hand.winners and hand.win_info[hand.winners[0]].self_drawn:
            fisher = hand.winners[0]
        return keeps, {"fisher": fisher}


JIAXING = JiaxingVariant()
