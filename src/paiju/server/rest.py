"""The JSON answers of the REST endpoints the web client reads, as pydantic models.

``GET /api/games`` (a list of :class:`GameSummary`), ``GET /api/games/{id}`` (one), the
replay frames (``GET /api/games/{id}/frames``, ``POST /api/replay``: a
:class:`ReplayAnswer`) and the reviews (``GET /api/games/{id}/review``, ``POST
/api/review``, ``GET /api/review/jobs/{job}``: a :class:`ReviewAnswer`, or while it is
not done, status 202, a :class:`ReviewProgress`), 我的对局 (``POST /api/mine``: a
:class:`MineAnswer`), the lobby's games and item names (``GET /api/variants``, ``GET
/api/items``), the calculator (``POST /api/score``), the server's state (``GET
/api/health``), the schemas themselves, a cluster node's own routes (``GET /api/cluster``,
``/api/open-rooms``, ``/api/ready``), and :class:`ErrorAnswer`, a refusal's body (the
rooms' answers are the ``room`` message's ``RoomInfo``). Their JSON Schemas are published with
the server messages' (in ``$defs`` of ``GET /api/schema``'s ``server_messages`` and of
``web/src/schema/server-messages.json``, ``rest`` naming which answers which endpoint) so
the web client's generated types cover them too. The game list is built through its models;
so are the variants, item names, health and rooms; the frames (megabytes for a long
match), the reviews (made in the review worker) and the calculator's results are sent as
built and checked against their models by the tests (as seat views and events are).
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import textwrap
import typing
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    TypeAdapter,
    WithJsonSchema,
    create_model,
)

from paiju.review import Decision
from paiju.server.events import (
    REF_MARK,
    JiaxingExplanation,
    JiaxingScoreItem,
    QingerExplanation,
    QingerScoreItem,
    TaixingExplanation,
    TaixingScoreItem,
)

JSONObject = dict[str, Any]

# markers as in paiju.server.messages: the seat view and the events are defined there
_SpectatorViewJSON = Annotated[JSONObject, WithJsonSchema({"$comment": REF_MARK + "SeatView"})]
_EventJSON = Annotated[JSONObject, WithJsonSchema({"$comment": REF_MARK + "SeatEvent"})]


class _Answer(BaseModel):
    # every field is always sent, None included: the schema says so
    model_config = ConfigDict(
        extra="forbid",
        json_schema_serialization_defaults_required=True,
        use_attribute_docstrings=True,
    )


class GameSeat(_Answer):
    """A seat of a stored game as its room had it (None where a damaged row lacks it)."""

    kind: Literal["person", "bot"] | None
    level: str | None
    """The bot's level (``random``, ``greedy``, ``strong`` …); None for a person."""
    name: str | None


class SeatReview(_Answer):
    """A seat's review summary kept with the game (我的对局)."""

    decisions: int
    agreement: float


class GameResult(_Answer):
    """A finished game's ``totals`` and ``hands``, the seats' ``reviews`` (keyed by the
    seat number as text) once reviewed; a broken game's or damaged row's ``error``."""

    model_config = ConfigDict(extra="allow", json_schema_serialization_defaults_required=False)
    totals: list[int] | None = None
    hands: int | None = None
    reviews: dict[str, SeatReview] | None = None
    error: str | None = None


class GameSummary(_Answer):
    """One game of ``GET /api/games`` (newest first) or ``GET /api/games/{id}``."""

    id: str
    room: str
    variant: str
    status: Literal["playing", "finished", "broken", "abandoned"]
    seats: list[GameSeat]
    result: GameResult | None
    """None while the game is played; its record is public once ``finished``."""
    created_at: float
    """Seconds since 1970 (UTC)."""
    updated_at: float


class FrameAction(_Answer):
    seat: int
    action: str
    """The decision in the record's notation (docs/spec/notation.md)."""


class ReplayFrame(_Answer):
    """One state of a replayed match: after the deal (``action`` None) or after a decision."""

    hand: int
    """The hands finished before this one (0 in the first hand)."""
    action: FrameAction | None
    events: list[_EventJSON]
    """The events of this step, every seat's (the record shows them all)."""
    state: _SpectatorViewJSON
    """The spectator's view with every seat's concealed ``hand`` filled in (no ``events``)."""
    totals: list[int]


