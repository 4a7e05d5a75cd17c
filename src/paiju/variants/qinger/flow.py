"""How a Qing'er match runs hands (engine.match.VariantFlow): the first dealer by drawing
cards, dealer rotation, the four-participant table, and the match length.

A hand is :class:`paiju.engine.qinger.QingerHand`; scoring is
:func:`paiju.variants.qinger.scoring.score_hand`, called by the hand when it ends.

The flow keeps the dealer itself, in the state carried from hand to hand: the first hand
of a match has none, so that hand draws cards for it (Q2, recorded as the
``draw_for_dealer`` event); afterwards the deal stays or passes to the next seat in play
order (Q2 default: it stays on the dealer's own win and on an exhausted stock).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.engine.fairness import HandRandom
from paiju.engine.qinger import QingerHand
from paiju.variants.base import OptionError
from paiju.variants.qinger.options import QingerOptions


@dataclass(frozen=True)
class QingerMatchOptions(QingerOptions):
    """The rule options plus the length of a match (the seed does not say how long one is).

    With the default of an exhausted stock keeping the deal, a match counted in dealer
    rounds can last as long as nobody wins, so a match is a number of hands by default.
    """

    hands: int | None = 6
    """Hands in a match; None: play ``rounds`` dealer rounds instead."""
    rounds: int = 1
    """Dealer rounds (every seat at the table has dealt, repeats included) when ``hands``
    is None."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.hands is not None and self.hands < 1:
            raise OptionError("option 'hands' must be at least 1")
        if self.rounds < 1:
            raise OptionError("option 'rounds' must be at least 1")


class QingerFlow:
    """How a Qing'er match runs hands."""

    name = "qinger"
    n_seats = 3
    """Seats with the default options; :meth:`seats` is the count for given options."""
    options_type = QingerMatchOptions

    def seats(self, options: QingerOptions) -> int:
        """Seats at the table: 3, or 4 with ``participants = 4`` (one sits each hand out)."""
        return options.participants

    def new_hand(
        self,
        options: QingerOptions,
        *,
        seed: int,
        dealer: int,
        carry: dict[str, Any],
        rng: HandRandom | None = None,
    ) -> QingerHand:
        # the match's own first-dealer pick is not used: the first hand draws cards (Q2)
        return QingerHand(options, seed=seed, dealer=carry.get("dealer"), rng=rng)

    def after_hand(
        self, options: QingerOptions, hand: QingerHand, carry: dict[str, Any]
    ) -> tuple[bool, dict[str, Any]]:
        keeps = (hand.dealer in hand.winners and options.dealer_stays_on_win) or (
            hand.exhausted and options.dealer_stays_on_exhausted_stock
        )
        dealer = hand.dealer if keeps else (hand.dealer + 1) % hand.n_seats
        return keeps, {"dealer": dealer}

    def match_length(self, options: QingerOptions) -> tuple[int | None, int]:
        if isinstance(options, QingerMatchOptions):
            return options.hands, options.rounds
        return QingerMatchOptions.hands, QingerMatchOptions.rounds
