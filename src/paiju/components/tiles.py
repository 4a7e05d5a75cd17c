"""Mahjong tiles: 34 playing kinds and 8 flowers, with stable small-integer indices.

Indices are the public identity of a kind (records, count vectors, RL masks) and never
change: 0–8 萬 1–9, 9–17 筒 1–9, 18–26 索 1–9, 27–33 東南西北中發白, 34–41 春夏秋冬梅蘭竹菊.
The honour order follows the seed (東1 南2 西3 北4 中5 發6 白7), not the riichi one.
"""

from __future__ import annotations

from paiju.components.pieces import Piece, PieceNames, name_pieces

N_PLAYING_KINDS = 34
N_TILE_KINDS = 42
COPIES = 4
"""Physical copies of each playing kind; each flower exists once."""

SUIT_LETTERS = "mpsz"
"""Notation letter of each 9-kind block (z: honours, 7 kinds)."""


class Tile(Piece):
    """One kind of mahjong tile. ``Tile.M1`` is 1萬, ``Tile.Z5`` is 中, ``Tile.F1`` is 春."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    Z1 = 27
    Z2 = 28
    Z3 = 29
    Z4 = 30
    Z5 = 31
    Z6 = 32
    Z7 = 33
    F1 = 34
    F2 = 35
    F3 = 36
    F4 = 37
    F5 = 38
    F6 = 39
    F7 = 40
    F8 = 41

    @property
    def suit(self) -> str:
        """Notation letter: m, p, s, z or f."""
        if self >= 34:
            return "f"
        return SUIT_LETTERS[self // 9]

    @property
    def rank(self) -> int:
        """1–9 for suits, 1–7 for honours (東…白), 1–8 for flowers (春…菊)."""
        if self >= 34:
            return self - 33
        return self % 9 + 1

    @property
    def is_number(self) -> bool:
        return self < 27

    @property
    def is_honour(self) -> bool:
        """東南西北中發白. Taixing calls all of them 風 (TA4)."""
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self < 34

    @property
    def is_flower(self) -> bool:
        return self >= 34

    @property
    def is_terminal(self) -> bool:
        return self < 27 and self % 9 in (0, 8)

    @property
    def copies(self) -> int:
        """How many physical tiles of this kind a full set holds."""
        return 1 if self >= 34 else COPIES

    @classmethod
    def of(cls, suit: str, rank: int) -> Tile:
        """The tile with notation letter ``suit`` and ``rank``; ValueError if none."""
        if suit == "f":
            if 1 <= rank <= 8:
                return cls(33 + rank)
        elif suit in SUIT_LETTERS:
            limit = 7 if suit == "z" else 9
            if 1 <= rank <= limit:
                return cls(SUIT_LETTERS.index(suit) * 9 + rank - 1)
        raise ValueError(f"no tile {rank}{suit}")

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


_NUM_ZH = "一二三四五六七八九"
_HONOURS_ZH = "东南西北中发白"
_HONOURS_ZH_HANT = "東南西北中發白"
_HONOURS_EN = ("East", "South", "West", "North", "Red Dragon", "Green Dragon", "White Dragon")
_FLOWERS_ZH = "春夏秋冬梅兰竹菊"
_FLOWERS_ZH_HANT = "春夏秋冬梅蘭竹菊"
_FLOWERS_EN = (
    "Spring",
    "Summer",
    "Autumn",
    "Winter",
    "Plum",
    "Orchid",
    "Bamboo flower",
    "Chrysanthemum",
)
_SUIT_ZH = ("万", "筒", "索")
_SUIT_ZH_HANT = ("萬", "筒", "索")
_SUIT_EN = ("Characters", "Dots", "Bamboo")

_NAMES_ZH = tuple(
    [_NUM_ZH[r] + _SUIT_ZH[s] for s in range(3) for r in range(9)]
    + list(_HONOURS_ZH)
    + list(_FLOWERS_ZH)
)
_NAMES_ZH_HANT = tuple(
    [_NUM_ZH[r] + _SUIT_ZH_HANT[s] for s in range(3) for r in range(9)]
    + list(_HONOURS_ZH_HANT)
    + list(_FLOWERS_ZH_HANT)
)
_NAMES_EN = tuple(
    [f"{r + 1} {_SUIT_EN[s]}" for s in range(3) for r in range(9)]
    + list(_HONOURS_EN)
    + list(_FLOWERS_EN)
)
# e.g. 一万 / 一萬 (the seed's 繁體) / 1 Characters; 中 / 中 / Red Dragon; 春 / 春 / Spring
name_pieces(Tile, PieceNames(_NAMES_ZH, _NAMES_ZH_HANT, _NAMES_EN))

HONOUR_HANZI: dict[str, Tile] = {
    **{ch: Tile(27 + i) for i, ch in enumerate(_HONOURS_ZH_HANT)},
    **{ch: Tile(27 + i) for i, ch in enumerate(_HONOURS_ZH)},
    "発": Tile.Z6,
}
"""Single hanzi accepted on input for honours (東/东 … 發/发/発 白)."""

FLOWER_HANZI: dict[str, Tile] = {
    **{ch: Tile(34 + i) for i, ch in enumerate(_FLOWERS_ZH_HANT)},
    **{ch: Tile(34 + i) for i, ch in enumerate(_FLOWERS_ZH)},
}

ALL_TILES: tuple[Tile, ...] = tuple(Tile)
PLAYING_TILES: tuple[Tile, ...] = ALL_TILES[:N_PLAYING_KINDS]
FLOWER_TILES: tuple[Tile, ...] = ALL_TILES[N_PLAYING_KINDS:]

TILE_TEXT: tuple[str, ...] = tuple(str(t) for t in ALL_TILES)
"""Notation of each kind by index (``TILE_TEXT[31] == "5z"``): views and records format
many tiles, and an index lookup is far cheaper than building the enum member."""
