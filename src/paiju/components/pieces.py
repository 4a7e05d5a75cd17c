"""What a tile kind and a card kind share: a stable int index named in 简体中文, 繁體 and
English."""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple


class PieceNames(NamedTuple):
    """One name per member of a piece type, in index order."""

    zh: tuple[str, ...]
    zh_hant: tuple[str, ...]
    en: tuple[str, ...]


class Piece(IntEnum):
    """A kind of piece (:class:`~paiju.components.tiles.Tile`,
    :class:`~paiju.components.cards.Card`); each subclass's module registers its names
    with :func:`name_pieces` once the name tables exist (written inside the enum's body
    they would become members)."""

    @property
    def zh(self) -> str:
        return _NAMES[type(self)].zh[self]

    @property
    def zh_hant(self) -> str:
        return _NAMES[type(self)].zh_hant[self]

    @property
    def en(self) -> str:
        return _NAMES[type(self)].en[self]


_NAMES: dict[type[Piece], PieceNames] = {}


def name_pieces(kind: type[Piece], names: PieceNames) -> None:
    """Register ``kind``'s names; every member needs one in each language."""
    if not all(len(table) == len(kind) for table in names):
        raise ValueError(f"{kind.__name__}: a name per member in each language")
    _NAMES[kind] = names
