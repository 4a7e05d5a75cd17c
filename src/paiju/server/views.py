"""The seat view (a message's ``state``) as typed models, one per game's shape.

The engine builds each view as plain JSON (``MahjongHand.view``, ``QingerHand.view``,
``Session.view`` between hands); these TypedDicts say exactly which fields each carries,
so the published JSON Schema (``web/src/schema/server-messages.json``, ``$defs/SeatView``)
and the web client's generated TypeScript types name every field. The server does not
validate views when it sends them (a stray field must never stop a table):
``tests/server/test_server_views.py`` plays seeded games of every variant and checks every
view, from every seat and a spectator, against these models with no extra field allowed.
The recent ``events`` are the game's own union, ``$defs/JiaxingEvent`` and so on
(``paiju.server.events``, checked by ``tests/server/test_server_events.py``).
"""

from __future__ import annotations

import json
from typing import Any, Literal, NotRequired

from pydantic import ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict  # pydantic needs this one before Python 3.12

from paiju.engine.types import MeldType, RefusalCode
from paiju.server.events import JiaxingEventJSON, QingerEventJSON, TaixingEventJSON

_STRICT = ConfigDict(extra="forbid", strict=True, use_attribute_docstrings=True)

JSONObject = dict[str, Any]


@with_config(_STRICT)
class RefusalView(TypedDict):
    """Why a win would not be legal now: a reason code and the text in 简体中文 and English."""

    code: RefusalCode
    zh: str
    en: str


# -- mahjong (Jiaxing, Taixing) ------------------------------------------------------
# "from" is a keyword: only the functional form can name the field
MahjongMeldView = TypedDict("MahjongMeldView", {"type": MeldType, "tile": str, "from": int | None})
MahjongMeldView.__pydantic_config__ = _STRICT  # type: ignore[attr-defined]
"""A declared set: its type, its tile (a chow's lowest), and the seat that fed it."""


@with_config(_STRICT)
class MahjongPlayerView(TypedDict):
    seat: int
    melds: list[MahjongMeldView]
    discards: str
    concealed_count: int
    flowers: NotRequired[str]
    """Flowers set aside (games that play flowers)."""
    ready: NotRequired[Literal[True]]
    """Declared ready (天听)."""
    sealed: NotRequired[Literal[True]]
    """May not win this hand (封胡, 小相公)."""
    hand: NotRequired[str]
    """Concealed tiles: one's own, and every winner's once the hand is over."""


@with_config(_STRICT)
class LastDiscardView(TypedDict):
    seat: int
    tile: str


@with_config(_STRICT)
class MahjongWaitView(TypedDict):
    """A tile the seat waits on, the copies it has not seen, and for each way of winning
    None when that win would be legal now, else why not."""

    tile: str
    left: int
    self_draw: RefusalView | None
    discard: RefusalView | None


@with_config(_STRICT)
class _MahjongViewBase(TypedDict):
    seat: int | None
    dealer: int
    phase: Literal["declare", "act", "claim", "rob", "end", "wait"]
    current: int
    wall_left: int
    players: list[MahjongPlayerView]
    to_act: list[int]
    legal_actions: list[str]
    net: list[int]
    drawn: NotRequired[str]
    """The tile just drawn, to the seat in turn only."""
    claim_tile: NotRequired[str]
    """The discard (or added kong) a claim window asks this seat about."""
    indicator: NotRequired[str]
    wild_kinds: NotRequired[list[str]]
    last_discard: NotRequired[LastDiscardView]
    waits: NotRequired[list[MahjongWaitView]]
    ready_discards: NotRequired[dict[str, list[str]]]
    """In one's turn: each discard that leaves the hand ready → the tiles it would wait on."""


@with_config(_STRICT)
class JiaxingView(_MahjongViewBase):
    variant: Literal["jiaxing"]
    events: NotRequired[list[JiaxingEventJSON]]
    """The last few events as this seat may see them."""
    fisher: NotRequired[int]
    """The seat that self-drew last hand and fishes at this hand's end (钓鱼)."""


