"""A match: a sequence of hands with dealer rotation, wind rounds and one ledger.

The match owns the randomness of everything above a hand (first dealer, each hand's seed)
through one ``random.Random(seed)``, so a match is reproduced from its seed and the
players' decisions alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from paiju.engine.events import Event
from paiju.engine.fairness import FairDeal, FairRandom, HandRandom
from paiju.engine.types import Payment


class Hand(Protocol):
    """What a match, a record and a player need of one hand, whatever the game."""

    seed: int
    dealer: int
    log: list[Event]
    ledger: list[Payment]
    winners: list[int]
    exhausted: bool

    @property
    def is_over(self) -> bool: ...

    @property
    def self_drawn(self) -> bool: ...

    def to_act(self) -> list[int]: ...

    def legal_actions(self, seat: int) -> list[int]: ...

    def apply(self, action: int, seat: int | None = None) -> list[Event]: ...

    def net(self) -> list[int]: ...

    def action_str(self, action: int) -> str: ...

    def parse_action(self, text: str) -> int: ...

    def view(self, seat: int | None, *, recent: bool = True) -> dict[str, Any]: ...

    def views(
        self, seats: Sequence[int | None], *, recent: bool = True
    ) -> list[dict[str, Any]]: ...

    def claim_window_open(self) -> bool: ...

    def default_action(self, seat: int) -> int: ...

    def events_for(self, seat: int | None, events: Sequence[Event]) -> list[dict[str, Any]]: ...

    def events_for_seats(
        self, seats: Sequence[int | None], events: Sequence[Event]
    ) -> list[list[dict[str, Any]]]: ...


Decide = Callable[[Any, int], int]
"""A player: given the hand and the seat to act (``player(hand, seat)``), an action code."""


class GameFlow(Protocol):
    """What a match needs to know about a game (every ``paiju.variants`` Variant is one)."""

    name: str

    def record_additions(self) -> frozenset[str]:
        """Fields this game added to record lines after records were first written, as
        ``kind.field`` paths (``record_format.ADDED_FIELDS``): older records lack them."""
        ...

    def seats(self, options: Any) -> int: ...

    def parse_options(self, values: Any) -> Any: ...

    def options_json(self, options: Any) -> dict[str, Any]: ...

    def profile_of(self, options_json: dict[str, Any]) -> dict[str, Any] | None: ...

    def new_hand(
        self,
        options: Any,
        *,
        seed: int,
        dealer: int,
        carry: dict[str, Any],
        rng: HandRandom | None = None,
    ) -> Hand:
        """The next hand; ``rng`` (when given) is where its walls and dice come from."""
        ...

    def after_hand(
        self, options: Any, hand: Any, carry: dict[str, Any]
    ) -> tuple[bool, dict[str, Any]]:
        """(does the dealer keep the deal, the state carried into the next hand)."""
        ...

    def match_length(self, options: Any) -> tuple[int | None, int]:
        """(hands, rounds): a fixed number of hands, or else this many wind rounds."""
        ...

    def play_on(self, options: Any, carry: dict[str, Any], extra_hands: int) -> bool:
        """Past the planned end: must another hand be played (``extra_hands`` so far)?"""
        ...


@dataclass
class HandSummary:
    index: int
    dealer: int
    seed: int
    winners: list[int]
    self_drawn: bool
    exhausted: bool
    net: list[int]
    round_wind: int
    walls: list[list[int]] | None = None
    """Every shuffled wall or deck of the hand, in order, under a fair deal (else None)."""


@dataclass
class Match:
    flow: GameFlow
    options: Any
    seed: int
    ledger: list[tuple[int, Payment]] = field(default_factory=list)
    hands: list[HandSummary] = field(default_factory=list)
    fair: FairDeal | None = None
    """The fair-deal scheme (docs/spec/fair-deal.md): when set, the first dealer and every
    hand's walls and dice come from it, not from ``seed``."""

    def __post_init__(self) -> None:
        self.n_seats = self.flow.seats(self.options)
        self._rng = random.Random(self.seed)
        self.first_dealer = self._rng.randrange(self.n_seats)
        if self.fair is not None:
            self.first_dealer = self.fair.first_dealer(self.n_seats)
        self._hand_rng: FairRandom | None = None
        self.dealer = self.first_dealer
        self.passes = 0
        """How many times the deal has moved on; every four is a wind round."""
        self.carry: dict[str, Any] = {}
        self.extra_hands = 0
        """Hands played past the planned end of the match (see :meth:`is_over`)."""

    @property
    def round_wind(self) -> int:
        return self.passes // self.n_seats

    def _planned_end(self) -> bool:
        hands, rounds = self.flow.match_length(self.options)
        if hands is not None:
            return len(self.hands) >= hands
        return self.round_wind >= rounds

    def is_over(self) -> bool:
        if not self._planned_end():
            return False
        # a game may insist on more hands past the planned end (Taixing T9: a drawn hand
        # is followed by another)
        return not self.flow.play_on(self.options, self.carry, self.extra_hands)

    def new_hand(self) -> Hand:
        hand_seed = self._rng.getrandbits(48)
        if self.fair is None:
            return self.flow.new_hand(
                self.options, seed=hand_seed, dealer=self.dealer, carry=self.carry
            )
        self._hand_rng = self.fair.hand_random(len(self.hands))
        return self.flow.new_hand(
            self.options,
            seed=hand_seed,
            dealer=self.dealer,
            carry=self.carry,
            rng=self._hand_rng,
        )

    def finish_hand(self, hand: Hand) -> HandSummary:
        if self._planned_end():
            self.extra_hands += 1
        index = len(self.hands)
        self.ledger.extend((index, p) for p in hand.ledger)
        summary = HandSummary(
            index=index,
            dealer=hand.dealer,
            seed=hand.seed,
            winners=list(hand.winners),
            self_drawn=hand.self_drawn,
            exhausted=hand.exhausted,
            net=hand.net(),
            round_wind=self.round_wind,
            walls=None if self._hand_rng is None else self._hand_rng.walls,
        )
        self._hand_rng = None
        self.hands.append(summary)
        keeps, self.carry = self.flow.after_hand(self.options, hand, self.carry)
        if not keeps:
            self.dealer = (self.dealer + 1) % self.n_seats
            self.passes += 1
        return summary

    def totals(self) -> list[int]:
        out = [0] * self.n_seats
        for _, p in self.ledger:
            out[p.payer] -= p.amount
            out[p.payee] += p.amount
        return out


def play_hand(hand: Hand, players: Sequence[Decide]) -> None:
    """Drive a bare hand to its end: rollouts, arena hands and benchmarks, which keep no
    record. Decisions are taken in the order :class:`paiju.engine.session.Session` applies
    them (always the first seat of ``to_act()``); anything that keeps a record or shows a
    table drives a ``Session``."""
    to_act, apply = hand.to_act, hand.apply
    while not hand.is_over:
        seat = to_act()[0]
        apply(players[seat](hand, seat), seat)
