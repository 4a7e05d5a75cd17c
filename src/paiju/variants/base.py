"""Types every variant shares: melds, win situations, scoring items, payments, options.

Standard library only. The calculator (``paiju score``) and the engine build the same
:class:`MahjongWin` and call the same variant function, so a hand is scored one way.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from paiju.components.boundedjson import preview
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


class WinType(StrEnum):
    SELF_DRAW = "self_draw"
    DISCARD = "discard"
    ROBBED_KONG = "robbed_kong"


MAHJONG_FLAGS = frozenset(
    {
        "kong_replacement",
        "after_kong_discard",
        "last_tile",
        "heavenly",
        "earthly",
        "human",
        "ready_at_deal",
        "multiple_winners",
    }
)


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
    flags: frozenset[str] = frozenset()
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

    @classmethod
    def invalid(cls, zh: str, en: str) -> WinResult:
        return cls(False, reason_zh=zh, reason_en=en)


class OptionError(ValueError):
    """An unknown option name or a value of the wrong type or range."""


def options_from_mapping(cls: type[Any], values: typing.Mapping[str, Any]) -> Any:
    """Build a frozen options dataclass from JSON-like values, checking names and types.

    Enum-typed fields accept their value strings; ``Literal`` fields their listed values.
    """
    fields = {f.name: f for f in dataclasses.fields(cls)}
    hints = typing.get_type_hints(cls)
    kwargs: dict[str, Any] = {}
    for name, value in values.items():
        if name not in fields:
            raise OptionError(f"unknown option {preview(name)}")
        kwargs[name] = _coerce(name, hints[name], value)
    return cls(**kwargs)


def _coerce(name: str, hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin is typing.Literal:
        if value not in typing.get_args(hint):
            allowed = ", ".join(repr(a) for a in typing.get_args(hint))
            raise OptionError(
                f"option {preview(name)} must be one of {allowed}, not {preview(value)}"
            )
        return value
    if origin in (typing.Union, types.UnionType):
        errors = []
        for arm in typing.get_args(hint):
            if arm is type(None):
                if value is None:
                    return None
                continue
            try:
                return _coerce(name, arm, value)
            except OptionError as exc:
                errors.append(str(exc))
        raise OptionError(f"option {preview(name)}: bad value {preview(value)}")
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        try:
            return hint(value)
        except ValueError:
            allowed = ", ".join(repr(m.value) for m in hint)
            raise OptionError(
                f"option {preview(name)} must be one of {allowed}, not {preview(value)}"
            ) from None
    if hint is bool:
        if not isinstance(value, bool):
            raise OptionError(f"option {preview(name)} must be true or false, not {preview(value)}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(f"option {preview(name)} must be an integer, not {preview(value)}")
        return value
    raise OptionError(f"option {preview(name)} cannot be set from JSON")


def options_to_mapping(options: Any) -> dict[str, Any]:
    """The JSON form of an options dataclass (for record headers)."""
    out: dict[str, Any] = {}
    for f in dataclasses.fields(options):
        value = getattr(options, f.name)
        out[f.name] = value.value if isinstance(value, StrEnum) else value
    return out