@with_config(_STRICT)
class TaixingView(_MahjongViewBase):
    variant: Literal["taixing"]
    events: NotRequired[list[TaixingEventJSON]]
    """The last few events as this seat may see them."""
    dropping: NotRequired[Literal["m", "p", "s"]]
    """The suit this seat's own tiles are lacking (缺门), to itself only."""
    draw_multiplier: NotRequired[int]
    """What 荒庄 before this hand multiply it by (×2 after one), when there were any."""


# -- Qing'er ---------------------------------------------------------------------------
# "from" is a keyword: only the functional form can name the field
QingerMeldView = TypedDict("QingerMeldView", {"type": MeldType, "cards": str, "from": int | None})
QingerMeldView.__pydantic_config__ = _STRICT  # type: ignore[attr-defined]
"""A declared set: its type, its cards, and the seat that fed it."""


@with_config(_STRICT)
class QingerPlayerView(TypedDict):
    seat: int
    plays: bool
    """False for the seat sitting this hand out."""
    knocked: bool | None
    """Knocked (敲) or passed; None until it has answered."""
    melds: list[QingerMeldView]
    takeoffs: list[str]
    flowers: str
    discards: str
    concealed_count: int
    hand: NotRequired[str]
    """Concealed cards: one's own, and every winner's once the hand is over."""


@with_config(_STRICT)
class QingerWaitView(TypedDict):
    """A card the seat waits on, the copies it has not seen, whether each way of winning
    would be legal now, and the total the gate compares."""

    card: str
    left: int
    self_draw: RefusalView | None
    discard: RefusalView | None
    value: int


@with_config(_STRICT)
class GateView(TypedDict):
    """The win threshold and this seat's running score against it (None when unknown)."""

    threshold: int
    strict: bool
    running: int | None


@with_config(_STRICT)
class PairStakeView(TypedDict):
    """A pair of seats and the stake their payment is multiplied by, from their knocks."""

    seats: list[int]
    stake: int


@with_config(_STRICT)
class QingerView(TypedDict):
    variant: Literal["qinger"]
    seat: int | None
    dealer: int
    sitting_out: int | None
    phase: Literal["knock", "takeoff", "act", "claim", "end", "wait"]
    current: int
    stock_left: int
    indicator: str | None
    """The 见张, once turned up."""
    jian_pai: str | None
    """The 见牌 ranks the 见张 makes, once it is turned up."""
    players: list[QingerPlayerView]
    to_act: list[int]
    legal_actions: list[str]
    net: list[int]
    stakes: list[PairStakeView]
    """Every pair of seats in the hand with its stake so far (Q1)."""
    gate: GateView
    drawn: NotRequired[str]
    claim_card: NotRequired[str]
    waits: NotRequired[list[QingerWaitView]]
    events: NotRequired[list[QingerEventJSON]]
    """The last few events as this seat may see them."""


# -- between hands ---------------------------------------------------------------------
@with_config(_STRICT)
class BetweenHandsView(TypedDict):
    """No hand is being played: before the next deal, or after the match."""

    phase: Literal["between_hands", "finished"]


SeatView = JiaxingView | TaixingView | QingerView | BetweenHandsView
SEAT_VIEW: TypeAdapter[Any] = TypeAdapter(SeatView)


def seat_view_schema() -> JSONObject:
    """JSON Schema of :data:`SeatView`, its models under ``$defs`` (``#/$defs/NAME``)."""
    schema: JSONObject = SEAT_VIEW.json_schema(mode="serialization")
    return schema


def validate_view(view: JSONObject) -> Any:
    """Check ``view`` as a client receives it (its JSON), strictly: no field unknown to the
    models, none missing, no value of another type."""
    return SEAT_VIEW.validate_json(json.dumps(view))
