"""One hand (局) of Qing'er 青儿 as a state machine: dealer draw, deal, knocks, 补花, 起飞, play.

Seats are numbered in **play order** (counter-clockwise, Q7): the seat after ``s`` in play
is ``s + 1`` (mod the seats at the table). The deal goes the other way by default (QA2,
``deal_order = "reverse_of_play"``): from the dealer clockwise, that is dealer,
dealer − 1, dealer − 2. With ``participants = 4`` four seats sit at the table and the seat
before the dealer in play order (``dealer − 1``) sits the hand out (QA1); the three who
play are ``dealer``, ``dealer + 1`` (下家) and ``dealer + 2`` (对家).

Phases:

- ``KNOCK``: in play order from the dealer each player knocks (敲) or passes (QA4); the
  first knocker turns up the 见张 (the card after the dealer's 23rd), which goes face up at
  the bottom of the stock (drawn last, QA5). Nobody knocks → a redeal within the same
  hand. Then every player, from the dealer, sets aside jokers and 广告 and draws
  replacements until none is left (补花, chained).
- ``TAKEOFF``: from the dealer, each player who holds four alike, or all five jokers among
  the cards set aside, may show them (起飞); four alike draw one replacement.
- ``ACT``: the seat to move holds 3·(7 − sets shown) + 2 cards: discard, concealed kong
  (暗笃), added kong, or a self-drawn win.
- ``CLAIM``: after a discard every other player with an option answers (pass / pong /
  kong / win); a win beats a meld and only the winner nearest in turn order takes it
  (QA20, unless ``one_winner_per_discard`` is off).
- ``END``: everyone is scored by :func:`paiju.variants.qinger.scoring.score_hand` and
  settles in pairs; the payments go into ``ledger``.

All draws, replacements included, come from the top of the stock, so the 见张 at its
bottom really is the last card. A win is offered in ``legal_actions`` only when
:func:`~paiju.variants.qinger.scoring.can_win` says the hand is complete *and* above the
threshold (Q8, QA7).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from functools import cache
from itertools import compress
from operator import itemgetter
from typing import Any

from paiju.components.analysis import QINGER
from paiju.components.cards import DECK_SIZE, N_CARD_KINDS, N_MELD_KINDS, Card, full_deck
from paiju.components.notation import NotationError, format_cards, parse_card, parse_cards
from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.events import Event, new_event, to_json
from paiju.engine.fairness import HandRandom, shuffle
from paiju.engine.grammar import Action, ActionCodec, CodeRange, Verb
from paiju.engine.hand import HandBase
from paiju.engine.types import MeldType, Payment, Phase, Refusal, WinType
from paiju.variants.qinger import scoring as S
from paiju.variants.qinger.explain import explain_hand
from paiju.variants.qinger.options import QingerOptions

# -- actions ---------------------------------------------------------------------------

DISCARD = 0
"""0–35: discard the card with that :class:`Card` index."""
CONCEALED_KONG = 36
"""36–65: concealed kong (暗笃) of meld kind k (face cards by rank)."""
ADDED_KONG = 66
"""66–95: add the fourth card of kind k to one's pong."""
TAKEOFF = 96
"""96–125: show four alike of kind k at the deal (起飞)."""
TAKEOFF_JOKERS = 126
"""Show all five jokers at the deal (五喜起飞)."""
ZIMO = 127
PASS = 128
PONG = 129
KONG = 130
HU = 131
KNOCK = 132
N_ACTIONS = 133

CARD_STR: tuple[str, ...] = tuple(str(Card(i)) for i in range(N_CARD_KINDS))
MELD_KIND: tuple[int, ...] = tuple(Card(i).meld_kind for i in range(N_CARD_KINDS))
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(N_CARD_KINDS))
"""Card index → the ``Card``: a tuple index, where calling the enum costs a microsecond
(every deal formats its three or four hands)."""
_card = CARDS.__getitem__
CARDS_OF_KIND: tuple[tuple[int, ...], ...] = tuple(
    (k,) if k < 27 else (k, k + 3) for k in range(N_MELD_KINDS)
)
"""The cards of each meld kind; for J/Q/K the ♥ copies come first, so a meld takes hearts
before the ♣ card (the ♣ bonus counts wherever the card is, so the choice is neutral)."""


def kind_str(kind: int) -> str:
    """``"5s"`` for a number kind, ``"J"``, ``"Q"``, ``"K"`` for the face ranks."""
    return CARD_STR[kind] if kind < 27 else "JQK"[kind - 27]


def parse_kind(text: str) -> int:
    if text in ("J", "Q", "K"):
        return 27 + "JQK".index(text)
    try:
        card = parse_card(text)
    except NotationError as exc:
        raise InvalidActionError(f"bad card kind {text!r}: {exc}") from None
    if not card.is_number:
        raise InvalidActionError(f"a meld kind is a number card or J, Q, K, not {text!r}")
    return int(card)


def _card_offset(piece: str, text: str) -> int:
    try:
        return int(parse_card(piece))
    except NotationError as exc:
        raise InvalidActionError(f"bad card in action {text!r}: {exc}") from None


def _kind_offset(piece: str, text: str) -> int:
    return parse_kind(piece)


_KINDS = tuple(kind_str(k) for k in range(N_MELD_KINDS))

CODEC = ActionCodec(
    "Qing'er",
    N_ACTIONS,
    words={
        TAKEOFF_JOKERS: Action(Verb.WUXI),
        ZIMO: Action(Verb.ZIMO),
        PASS: Action(Verb.PASS),
        PONG: Action(Verb.PONG),
        KONG: Action(Verb.KONG),
        HU: Action(Verb.HU),
        KNOCK: Action(Verb.KNOCK),
    },
    ranges=(
        CodeRange(Verb.DISCARD, DISCARD, CARD_STR, _card_offset),
        CodeRange(Verb.CONCEALED_KONG, CONCEALED_KONG, _KINDS, _kind_offset),
        CodeRange(Verb.ADDED_KONG, ADDED_KONG, _KINDS, _kind_offset),
        CodeRange(Verb.TAKEOFF, TAKEOFF, _KINDS, _kind_offset),
    ),
)
"""Qing'er's codes in the one action grammar (:mod:`paiju.engine.grammar`)."""


