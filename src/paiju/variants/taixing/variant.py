"""Taixing 泰兴麻将 as a :class:`~paiju.variants.variant.Variant`.

``carry["draw_streak"]`` counts the 荒庄 in a row: each doubles the next hand (T9) and the
first win resets it. The dealer keeps the deal only on their own win (T7), or on a 荒庄
when ``dealer_rotates_on_draw`` is off (TA9). The match lasts ``rounds`` wind rounds
(东南西北, T3): a round ends when the deal has passed four times.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.engine.events import Event, for_seat
from paiju.engine.fairness import HandRandom
from paiju.engine.mahjong import MahjongHand
from paiju.variants.taixing.items import BY_ID
from paiju.variants.taixing.options import OPTION_SPECS, TaixingOptions
from paiju.variants.taixing.rules import TaixingRules
from paiju.variants.variant import Names, Variant


class TaixingVariant(Variant):
    name = "taixing"
    names = Names("泰兴麻将", "泰興麻將", "Taixing mahjong")
    pieces = "tiles"
    options_type = TaixingOptions
    option_specs = OPTION_SPECS
    rule_book = "docs/rules/taixing.md"
    greedy_bot = "taixing_greedy"
    strong_search = "lookahead"

    def item_rows(self) -> Mapping[str, Any]:
        return BY_ID

    def item_unit(self, item_id: str) -> str:
        row = BY_ID.get(item_id)
        if row is None:
            return "points"
        # a floor is counted in flowers, as the flowers it stands in for
        return "flower" if row.kind == "floor" else row.kind

    def score_json(self, doc: Any) -> dict[str, Any]:
        from paiju.variants.taixing.calculator import score_json

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
        rules = TaixingRules(options, carry.get("draw_streak", 0))
        return MahjongHand(rules, seed=seed, dealer=dealer, rng=rng)

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

    def for_seat(self, event: Event, seat: int | None) -> dict[str, Any]:
        return for_seat(event, seat)


TAIXING = TaixingVariant()
