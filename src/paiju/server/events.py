"""The events a seat receives (``events`` in update/snapshot messages and a view's recent
events) as typed models: one discriminated union per game (``JiaxingEvent``,
``TaixingEvent``, ``QingerEvent``, each keyed by ``type``).

The engine builds events as plain JSON (``paiju.engine.events.to_json`` and each hand's
``events_for``, which hides other seats' draws and deals); these TypedDicts name every
field, so the published JSON Schema (``$defs/SeatEvent`` and the three games' unions) and
the web client's generated TypeScript types cover them. Where the games differ the models
differ: mahjong events carry a ``tile``, Qing'er's a ``card`` (and its melds their
``cards``); only Jiaxing fishes (钓鱼) and turns up a 混 indicator, only Taixing throws
breaking dice with a 豹子 and sets flowers aside. Closed sets are closed in the schema
too: how a hand was won, each game's payment reasons and item ids (its item table), the
explanation's game. The server does not validate events when it sends them:
``tests/server/test_server_events.py`` checks every event of seeded games (from every
seat and a spectator) and of the golden records against their game's union, no extra
field allowed. The record's events (docs/spec/record.md) fit them too.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, NotRequired

from pydantic import AfterValidator, ConfigDict, Field, TypeAdapter, WithJsonSchema, with_config
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from paiju.engine.types import WinType
from paiju.variants import VARIANTS

_STRICT = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

JSONObject = dict[str, Any]

# pydantic cannot emit a $ref to a definition it did not make: a marker names the
# definition and ``messages.server_schema()`` swaps it for the reference once these models
# are in $defs
REF_MARK = "paiju:ref:"


def _ref(name: str) -> WithJsonSchema:
    return WithJsonSchema({"$comment": REF_MARK + name})


SeatEventJSON = Annotated[JSONObject, _ref("SeatEvent")]
"""An event of any game: typed in the schema, passed through as the engine's JSON when sent."""
JiaxingEventJSON = Annotated[JSONObject, _ref("JiaxingEvent")]
TaixingEventJSON = Annotated[JSONObject, _ref("TaixingEvent")]
QingerEventJSON = Annotated[JSONObject, _ref("QingerEvent")]


class _ItemIds:
    """A str that must be one of a variant's item ids or payment reasons: its item table is
    data, so the closed set is listed in the schema (an enum) rather than as a Literal."""

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.ids = VARIANTS[variant].item_ids()
        self.schema = WithJsonSchema({"type": "string", "enum": self.ids})
        self.check = AfterValidator(self._check)

    def _check(self, value: str) -> str:
        if value not in self.ids:
            raise ValueError(f"{value!r} is no {self.variant} item id or payment reason")
        return value


_JIAXING, _TAIXING, _QINGER = _ItemIds("jiaxing"), _ItemIds("taixing"), _ItemIds("qinger")
JiaxingItemId = Annotated[str, _JIAXING.check, _JIAXING.schema]
TaixingItemId = Annotated[str, _TAIXING.check, _TAIXING.schema]
QingerItemId = Annotated[str, _QINGER.check, _QINGER.schema]


def _strict(model: Any, doc: str) -> None:
    """Configure a functional-form TypedDict as ``with_config`` does a class."""
    model.__pydantic_config__ = _STRICT
    model.__doc__ = doc


# -- bases: "from" and "break" are keywords, only the functional form can name them ---
_Fed = TypedDict("_Fed", {"from": int})
_strict(_Fed, "Fed by seat ``from``.")
_MaybeFed = TypedDict("_MaybeFed", {"from": NotRequired[int]})
_strict(_MaybeFed, "Fed by seat ``from`` (absent for a self-draw).")


@with_config(_STRICT)
class WallBreak(TypedDict):
    seat: int
    stack: int


_Broken = TypedDict("_Broken", {"break": WallBreak})
_strict(_Broken, "Where the wall is broken.")


@with_config(_STRICT)
class _Seated(TypedDict):
    seat: int


# -- every game -------------------------------------------------------------------------
@with_config(_STRICT)
class HandEvent(TypedDict):
    """A hand begins: its index in the match, its dealer and its deal seed."""

    type: Literal["hand"]
    index: int
    dealer: int
    seed: int


@with_config(_STRICT)
class ActionEvent(_Seated):
    """The record's line for an action taken (its text in the action grammar)."""

    type: Literal["action"]
    action: str


@with_config(_STRICT)
class HandEndEvent(TypedDict):
    """The record's hand summary (with the walls dealt, for verification)."""

    type: Literal["hand_end"]
    index: int
    winners: list[int]
    exhausted: bool
    net: list[int]
    walls: list[list[int]]


