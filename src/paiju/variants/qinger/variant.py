"""Qing'er 青儿 as a :class:`~paiju.variants.variant.Variant`: the first dealer by drawing
cards, dealer rotation, the four-participant table, and the match length.

A hand is :class:`paiju.variants.qinger.hand.QingerHand`; scoring is
:func:`paiju.variants.qinger.scoring.score_hand`, called by the hand when it ends.

The variant keeps the dealer itself, in the state carried from hand to hand: the first hand
of a match has none, so that hand draws cards for it (Q2, recorded as the
``draw_for_dealer`` event); afterwards the deal stays or passes to the next seat in play
order (Q2 default: it stays on the dealer's own win and on an exhausted stock).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from paiju.engine.events import Event
from paiju.variants.items import ItemRow
from paiju.variants.qinger.calculator import score_json
from paiju.variants.qinger.hand import QingerHand, for_seat
from paiju.variants.qinger.items import ITEMS
from paiju.variants.qinger.options import OPTION_SPECS, QingerOptions
from paiju.variants.variant import HandStart, Names, Variant


class QingerVariant(Variant):
    name = "qinger"
    names = Names("青儿", "青兒", "Qing'er")
    pieces = "cards"
    options_type = QingerOptions
    option_specs = OPTION_SPECS
    rule_book = "docs/rules/qinger.md"
    greedy_bot = "qinger_greedy"
    strong_search = "montecarlo"
    # learned: its weights ship (paiju/bots/weights/qinger.npz, docs/rl.md)
    bot_levels = ("random", "greedy", "strong", "learned")
    # the Monte Carlo search thinks 0.3 s a move: too long for a table on a shared server
    # loop; the learned bot (numpy, milliseconds) is not
    server_bot_levels = ("random", "greedy", "learned")

    def seats(self, options: QingerOptions) -> int:
        """Seats at the table: 3, or 4 with ``participants = 4`` (one sits each hand out)."""
        return options.participants

    def seats_option(self) -> str | None:
        return "participants"

    def max_seats(self) -> int:
        return 4

    calculator = staticmethod(score_json)

    def item_rows(self) -> Mapping[str, ItemRow]:
        return ITEMS

    def deal(self, options: Any, start: HandStart) -> QingerHand:
        # the match's own first-dealer pick is not used: the first hand draws cards (Q2)
        return QingerHand(options, seed=start.seed, dealer=start.carry.get("dealer"), rng=start.rng)

    def after_hand(
        self, options: QingerOptions, hand: QingerHand, carry: dict[str, Any]
    ) -> tuple[bool, dict[str, Any]]:
        keeps = (hand.dealer in hand.winners and options.dealer_stays_on_win) or (
            hand.exhausted and options.dealer_stays_on_exhausted_stock
        )
        dealer = hand.dealer if keeps else (hand.dealer + 1) % hand.n_seats
        return keeps, {"dealer": dealer}

    def for_seat(self, event: Event, seat: int | None) -> dict[str, Any]:
        # Qing'er hides more than the engine's filter: whose cards a deal or a draw holds
        return for_seat(event, seat)


QINGER = QingerVariant()