class ReplayAnswer(_Answer):
    """``GET /api/games/{id}/frames`` (a finished game) and ``POST /api/replay`` (a record)."""

    variant: str
    seats: list[str]
    """The record header's seat labels (a name, or ``bot:LEVEL``)."""
    options: JSONObject
    """The game's full options (the variant's option fields, docs/spec/)."""
    hands: int
    totals: list[int]
    frames: list[ReplayFrame]


class ReviewCandidate(_Answer):
    """A move the bot weighed: its expected ``points`` (the seat's, to the hand's end), the
    chances to ``win`` and to ``deal_in`` (None where the search did not estimate them)."""

    action: str
    points: float | None
    win: float | None
    deal_in: float | None


class _AbsentWhenUnset(_Answer):
    # a field with a default is left out of the answer when unset, so not required
    model_config = ConfigDict(json_schema_serialization_defaults_required=False)


def _attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings under a dataclass's fields (read as pydantic reads a model's)."""
    body = ast.parse(textwrap.dedent(inspect.getsource(cls))).body[0]
    assert isinstance(body, ast.ClassDef)
    docs: dict[str, str] = {}
    for node, after in itertools.pairwise(body.body):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = inspect.cleandoc(after.value.value)
    return docs


def _answer_of(cls: type, name: str, types: dict[str, Any]) -> type[_Answer]:
    """The answer model of a dataclass's ``to_json``: its fields, defaults and docstrings,
    with ``types`` for the fields that are not plain JSON scalars in the dataclass."""
    hints = typing.get_type_hints(cls)
    fields: dict[str, Any] = {}
    docs = _attribute_docs(cls)
    for f in dataclasses.fields(cls):
        kind = types.get(f.name, hints[f.name])
        if kind not in (int, float, str, bool) and f.name not in types:
            raise TypeError(f"{cls.__name__}.{f.name}: say which JSON it becomes")
        default = ... if f.default is dataclasses.MISSING else f.default
        fields[f.name] = (kind, Field(default, description=docs.get(f.name)))
    model: type[_Answer] = create_model(
        name,
        __base__=_AbsentWhenUnset,
        __doc__=inspect.getdoc(cls),
        __module__=__name__,
        **fields,
    )
    return model


if typing.TYPE_CHECKING:
    ReviewDecision = _Answer
else:
    # made from the review's own Decision, whose to_json this is, so the two cannot drift
    ReviewDecision = _answer_of(
        Decision,
        "ReviewDecision",
        {"candidates": list[ReviewCandidate], "view": JSONObject | None},
    )


class ReviewAnswer(_Answer):
    """``paiju review --json`` for one seat: the server's answer once a review is done."""

    variant: str
    seat: int
    bot: str
    seats: list[str]
    hands: int
    n_decisions: int
    agreement: float
    """The share of decisions where the seat chose as the bot (1.0 with none)."""
    given_up: float
    given_up_per_hand: float
    tolerance: float
    mistakes: list[ReviewDecision]
    """The decisions that gave up points, costliest first."""
    decisions: list[ReviewDecision]


class ReviewProgress(_Answer):
    """A review not done yet (status 202): how far it got."""

    status: Literal["queued", "running"]
    done: int
    """Moves of the record replayed (0 while queued)."""
    total: int
    ahead: int
    """Reviews to run before this one."""
    job: str
    """Ask ``GET /api/review/jobs/{job}`` for it again."""


class ItemCount(_Answer):
    """A scoring item: its name in both languages and how often it scored."""

    zh: str
    en: str
    count: int


class PlayerStatsAnswer(_Answer):
    """``paiju stats`` of one player (docs/bots.md): counts over the seats counted."""

    name: str
    variants: list[str]
    matches: int
    hands: int
    wins: int
    win_rate: float
    self_draw_share: float
    deal_ins: int
    deal_in_rate: float
    points: int
    points_per_hand: float
    items: dict[str, ItemCount]
    """By item id, most frequent first."""
    match_points: list[int]
    """The points of each match, oldest first (the chart)."""
    agreement: float | None
    """The share of reviewed decisions chosen as the strong bot; None with none reviewed."""
    decisions_reviewed: int


class GameStatsBrief(_Answer):
    """A game's counts for the player's seat (a part of :class:`PlayerStatsAnswer`)."""

    hands: int
    wins: int
    self_draw_share: float
    deal_ins: int
    points: int
    items: dict[str, ItemCount]