to_str = CODEC.to_str
"""``5`` → ``"d6s"``; see :data:`parse` for every form."""
parse = CODEC.parse
"""``"d6s"`` (discard ♠6), ``"dKc"``, ``"anK"`` (暗笃 of kings), ``"jia5h"``,
``"qifei9c"`` (起飞), ``"wuxi"`` (五喜起飞), ``"zimo"``, ``"pass"``, ``"pong"``,
``"kong"``, ``"hu"``, ``"knock"``. Raises :class:`InvalidActionError`."""
check_code = CODEC.check
"""The code itself if it is one of Qing'er's; else :class:`InvalidActionError`."""


# -- phases and seats -----------------------------------------------------------------

KNOCK_PHASE, TAKEOFF_PHASE = Phase.KNOCK, Phase.TAKEOFF
ACT, CLAIM, END = Phase.ACT, Phase.CLAIM, Phase.END
# module names for the members: looking a member up on an enum class costs ten times
# a global in the hot loop

_CARD_KINDS = range(N_CARD_KINDS)

PHASES: tuple[Phase, ...] = (Phase.KNOCK, Phase.TAKEOFF, Phase.ACT, Phase.CLAIM, Phase.END)
"""The phases a Qing'er hand goes through (the order encoders number them in)."""

DEALER_CARDS = 23
OTHER_CARDS = 22

DRAW_VALUE = tuple(
    [r + 1 for _ in range(3) for r in range(9)] + [10, 11, 12, 10, 11, 12] + [15, 14, 13]
)
"""Card order for drawing the first dealer: 1 < … < 9 < J < Q < K < 广告 < 小鬼 < 大鬼."""


DECK: tuple[int, ...] = tuple(int(c) for c in full_deck())
"""The 126 cards as indices, in card order: a deal shuffles a copy."""


def play_order(dealer: int, n_seats: int) -> list[int]:
    """The three players, dealer first, in play order (counter-clockwise)."""
    return [(dealer + i) % n_seats for i in range(3)]


def deal_sequence(dealer: int, n_seats: int, order: str = "reverse_of_play") -> list[int]:
    """The seat receiving each of the 67 dealt cards, one at a time (Q3, QA2, QA3)."""
    players = play_order(dealer, n_seats)
    seats = [players[0], players[2], players[1]] if order == "reverse_of_play" else players
    out = []
    for r in range(DEALER_CARDS):
        for s in seats:
            if r < OTHER_CARDS or s == dealer:
                out.append(s)
    return out


@cache
def _deal_getters(
    dealer: int, n_seats: int, order: str
) -> tuple[tuple[int, Callable[[Sequence[int]], tuple[int, ...]]], ...]:
    """Each player in play order with a getter of its cards from a deck, in the order
    :func:`deal_sequence` deals them: one C call a seat, where a loop over the deal
    costs a Python step a card."""
    sequence = deal_sequence(dealer, n_seats, order)
    return tuple(
        (s, itemgetter(*[pos for pos, to in enumerate(sequence) if to == s]))
        for s in play_order(dealer, n_seats)
    )


_DEALT = DEALER_CARDS + 2 * OTHER_CARDS
"""Cards dealt to the three players; the next one is the 见张."""

_FLOWERS = {
    advert: tuple(int(c) for c in (Card.BJ, Card.SJ, Card.AD) if advert or c is not Card.AD)
    for advert in (False, True)
}
"""The cards set aside as flowers, by the option ``advert_is_flower``."""
_IS_FLOWER = {
    advert: bytes(c in cards for c in range(N_CARD_KINDS)) for advert, cards in _FLOWERS.items()
}


@cache
def _fed_by_role(meld: S.QingerMeld, role: int) -> S.QingerMeld:
    """``meld`` with its feeder as the scoring module numbers seats (by role): made once
    for each meld and role (a few thousand at most), where a settlement and every win
    check would build and validate each player's melds again."""
    return S.QingerMeld(meld.type, meld.cards, role)


def _ranks_text(ranks: frozenset[str]) -> str:
    """见牌 ranks in rank order: ``"1 2 5 8 9 J Q K"``."""
    return " ".join(sorted(ranks, key="123456789JQK".index))


def _fmt(cards: Sequence[int]) -> str:
    return format_cards(sorted(cards))


# -- the hand -------------------------------------------------------------------------


