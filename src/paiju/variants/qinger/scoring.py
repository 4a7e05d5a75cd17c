"""Qing'er (青儿) scoring: every player is scored, then the three settle in pairs.

The order is the one of ``docs/rules/analysis.md`` §2.3 (Computation order):

1. set points (pongs, concealed triplets, kongs 笃, takeoffs 起飞), rounded up to 10;
2. the always-scored bonuses (jokers, 广告, ♣ face cards by seat), for everyone;
3. the winner's items: base 20 or 青儿 100, the wait bonus, 文钱, taking the best
   reading of the hand;
4. the winner's pre-multiplier total must exceed 60, otherwise there is no win;
5. multipliers (三红, 穷狠 or 穷穷狠, 飘胡) multiply together; a non-winner gets only
   the full 三红;
6. for each pair of players the lower score pays the difference times the stake for
   how many of the two knocked (neither / one / both).

The engine settles hands with :func:`score_hand` and checks the threshold in its legal
actions with :func:`can_win`; ``paiju score`` calls the same functions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from paiju.components.analysis import QINGER, Reading, Wait
from paiju.components.cards import N_CARD_KINDS, N_MELD_KINDS, Card
from paiju.engine.types import MeldType, Payment, ScoreItem, WinType
from paiju.variants.qinger.items import ITEM_ORDER, ITEMS, PAYMENT_REASON
from paiju.variants.qinger.options import DEFAULT_OPTIONS, QingerOptions

N_PLAYERS = 3
"""Players in one hand; with ``participants = 4`` a fourth sits the hand out (QA1)."""

FIVE_JOKERS: tuple[Card, ...] = (Card.BJ, Card.BJ, Card.BJ, Card.SJ, Card.SJ)
_FACE_KINDS = (27, 28, 29)
_SEAT_CARDS = (Card.CK, Card.CQ, Card.CJ)
"""♣ card of each seat role, counted from the dealer: 庄 K, 下家 Q, 对家 J (Q26)."""
_CLUB_FACES = (Card.CK, Card.CQ, Card.CJ)
_BJ, _SJ, _AD = int(Card.BJ), int(Card.SJ), int(Card.AD)
_PONG, _CONCEALED_KONG = MeldType.PONG, MeldType.CONCEALED_KONG
# module names for what each player's settlement reads: a member looked up on an enum
# class costs several times a global


# -- input types ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class QingerMeld:
    """A pong or a kong (笃). ``cards`` keeps suits because ♣ face cards score (Q26).

    Face cards meld by rank (QA6), so ``(Kh, Kh, Kc)`` is a pong of kings.
    ``source`` is the seat that fed it; ``None`` for a concealed kong.
    """

    type: MeldType
    cards: tuple[Card, ...]
    source: int | None = None

    def __post_init__(self) -> None:
        if len(self.cards) != self.type.size:
            raise ValueError(f"a {self.type.value} has {self.type.size} cards")
        kinds = {c.meld_kind for c in self.cards}
        if len(kinds) != 1 or -1 in kinds:
            raise ValueError(f"a {self.type.value} is cards of one kind")
        if (self.type is MeldType.CONCEALED_KONG) != (self.source is None):
            raise ValueError("a concealed kong has no feeder; every other meld has one")

    @classmethod
    def of(cls, type_: MeldType, card: Card, source: int | None = None) -> QingerMeld:
        """A meld of identical cards, e.g. ``QingerMeld.of(MeldType.PONG, Card.S7, 1)``."""
        return cls(type_, (card,) * type_.size, source)

    @property
    def kind(self) -> int:
        return self.cards[0].meld_kind


def is_joker_takeoff(cards: Sequence[Card]) -> bool:
    """五喜起飞: all three 大鬼 and both 小鬼."""
    return sorted(cards) == list(FIVE_JOKERS)


def is_quad_takeoff(cards: Sequence[Card], *, by_rank: bool = False) -> bool:
    """Q6 「4張花色相同并且同字」: four cards of one suit and rank. ``by_rank`` also takes
    four face cards of one rank whatever their suits (♥K♥K♥K♣K, the option
    ``takeoff_face_quads_by_rank``); a number card's suit is always part of its kind."""
    if len(cards) != 4 or cards[0].meld_kind < 0:
        return False
    if by_rank:
        return len({c.meld_kind for c in cards}) == 1
    return len(set(cards)) == 1