class MineReview(_Answer):
    """The background review of the player's seat: ``queued``/``running`` (``done`` of
    ``total`` moves, ``ahead``), ``done`` (``decisions``, ``agreement``), ``failed``
    (``detail``), ``waiting`` (the queue is full) or ``off``."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=False)
    status: Literal["queued", "running", "done", "failed", "waiting", "off"]
    done: int | None = None
    total: int | None = None
    ahead: int | None = None
    decisions: int | None = None
    agreement: float | None = None
    detail: str | None = None


class MineGame(_Answer):
    """One of the player's games, newest first; the fields after ``updated_at`` only when
    they apply (a finished game's)."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=False)
    id: str
    variant: str
    status: Literal["playing", "finished", "broken", "abandoned"]
    seat: int
    """The player's seat (the one taken with one of the tokens)."""
    name: str
    seats: list[str]
    """Every seat's label (a name, or ``bot:LEVEL``)."""
    created_at: float
    updated_at: float
    totals: list[int] | None = None
    total: int | None = None
    """The player's seat's total."""
    review: MineReview | None = None
    reviewed: SeatReview | None = None
    stats: GameStatsBrief | None = None
    error: str | None = None
    """Why this game's record could not be counted."""


class MineAnswer(_Answer):
    """``POST /api/mine``: the player's games and statistics (docs/protocol.md, 我的对局)."""

    name: str
    games: list[MineGame]
    more: bool
    """Older games were left out."""
    stats: PlayerStatsAnswer
    by_variant: dict[str, PlayerStatsAnswer]


# -- the lobby, the calculator and the server's state -------------------------------------


class BilingualName(_Answer):
    zh: str
    en: str


class VariantNames(BilingualName):
    """The game's name in 简体, 繁體 and English."""

    zht: str


class OptionInfo(_Answer):
    """One option of a game (the lobby's form, ``paiju variants``)."""

    name: str
    type: Literal["bool", "int", "choice"]
    default: bool | int | str | None
    nullable: bool
    """None is a value too (e.g. ``hands``: none, play by ``rounds``)."""
    choices: list[str | int]
    """The values of a ``choice`` (empty for the others)."""
    minimum: int | None
    maximum: int | None
    label: BilingualName
    rule: str
    """The rule-book item it settles (``/rules/{game}#id``)."""


class BotsInfo(_Answer):
    levels: list[str]
    """Every level the game has (``random``, ``greedy``, ``strong`` …)."""
    server: list[str]
    """The levels this server seats at its tables."""
    default: str
    names: dict[str, BilingualName]
    """By level."""


class ItemInfo(_Answer):
    """A scoring item or payment reason: its names and its rule-book item (``seed``)."""

    id: str
    zh: str
    zht: str
    en: str
    seed: str


class ProfileInfo(_Answer):
    """A named rule profile: the options it sets (the others keep their defaults)."""

    name: str
    version: int
    options: JSONObject
    zh: str
    en: str


class VariantInfo(_Answer):
    """One game of ``GET /api/variants``."""

    name: str
    names: VariantNames
    pieces: Literal["tiles", "cards"]
    seats: int
    """Seats with the default options."""
    seats_option: str | None
    """The option that changes the number of seats (a lobby redraws on it), if any."""
    options: list[OptionInfo]
    bots: BotsInfo
    items: list[ItemInfo]
    rule_book: str
    """Its rule book's file in the repository (``docs/rules/qinger.md``; served at
    ``/rules/{game}``)."""
    profiles: list[ProfileInfo]
    """The seed's defaults first."""


class ItemNames(RootModel[dict[str, dict[str, BilingualName]]]):
    """``GET /api/items``: game → item id (or payment reason) → its names."""


class ScoreFishing(_Answer):
    """钓鱼 (Jiaxing): the seat each turned tile landed on and the net fishing money."""

    hits: list[int]
    payments: list[int]


class _Valid(_AbsentWhenUnset):
    status: Literal[0]
    """``paiju score``'s exit status: 0 a valid win (Qing'er: a valid settlement)."""
    valid: Literal[True]
    payments: list[int]
    """Net change per seat from the settlement; sums to 0."""


class JiaxingScore(_Valid):
    """A valid Jiaxing win (docs/spec/score-cli.md)."""

    variant: Literal["jiaxing"]
    items: list[JiaxingScoreItem]
    kong_payments: list[int]
    """Net change per seat from the kong money of the winner's melds; sums to 0."""
    fishing: ScoreFishing | None = None
    """Only when the situation has ``fishing``."""
    explanation: JiaxingExplanation


class TaixingScore(_Valid):
    """A valid Taixing win (items in 番, plus one for the flower count)."""

    variant: Literal["taixing"]
    items: list[TaixingScoreItem]
    kong_payments: list[int]
    explanation: TaixingExplanation


class QingerScore(_Valid):
    """A valid Qing'er settlement: each player's final score and items."""

    variant: Literal["qinger"]
    scores: list[int]
    items: list[list[QingerScoreItem]]
    """By seat."""
    explanation: QingerExplanation


class ScoreInvalid(_Answer):
    """A well-formed situation that is no legal win under the rules in force."""

    status: Literal[1]
    valid: Literal[False]
    reason: str
    """简体中文 / English."""


ScoreAnswer = JiaxingScore | TaixingScore | QingerScore | ScoreInvalid
SCORE: TypeAdapter[ScoreAnswer] = TypeAdapter(ScoreAnswer)


class ErrorAnswer(_Answer):
    """A refusal (4xx, 503): ``detail`` from most endpoints (a list of what is wrong when
    a query parameter does not parse), ``error`` from ``/api/score`` and for input that
    could not be processed."""

    model_config = ConfigDict(json_schema_serialization_defaults_required=False)
    detail: str | list[JSONObject] | None = None
    error: str | None = None


class StorageHealth(_Answer):
    paused: bool
    """Writes are failing: tables wait (status 503)."""
    write_errors: int
    pauses: int
    resumes: int
    committed_batches: int
    last_error: str | None


class TablesHealth(_Answer):
    rooms: int
    playing: int
    paused: int
    idle: int
    paused_total: int
    resumed_total: int


class GamesHealth(_Answer):
    resumed_at_start: int
    broken_at_start: int
    idle_reaped: int


class BotsHealth(_Answer):
    worker_processes: int
    worker_restarts: int


class HealthAnswer(_Answer):
    """``GET /api/health`` (200, or 503 while storage writes fail)."""

    ok: bool
    status: Literal["ok", "storage_paused"]
    protocol: int
    version: str
    storage: StorageHealth
    tables: TablesHealth
    games: GamesHealth
    rate_limited: int
    """Messages and look-ups refused by the rate limits."""
    bots: BotsHealth


class ProtocolAnswer(_Answer):
    """``GET /api/protocol``: the client messages' JSON Schema."""

    version: int
    client_messages: JSONObject


class SchemaAnswer(ProtocolAnswer):
    """``GET /api/schema``: both JSON Schemas (this document is ``server_messages``)."""

    server_messages: JSONObject


# -- a cluster node's own routes (paiju.server.cluster.http; docs/deploy.md) -----------------

_SeatInfoJSON = Annotated[JSONObject, WithJsonSchema({"$comment": REF_MARK + "SeatInfo"})]


class NodeBeat(_Answer):
    """A live node's last heartbeat."""

    node: str
    started: float
    """When it started, seconds since 1970 (UTC)."""
    seen: float
    """When it last beat (it is dropped a lease time after)."""
    pid: int
    rooms: int
    playing: int
    connections: int
    """Clients connected to it (relayed ones included)."""
    relayed_in: int
    """Clients of other nodes whose messages it takes for its rooms."""
    draining: bool


class ClusterCounters(_Answer):
    taken_over: int
    """Rooms of a dead node this node took over mid-play."""
    waiting_taken_over: int
    """Waiting rooms (not started) of a dead node this node took over."""
    lost: int
    """Leases lost (another node holds the room now)."""
    fenced: int
    """Games dropped here because the storage fence refused this node's write."""
    relayed_in: int
    """Messages of other nodes' clients relayed in to this node's rooms."""


class ClusterAnswer(_Answer):
    """``GET /api/cluster``: this node, its leases and counters, and every live node."""

    node: str
    draining: bool
    rooms: int
    leases: int
    counters: ClusterCounters
    ticks: int
    fence_refused: int
    """Writes the storage fence refused (a room this node no longer owns)."""
    nodes: dict[str, NodeBeat]
    """By node name."""


class OpenRoom(_Answer):
    """One of the lobby's open rooms over the whole cluster (``GET /api/open-rooms``)."""

    code: str
    node: str
    """The node that holds it."""
    variant: str
    n_seats: int
    status: Literal["waiting"]
    seats: list[_SeatInfoJSON]


class ReadyAnswer(_AbsentWhenUnset):
    """``GET /api/ready``: 200 while the node takes clients, 503 while it drains."""

    ready: bool
    node: str
    draining: bool | None = None
    """Only while draining (true)."""


_REVIEW = ("ReviewAnswer|ReviewProgress", False)
REST_ANSWERS: dict[str, tuple[str, bool]] = {
    "GET /api/games": ("GameSummary", True),
    "GET /api/games/{game_id}": ("GameSummary", False),
    "GET /api/games/{game_id}/frames": ("ReplayAnswer", False),
    "POST /api/replay": ("ReplayAnswer", False),
    "GET /api/games/{game_id}/review": _REVIEW,
    "POST /api/review": _REVIEW,
    "GET /api/review/jobs/{job}": _REVIEW,
    "POST /api/mine": ("MineAnswer", False),
    "GET /api/variants": ("VariantInfo", True),
    "GET /api/items": ("ItemNames", False),
    "POST /api/score": ("JiaxingScore|TaixingScore|QingerScore|ScoreInvalid", False),
    "GET /api/rooms": ("RoomInfo", True),
    "GET /api/rooms/{code}": ("RoomInfo", False),
    "GET /api/health": ("HealthAnswer", False),
    "GET /api/protocol": ("ProtocolAnswer", False),
    "GET /api/schema": ("SchemaAnswer", False),
    "GET /api/cluster": ("ClusterAnswer", False),
    "GET /api/open-rooms": ("OpenRoom", True),
    "GET /api/ready": ("ReadyAnswer", False),
}
"""Endpoint → (the model of its answer, ``A|B`` for one of two, whether the answer is a
list of them). A review answers 200 with a ``ReviewAnswer``, 202 with a ``ReviewProgress``;
the score its result (the exit status ``paiju score`` would give in ``status``). The rooms'
``RoomInfo`` is the ``room`` message's (paiju.server.messages). A refusal is an
``ErrorAnswer``."""

_MODELS: tuple[type[BaseModel], ...] = (
    GameSummary,
    ReplayAnswer,
    ReviewAnswer,
    ReviewProgress,
    MineAnswer,
    VariantInfo,
    ItemNames,
    JiaxingScore,
    TaixingScore,
    QingerScore,
    ScoreInvalid,
    ErrorAnswer,
    HealthAnswer,
    ProtocolAnswer,
    SchemaAnswer,
    ClusterAnswer,
    OpenRoom,
    ReadyAnswer,
)
GAME_LIST: TypeAdapter[list[GameSummary]] = TypeAdapter(list[GameSummary])


def rest_schema() -> JSONObject:
    """``$defs`` of every REST answer model (with markers for the seat view and events,
    which ``messages.server_schema`` turns into references)."""
    defs: JSONObject = {}
    for model in _MODELS:
        schema = model.model_json_schema(mode="serialization", ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        defs[model.__name__] = schema
    return defs


def rest_index() -> JSONObject:
    """Endpoint → the JSON Schema of its answer, by reference into ``$defs``."""
    out: JSONObject = {}
    for endpoint, (names, many) in REST_ANSWERS.items():
        refs = [{"$ref": f"#/$defs/{name}"} for name in names.split("|")]
        ref = refs[0] if len(refs) == 1 else {"anyOf": refs}
        out[endpoint] = {"type": "array", "items": ref} if many else ref
    return out


def validate_review(answer: JSONObject) -> ReviewAnswer | ReviewProgress:
    """Check a review endpoint's answer: done, or how far it got."""
    if answer.get("status") in ("queued", "running"):
        return ReviewProgress.model_validate(answer)
    return ReviewAnswer.model_validate(answer)


def validate_replay(answer: JSONObject) -> ReplayAnswer:
    """Check a replay answer's shape (the seat views and events are checked apart)."""
    return ReplayAnswer.model_validate(answer)