@with_config(_STRICT)
class MatchEndEvent(TypedDict):
    type: Literal["match_end"]
    hands: int
    totals: list[int]
    server_seed: str


@with_config(_STRICT)
class BilingualText(TypedDict):
    zh: str
    en: str


@with_config(_STRICT)
class FormulaLine(TypedDict):
    zh: str
    en: str
    rule: NotRequired[str]


@with_config(_STRICT)
class _PaymentBase(_Seated):
    payer: int
    payee: int
    amount: int


@with_config(_STRICT)
class _PaymentLineBase(TypedDict):
    payer: int
    payee: int
    amount: int
    zh: str
    en: str
    rule: NotRequired[str]


@with_config(_STRICT)
class _ExplanationBase(TypedDict):
    formula: list[FormulaLine]
    text: BilingualText


@with_config(_STRICT)
class _EndBase(TypedDict):
    type: Literal["end"]
    net: list[int]


# -- mahjong (Jiaxing and Taixing) ---------------------------------------------------
@with_config(_STRICT)
class MahjongDealEvent(_Seated):
    """A seat's starting tiles: to itself in notation, to others only their count."""

    type: Literal["deal"]
    tiles: str | int


@with_config(_STRICT)
class MahjongDrawEvent(_Seated):
    """A draw: the tile to the drawer only."""

    type: Literal["draw"]
    tile: NotRequired[str]


@with_config(_STRICT)
class MahjongDiscardEvent(_Seated):
    type: Literal["discard"]
    tile: str


@with_config(_STRICT)
class ReadyEvent(_Seated):
    """A seat declares ready (听)."""

    type: Literal["ready"]


@with_config(_STRICT)
class MahjongPongEvent(_Seated, _Fed):
    """A pung of seat ``from``'s discard ``tile``."""

    type: Literal["pong"]
    tile: str


@with_config(_STRICT)
class MahjongKongEvent(_Seated, _Fed):
    """A kong of seat ``from``'s discard ``tile``."""

    type: Literal["kong"]
    tile: str


@with_config(_STRICT)
class MahjongConcealedKongEvent(_Seated):
    type: Literal["concealed_kong"]
    tile: str


@with_config(_STRICT)
class MahjongAddedKongEvent(_Seated):
    type: Literal["added_kong"]
    tile: str


@with_config(_STRICT)
class MahjongWinEvent(TypedDict):
    """The hand is won: by whom, how, on which tile."""

    type: Literal["win"]
    winners: list[int]
    how: WinType
    tile: str


@with_config(_STRICT)
class ExhaustiveDrawEvent(TypedDict):
    """The wall ran out with no winner (荒庄)."""

    type: Literal["exhaustive_draw"]


# -- Jiaxing -----------------------------------------------------------------------------
@with_config(_STRICT)
class JiaxingDiceEvent(_Seated):
    """The dealer's dice."""

    type: Literal["dice"]
    dice: list[int]


@with_config(_STRICT)
class JiaxingIndicatorEvent(TypedDict):
    """The tile turned up for 混儿 and the kinds it makes wild."""

    type: Literal["indicator"]
    tile: str
    out_of_play: bool
    wild_kinds: list[str]


@with_config(_STRICT)
class ChiEvent(_Seated, _Fed):
    """A chow of the discard ``tile`` from seat ``from``; ``low`` is its lowest tile."""

    type: Literal["chi"]
    tile: str
    low: str


@with_config(_STRICT)
class FishEvent(_Seated):
    """Jiaxing's fishing (钓鱼): the tiles turned and the hits they make."""

    type: Literal["fish"]
    tiles: str
    hits: list[int]


@with_config(_STRICT)
class JiaxingScoreItem(TypedDict):
    id: JiaxingItemId
    name: str
    value: int


@with_config(_STRICT)
class JiaxingScoreEvent(_Seated):
    """A winner's items, the value per payer, and whether it is paid as 放炮 or 自摸."""

    type: Literal["score"]
    items: list[JiaxingScoreItem]
    hand: str
    per_payer: int
    counts_as: WinType


@with_config(_STRICT)
class JiaxingPaymentEvent(_PaymentBase):
    type: Literal["payment"]
    reason: JiaxingItemId


@with_config(_STRICT)
class JiaxingPaymentLine(_PaymentLineBase):
    reason: JiaxingItemId


@with_config(_STRICT)
class JiaxingExplanation(_ExplanationBase):
    """How the hand's payments come out, line by line, in 简体中文 and English."""

    variant: Literal["jiaxing"]
    payments: list[JiaxingPaymentLine]