@dataclass(frozen=True, slots=True)
class QingerPlayer:
    """One player's cards at the end of a hand.

    ``concealed`` is a 36-long count vector indexed by :class:`Card` (the winner's
    includes the winning card). ``flowers`` are the jokers (and 广告) set aside;
    ``takeoffs`` the 起飞 sets shown at the deal: four alike, or :data:`FIVE_JOKERS`.
    """

    concealed: tuple[int, ...]
    melds: tuple[QingerMeld, ...] = ()
    flowers: tuple[Card, ...] = ()
    takeoffs: tuple[tuple[Card, ...], ...] = ()
    knocked: bool = False

    def __post_init__(self) -> None:
        if len(self.concealed) != N_CARD_KINDS or min(self.concealed) < 0:
            raise ValueError(f"concealed must be {N_CARD_KINDS} non-negative counts")
        for t in self.takeoffs:
            # the looser by-rank test: whether face quads may take off is the options' call
            if not (is_quad_takeoff(t, by_rank=True) or is_joker_takeoff(t)):
                raise ValueError("a takeoff is four alike or all five jokers")

    @classmethod
    def from_cards(
        cls,
        hand: Iterable[Card],
        melds: Iterable[QingerMeld] = (),
        flowers: Iterable[Card] = (),
        takeoffs: Iterable[Sequence[Card]] = (),
        knocked: bool = False,
    ) -> QingerPlayer:
        counts = [0] * N_CARD_KINDS
        for card in hand:
            counts[card] += 1
        return cls(
            tuple(counts),
            tuple(melds),
            tuple(flowers),
            tuple(tuple(t) for t in takeoffs),
            knocked,
        )

    @property
    def quad_takeoffs(self) -> tuple[tuple[Card, ...], ...]:
        return tuple(t for t in self.takeoffs if not is_joker_takeoff(t))

    @property
    def has_joker_takeoff(self) -> bool:
        return any(is_joker_takeoff(t) for t in self.takeoffs)

    @property
    def declared(self) -> int:
        """Sets outside the concealed cards: melds and takeoffs of four alike."""
        return len(self.melds) + len(self.quad_takeoffs)

    def card_counts(self) -> list[int]:
        """Every card the player holds: concealed, melds, flowers and takeoffs."""
        counts = list(self.concealed)
        for m in self.melds:
            for c in m.cards:
                counts[c] += 1
        for c in self.flowers:
            counts[c] += 1
        for t in self.takeoffs:
            for c in t:
                counts[c] += 1
        return counts

    def meld_kind_counts(self) -> list[int]:
        """The concealed cards as the analyser's 30 meld kinds (face cards by rank)."""
        c = self.concealed
        # the card order (paiju.components.cards): a number card is its own kind, a face
        # kind is its ♥ card (27–29) and its ♣ card (30–32); one slice, not a Card a card
        return [*c[:27], c[27] + c[30], c[28] + c[31], c[29] + c[32]]


