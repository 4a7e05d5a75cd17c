"""Tile and card notation (``docs/spec/notation.md``): parse and format.

Strings live at the edges only; inside, tiles and cards are :class:`Tile` / :class:`Card`.
``parse_tiles(format_tiles(x)) == x`` for every list ``x`` (order is kept: the formatter
merges only *consecutive* tokens of one suit).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TypeVar

from paiju.components.cards import Card
from paiju.components.tiles import FLOWER_HANZI, HONOUR_HANZI, Tile


class NotationError(ValueError):
    """A malformed tile or card string. ``position`` is the 0-based offending index."""

    def __init__(self, text: str, position: int, problem: str) -> None:
        self.text = text
        self.position = position
        self.problem = problem
        super().__init__(f"{problem} at position {position} in {text!r}")


class TooManyCopiesError(ValueError):
    """A multiset holds more copies of a kind than the physical set has."""

    def __init__(self, name: str, count: int, copies: int) -> None:
        self.name = name
        self.count = count
        self.copies = copies
        super().__init__(f"{count} × {name}, but only {copies} exist")


P = TypeVar("P", Tile, Card)

_TILE_LIMITS = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}


def parse_tiles(text: str) -> list[Tile]:
    """Parse ``"123m 55z 1f"`` into tiles, in order. Raises :class:`NotationError`."""
    tiles: list[Tile] = []
    pending: list[tuple[int, int]] = []  # (digit, position) waiting for a suit letter
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if "1" <= ch <= "9":
            pending.append((int(ch), pos))
        elif ch in _TILE_LIMITS:
            if not pending:
                raise NotationError(text, pos, f"suit letter {ch!r} without digits")
            limit = _TILE_LIMITS[ch]
            for digit, dpos in pending:
                if digit > limit:
                    raise NotationError(text, dpos, f"no tile {digit}{ch}")
                tiles.append(Tile.of(ch, digit))
            pending.clear()
        elif ch in HONOUR_HANZI or ch in FLOWER_HANZI:
            if pending:
                raise NotationError(text, pending[0][1], "digits without a suit letter")
            tiles.append(HONOUR_HANZI.get(ch) or FLOWER_HANZI[ch])
        else:
            raise NotationError(text, pos, f"unexpected character {ch!r}")
    if pending:
        raise NotationError(text, pending[0][1], "digits without a suit letter")
    return tiles


def _only(text: str, pieces: list[P], what: str) -> P:
    if len(pieces) != 1:
        raise NotationError(text, 0, f"expected one {what}, found {len(pieces)}")
    return pieces[0]


def parse_tile(text: str) -> Tile:
    """Parse exactly one tile, e.g. ``"5z"`` or ``"中"``."""
    return _only(text, parse_tiles(text), "tile")


def _grouped(parts: Iterable[tuple[str, str]]) -> str:
    """(rank, suit letter) pairs in order, each run of one suit closed by its letter once:
    ``("1", "m"), ("2", "m"), ("5", "z")`` → ``"12m5z"``. A piece without a suit letter
    (a joker) ends the run before it and stands alone."""
    out: list[str] = []
    prev = ""
    for rank, suit in parts:
        if prev and suit != prev:
            out.append(prev)
        out.append(rank)
        prev = suit
    if prev:
        out.append(prev)
    return "".join(out)


_TILE_PARTS = tuple((str(t.rank), t.suit) for t in Tile)


def format_tiles(tiles: Iterable[int]) -> str:
    """``[M1, M2, Z5, Z5]`` → ``"12m55z"``."""
    return _format_tile_tuple(tuple(tiles))


def format_tile_counts(counts: Sequence[int]) -> str:
    """A count vector (index = :class:`Tile`) in sorted notation."""
    return _format_count_tuple(tuple(counts))


# Every seat's view formats the same rivers and melds after every decision, and a server
# builds four or five views a decision: the strings are kept rather than rebuilt.
@functools.lru_cache(maxsize=8192)
def _format_tile_tuple(tiles: tuple[int, ...]) -> str:
    return _grouped(_TILE_PARTS[t] for t in tiles)


@functools.lru_cache(maxsize=8192)
def _format_count_tuple(counts: tuple[int, ...]) -> str:
    return _grouped(_TILE_PARTS[i] for i, n in enumerate(counts) for _ in range(n))


_CARD_RANKS = "123456789JQK"
_CARD_SPECIAL = {"BJ": Card.BJ, "SJ": Card.SJ, "AD": Card.AD}


def _card_of(rank: str, suit: str) -> Card | None:
    if rank.isdigit():
        return Card("shc".index(suit) * 9 + int(rank) - 1)
    if suit == "s":
        return None
    return Card(27 + "hc".index(suit) * 3 + "JQK".index(rank))


def parse_cards(text: str) -> list[Card]:
    """Parse ``"123s JQKh BJ"`` into cards, in order. Raises :class:`NotationError`."""
    cards: list[Card] = []
    pending: list[tuple[str, int]] = []
    pos = 0
    while pos < len(text):
        ch = text[pos]
        if ch.isspace():
            pos += 1
            continue
        pair = text[pos : pos + 2]
        if pair in _CARD_SPECIAL:
            if pending:
                raise NotationError(text, pending[0][1], "ranks without a suit letter")
            cards.append(_CARD_SPECIAL[pair])
            pos += 2
            continue
        if ch in _CARD_RANKS:
            pending.append((ch, pos))
        elif ch in "shc":
            if not pending:
                raise NotationError(text, pos, f"suit letter {ch!r} without ranks")
            for rank, rpos in pending:
                card = _card_of(rank, ch)
                if card is None:
                    raise NotationError(text, rpos, f"no card {rank}{ch}")
                cards.append(card)
            pending.clear()
        else:
            raise NotationError(text, pos, f"unexpected character {ch!r}")
        pos += 1
    if pending:
        raise NotationError(text, pending[0][1], "ranks without a suit letter")
    return cards


def parse_card(text: str) -> Card:
    """Parse exactly one card, e.g. ``"Kc"`` or ``"BJ"``."""
    return _only(text, parse_cards(text), "card")


_CARD_PARTS = tuple((c.rank, c.suit) for c in Card)


def format_cards(cards: Iterable[int]) -> str:
    """``[S1, S2, HJ, BJ]`` → ``"12sJhBJ"``."""
    return _grouped(_CARD_PARTS[c] for c in cards)


def tile_counts(tiles: Iterable[Tile], *, check: bool = True) -> list[int]:
    """Count vector of length 42; with ``check``, more copies than exist raise."""
    counts = [0] * 42
    for tile in tiles:
        counts[tile] += 1
    if check:
        for i, n in enumerate(counts):
            if n > Tile(i).copies:
                raise TooManyCopiesError(Tile(i).zh + f" ({Tile(i)})", n, Tile(i).copies)
    return counts


def card_counts(cards: Iterable[Card], *, check: bool = True) -> list[int]:
    """Count vector of length 36 (index = :class:`Card`)."""
    counts = [0] * 36
    for card in cards:
        counts[card] += 1
    if check:
        for i, n in enumerate(counts):
            if n > Card(i).copies:
                raise TooManyCopiesError(Card(i).zh + f" ({Card(i)})", n, Card(i).copies)
    return counts
