"""Taixing 泰兴麻将 as a :class:`~paiju.variants.variant.Variant`.

``carry["draw_streak"]`` counts the 荒庄 in a row: each doubles the next hand (T9) and the
first win resets it. The dealer keeps the deal only on their own win (T7), or on a 荒庄
when ``dealer_rotates_on_draw`` is off (TA9). The match lasts ``rounds`` wind rounds
(东南西北, T3): a round ends when the deal has passed four times.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.engine.mahjong import MahjongHand
from paiju.variants.items import ItemRow
from paiju.variants.taixing.calculator import score_json
from paiju.variants.taixing.items import BY_ID
from paiju.variants.taixing.options import OPTION_SPECS, TaixingOptions
from paiju.variants.taixing.rules import TaixingRules
from paiju.variants.variant import MahjongVariant, Names


class TaixingVariant(MahjongVariant):
    name = "taixing"
    names = Names("泰兴麻将", "泰興麻將", "Taixing mahjong")
    options_type = TaixingOptions
    option_specs = OPTION_SPECS
    rule_book = "docs/rules/taixing.md"
    greedy_bot = "taixing_greedy"
    # the learned bot ships here only: it beat greedy in duplicate play (docs/rl.md)
    bot_levels = ("random", "greedy", "strong", "learned")
    server_bot_levels = ("random", "greedy", "strong", "learned")

    def rules(self, options: Any, carry: dict[str, Any]) -> TaixingRules:
        return TaixingRules(options, carry.get("draw_streak", 0))

    calculator = staticmethod(score_json)

    def item_rows(self) -> Mapping[str, ItemRow]:
        return BY_ID

    def after_hand(
        self, options: TaixingOptions, hand: MahjongHand, carry: dict[str, Any]
    ) -> tuple[bool, dict[str, Any]]:
        if hand.exhausted:
            keeps = not options.dealer_rotates_on_draw
            return keeps, {"draw_streak": carry.get("draw_streak", 0) + 1}
        return hand.dealer in hand.winners, {"draw_streak": 0}

    def play_on(self, options: TaixingOptions, carry: dict[str, Any], extra_hands: int) -> bool:
        """T9: past the planned end, a drawn last hand is followed by another (doubled),
        up to ``max_extra_hands`` of them."""
        return carry.get("draw_streak", 0) > 0 and extra_hands < options.max_extra_hands


TAIXING = TaixingVariant()