@dataclass(frozen=True, slots=True)
class QingerSituation:
    """The end of one hand. Seats 0–2 are numbered in play order; ``winner`` is
    ``None`` when the stock ran out. ``source`` is the discarder of a discard win."""

    dealer: int
    indicator: Card
    players: tuple[QingerPlayer, ...]
    winner: int | None = None
    win_type: WinType | None = None
    win_card: Card | None = None
    source: int | None = None
    stakes: tuple[int, int, int] = (1, 2, 3)
    also_won: tuple[int, ...] = ()
    """Further winners on the same discard (only with ``one_winner_per_discard`` off)."""

    def __post_init__(self) -> None:
        if len(self.players) != N_PLAYERS:
            raise ValueError(f"a Qing'er hand has {N_PLAYERS} players")
        if not 0 <= self.dealer < N_PLAYERS:
            raise ValueError("dealer must be a seat 0–2")
        if len(self.stakes) != 3:
            raise ValueError("stakes are three multipliers (neither, one, both knocked)")
        if self.winner is None:
            if self.also_won:
                raise ValueError("further winners need a first winner")
            return
        if not 0 <= self.winner < N_PLAYERS:
            raise ValueError("winner must be a seat 0–2")
        if self.win_card is None or self.win_card.meld_kind < 0:
            raise ValueError("a win needs a winning card that can sit in a hand")
        if not self.players[self.winner].concealed[self.win_card]:
            raise ValueError("the winner's concealed cards must include the winning card")
        if self.win_type is WinType.DISCARD:
            if self.source is None or self.source == self.winner:
                raise ValueError("a discard win needs a discarder other than the winner")
        elif self.win_type is not WinType.SELF_DRAW:
            raise ValueError("a Qing'er win is by self-draw or by discard")
        if self.also_won:
            if self.win_type is not WinType.DISCARD:
                raise ValueError("only a discard can have several winners")
            if len(set(self.winners)) != len(self.winners) or self.source in self.also_won:
                raise ValueError("further winners are distinct seats other than the discarder")
            for seat in self.also_won:
                if not 0 <= seat < N_PLAYERS or not self.players[seat].concealed[self.win_card]:
                    raise ValueError("every winner's concealed cards include the winning card")

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self.winner is None else (self.winner, *self.also_won)


@dataclass(frozen=True, slots=True)
class QingerResult:
    """Per-seat scores and items, the pairwise ledger and the net per seat.

    ``before_multipliers`` is each player's total before 翻番 (the winner's is what the
    threshold is checked on). An invalid result carries a reason and nothing else.
    """

    valid: bool
    scores: tuple[int, ...] = ()
    before_multipliers: tuple[int, ...] = ()
    items: tuple[tuple[ScoreItem, ...], ...] = ()
    payments: tuple[Payment, ...] = ()
    net: tuple[int, ...] = ()
    reason_zh: str = ""
    reason_en: str = ""

    @classmethod
    def invalid(cls, zh: str, en: str) -> QingerResult:
        return cls(False, reason_zh=zh, reason_en=en)


# -- 见牌, seats, small helpers ---------------------------------------------------------


def kind_rank(kind: int) -> str:
    """'1'–'9' for number kinds, 'J'/'Q'/'K' for the face kinds 27–29."""
    return str(kind % 9 + 1) if kind < 27 else "JQK"[kind - 27]


def jian_pai_ranks(indicator: Card) -> frozenset[str]:
    """The 见牌 ranks fixed by the 见张 (Q22, QA8). 1, 9, J, Q and K are always seen."""
    return _JIAN_PAI[indicator]


def _jian_pai_ranks(indicator: Card) -> frozenset[str]:
    base = {"1", "9", "J", "Q", "K"}
    if indicator.is_number:
        rank = int(indicator.rank)
        if rank in (1, 4, 7):
            base |= {"4", "7"}
        elif rank in (2, 5, 8):
            base |= {"2", "5", "8"}
        else:
            base |= {"3", "6"}
    return frozenset(base)


_JIAN_PAI = tuple(_jian_pai_ranks(Card(c)) for c in range(N_CARD_KINDS))
"""The ranks by 见张."""
_SEEN_KIND = tuple(bytes(kind_rank(k) in ranks for k in range(N_MELD_KINDS)) for ranks in _JIAN_PAI)
"""By 见张, 1 for each meld kind of a 见牌 rank: every player's set points ask of each of
their sets at each settlement."""
_AT_LEAST_3 = bytes(n >= 3 for n in range(256))
"""A ``bytes.translate`` table: 1 where a kind's count makes a concealed triplet."""


def is_joker_indicator(indicator: Card, options: QingerOptions = DEFAULT_OPTIONS) -> bool:
    """喜喜见: the 见张 is a joker (or 广告, when ``advert_indicator_as_joker``)."""
    return indicator.is_joker or (indicator is Card.AD and options.advert_indicator_as_joker)