@with_config(_STRICT)
class JiaxingEndEvent(_EndBase):
    """The hand's settlement: each seat's net and its explanation."""

    explanation: JiaxingExplanation


# -- Taixing -----------------------------------------------------------------------------
@with_config(_STRICT)
class TaixingDiceEvent(_Seated, _Broken):
    """The dealer's dice: where the wall is broken, 豹子, and the 荒庄 streak before."""

    type: Literal["dice"]
    dice: list[int]
    leopard: bool
    draw_streak: int


@with_config(_STRICT)
class TaixingFlowerEvent(_Seated):
    """A flower set aside (the replacement follows)."""

    type: Literal["flower"]
    tile: str


@with_config(_STRICT)
class ReplacementDrawEvent(_Seated):
    """A draw from the tail after a kong or flower: the tile to the drawer only."""

    type: Literal["replacement_draw"]
    tile: NotRequired[str]


@with_config(_STRICT)
class TaixingScoreItem(TypedDict):
    id: TaixingItemId
    name: str
    value: int


@with_config(_STRICT)
class TaixingScoreEvent(_Seated):
    """A winner's items (番 and flowers), its flower count and the value per payer."""

    type: Literal["score"]
    items: list[TaixingScoreItem]
    hand: str
    per_payer: int
    flowers: int


@with_config(_STRICT)
class TaixingPaymentEvent(_PaymentBase):
    type: Literal["payment"]
    reason: TaixingItemId


@with_config(_STRICT)
class TaixingPaymentLine(_PaymentLineBase):
    reason: TaixingItemId


@with_config(_STRICT)
class TaixingExplanation(_ExplanationBase):
    """How the hand's payments come out, line by line, in 简体中文 and English."""

    variant: Literal["taixing"]
    payments: list[TaixingPaymentLine]


@with_config(_STRICT)
class TaixingEndEvent(_EndBase):
    """The hand's settlement: each seat's net and its explanation."""

    explanation: TaixingExplanation


# -- Qing'er -----------------------------------------------------------------------------
@with_config(_STRICT)
class DealerDrawEvent(_Seated):
    """Cards drawn to pick the first dealer, round by round, as [seat, card]."""

    type: Literal["draw_for_dealer"]
    draws: list[list[tuple[int, str]]]


@with_config(_STRICT)
class RedealEvent(_Seated):
    type: Literal["redeal"]
    deal: int


@with_config(_STRICT)
class QingerDealEvent(_Seated):
    """A seat's starting cards: to itself in notation, to others only their count."""

    type: Literal["deal"]
    cards: str | int


@with_config(_STRICT)
class QingerIndicatorEvent(_Seated):
    """The card turned up (见张) and the 见牌 ranks it makes."""

    type: Literal["indicator"]
    card: str
    jian_pai: str


@with_config(_STRICT)
class KnockEvent(_Seated):
    """A seat knocks (敲, true) or passes."""

    type: Literal["knock"]
    knock: bool


@with_config(_STRICT)
class PlayEvent(_Seated):
    """A seat plays this hand."""

    type: Literal["play"]


@with_config(_STRICT)
class TakeoffEvent(_Seated):
    type: Literal["takeoff"]
    cards: str


@with_config(_STRICT)
class QingerDrawEvent(_Seated):
    """A draw: the card to the drawer only."""

    type: Literal["draw"]
    card: NotRequired[str]


@with_config(_STRICT)
class QingerFlowerEvent(_Seated):
    type: Literal["flower"]
    card: str


@with_config(_STRICT)
class QingerDiscardEvent(_Seated):
    type: Literal["discard"]
    card: str


@with_config(_STRICT)
class QingerPongEvent(_Seated, _Fed):
    """A pung of seat ``from``'s discard ``card``: the meld's ``cards``."""

    type: Literal["pong"]
    card: str
    cards: str


@with_config(_STRICT)
class QingerKongEvent(_Seated, _Fed):
    """A kong of seat ``from``'s discard ``card``: the meld's ``cards``."""

    type: Literal["kong"]
    card: str
    cards: str


@with_config(_STRICT)
class QingerConcealedKongEvent(_Seated):
    type: Literal["concealed_kong"]
    cards: str


@with_config(_STRICT)
class QingerAddedKongEvent(_Seated):
    type: Literal["added_kong"]
    card: str


@with_config(_STRICT)
class QingerWinEvent(_MaybeFed):
    """The hand is won: by whom, how, on which card, fed by seat ``from``."""

    type: Literal["win"]
    winners: list[int]
    how: WinType
    card: str