class QingerHand(HandBase):
    """A hand in progress. Build one, then loop ``to_act()`` / ``legal_actions`` / ``apply``.

    ``dealer=None`` draws cards for the first dealer (Q2, recorded as ``draw_for_dealer``).
    ``decks`` (optional) fixes the card order of the first deal and of redeals, for tests:
    each is 126 card indices, dealt from the front; later deals are shuffled by ``rng``
    (a match's fair-deal :class:`~paiju.engine.fairness.FairRandom`) or, when none is given,
    ``random.Random(seed)``, which also shuffles every deal when ``decks`` is not given.
    """

    PASS = PASS
    SEAT_BYTES = ("counts", "kinds")
    SEAT_LISTS = ("melds", "discards", "flowers", "takeoffs")
    LISTS = ("declared", "knocked", "last_in", "stock", "queue", "winners", "ledger", "log")
    DICTS = ("answers",)
    DICTS_OF_LISTS = ("pending",)
    CACHES = ("_legal",)

    def __init__(
        self,
        options: QingerOptions | None = None,
        *,
        seed: int = 0,
        dealer: int | None = None,
        decks: Sequence[Sequence[int]] | None = None,
        rng: HandRandom | None = None,
    ) -> None:
        self.options = opts = options or QingerOptions()
        self.seed = seed
        self.n_seats = n = opts.participants
        self.rng: HandRandom = rng if rng is not None else random.Random(seed)
        self.decks = [_check_deck(d) for d in decks] if decks else []
        self.log: list[Event] = []
        self.ledger: list[Payment] = []
        self.winners: list[int] = []
        self.exhausted = False
        self.win_how: WinType | None = None
        self.win_card = -1
        self.win_source = -1
        self.result: S.QingerResult | None = None
        self.explanation: dict[str, Any] | None = None
        """The settlement explained (JSON), carried by the end event."""
        if dealer is None:
            dealer = self._draw_for_dealer()
        elif not (isinstance(dealer, int) and 0 <= dealer < n):
            raise ValueError(f"dealer must be a seat 0–{n - 1}, not {dealer!r}")
        self.dealer = dealer
        self.players = play_order(dealer, n)
        self.sitting_out = (dealer - 1) % n if n == 4 else -1
        self.next_seat = [-1] * n
        for i, s in enumerate(self.players):
            self.next_seat[s] = self.players[(i + 1) % 3]
        self._deal = _deal_getters(dealer, n, opts.deal_order)
        self.is_flower = _IS_FLOWER[opts.advert_is_flower]
        self.flower_cards = _FLOWERS[opts.advert_is_flower]
        self.deals = 0
        self._legal: dict[int, list[int]] = {}
        self._start_deal()

    # -- setup ---------------------------------------------------------------------
    def _draw_for_dealer(self) -> int:
        """四家抽牌: every seat draws a card, the highest deals; a tie at the top draws
        again among the tied seats."""
        deck = list(DECK)
        # rng.shuffle's draws without its Python call a card (most of a deal's cost)
        shuffle(self.rng, deck)
        contenders = list(range(self.n_seats))
        pos = 0
        rounds: list[list[list[Any]]] = []
        while True:
            drawn = deck[pos : pos + len(contenders)]
            pos += len(contenders)
            rounds.append([[s, CARD_STR[c]] for s, c in zip(contenders, drawn, strict=True)])
            best = max(DRAW_VALUE[c] for c in drawn)
            top = [s for s, c in zip(contenders, drawn, strict=True) if DRAW_VALUE[c] == best]
            if len(top) == 1:
                break
            contenders = top
        self.log.append(Event("draw_for_dealer", top[0], data={"draws": rounds}))
        return top[0]

    def _start_deal(self) -> None:
        n = self.n_seats
        if self.deals < len(self.decks):
            deck = list(self.decks[self.deals])
        else:
            deck = list(DECK)
            shuffle(self.rng, deck)
        if self.deals:
            self.log.append(Event("redeal", self.dealer, data={"deal": self.deals + 1}))
        self.deals += 1
        self.counts = [bytearray(N_CARD_KINDS) for _ in range(n)]
        self.kinds = [bytearray(N_MELD_KINDS) for _ in range(n)]
        self.melds: list[list[S.QingerMeld]] = [[] for _ in range(n)]
        self.discards: list[list[int]] = [[] for _ in range(n)]
        self.flowers: list[list[int]] = [[] for _ in range(n)]
        self.takeoffs: list[list[tuple[int, ...]]] = [[] for _ in range(n)]
        self.declared = [0] * n
        """Sets shown outside the concealed cards: melds and takeoffs of four alike."""
        self.knocked: list[bool | None] = [None] * n
        self.last_in = [-1] * n
        """The card that last entered each seat's hand (a dealer's first-turn win card)."""
        self.indicator = deck[_DEALT]
        self.revealed = False
        self.stock = deck[_DEALT + 1 :]
        self.head = 0
        for s, cards_of in self._deal:
            cards = cards_of(deck)
            c, k = self.counts[s], self.kinds[s]
            for card in cards:
                c[card] += 1
                kind = MELD_KIND[card]
                if kind >= 0:
                    k[kind] += 1
            self.last_in[s] = cards[-1]
            self.log.append(new_event(Event, ("deal", s, -1, -1, {"cards": _fmt(cards)})))
        self.phase = KNOCK_PHASE
        self.queue = list(self.players)
        self.current = self.queue[0]
        self.drawn = -1
        self.after_pong = False
        self.pending: dict[int, list[int]] = {}
        self.answers: dict[int, int] = {}
        self.claim_card = -1
        self.claim_from = -1
        self._legal = {}

    def _reveal(self, seat: int) -> None:
        self.revealed = True
        self.stock.append(self.indicator)
        ranks = _ranks_text(S.jian_pai_ranks(Card(self.indicator)))
        self.log.append(
            Event("indicator", seat, data={"card": CARD_STR[self.indicator], "jian_pai": ranks})
        )

    def _after_knocks(self) -> None:
        for s in self.players:
            if not self._set_aside(s):
                return
        if self.options.takeoff_at_deal:
            self.phase = TAKEOFF_PHASE
            self.queue = list(self.players)
            self._next_takeoff_seat()
        else:
            self._start_play()

    def _takeoff_options(self, seat: int) -> list[int]:
        # Q6: four of one suit and rank; the face kinds (3 ♥ + 1 ♣) only by the option
        faces = self.options.takeoff_face_quads_by_rank
        out = [TAKEOFF + k for k, n in enumerate(self.kinds[seat]) if n == 4 and (k < 27 or faces)]
        fl = self.flowers[seat]
        if fl.count(Card.BJ) == 3 and fl.count(Card.SJ) == 2:
            out.append(TAKEOFF_JOKERS)
        return out

    def _next_takeoff_seat(self) -> None:
        while self.queue:
            seat = self.queue[0]
            if self._takeoff_options(seat) and self.stock_left:
                self.current = seat
                return
            self.queue.pop(0)
        self._start_play()

    def _start_play(self) -> None:
        self.phase = ACT
        self.current = self.dealer
        self.drawn = self.last_in[self.dealer]
        self.after_pong = False
        self.log.append(Event("play", self.dealer))

    # -- queries -------------------------------------------------------------------
    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.head

    @property
    def is_over(self) -> bool:
        return self.phase == END

    @property
    def self_drawn(self) -> bool:
        return bool(self.winners) and self.win_how is WinType.SELF_DRAW

    @staticmethod
    def action_str(action: int) -> str:
        return to_str(action)

    @staticmethod
    def parse_action(text: str) -> int:
        return parse(text)

    def to_act(self) -> list[int]:
        if self.phase == END:
            return []
        if self.phase == CLAIM:
            return [s for s in self.pending if s not in self.answers]
        return [self.current]

    def legal_actions(self, seat: int) -> list[int]:
        """Every legal action code for ``seat`` now, ascending; empty if it need not act."""
        cached = self._legal.get(seat)
        if cached is not None:
            return cached
        phase = self.phase
        result: list[int]
        if phase == ACT:
            result = self._act_actions(seat) if seat == self.current else []
        elif phase == CLAIM:
            opts = self.pending.get(seat)
            result = opts if opts is not None and seat not in self.answers else []
        elif phase == KNOCK_PHASE:
            result = [PASS, KNOCK] if seat == self.current else []
        elif phase == TAKEOFF_PHASE:
            result = [*self._takeoff_options(seat), PASS] if seat == self.current else []
        else:
            result = []
        self._legal[seat] = result
        return result

    def _act_actions(self, seat: int) -> list[int]:
        c = self.counts[seat]
        # the kinds held: compress runs in C, a comprehension over 36 counts does not
        out = list(compress(_CARD_KINDS, c))
        if self.after_pong:
            # a pong is followed by a discard only: no draw has happened to kong or win on
            return out
        kinds = self.kinds[seat]
        added = False
        if self.head < len(self.stock):
            if 4 in kinds:
                out.extend(CONCEALED_KONG + k for k in range(N_MELD_KINDS) if kinds[k] == 4)
            for m in self.melds[seat]:
                # the kind from the table: QingerMeld.kind goes through two properties
                kind = MELD_KIND[m.cards[0]]
                if m.type is MeldType.PONG and kinds[kind]:
                    out.append(ADDED_KONG + kind)
                    added = True
        if QINGER.is_complete_standard(bytes(kinds), self.declared[seat]) and S.can_win(
            self._scoring_hand([seat], WinType.SELF_DRAW, self._win_card(seat), -1),
            self.options,
        ):
            out.append(ZIMO)
        if added:
            # the added kongs come in meld order; every other part is already ascending
            out.sort()
        return out

    def _win_card(self, seat: int) -> int:
        card = self.drawn if self.drawn >= 0 else self.last_in[seat]
        if card < 0 or MELD_KIND[card] < 0 or not self.counts[seat][card]:
            # the last card in was melded or set aside: any card in hand stands for it
            card = next(k for k in range(27 + 6) if self.counts[seat][k])
        return card

    # -- what the rings ask the hand --------------------------------------------------
    def event_json(self, event: Event, seat: int | None) -> dict[str, Any]:
        return for_seat(event, seat)

    def claim_window_open(self) -> bool:
        """A claim window is waiting for answers (shown only to the seats it asks)."""
        return self.phase == CLAIM

    def unseen_counts(self, seat: int) -> list[int]:
        """Copies of each card kind ``seat`` has not seen (see :meth:`unseen_cards`)."""
        left = [0] * N_CARD_KINDS
        for card in self.unseen_cards(seat):
            left[card] += 1
        return left

    def wait_facts(self, seat: int) -> list[dict[str, Any]]:
        """``seat``'s waits (a hand one card short, in play): each card that completes it,
        the copies ``seat`` has not seen, and for a self-draw and for a discard None if
        the win would be legal now, else why not (below the gate); ``value`` is the
        total the gate compares (the running score against the threshold)."""
        if self.phase in (KNOCK_PHASE, END) or seat not in self.players:
            return []
        kinds = self.kinds[seat]
        declared = self.declared[seat]
        if sum(kinds) != 3 * (7 - declared) + 1:
            return []
        unseen = self.unseen_counts(seat)
        below = S.threshold_reason(self.options)
        out = []
        for kind in QINGER.waits(bytes(kinds), declared):
            for card in (c for c in range(N_CARD_KINDS) if MELD_KIND[c] == kind):
                facts: dict[str, Any] = {"card": CARD_STR[card], "left": unseen[card]}
                for key, how in (("self_draw", WinType.SELF_DRAW), ("discard", WinType.DISCARD)):
                    source = -1 if how is WinType.SELF_DRAW else self.next_seat[seat]
                    situation = self._imagined(seat, how, card, source)
                    refusal = (
                        Refusal("zi_mo_only", "只许自摸", "only self-drawn wins count")
                        if self.options.zi_mo_only and how is WinType.DISCARD
                        else Refusal("below_threshold", *below)
                    )
                    facts[key] = None if S.can_win(situation, self.options) else refusal.to_json()
                    if how is WinType.SELF_DRAW:
                        facts["value"] = S.hand_value_before_multipliers(situation, self.options)
                out.append(facts)
        return out

    def running_value(self, seat: int | None) -> int | None:
        """``seat``'s running score toward the win threshold (``scoring.running_value``);
        None for a spectator, a seat sitting the hand out, and before the 见张 is turned
        up (its ranks change the set points, and the seat cannot know them yet)."""
        if seat is None or seat not in self.players or not self.revealed:
            return None
        situation = self._scoring_hand([], None, -1, -1)
        return S.running_value(situation, self.role(seat), self.options)

    def _imagined(self, seat: int, how: WinType, card: int, source: int) -> S.QingerSituation:
        """The scoring situation if ``card`` came to ``seat`` now by ``how``."""
        if how is WinType.SELF_DRAW:
            self.counts[seat][card] += 1
            try:
                return self._scoring_hand([seat], how, card, source)
            finally:
                self.counts[seat][card] -= 1
        return self._scoring_hand([seat], how, card, source)

    # -- apply ---------------------------------------------------------------------
    def apply(self, action: int, seat: int | None = None) -> list[Event]:
        """Apply ``action`` for ``seat`` (default: the only seat to act); the new events.

        :class:`InvalidActionError` for a malformed action, :class:`IllegalActionError` for
        one that is not legal now; neither changes anything."""
        if action.__class__ is not int or not 0 <= action < N_ACTIONS:
            # the plain int in range skips the call; anything else gets its error there
            check_code(action)
        if seat is None:
            actors = self.to_act()
            if len(actors) != 1:
                raise IllegalActionError(
                    f"several seats may act now ({actors}); say which seat acts"
                )
            seat = actors[0]
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.n_seats:
            raise IllegalActionError(f"no seat {seat!r}")
        # the caller has usually just asked legal_actions: its cached answer, without the call
        legal = self._legal.get(seat)
        if legal is None:
            legal = self.legal_actions(seat)
        if action not in legal:
            raise IllegalActionError(
                f"{to_str(action)} is not legal for seat {seat} now ({self.phase})"
            )
        mark = len(self.log)
        self._legal = {}
        phase = self.phase
        if phase == ACT:
            if action < CONCEALED_KONG:
                self._discard(seat, action)
            else:
                self._apply_act(seat, action)
        elif phase == CLAIM:
            self.answers[seat] = action
            if len(self.answers) == len(self.pending):
                self._resolve_claims()
        elif phase == KNOCK_PHASE:
            self._apply_knock(seat, action)
        else:
            self._apply_takeoff(seat, action)
        return self.log[mark:]

    def _apply_knock(self, seat: int, action: int) -> None:
        knocks = action == KNOCK
        self.knocked[seat] = knocks
        self.log.append(Event("knock", seat, data={"knock": knocks}))
        if knocks and not self.revealed:
            self._reveal(seat)
        self.queue.pop(0)
        if self.queue:
            self.current = self.queue[0]
            return
        if not self.revealed:
            if self.options.redeal_if_nobody_knocks:
                self._start_deal()
                return
            self._reveal(self.dealer)
        self._after_knocks()

    def _apply_takeoff(self, seat: int, action: int) -> None:
        if action == PASS:
            self.queue.pop(0)
        elif action == TAKEOFF_JOKERS:
            fl = self.flowers[seat]
            for card in S.FIVE_JOKERS:
                fl.remove(card)
            self.takeoffs[seat].append(tuple(int(c) for c in S.FIVE_JOKERS))
            self.log.append(Event("takeoff", seat, data={"cards": _fmt(S.FIVE_JOKERS)}))
        else:
            kind = action - TAKEOFF
            cards = self._remove_kind(seat, kind, 4)
            self.takeoffs[seat].append(tuple(sorted(cards)))
            self.declared[seat] += 1
            self.log.append(Event("takeoff", seat, data={"cards": _fmt(cards)}))
            if not self._take(seat) or not self._set_aside(seat):
                return
        self._next_takeoff_seat()

    def _apply_act(self, seat: int, action: int) -> None:
        """A kong or a self-drawn win (:meth:`apply` makes discards itself)."""
        if action < ADDED_KONG:
            kind = action - CONCEALED_KONG
            cards = self._remove_kind(seat, kind, 4)
            self.melds[seat].append(
                S.QingerMeld(MeldType.CONCEALED_KONG, tuple(CARDS[c] for c in sorted(cards)))
            )
            self.declared[seat] += 1
            self.log.append(Event("concealed_kong", seat, data={"cards": _fmt(cards)}))
            self._draw(seat)
        elif action < TAKEOFF:
            kind = action - ADDED_KONG
            melds = self.melds[seat]
            i = next(i for i, m in enumerate(melds) if m.type is MeldType.PONG and m.kind == kind)
            (card,) = self._remove_kind(seat, kind, 1)
            old = melds[i]
            melds[i] = S.QingerMeld(
                MeldType.ADDED_KONG, tuple(sorted((*old.cards, Card(card)))), old.source
            )
            self.log.append(Event("added_kong", seat, data={"card": CARD_STR[card]}))
            self._draw(seat)
        elif action == ZIMO:
            self._win([seat], WinType.SELF_DRAW, self._win_card(seat), -1)

    def _remove_kind(self, seat: int, kind: int, n: int) -> list[int]:
        c = self.counts[seat]
        taken: list[int] = []
        for card in CARDS_OF_KIND[kind]:
            while c[card] and len(taken) < n:
                c[card] -= 1
                taken.append(card)
        self.kinds[seat][kind] -= n
        return taken

    def _discard(self, seat: int, card: int) -> None:
        self.counts[seat][card] -= 1
        kind = MELD_KIND[card]
        if kind >= 0:
            self.kinds[seat][kind] -= 1
        self.discards[seat].append(card)
        self.log.append(new_event(Event, ("discard", seat, -1, -1, {"card": CARD_STR[card]})))
        self.after_pong = False
        self.drawn = -1
        if kind < 0:
            # a dead 广告 (advert_is_flower off) cannot be claimed
            self._draw(self.next_seat[seat])
            return
        pending = self._claim_window(seat, card)
        if pending:
            self.pending = pending
            self.answers = {}
            self.claim_card = card
            self.claim_from = seat
            self.phase = CLAIM
        else:
            self._draw(self.next_seat[seat])

    def _claim_window(self, source: int, card: int) -> dict[int, list[int]]:
        """Every other seat's answers to ``card`` just discarded by ``source``."""
        kind = MELD_KIND[card]
        pending: dict[int, list[int]] = {}
        meld_ok = self.head < len(self.stock)
        is_complete = QINGER.is_complete_standard
        next_seat = self.next_seat
        s = next_seat[source]
        while s != source:
            kinds = self.kinds[s]
            n = kinds[kind]
            kinds[kind] = n + 1
            with_card = bytes(kinds)
            kinds[kind] = n
            wins = is_complete(with_card, self.declared[s]) and S.can_win(
                self._scoring_hand([s], WinType.DISCARD, card, source), self.options
            )
            # most seats can only pass: no answer list is built for them
            if meld_ok and n >= 2:
                opts = [PASS, PONG, KONG] if n == 3 else [PASS, PONG]
                if wins:
                    opts.append(HU)
                pending[s] = opts
            elif wins:
                pending[s] = [PASS, HU]
            s = next_seat[s]
        return pending

    def _resolve_claims(self) -> None:
        card, source = self.claim_card, self.claim_from
        answers = self.answers
        order = [self.next_seat[source], self.next_seat[self.next_seat[source]]]
        winners = [s for s in order if answers.get(s) == HU]
        if winners:
            if self.options.one_winner_per_discard:
                winners = winners[:1]
            self._win(winners, WinType.DISCARD, card, source)
            return
        for s in order:
            act = answers.get(s)
            if act in (PONG, KONG):
                self._claim_meld(s, act, card, source)
                return
        self.pending = {}
        self._draw(self.next_seat[source])

    def _claim_meld(self, seat: int, act: int, card: int, source: int) -> None:
        self.pending = {}
        self.discards[source].pop()
        kind = MELD_KIND[card]
        size = 2 if act == PONG else 3
        cards = sorted((card, *self._remove_kind(seat, kind, size)))
        meld_type = MeldType.PONG if act == PONG else MeldType.KONG
        self.melds[seat].append(S.QingerMeld(meld_type, tuple(CARDS[c] for c in cards), source))
        self.declared[seat] += 1
        self.log.append(
            Event(
                meld_type.value,
                seat,
                data={"cards": _fmt(cards), "card": CARD_STR[card], "from": source},
            )
        )
        self.current = seat
        self.phase = ACT
        if act == PONG:
            self.after_pong = True
            self.drawn = -1
        else:
            self._draw(seat)

    # -- drawing -------------------------------------------------------------------
    def _take(self, seat: int) -> bool:
        """Move the top card of the stock into ``seat``'s hand; False if it is empty."""
        if self.head >= len(self.stock):
            self._exhaust()
            return False
        card = self.stock[self.head]
        self.head += 1
        self.counts[seat][card] += 1
        kind = MELD_KIND[card]
        if kind >= 0:
            self.kinds[seat][kind] += 1
        self.last_in[seat] = card
        self.log.append(new_event(Event, ("draw", seat, -1, -1, {"card": CARD_STR[card]})))
        return True

    def _set_aside(self, seat: int) -> bool:
        """补花: set every flower in ``seat``'s hand aside, each replaced from the stock,
        until none is left (a replacement may itself be a flower). False if the stock
        ran out (the hand is then over)."""
        c = self.counts[seat]
        flower_cards = self.flower_cards
        while True:
            for card in flower_cards:
                if c[card]:
                    break
            else:
                return True
            c[card] -= 1
            self.flowers[seat].append(card)
            self.log.append(new_event(Event, ("flower", seat, -1, -1, {"card": CARD_STR[card]})))
            if not self._take(seat):
                return False

    def _draw(self, seat: int) -> None:
        """A turn's draw (or a kong's replacement) with 补花 of drawn flowers."""
        self.current = seat
        self.phase = ACT
        self.after_pong = False
        self.pending = {}
        if not self._take(seat):
            return
        card = self.last_in[seat]
        if self.is_flower[card] and not self._set_aside(seat):
            return
        self.drawn = self.last_in[seat]

    def _exhaust(self) -> None:
        self.exhausted = True
        self.phase = END
        self.pending = {}
        self.log.append(Event("exhausted"))
        self._settle()

    # -- winning and settlement ------------------------------------------------------
    def role(self, seat: int) -> int:
        """0 = 庄 dealer, 1 = 下家, 2 = 对家: the scoring module's seat numbers."""
        return self.players.index(seat)

    def _player(self, seat: int, extra: int = -1) -> S.QingerPlayer:
        if extra >= 0:
            held = list(self.counts[seat])
            held[extra] += 1
            concealed = tuple(held)
        else:
            concealed = tuple(self.counts[seat])
        own = self.melds[seat]
        melds = (
            tuple(m if m.source is None else _fed_by_role(m, self.role(m.source)) for m in own)
            if own
            else ()
        )
        takeoffs = self.takeoffs[seat]
        return S.QingerPlayer(
            concealed,
            melds,
            tuple(map(_card, self.flowers[seat])),
            tuple(tuple(map(_card, t)) for t in takeoffs) if takeoffs else (),
            bool(self.knocked[seat]),
        )

    def _scoring_hand(
        self, winners: list[int], how: WinType | None, card: int, source: int
    ) -> S.QingerSituation:
        """The scoring module's picture of this hand, in its seat numbers (dealer = 0)."""
        extra = card if how is WinType.DISCARD else -1
        players = tuple([self._player(s, extra if s in winners else -1) for s in self.players])
        if not winners:
            return S.QingerSituation(
                dealer=0,
                indicator=CARDS[self.indicator],
                players=players,
                stakes=self.options.stakes,
            )
        return S.QingerSituation(
            dealer=0,
            indicator=CARDS[self.indicator],
            players=players,
            winner=self.role(winners[0]),
            win_type=how,
            win_card=CARDS[card],
            source=self.role(source) if source >= 0 else None,
            stakes=self.options.stakes,
            also_won=tuple(self.role(s) for s in winners[1:]),
        )

    def _win(self, winners: list[int], how: WinType, card: int, source: int) -> None:
        self.pending = {}
        self.winners = winners
        self.win_how = how
        self.win_card = card
        self.win_source = source
        self.phase = END
        data: dict[str, Any] = {"winners": list(winners), "how": how.value}
        data["card"] = CARD_STR[card]
        if source >= 0:
            data["from"] = source
        self.log.append(Event("win", data=data))
        self._settle()

    def _settle(self) -> None:
        hand = self._scoring_hand(self.winners, self.win_how, self.win_card, self.win_source)
        result = S.score_hand(hand, self.options)
        if not result.valid:  # pragma: no cover - legal_actions offers passing wins only
            raise AssertionError(f"an offered win did not score: {result.reason_en}")
        self.result = result
        self.explanation = explain_hand(hand, result, self.players).to_json()
        log = self.log
        for role, seat in enumerate(self.players):
            score = {
                "score": result.scores[role],
                "before_multipliers": result.before_multipliers[role],
                "items": [item.to_json() for item in result.items[role]],
            }
            log.append(Event("score", seat, data=score))
        for p in result.payments:
            payment = Payment(self.players[p.payer], self.players[p.payee], p.amount, p.reason)
            self.ledger.append(payment)
            paid = {
                "payer": payment.payer,
                "payee": payment.payee,
                "amount": payment.amount,
                "reason": payment.reason,
            }
            log.append(Event("payment", payment.payee, data=paid))
        end = {"net": self.net(), "explanation": self.explanation}
        log.append(Event("end", data=end))

    # -- results and views ---------------------------------------------------------
    def net(self) -> list[int]:
        out = [0] * self.n_seats
        for p in self.ledger:
            out[p.payer] -= p.amount
            out[p.payee] += p.amount
        return out

    def cards_in_play(self) -> int:
        """Every card accounted for: hands, melds, flowers, takeoffs, discards, stock and
        the 见张 while still face down (126 at every moment)."""
        total = self.stock_left + (0 if self.revealed else 1)
        for s in range(self.n_seats):
            total += sum(self.counts[s]) + len(self.flowers[s]) + len(self.discards[s])
            total += sum(len(m.cards) for m in self.melds[s])
            total += sum(len(t) for t in self.takeoffs[s])
        return total

    def pair_stakes(self) -> list[dict[str, Any]]:
        """Each pair of seats in the hand with the stake its payment is multiplied by (Q1:
        by how many of the two knocked; a seat yet to answer counts as not knocking), so
        a table can show what the knocks did to the stakes."""
        stakes = self.options.stakes
        playing = [s for s in range(self.n_seats) if s != self.sitting_out]
        return [
            {"seats": [a, b], "stake": stakes[bool(self.knocked[a]) + bool(self.knocked[b])]}
            for i, a in enumerate(playing)
            for b in playing[i + 1 :]
        ]

    def view(self, seat: int | None, *, recent: bool = True) -> dict[str, Any]:
        """What ``seat`` may know (None: a spectator). Never another seat's concealed
        cards, never the order of the stock; the 见张 only once it is turned up."""
        players = []
        for s in range(self.n_seats):
            info: dict[str, Any] = {
                "seat": s,
                "plays": s != self.sitting_out,
                "knocked": self.knocked[s],
                "melds": [
                    {
                        "type": m.type.value,
                        "cards": format_cards(m.cards),
                        "from": m.source,
                    }
                    for m in self.melds[s]
                ],
                "takeoffs": [_fmt(t) for t in self.takeoffs[s]],
                "flowers": _fmt(self.flowers[s]),
                "discards": " ".join(CARD_STR[c] for c in self.discards[s]),
                "concealed_count": sum(self.counts[s]),
            }
            if s == seat or (self.phase == END and s in self.winners):
                info["hand"] = _fmt(
                    [c for c in range(N_CARD_KINDS) for _ in range(self.counts[s][c])]
                )
            players.append(info)
        # a claim window is shown only to the seats it asks (see MahjongHand.view)
        window = self.phase == CLAIM
        asked = seat is not None and seat in self.to_act()
        out: dict[str, Any] = {
            "variant": "qinger",
            "seat": seat,
            "dealer": self.dealer,
            "sitting_out": self.sitting_out if self.sitting_out >= 0 else None,
            "phase": Phase.WAIT if window and not asked else self.phase,
            "current": self.current,
            "stock_left": self.stock_left,
            "indicator": CARD_STR[self.indicator] if self.revealed else None,
            "jian_pai": _ranks_text(S.jian_pai_ranks(Card(self.indicator)))
            if self.revealed
            else None,
            "players": players,
            "to_act": ([seat] if asked else []) if window else self.to_act(),
            "legal_actions": [to_str(a) for a in self.legal_actions(seat)]
            if seat is not None
            else [],
            "net": self.net(),
            "stakes": self.pair_stakes(),
            "gate": {
                "threshold": self.options.win_threshold,
                "strict": self.options.win_threshold_strict,
                "running": self.running_value(seat),
            },
        }
        if seat is not None and seat == self.current and self.phase == ACT and self.drawn >= 0:
            out["drawn"] = CARD_STR[self.drawn]
        if window and asked:
            out["claim_card"] = CARD_STR[self.claim_card]
        if seat is not None:
            out["waits"] = self.wait_facts(seat)
        if recent:
            # the last few events (``recent=False``: a caller that sends them anyway)
            out["events"] = [for_seat(e, seat) for e in self.log[-8:]]
        return out

    def copy(self) -> QingerHand:
        new = super().copy()
        # a redeal shuffles again: the copy draws on its own
        new.rng = copy.copy(self.rng)
        return new

    # -- what a seat cannot see ----------------------------------------------------
    def unseen_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` cannot see: the whole deck minus its own cards, every meld,
        discard, flower set aside and takeoff shown, and the 见张 while it lies face up at
        the bottom of the stock."""
        left = [0] * N_CARD_KINDS
        for deck_card in full_deck():
            left[int(deck_card)] += 1
        for k, n in enumerate(self.counts[seat]):
            left[k] -= n
        for s in range(self.n_seats):
            for m in self.melds[s]:
                for meld_card in m.cards:
                    left[int(meld_card)] -= 1
            for group in (self.discards[s], self.flowers[s]):
                for card in group:
                    left[card] -= 1
            for shown in self.takeoffs[s]:
                for card in shown:
                    left[card] -= 1
        if self.revealed and self.head < len(self.stock):
            left[self.indicator] -= 1
        if min(left) < 0:  # pragma: no cover - the hand conserves cards
            raise AssertionError("more cards seen than the deck holds")
        return [c for c, n in enumerate(left) for _ in range(n)]

    def determinize(self, seat: int, rng: random.Random) -> QingerHand:
        """A copy of this hand that ``seat`` could not tell from it: the other players'
        cards, the 见张 (until a knock shows it) and the stock dealt again from
        :meth:`unseen_cards`. Flowers set aside stay where they are, and past 补花 no
        flower goes back into a hand (they go to the stock). The copy's redeal shuffles
        are reseeded from ``rng`` (the real generator is hidden state too), and an open
        claim window is rebuilt by this hand's own rules on the sampled cards, with no
        answer given yet."""
        indicator_down = self.revealed and self.head < len(self.stock)
        before_flowers = self.phase == KNOCK_PHASE
        flower = self.is_flower
        pool = self.unseen_cards(seat)
        rng.shuffle(pool)
        holdable = [c for c in pool if before_flowers or not flower[c]]
        aside = [c for c in pool if not (before_flowers or not flower[c])]
        det = self.copy()
        det.rng = random.Random(rng.getrandbits(64))
        pos = 0
        for s in self.players:
            if s == seat:
                continue
            size = sum(self.counts[s])
            counts = bytearray(N_CARD_KINDS)
            kinds = bytearray(len(self.kinds[s]))
            for card in holdable[pos : pos + size]:
                counts[card] += 1
                kind = MELD_KIND[card]
                if kind >= 0:
                    kinds[kind] += 1
            pos += size
            det.counts[s] = counts
            det.kinds[s] = kinds
            if self.last_in[s] >= 0 and not counts[self.last_in[s]]:
                det.last_in[s] = next(c for c in range(N_CARD_KINDS) if counts[c])
        rest = holdable[pos:] + aside
        rng.shuffle(rest)
        if indicator_down:
            det.stock = self.stock[: self.head] + rest + [self.indicator]
        elif self.revealed:
            det.stock = self.stock[: self.head] + rest
        else:
            det.indicator = rest.pop()
            det.stock = self.stock[: self.head] + rest
        if len(det.stock) != len(self.stock):  # pragma: no cover - conservation again
            raise AssertionError("the unseen cards do not fill the hands and the stock")
        current = self.current
        if current != seat and det.drawn >= 0 and not det.counts[current][det.drawn]:
            det.drawn = det.last_in[current]
        det._legal = {}
        if self.phase == CLAIM:
            det.pending = det._claim_window(self.claim_from, self.claim_card)
            det.answers = {}
        return det


PRIVATE_TYPES = frozenset({"deal", "draw"})
"""Events whose cards only their own seat may see."""


def for_seat(event: Event, seat: int | None) -> dict[str, Any]:
    """The JSON of ``event`` as ``seat`` may see it (None: a spectator): another seat's
    deal shows only how many cards, its draws no card."""
    out = to_json(event)
    if event.type in PRIVATE_TYPES and event.seat != seat:
        if "cards" in out:
            out["cards"] = len(parse_cards(out["cards"]))
        out.pop("card", None)
    return out


def _check_deck(deck: Sequence[int]) -> list[int]:
    cards = [int(c) for c in deck]
    if sorted(cards) != [int(c) for c in full_deck()]:
        raise ValueError(f"a deck is the {DECK_SIZE} Qing'er cards, each exactly once per copy")
    return cards


def arrange_deck(
    hands: Sequence[Sequence[int]],
    indicator: int,
    draws: Sequence[int] = (),
    *,
    dealer: int = 0,
    participants: int = 3,
    deal_order: str = "reverse_of_play",
) -> list[int]:
    """A deck that deals ``hands`` (by seat; the dealer's has 23 cards, the other players'
    22, a seat sitting out none), turns up ``indicator`` as the 见张, then yields ``draws``
    from the top of the stock (replacements included); the rest of the deck follows in
    card order. For tests and for entering a physical table's deal."""
    if len(hands) != participants:
        raise ValueError(f"give a hand for each of the {participants} seats")
    players = play_order(dealer, participants)
    for s in range(participants):
        want = DEALER_CARDS if s == dealer else OTHER_CARDS if s in players else 0
        if len(hands[s]) != want:
            raise ValueError(f"seat {s} must be dealt {want} cards, not {len(hands[s])}")
    queues = {s: [int(c) for c in hands[s]] for s in players}
    front = [queues[s].pop(0) for s in deal_sequence(dealer, participants, deal_order)]
    used = [*front, int(indicator), *(int(c) for c in draws)]
    pool = [int(c) for c in full_deck()]
    for card in used:
        try:
            pool.remove(card)
        except ValueError:
            raise ValueError(f"too many copies of {Card(card)} in the arranged deck") from None
    return used + pool
