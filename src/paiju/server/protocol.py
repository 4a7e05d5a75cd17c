"""The websocket protocol: client messages as pydantic models, server messages as builders.

Every client message is one JSON object with a ``type`` (the discriminator) and an optional
``v`` (the protocol version; only :data:`PROTOCOL_VERSION` is accepted). Unknown fields are
rejected, so a typo is an error rather than silently ignored. docs/protocol.md is the
reference for both directions.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from paiju.engine.fairness import FairDealError, check_client_seed

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 8192
"""The largest client message (``paiju serve --max-frame-bytes`` sets the transport's)."""
MAX_BRACKETS = 64
"""Objects and arrays in one message, counted before parsing (so nesting is bounded too)."""
MAX_DIGITS = 18
"""Digits in a row, counted before parsing (no integer of 10**4000 reaches the parser)."""
ROOM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
ROOM_CODE_LENGTH = 10
"""31**10 codes: at the lookup limit of one a second with 2000 live rooms, finding one takes
an address about 13,000 years on average."""
MATCH_LENGTH_LIMITS = {"hands": 64, "rounds": 16}
"""The longest match a server table plays (a longer one would hold a room for days)."""

_LONG_NUMBER = re.compile(rb"[0-9]{%d,}" % (MAX_DIGITS + 1))

Name = Annotated[str, Field(max_length=24, pattern=r"^[^\x00-\x1f<>]*$")]


def _client_seed(value: str) -> str:
    try:
        return check_client_seed(value)
    except FairDealError as exc:
        raise ValueError(str(exc)) from None


ClientSeed = Annotated[
    str,
    Field(max_length=64, pattern=r"^[A-Za-z0-9_-]*$"),
    AfterValidator(_client_seed),
]
"""A person's contribution to the fair deal (docs/spec/fair-deal.md): 0–64 characters of
``A-Z a-z 0-9 _ -``; a browser sends 16 random bytes in base64url."""


class _Message(BaseModel):
    # strict: a seat is 1, never "1" or true
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    v: Literal[1] = 1


class SeatChoice(BaseModel):
    """Who sits in a seat: a person (who takes it with ``take_seat``) or a bot of a level."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    kind: Literal["person", "bot"]
    level: str = Field(default="greedy", max_length=16)


class TimerSettings(BaseModel):
    """Seconds per decision (turn / claim window) and each person's extra time bank."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    turn_seconds: float = Field(default=20.0, ge=1, le=600)
    claim_seconds: float = Field(default=8.0, ge=1, le=600)
    bank_seconds: float = Field(default=60.0, ge=0, le=3600)


class CreateRoom(_Message):
    type: Literal["create_room"]
    variant: str = Field(max_length=16)
    options: dict[str, Any] = Field(default_factory=dict, max_length=32)
    seats: list[SeatChoice] | None = Field(default=None, max_length=8)
    """One entry per seat; default: seat 0 a person, the others greedy bots."""
    timers: TimerSettings = TimerSettings()
    client_seed: ClientSeed | None = None
    """This client's seed for the fair deal, used for the seat it takes."""


class Join(_Message):
    """Watch a room (as a spectator until ``take_seat``)."""

    type: Literal["join"]
    # any length up to a code's: a wrong code is "no such room" to the person who typed it
    code: str = Field(min_length=1, max_length=ROOM_CODE_LENGTH)
    client_seed: ClientSeed | None = None
    """This client's seed for the fair deal, used for the seat it takes (until the game
    starts; the seeds are fixed then)."""


class TakeSeat(_Message):
    type: Literal["take_seat"]
    seat: int = Field(ge=0, le=7)
    name: Name = ""
    client_seed: ClientSeed | None = None
    """Overrides the seed sent with ``join`` / ``create_room`` for this seat."""


class SetSeat(_Message):
    """Host only, before the game starts: make a seat a person's or a bot's."""

    type: Literal["set_seat"]
    seat: int = Field(ge=0, le=7)
    kind: Literal["person", "bot"]
    level: str = Field(default="greedy", max_length=16)


class Start(_Message):
    """Host only: start now; person seats nobody took are given to bots."""

    type: Literal["start"]


class Act(_Message):
    type: Literal["act"]
    action: str = Field(min_length=1, max_length=16)
    turn: int | None = Field(default=None, ge=0)
    """The ``turn`` of the state the client acts on; a stale one is refused."""


class Ping(_Message):
    type: Literal["ping"]
    t: float | None = None


class Reconnect(_Message):
    type: Literal["reconnect"]
    token: str = Field(min_length=8, max_length=64)


class Leave(_Message):
    """Give the seat to a bot for now; ``reconnect`` with the token takes it back."""

    type: Literal["leave"]


class Ready(_Message):
    """Between hands: this seat is ready for the next deal, which comes as soon as every
    connected person is ready (or when the pause runs out)."""

    type: Literal["ready"]


class Pace(_Message):
    """How long this device wants bots to take over their own moves (the player's
    bot-pace setting); ``null``: the server's default. A table plays at the slowest pace
    any of its seated, connected people asked for, so nobody is rushed. Claim windows
    are not slowed: a bot answers them at once whatever the pace (see the claim windows)."""

    type: Literal["pace"]
    bot_seconds: float | None = Field(default=None, ge=0, le=5)


ClientMessage = Annotated[
    CreateRoom | Join | TakeSeat | SetSeat | Start | Act | Ping | Reconnect | Leave | Ready | Pace,
    Field(discriminator="type"),
]
CLIENT_MESSAGE = TypeAdapter(ClientMessage)


class ProtocolError(Exception):
    """A message refused; ``code`` is machine-readable, the message is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def parse_client_message(raw: str | bytes, limit: int = MAX_MESSAGE_BYTES) -> Any:
    """Decode and validate one client message; raises :class:`ProtocolError`."""
    data = raw.encode("utf-8", errors="surrogatepass") if isinstance(raw, str) else raw
    if len(data) > limit:
        raise ProtocolError("too_large", f"messages are limited to {limit} bytes")
    if data.count(b"[") + data.count(b"{") > MAX_BRACKETS:
        raise ProtocolError("bad_message", f"at most {MAX_BRACKETS} objects and arrays")
    if _LONG_NUMBER.search(data):
        raise ProtocolError("bad_message", f"numbers have at most {MAX_DIGITS} digits")
    try:
        return CLIENT_MESSAGE.validate_json(data)
    except ValidationError as exc:
        raise ProtocolError("bad_message", _describe(exc)) from None
    except (ValueError, RecursionError) as exc:
        raise ProtocolError("bad_message", f"not a JSON message ({type(exc).__name__})") from None


def check_match_length(options: dict[str, Any]) -> None:
    """Refuse match lengths a server table will not play (ValueError naming the option)."""
    for name, limit in MATCH_LENGTH_LIMITS.items():
        value = options.get(name)
        if isinstance(value, int) and value > limit:
            raise ValueError(f"option {name!r} is at most {limit} at a server table")


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False)[:3]:
        where = ".".join(str(p) for p in err["loc"]) or "message"
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)


def client_schema() -> dict[str, Any]:
    """JSON Schema of every client message (for generating client types)."""
    schema: dict[str, Any] = CLIENT_MESSAGE.json_schema()
    return schema
