"""Server → client messages, as pydantic models.

Every message the server sends is built by one of these models and dumped to JSON, so the
JSON Schema published at ``GET /api/schema`` (and committed as
``web/src/schema/server-messages.json`` by ``scripts/server-schema.py``) is the contract the
browser client's TypeScript types are generated from. Game payloads (``state``, ``events``,
``match``) come from the engine's seat views and event filters. ``state`` is published as
``$defs/SeatView`` (the models of ``paiju.server.views``) but sent as the engine built it,
unvalidated: a test checks every view of seeded games against those models instead, so a
drifted field fails a test and never a table. ``events`` likewise are published as
``$defs/SeatEvent`` (``paiju.server.events``) and sent unvalidated.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, WithJsonSchema

from paiju.server.events import REF_MARK, SeatEventJSON, seat_event_schema
from paiju.server.rest import rest_index, rest_schema
from paiju.server.views import seat_view_schema

JSONObject = dict[str, Any]
# pydantic cannot emit a $ref to a definition it did not make: a marker stands in for it
# and server_schema() swaps it for the reference once the view models are in $defs
SeatViewJSON = Annotated[JSONObject, WithJsonSchema({"$comment": REF_MARK + "SeatView"})]
"""A seat view: typed in the schema, passed through as the engine's JSON when sent."""


class _Out(BaseModel):
    # every field is always sent, defaults included: the schema says so
    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=True)

    def json_dict(self) -> JSONObject:
        return self.model_dump(mode="json")


class Welcome(_Out):
    type: Literal["welcome"] = "welcome"
    protocol: int
    server: str
    variants: list[str]


class Pong(_Out):
    type: Literal["pong"] = "pong"
    t: float | None
    server_time: float


class RoomCreated(_Out):
    type: Literal["room_created"] = "room_created"
    code: str


class SeatInfo(_Out):
    seat: int
    kind: Literal["person", "bot"]
    level: str | None
    name: str
    taken: bool
    connected: bool
    bot_playing: bool


class TimersInfo(_Out):
    turn_seconds: float
    claim_seconds: float
    bank_seconds: float


class FairInfo(_Out):
    """The room's fair deal (docs/spec/fair-deal.md) as every seat sees it before the deal:
    the commitment to the server seed, and the client seeds by seat (``""`` for a bot or a
    client that sent none; fixed when the game starts)."""

    scheme: Literal["paiju-fair-1"]
    commitment: str
    room: str
    client_seeds: list[str]


class FairReveal(FairInfo):
    """At the match's end: the same fields and the server seed, 64 hex digits, whose
    SHA-256 is the commitment."""

    server_seed: str


class RoomInfo(_Out):
    code: str
    variant: str
    n_seats: int
    options: JSONObject
    status: Literal["waiting", "starting", "playing", "paused", "finished"]
    seats: list[SeatInfo]
    timers: TimersInfo
    game_id: str | None
    spectators: int
    fair: FairInfo


class You(_Out):
    seat: int | None
    host: bool
    client_seed: str | None
    """The seed this connection sent (``join``, ``create_room`` or ``take_seat``)."""


class RoomMessage(_Out):
    type: Literal["room"] = "room"
    room: RoomInfo
    you: You


class Clock(_Out):
    seat: int
    remaining_ms: int
    deadline_ms: int
    bank_ms: int
    base_ms: int


class LedgerEntry(_Out):
    """One payment of the match: in which hand, who paid whom how much, for what."""

    hand: int
    payer: int
    payee: int
    amount: int
    reason: str


class HandSummary(_Out):
    """A finished hand of the match."""

    index: int
    dealer: int
    winners: list[int]
    self_drawn: bool
    exhausted: bool
    net: list[int]


class MatchState(_Out):
    hands_played: int
    dealer: int
    round_wind: int
    totals: list[int]
    ledger: list[LedgerEntry]
    hands: list[HandSummary]