_JOKER_JIAN = {
    advert: tuple(
        is_joker_indicator(Card(c), QingerOptions(advert_indicator_as_joker=advert))
        for c in range(N_CARD_KINDS)
    )
    for advert in (False, True)
}
""":func:`is_joker_indicator` by ``advert_indicator_as_joker`` and 见张, read by every
player's bonuses at each settlement."""


def seat_role(seat: int, dealer: int) -> int:
    """0 = 庄 dealer, 1 = 下家 (next in play order), 2 = 对家 (the third player)."""
    return (seat - dealer) % N_PLAYERS


def round_up_10(points: int) -> int:
    """越10加10: 32 → 40, 40 → 40, 0 → 0."""
    return -(-points // 10) * 10


def _passes(value: int, options: QingerOptions) -> bool:
    if options.win_threshold_strict:
        return value > options.win_threshold
    return value >= options.win_threshold


# -- per-player tallies -----------------------------------------------------------------


class _Tally:
    """Item id → (count, points), listed in item-table order."""

    def __init__(self) -> None:
        self.rows: dict[str, list[int]] = {}
        self.total = 0
        """The points of every row (kept as they are added: each settlement asks twice)."""

    def add(self, item_id: str, points: int, count: int = 1) -> None:
        row = self.rows.setdefault(item_id, [0, 0])
        row[0] += count
        row[1] += points
        self.total += points

    def items(self) -> list[ScoreItem]:
        rows = self.rows
        if not rows:
            return []
        return [
            _scored(i, rows[i][1], rows[i][0]) for i in sorted(rows, key=ITEM_ORDER.__getitem__)
        ]


# A result item is immutable and the same few (id, points, count) recur hand after hand:
# each is made once, not at every settlement (a frozen dataclass sets every field through
# object.__setattr__).
@lru_cache(maxsize=4096)
def _scored(item_id: str, points: int, count: int) -> ScoreItem:
    return ITEMS[item_id].scored(points, count)


@lru_cache(maxsize=1024)
def _multiplied(item_id: str, added: int, factor: int) -> ScoreItem:
    return ITEMS[item_id].multiplier(added, factor)


def _set_points(
    player: QingerPlayer,
    seen: bytes,
    kinds: Sequence[int],
    quads: Sequence[Sequence[Card]],
    options: QingerOptions,
) -> _Tally:
    """Q23: every pong, kong, takeoff and concealed triplet, 见牌 or not. ``seen`` is
    :data:`_SEEN_KIND` of the 见张, ``kinds`` the concealed meld kind counts, ``quads``
    the takeoffs of four alike."""
    tally = _Tally()
    for meld in player.melds:
        is_seen = seen[meld.kind]
        if meld.type is _PONG:
            tally.add(*(("jian_pai_peng", 4) if is_seen else ("peng", 1)))
        elif meld.type is _CONCEALED_KONG:
            if is_seen:
                tally.add("jian_pai_an_du", 24)
            else:
                tally.add("an_du", options.concealed_kong_unseen_points)
        else:
            tally.add(*(("jian_pai_ming_du", 16) if is_seen else ("ming_du", 4)))
    for takeoff in quads:
        is_seen = seen[takeoff[0].meld_kind]
        tally.add(*(("jian_pai_qi_fei", 32) if is_seen else ("qi_fei", 8)))
    # Q13 "有多少算多少": three alike in hand score as a triplet whatever the reading.
    triplets = bytes(kinds).translate(_AT_LEAST_3)
    kind = triplets.find(1)
    while kind >= 0:
        if seen[kind]:
            tally.add("jian_pai_an_ke", options.concealed_triplet_seen_points)
        else:
            tally.add("an_ke", 2)
        kind = triplets.find(1, kind + 1)
    return tally


_BONUS_VALUE = {
    joker_jian: {
        row.id: row.alt_value if joker_jian and row.alt_value is not None else row.base
        for row in ITEMS.values()
        if row.kind == "bonus"
    }
    for joker_jian in (False, True)
}
"""Each bonus item's value, by whether the 见张 is a joker (its ``alt_value`` then)."""

_CLUB_POINTS = {
    (own_seat, role): tuple(
        (card, item_id, 20 if (card is own if own_seat else card is Card.CK and role == 0) else 10)
        for card, item_id in zip(_CLUB_FACES, ("mei_hua_k", "mei_hua_q", "mei_hua_j"), strict=True)
    )
    for own_seat in (False, True)
    for role, own in enumerate(_SEAT_CARDS)
}
"""Q26, QA12: (card, item, points) of each ♣ face card, by whether ``club_face_bonus`` is
``own_seat`` and by seat role."""


def _bonuses(
    player: QingerPlayer, role: int, joker_jian: bool, counts: Sequence[int], options: QingerOptions
) -> _Tally:
    """Q14–Q21, Q25, Q26: jokers, 广告 and ♣ face cards, for every player. ``counts`` are
    :meth:`QingerPlayer.card_counts`."""
    tally = _Tally()
    big, small = counts[_BJ], counts[_SJ]
    value = _BONUS_VALUE[joker_jian].__getitem__

    # QA15: the highest joker tier replaces the lower ones.
    if player.takeoffs and player.has_joker_takeoff:
        tally.add("wu_xi_qi_fei", value("wu_xi_qi_fei"))
    elif big == 3 and small == 2:
        tally.add("wu_xi", value("wu_xi"))
    else:
        if big == 3:
            tally.add("jie_hun", value("jie_hun"))
        elif big:
            tally.add("da_gui", value("da_gui") * big, big)
        if small == 2:
            tally.add("jie_hun", value("jie_hun"))
        elif small:
            tally.add("xiao_gui", value("xiao_gui") * small, small)
    adverts = counts[_AD]
    if adverts:
        tally.add("guang_gao", value("guang_gao") * adverts, adverts)
    for card, item_id, points in _CLUB_POINTS[options.club_face_bonus == "own_seat", role]:
        if counts[card]:
            tally.add(item_id, points)
    return tally


def _face_sets(
    player: QingerPlayer, concealed: Sequence[int], quads: Sequence[Sequence[Card]]
) -> tuple[int, int]:
    """(J/Q/K ranks held as a set of three or more, ranks held as a concealed pair), from
    the concealed meld kind counts and the takeoffs of four alike."""
    declared = {m.kind for m in player.melds} | {t[0].meld_kind for t in quads}
    sets = pairs = 0
    for kind in _FACE_KINDS:
        if kind in declared or concealed[kind] >= 3:
            sets += 1
        elif concealed[kind] == 2:
            pairs += 1
    return sets, pairs


# _Common and _Scored are private and never changed once made: not frozen, whose
# __init__ sets each field through object.__setattr__ (every player, every settlement)
@dataclass(slots=True)
class _Common:
    """A player's reading-independent part: set points and the always-scored bonuses."""

    sets: _Tally
    bonuses: _Tally
    full_san_hong: bool
    partial_san_hong: bool
    counts: Sequence[int]
    """:meth:`QingerPlayer.card_counts`, which the winner's multipliers read again."""


def _common(hand: QingerSituation, seat: int, options: QingerOptions) -> _Common:
    player = hand.players[seat]
    indicator = hand.indicator
    joker_jian = _JOKER_JIAN[options.advert_indicator_as_joker][indicator]
    kinds = player.meld_kind_counts()
    quads = player.quad_takeoffs if player.takeoffs else ()
    counts = player.card_counts()
    face_sets, face_pairs = _face_sets(player, kinds, quads)
    return _Common(
        _set_points(player, _SEEN_KIND[indicator], kinds, quads, options),
        _bonuses(player, seat_role(seat, hand.dealer), joker_jian, counts, options),
        face_sets == 3,
        face_sets == 2 and face_pairs == 1,
        counts,
    )


@dataclass(slots=True)
class _Scored:
    items: tuple[ScoreItem, ...]
    before_multipliers: int
    threshold_value: int
    score: int


def _finish(
    common: _Common, win: _Tally | None, multipliers: Sequence[str], options: QingerOptions
) -> _Scored:
    """Round, add up, then apply the multipliers in item-table order."""
    sets = common.sets.total
    rest = common.bonuses.total + (win.total if win else 0)
    if options.rounding_scope == "set_points":
        extra = round_up_10(sets) - sets
    else:
        extra = round_up_10(sets + rest) - (sets + rest)
    before = sets + rest + extra
    items = common.sets.items()
    if extra:
        items.append(_scored("jin_zheng", extra, 1))
    items += common.bonuses.items()
    if win:
        items += win.items()
    score = before
    for item_id in sorted(multipliers, key=ITEM_ORDER.__getitem__) if multipliers else ():
        factor = ITEMS[item_id].base
        items.append(_multiplied(item_id, score * (factor - 1), factor))
        score *= factor
    by_sets = options.win_threshold_basis == "set_points"
    threshold_value = round_up_10(sets) if by_sets else before
    return _Scored(tuple(items), before, threshold_value, score)


_WAIT_ITEMS = {Wait.SINGLE: "dan_diao", Wait.EDGE: "bian_zhang", Wait.CLOSED: "qian_zhang"}
_WEN_QIAN = {1: "wen_qian", 2: "liang_wen_qian", 3: "san_wen_qian", 4: "si_wen_qian"}


def _winner_readings(hand: QingerSituation, seat: int) -> list[Reading]:
    assert hand.win_card is not None
    player = hand.players[seat]
    if player.declared > 7:
        return []
    return QINGER.readings(
        bytes(player.meld_kind_counts()), hand.win_card.meld_kind, player.declared
    )


def _score_reading(
    hand: QingerSituation, seat: int, common: _Common, reading: Reading, options: QingerOptions
) -> _Scored:
    player = hand.players[seat]
    dec = reading.decomposition
    win = _Tally()
    quad_breaks = options.quad_takeoff_breaks_qing_er and bool(player.quad_takeoffs)
    if not player.melds and not quad_breaks and not dec.triplets:
        win.add("qing_er", ITEMS["qing_er"].base)
        if options.qing_er_base == "add":
            win.add("hu_pai", ITEMS["hu_pai"].base)
    else:
        win.add("hu_pai", ITEMS["hu_pai"].base)
    wait_item = _WAIT_ITEMS.get(reading.wait)
    if wait_item:
        win.add(wait_item, ITEMS[wait_item].base)
    wen = dec.runs_at(0)
    if wen:
        wen_item = _WEN_QIAN[wen]
        value = options.wen_qian_four_points if wen == 4 else ITEMS[wen_item].base
        win.add(wen_item, value)
    multipliers = []
    if common.full_san_hong or common.partial_san_hong:
        multipliers.append("san_hong")
    counts = common.counts
    no_joker = not counts[_BJ] and not counts[_SJ]
    no_club_face = not any(counts[c] for c in _CLUB_FACES)
    if (
        no_joker
        and is_joker_indicator(hand.indicator, options)
        and (no_club_face or not options.qiong_qiong_hen_needs_no_club_faces)
    ):
        multipliers.append("qiong_qiong_hen")
    elif no_joker and no_club_face:
        multipliers.append("qiong_hen")
    if dec.all_triplets:
        multipliers.append("piao_hu")
    return _finish(common, win, multipliers, options)


def _best_win(hand: QingerSituation, seat: int, options: QingerOptions) -> _Scored | None:
    """The winner's best reading: one that passes the threshold, then the highest score."""
    readings = _winner_readings(hand, seat)
    if not readings:
        return None
    common = _common(hand, seat, options)
    scored = [_score_reading(hand, seat, common, r, options) for r in readings]
    return max(
        scored,
        key=lambda s: (_passes(s.threshold_value, options), s.score, s.before_multipliers),
    )


# -- public API -------------------------------------------------------------------------


def hand_value_before_multipliers(
    hand: QingerSituation, options: QingerOptions = DEFAULT_OPTIONS
) -> int | None:
    """The winner's pre-multiplier total in the reading that is scored (the one that
    passes the threshold and scores most), or ``None`` if the hand is not complete."""
    if hand.winner is None:
        raise ValueError("hand_value_before_multipliers needs a winner")
    best = _best_win(hand, hand.winner, options)
    return None if best is None else best.before_multipliers


def running_value(
    hand: QingerSituation, seat: int, options: QingerOptions = DEFAULT_OPTIONS
) -> int:
    """What ``seat``'s cards count toward the win threshold now, before any winner's item:
    set points (pongs, kongs, takeoffs, concealed triplets), jokers, 广告 and ♣ faces,
    rounded as the gate rounds them (QA10) and on the gate's basis (QA7). It depends only
    on that seat's own cards, the 见张 and its role, so the seat may be shown it."""
    if not 0 <= seat < N_PLAYERS:
        raise ValueError("seat must be 0–2")
    return _finish(_common(hand, seat, options), None, [], options).threshold_value


def can_win(hand: QingerSituation, options: QingerOptions = DEFAULT_OPTIONS) -> bool:
    """Complete (7 sets + pair) and over the threshold (QA7): may ``hand.winner`` 胡?"""
    if hand.winner is None:
        raise ValueError("can_win needs a winner")
    if options.zi_mo_only and hand.win_type is WinType.DISCARD:
        return False
    best = _best_win(hand, hand.winner, options)
    return best is not None and _passes(best.threshold_value, options)


def threshold_reason(options: QingerOptions = DEFAULT_OPTIONS) -> tuple[str, str]:
    """The invalid-win reason (简体, English) for a hand below the threshold."""
    t = options.win_threshold
    if options.win_threshold_strict:
        return f"不足{t}分", f"score must exceed {t}"
    return f"不足{t}分", f"score must be at least {t}"


def settle_pairwise(
    scores: Sequence[int], knocked: Sequence[bool], stakes: Sequence[int], cap: int = 0
) -> tuple[Payment, ...]:
    """Q9: in each pair the lower score pays the difference × the pair's stake (at most
    ``cap`` when it is positive: QP1 封顶)."""
    out = []
    for i in range(len(scores)):
        for j in range(i + 1, len(scores)):
            diff = scores[i] - scores[j]
            if diff == 0:
                continue
            stake = stakes[int(knocked[i]) + int(knocked[j])]
            payer, payee = (j, i) if diff > 0 else (i, j)
            amount = abs(diff) * stake
            if 0 < cap < amount:
                amount = cap
            out.append(Payment(payer, payee, amount, PAYMENT_REASON))
    return tuple(out)


def score_hand(hand: QingerSituation, options: QingerOptions = DEFAULT_OPTIONS) -> QingerResult:
    """Score every player and settle the hand (or explain why the win is not valid)."""
    if hand.also_won and options.one_winner_per_discard:
        raise ValueError("several winners need the option one_winner_per_discard = false")
    if options.zi_mo_only and hand.win_type is WinType.DISCARD:
        return QingerResult.invalid("只许自摸", "only self-drawn wins count")
    scored: list[_Scored] = []
    winners = hand.winners
    for seat in range(N_PLAYERS):
        if seat in winners:
            best = _best_win(hand, seat, options)
            if best is None:
                return QingerResult.invalid(
                    "未成牌（需七组加一对）", "hand is not complete (7 sets and a pair)"
                )
            if not _passes(best.threshold_value, options):
                return QingerResult.invalid(*threshold_reason(options))
            scored.append(best)
        else:
            common = _common(hand, seat, options)
            scored.append(
                _finish(common, None, ["san_hong"] if common.full_san_hong else [], options)
            )
    scores = tuple(s.score for s in scored)
    if hand.winner is None and not options.exhausted_stock_settles:
        payments: tuple[Payment, ...] = ()
    else:
        payments = settle_pairwise(
            scores, [p.knocked for p in hand.players], hand.stakes, options.feng_ding
        )
    net = [0] * N_PLAYERS
    for p in payments:
        net[p.payer] -= p.amount
        net[p.payee] += p.amount
    return QingerResult(
        valid=True,
        scores=scores,
        before_multipliers=tuple(s.before_multipliers for s in scored),
        items=tuple(s.items for s in scored),
        payments=payments,
        net=tuple(net),
    )