@with_config(_STRICT)
class ExhaustedEvent(TypedDict):
    """The stock ran out with no winner."""

    type: Literal["exhausted"]


@with_config(_STRICT)
class QingerScoreItem(TypedDict):
    id: QingerItemId
    name: str
    value: int


@with_config(_STRICT)
class QingerScoreEvent(_Seated):
    """A seat's items, its score and that score before the multipliers."""

    type: Literal["score"]
    items: list[QingerScoreItem]
    score: int
    before_multipliers: int


@with_config(_STRICT)
class QingerPaymentEvent(_PaymentBase):
    type: Literal["payment"]
    reason: QingerItemId


@with_config(_STRICT)
class QingerPaymentLine(_PaymentLineBase):
    reason: QingerItemId


@with_config(_STRICT)
class QingerExplanation(_ExplanationBase):
    """How the hand's payments come out, line by line, in 简体中文 and English."""

    variant: Literal["qinger"]
    payments: list[QingerPaymentLine]


@with_config(_STRICT)
class QingerEndEvent(_EndBase):
    """The hand's settlement: each seat's net and its explanation."""

    explanation: QingerExplanation


# -- the unions --------------------------------------------------------------------------
_RECORD = HandEvent | ActionEvent | HandEndEvent | MatchEndEvent
_MAHJONG = (
    MahjongDealEvent
    | MahjongDrawEvent
    | MahjongDiscardEvent
    | ReadyEvent
    | MahjongPongEvent
    | MahjongKongEvent
    | MahjongConcealedKongEvent
    | MahjongAddedKongEvent
    | MahjongWinEvent
    | ExhaustiveDrawEvent
)
JiaxingEvent = Annotated[
    _RECORD
    | _MAHJONG
    | JiaxingDiceEvent
    | JiaxingIndicatorEvent
    | ChiEvent
    | FishEvent
    | JiaxingScoreEvent
    | JiaxingPaymentEvent
    | JiaxingEndEvent,
    Field(discriminator="type"),
]
TaixingEvent = Annotated[
    _RECORD
    | _MAHJONG
    | TaixingDiceEvent
    | TaixingFlowerEvent
    | ReplacementDrawEvent
    | TaixingScoreEvent
    | TaixingPaymentEvent
    | TaixingEndEvent,
    Field(discriminator="type"),
]
QingerEvent = Annotated[
    _RECORD
    | DealerDrawEvent
    | RedealEvent
    | QingerDealEvent
    | QingerIndicatorEvent
    | KnockEvent
    | PlayEvent
    | TakeoffEvent
    | QingerDrawEvent
    | QingerFlowerEvent
    | QingerDiscardEvent
    | QingerPongEvent
    | QingerKongEvent
    | QingerConcealedKongEvent
    | QingerAddedKongEvent
    | QingerWinEvent
    | ExhaustedEvent
    | QingerScoreEvent
    | QingerPaymentEvent
    | QingerEndEvent,
    Field(discriminator="type"),
]
GAME_EVENTS: dict[str, TypeAdapter[Any]] = {
    "jiaxing": TypeAdapter(JiaxingEvent),
    "taixing": TypeAdapter(TaixingEvent),
    "qinger": TypeAdapter(QingerEvent),
}
"""Each game's event union by variant name."""
UNION_NAMES = {"jiaxing": "JiaxingEvent", "taixing": "TaixingEvent", "qinger": "QingerEvent"}


def seat_event_schema() -> JSONObject:
    """JSON Schema of ``SeatEvent`` (an event of any game): each game's union under
    ``$defs`` beside its models (``#/$defs/NAME``), the root ``anyOf`` the three."""
    defs: JSONObject = {}
    for variant, adapter in GAME_EVENTS.items():
        schema: JSONObject = adapter.json_schema(mode="serialization")
        for name, model in schema.pop("$defs").items():
            if defs.setdefault(name, model) != model:  # pragma: no cover - a name reused
                raise AssertionError(f"two event models are both called {name}")
        defs[UNION_NAMES[variant]] = {"title": UNION_NAMES[variant], **schema}
    refs = [{"$ref": f"#/$defs/{name}"} for name in UNION_NAMES.values()]
    return {"anyOf": refs, "$defs": defs}


def validate_event(event: JSONObject, variant: str) -> Any:
    """Check ``event`` as a client of a ``variant`` room receives it (its JSON), strictly."""
    return GAME_EVENTS[variant].validate_json(json.dumps(event))