class Snapshot(_Out):
    """The game fields (``turn`` … ``match``) are absent until the game has started."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=False)
    type: Literal["snapshot"] = "snapshot"
    room: RoomInfo
    seat: int | None
    turn: int | None = None
    hand: int | None = None
    state: SeatViewJSON | None = None
    legal: list[str] = []
    to_act: list[int] = []
    timers: list[Clock] = []
    match: MatchState | None = None

    def json_dict(self) -> JSONObject:
        # before the game starts a snapshot has no game fields at all
        return {"type": "snapshot", **self.model_dump(mode="json", exclude_unset=True)}


class Seated(_Out):
    type: Literal["seated"] = "seated"
    seat: int
    token: str
    code: str


class HandStart(_Out):
    type: Literal["hand_start"] = "hand_start"
    hand: int
    dealer: int | None


class Update(_Out):
    type: Literal["update"] = "update"
    events: list[SeatEventJSON]
    turn: int
    hand: int | None
    state: SeatViewJSON
    legal: list[str]
    to_act: list[int]
    timers: list[Clock]


class Timeout(_Out):
    """Sent to the seat whose clock ran out, and to nobody else."""

    type: Literal["timeout"] = "timeout"
    seat: int
    turn: int


class HandEnd(_Out):
    type: Literal["hand_end"] = "hand_end"
    next_hand_ms: int | None
    """Milliseconds until the next deal unless everyone is ``ready`` first; None after the
    last hand."""
    hand: int
    winners: list[int]
    self_drawn: bool
    exhausted: bool
    net: list[int]
    state: SeatViewJSON
    match: MatchState


class MatchEnd(_Out):
    type: Literal["match_end"] = "match_end"
    game_id: str
    totals: list[int]
    match: MatchState
    record: str
    fair: FairReveal


class Left(_Out):
    type: Literal["left"] = "left"
    code: str


class Paused(_Out):
    """Storage is failing: the table waits (nothing is lost) until it is back."""

    type: Literal["paused"] = "paused"
    reason: Literal["storage"] = "storage"
    message: str


class Resumed(_Out):
    type: Literal["resumed"] = "resumed"


class Error(_Out):
    type: Literal["error"] = "error"
    code: str
    message: str


ServerMessage = Annotated[
    Welcome
    | Pong
    | RoomCreated
    | RoomMessage
    | Snapshot
    | Seated
    | HandStart
    | Update
    | Timeout
    | HandEnd
    | MatchEnd
    | Left
    | Paused
    | Resumed
    | Error,
    Field(discriminator="type"),
]
SERVER_MESSAGE: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def error(code: str, message: str) -> JSONObject:
    return Error(code=code, message=message).json_dict()


def server_schema() -> JSONObject:
    """JSON Schema of every server message (the web client generates its types from it),
    with the REST answers' models beside them in ``$defs`` (``rest``: endpoint → answer)."""
    schema: JSONObject = SERVER_MESSAGE.json_schema(mode="serialization")
    schema["title"] = "ServerMessage"
    for definition in schema.get("$defs", {}).values():
        if "type" in definition.get("properties", {}):
            required = definition.setdefault("required", [])
            if "type" not in required:
                required.insert(0, "type")
    views = seat_view_schema()
    defs = schema.setdefault("$defs", {})
    clash = set(defs) & set(views["$defs"])
    if clash:  # pragma: no cover - a renamed model would shadow a message's
        raise AssertionError(f"view and message models share names: {sorted(clash)}")
    defs.update(views.pop("$defs"))
    defs["SeatView"] = {"title": "SeatView", **views}
    events = seat_event_schema()
    clash = set(defs) & set(events["$defs"])
    if clash:  # pragma: no cover - a renamed model would shadow another
        raise AssertionError(f"event models share names with others: {sorted(clash)}")
    defs.update(events.pop("$defs"))
    defs["SeatEvent"] = {"title": "SeatEvent", **events}
    answers = rest_schema()
    # an answer may hold an event's model (the calculator's explanation): the same definition
    clash = {name for name in set(defs) & set(answers) if defs[name] != answers[name]}
    if clash:  # pragma: no cover - a renamed model would shadow another
        raise AssertionError(f"REST answer models share names with others: {sorted(clash)}")
    defs.update(answers)
    # which $defs entry answers which REST endpoint (the root stays the message union)
    schema["rest"] = rest_index()
    _point_at_seat_view(schema)
    return schema


def _point_at_seat_view(node: Any) -> Any:
    """``node`` with every marker (``paiju:ref:NAME``: the seat view, the events) replaced
    by ``{"$ref": "#/$defs/NAME"}``."""
    if isinstance(node, dict):
        mark = node.get("$comment")
        if isinstance(mark, str) and mark.startswith(REF_MARK):
            return {"$ref": "#/$defs/" + mark.removeprefix(REF_MARK)}
        for key, value in node.items():
            node[key] = _point_at_seat_view(value)
    elif isinstance(node, list):
        node[:] = [_point_at_seat_view(item) for item in node]
    return node


def validate(message: JSONObject) -> Any:
    """Check that ``message`` is a well-formed server message (tests call it on all sent)."""
    return SERVER_MESSAGE.validate_python(message)
