"""How tiles and cards look in the terminal: coloured two-cell labels, no mahjong glyphs
unless asked (fonts draw U+1F000… wide while terminals count them narrow).

A *piece* is a tile or a card in notation (``"5m"``, ``"1z"``, ``"6s"``, ``"BJ"``): the
form the engine's ``view()`` and action strings use, so the UI needs no engine internals.
Every label is exactly four terminal cells wide, so rows of pieces line up.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from paiju.components.cards import Card
from paiju.components.notation import parse_card, parse_cards, parse_tile, parse_tiles
from paiju.components.tiles import Tile

TileStyle = Literal["hanzi", "code", "glyph"]
TILE_STYLES: tuple[str, ...] = ("hanzi", "code", "glyph")

CARD_VARIANTS = frozenset({"qinger"})
"""Variants played with cards rather than tiles."""

FACE_BG = "#efe8d4"
"""Ivory, like the face of a bone tile."""
HIGHLIGHT_BG = "#f5c542"
WILD_BG = "#b9e3c6"
"""Background of a wild tile (Jiaxing 混儿), so that a 混儿 stands out in every row."""
BACK_COLOUR = "#2e8b57"

_SUIT_COLOURS = ("#b3261e", "#1c57a5", "#1f7a3f")  # 万 red, 筒 blue, 索 green
_HONOUR_COLOURS = ("#222222",) * 4 + ("#c0392b", "#1f7a3f", "#4a5d73")
_FLOWER_COLOUR = "#8e44ad"
_HONOUR_FACES = ("东风", "南风", "西风", "北风", "红中", "发财", "白板")
_CARD_COLOURS = {"s": "#222222", "h": "#c0392b", "c": "#1f7a3f"}
_CARD_SUIT_ZH = {"s": "黑", "h": "红", "c": "花"}


def _pad(label: str, width: int = 4) -> str:
    gap = width - cell_len(label)
    if gap <= 0:
        return label
    left = gap // 2
    return " " * left + label + " " * (gap - left)


# -- tiles ---------------------------------------------------------------------------
def tile_colour(tile: Tile) -> str:
    if tile.is_flower:
        return _FLOWER_COLOUR
    if tile.is_honour:
        return _HONOUR_COLOURS[tile - 27]
    return _SUIT_COLOURS[tile // 9]


def tile_faces(tile: Tile, style: TileStyle) -> tuple[str, str]:
    """The two lines printed on a tile (each at most two cells)."""
    if style == "hanzi":
        if tile.is_flower:
            return tile.zh, "花"
        if tile.is_honour:
            face = _HONOUR_FACES[tile - 27]
            return face[0], face[1]
        return tile.zh[0], tile.zh[1]
    if style == "glyph":
        return _glyph(tile), ""
    if tile.is_honour or tile.is_flower:
        return tile.zh_hant, ""
    return str(tile.rank), tile.suit


def tile_label(tile: Tile, style: TileStyle) -> str:
    """One-line label, e.g. 五万 / 东风 (hanzi), 5m / 東 (code)."""
    if style == "hanzi":
        if tile.is_honour:
            return _HONOUR_FACES[tile - 27]
        return tile.zh
    if style == "glyph":
        return _glyph(tile) + " "
    if tile.is_honour or tile.is_flower:
        return tile.zh_hant
    return str(tile)


def _glyph(tile: Tile) -> str:
    # the Unicode block orders winds, dragons (中 發 白), 萬, 索, 筒, then plum … and seasons
    if tile.is_honour:
        return chr(0x1F000 + (tile - 27))
    if tile.is_flower:
        rank = tile.rank
        return chr(0x1F026 + rank - 1) if rank <= 4 else chr(0x1F022 + rank - 5)
    suit_base = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}[tile.suit]
    return chr(suit_base + tile.rank - 1)


# -- cards ---------------------------------------------------------------------------
def card_colour(card: Card) -> str:
    if card.is_joker:
        return _FLOWER_COLOUR
    if card.is_flower:
        return "#b8860b"
    return _CARD_COLOURS[card.suit]


def card_faces(card: Card, lang: str) -> tuple[str, str]:
    if not card.is_number and not card.is_face:
        name = card.zh if lang != "en" else str(card)
        return (name[0], name[1]) if lang != "en" else (name, "")
    rank = card.rank
    return rank, _CARD_SUIT_ZH[card.suit] if lang != "en" else card.suit


def card_label(card: Card, lang: str) -> str:
    """黑6, 红J, 花K, 大鬼 (zh) or the notation 6s, Jh, BJ (en)."""
    if lang == "en":
        return str(card)
    top, bottom = card_faces(card, lang)
    return bottom + top if card.is_number or card.is_face else top + bottom


# -- pieces (either) ---------------------------------------------------------------
class PieceStyle:
    """How one game's pieces are drawn: tiles in ``tile_style``, or cards in ``lang``."""

    def __init__(self, variant: str, lang: str = "zh", tile_style: TileStyle = "hanzi") -> None:
        self.cards = variant in CARD_VARIANTS
        self.lang = lang
        self.tile_style: TileStyle = tile_style
        self.wild: frozenset[str] = frozenset()
        """Pieces (in notation) that are wild this hand; the view's ``wild_kinds``."""

    def split(self, text: str) -> list[str]:
        """A run of pieces in notation ("123m5z", "BJ 6s") → one notation string each."""
        if not text:
            return []
        if self.cards:
            return [str(c) for c in parse_cards(text)]
        return [str(t) for t in parse_tiles(text)]

    def sort_key(self, piece: str) -> int:
        return int(parse_card(piece)) if self.cards else int(parse_tile(piece))

    def colour(self, piece: str) -> str:
        if self.cards:
            return card_colour(parse_card(piece))
        return tile_colour(parse_tile(piece))

    def label(self, piece: str) -> str:
        if self.cards:
            return _pad(card_label(parse_card(piece), self.lang))
        return _pad(tile_label(parse_tile(piece), self.tile_style))

    def faces(self, piece: str) -> tuple[str, str]:
        if self.cards:
            return card_faces(parse_card(piece), self.lang)
        return tile_faces(parse_tile(piece), self.tile_style)

    def chip(self, piece: str, *, highlight: bool = False) -> Text:
        """The piece as a small coloured chip (four cells)."""
        bg = HIGHLIGHT_BG if highlight else WILD_BG if piece in self.wild else FACE_BG
        return Text(self.label(piece), style=Style(color=self.colour(piece), bgcolor=bg, bold=True))

    def face(self, piece: str) -> Text:
        """The two-line face printed on a hand tile."""
        top, bottom = self.faces(piece)
        wild = WILD_BG if piece in self.wild else None
        style = Style(color=self.colour(piece), bgcolor=wild, bold=True, underline=bool(wild))
        return Text(_pad(top, 2) + "\n" + _pad(bottom, 2), style=style, justify="center")

    def row(
        self, pieces: Iterable[str], *, highlight_last: bool = False, per_line: int = 0
    ) -> Text:
        """Chips separated by one space; ``per_line`` > 0 wraps after that many."""
        items = list(pieces)
        out = Text()
        for i, piece in enumerate(items):
            if i:
                out.append("\n" if per_line and i % per_line == 0 else " ")
            out.append_text(self.chip(piece, highlight=highlight_last and i == len(items) - 1))
        return out

    def name(self, piece: str) -> str:
        """The plain name for log lines: 五万, 东风, 5m, 黑6…"""
        return self.label(piece).strip()


def backs(n: int) -> Text:
    """``n`` face-down pieces, as a row of small green blocks."""
    return Text("▮" * n, style=Style(color=BACK_COLOUR))
