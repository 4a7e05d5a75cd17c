"""Server → client messages, as pydantic models.

Every message the server sends is built by one of these models and dumped to JSON, so the
JSON Schema published at ``GET /api/schema`` (and committed as
``web/src/schema/server-messages.json`` by ``scripts/server-schema.py``) is the contract the
browser client's TypeScript types are generated from. Game payloads (``state``, ``events``,
``match``) come from the engine's seat views and event filters; their shape is the engine's
and is typed here as JSON objects.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

JSONObject = dict[str, Any]


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


class You(_Out):
    seat: int | None
    host: bool


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


class MatchState(_Out):
    hands_played: int
    dealer: int
    round_wind: int
    totals: list[int]
    ledger: list[JSONObject]
    hands: list[JSONObject]


class Snapshot(_Out):
    """The game fields (``turn`` … ``match``) are absent until the game has started."""

    model_config = ConfigDict(extra="forbid", json_schema_serialization_defaults_required=False)
    type: Literal["snapshot"] = "snapshot"
    room: RoomInfo
    seat: int | None
    turn: int | None = None
    hand: int | None = None
    state: JSONObject | None = None
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
    events: list[JSONObject]
    turn: int
    hand: int | None
    state: JSONObject
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
    state: JSONObject
    match: MatchState


class MatchEnd(_Out):
    type: Literal["match_end"] = "match_end"
    game_id: str
    totals: list[int]
    match: MatchState
    record: str


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
    """JSON Schema of every server message (the web client generates its types from it)."""
    schema: JSONObject = SERVER_MESSAGE.json_schema(mode="serialization")
    schema["title"] = "ServerMessage"
    for definition in schema.get("$defs", {}).values():
        if "type" in definition.get("properties", {}):
            required = definition.setdefault("required", [])
            if "type" not in required:
                required.insert(0, "type")
    return schema


def validate(message: JSONObject) -> Any:
    """Check that ``message`` is a well-formed server message (tests call it on all sent)."""
    return SERVER_MESSAGE.validate_python(message)
