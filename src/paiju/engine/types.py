"""Types every game shares: melds, win situations, scoring items, payments.

Standard library only. The calculator (``paiju score``) and the engine build the same
:class:`MahjongWin` and call the same variant function, so a hand is scored one way.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from paiju.components.tiles import Tile


class MeldType(StrEnum):
    PONG = "pong"
    KONG = "kong"
    """明杠: an exposed kong of a discard (直杠)."""
    ADDED_KONG = "added_kong"
    """补杠 / 续杠: a pong upgraded with the fourth tile; ``source`` fed the pong."""
    CONCEALED_KONG = "concealed_kong"
    CHI = "chi"
    """吃: a run claimed from the seat before (only where a variant allows chow);
    ``Meld.tile`` is its lowest tile."""

    @property
    def is_kong(self) -> bool:
        return self in _KONGS

    @property
    def size(self) -> int:
        return 4 if self in _KONGS else 3


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set. ``source`` is the seat that fed it (None for a concealed kong)."""

    type: MeldType
    tile: Tile
    source: int | None = None

    @property
    def is_kong(self) -> bool:
        return self.type in _KONGS

    @property
    def exposed(self) -> bool:
        return self.type is not MeldType.CONCEALED_KONG

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The physical tiles of the meld (a chow's run, or four/three alike)."""
        if self.type is MeldType.CHI:
            return (self.tile, Tile(self.tile + 1), Tile(self.tile + 2))
        return (self.tile,) * self.type.size


_KONGS = frozenset({MeldType.KONG, MeldType.ADDED_KONG, MeldType.CONCEALED_KONG})


class Phase(StrEnum):
    """Where a hand stands, as every game's state machine, view and message names it.

    A hand is in one of ``KNOCK`` … ``END`` (each game uses the ones it has: mahjong
    ``ACT CLAIM ROB DECLARE END``, Qing'er ``KNOCK TAKEOFF ACT CLAIM END``). ``WAIT`` is
    only ever shown: a seat that a claim window does not ask sees the hand waiting, so
    it never learns that someone else may claim. ``BETWEEN_HANDS`` and ``FINISHED`` are a
    session's, between and after its hands. The values are the JSON words.
    """

    KNOCK = "knock"
    """Qing'er: each player knocks (敲) or passes."""
    TAKEOFF = "takeoff"
    """Qing'er: players with four alike (or the five jokers) may show them (起飞)."""
    DECLARE = "declare"
    """Mahjong 天听: right after the deal the ready non-dealers declare or pass."""
    ACT = "act"
    """The seat to move holds a full hand: discard, kong, or win."""
    CLAIM = "claim"
    """After a discard: the seats with an option answer."""
    ROB = "rob"
    """After an added kong: the seats that can win on its tile answer."""
    END = "end"
    WAIT = "wait"
    BETWEEN_HANDS = "between_hands"
    FINISHED = "finished"


class WinType(StrEnum):
    SELF_DRAW = "self_draw"
    DISCARD = "discard"
    ROBBED_KONG = "robbed_kong"


class WinFlag(StrEnum):
    """What a mahjong win's situation adds to its tiles (scoring reads them, the engine
    and the calculator's ``flags`` set them). The values are the JSON words."""

    KONG_REPLACEMENT = "kong_replacement"
    """Won on a kong's replacement tile (杠开 / 杠上花)."""
    AFTER_KONG_DISCARD = "after_kong_discard"
    """Won on the discard that followed a kong (杠上炮)."""
    LAST_TILE = "last_tile"
    """海底: on the last tile (or within the rules' last-tile window)."""
    HEAVENLY = "heavenly"
    """天胡: the dealer's self-draw before any discard."""
    EARTHLY = "earthly"
    """地胡: a non-dealer's self-draw on its first draw, nothing claimed yet."""
    HUMAN = "human"
    """人胡: a non-dealer's win on the dealer's first discard."""
    READY_AT_DEAL = "ready_at_deal"
    """Taixing 天听: declared ready right after the deal."""
    DECLARED_READY = "declared_ready"
    """Jiaxing 报听: declared ready with a discard."""
    MULTIPLE_WINNERS = "multiple_winners"
    """More than one seat won on this discard or robbed kong."""


@dataclass(frozen=True, slots=True)
class MahjongWin:
    """Everything needed to score one winner of a Jiaxing or Taixing hand.

    ``concealed`` is a 34-long count vector of the winner's concealed tiles, **including**
    the winning tile. ``source`` is the discarder (discard) or the robbed seat.
    """

    dealer: int
    winner: int
    concealed: tuple[int, ...]
    melds: tuple[Meld, ...]
    win_tile: Tile
    win_type: WinType
    source: int | None = None
    flags: frozenset[WinFlag] = frozenset()
    flowers: tuple[Tile, ...] = ()
    draw_streak: int = 0
    leopard: bool = False
    kong_chain: int = 1
    """Kongs in an unbroken chain ending with the most recent one (连杠); 1 = no chain."""
    n_seats: int = 4
    discard_winners: int = 1
    """How many seats won on this discard or robbed kong, this one included (1 for a
    self-draw). Jiaxing's 一炮三响 floor (J18) depends on it; the flag
    ``multiple_winners`` says only that it is more than one."""
    hun: Tile | None = None
    """The indicator turned up after the deal (Jiaxing's ``hun`` option, 混儿); its kind
    and the next are wild. None: no wilds this hand."""

    @property
    def self_drawn(self) -> bool:
        return self.win_type is WinType.SELF_DRAW

    @property
    def payers(self) -> tuple[int, ...]:
        return tuple(s for s in range(self.n_seats) if s != self.winner)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring item that applied: stable id, 简体 name, 繁體 name, English, value."""

    id: str
    zh: str
    zh_hant: str
    en: str
    value: int

    def to_json(self, lang: str = "zh") -> dict[str, Any]:
        name = self.en if lang == "en" else self.zh
        return {"id": self.id, "name": name, "value": self.value}


@dataclass(frozen=True, slots=True)
class Payment:
    """A ledger entry: ``payer`` gives ``payee`` ``amount`` for ``reason`` (an item id)."""

    payer: int
    payee: int
    amount: int
    reason: str


def net(payments: typing.Iterable[Payment], n_seats: int) -> list[int]:
    """Net change per seat; always sums to zero."""
    out = [0] * n_seats
    for p in payments:
        out[p.payer] -= p.amount
        out[p.payee] += p.amount
    return out


RefusalCode = typing.Literal[
    "not_complete",
    "too_few_flowers",
    "no_missing_suit",
    "sealed",
    "not_allowed",
    "zi_mo_only",
    "below_threshold",
]
"""Every reason a complete-looking hand may not win now (the views and the client key on it)."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a complete hand may not win now: a stable code and the words for people.

    Codes are shared across games where the reason is the same (``not_complete``,
    ``too_few_flowers``, ``no_missing_suit``, ``sealed``, ``below_threshold``).
    """

    code: RefusalCode
    zh: str
    en: str

    def to_json(self) -> dict[str, str]:
        return {"code": self.code, "zh": self.zh, "en": self.en}


@dataclass(frozen=True, slots=True)
class WinResult:
    """The scoring of one win. ``valid`` False carries a reason (简体 / English)."""

    valid: bool
    items: tuple[ScoreItem, ...] = ()
    payments: tuple[Payment, ...] = ()
    kong_payments: tuple[Payment, ...] = ()
    reason_zh: str = ""
    reason_en: str = ""
    per_payer: int = 0
    """The winner's hand value per payer before liability shifts (used by 钓鱼)."""
    extra: dict[str, Any] = field(default_factory=dict)
    reason_code: RefusalCode | None = None
    """With ``valid`` False: the :class:`Refusal` code of the reason."""

    @classmethod
    def invalid(cls, zh: str, en: str, code: RefusalCode = "not_complete") -> WinResult:
        return cls(False, reason_zh=zh, reason_en=en, reason_code=code)

    def refusal(self) -> Refusal | None:
        """Why the win is refused (None when it is valid)."""
        if self.valid:
            return None
        return Refusal(self.reason_code or "not_complete", self.reason_zh, self.reason_en)
