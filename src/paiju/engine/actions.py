"""Mahjong actions as small ints: one dense code space for engine, bots, records and RL.

Codes (``N_ACTIONS`` in all):

- 0–33 discard kind k; 34–67 concealed kong of k; 68–101 added kong of k;
- ``ZIMO`` self-drawn win; ``PASS``; ``PONG``; ``KONG`` (exposed kong of the discard);
  ``HU`` (win on the discard or on a robbed kong); ``CHI_LOW/MID/HIGH`` (the discard is the
  low, middle or high tile of the run: only where a variant allows chow); ``DECLARE``
  (declare ready without discarding: a non-dealer's 天听 right after the deal);
- 111–144 discard k and declare ready (报听 / the dealer's 天听, where a variant allows it).

Strings (records, terminal, server) are the one action grammar (:mod:`paiju.engine.grammar`),
through :data:`CODEC`, :func:`to_str` / :func:`parse`: ``d5m``, ``an5m``,
``jia5m``, ``zimo``, ``pass``, ``pong``, ``kong``, ``hu``, ``chi0/1/2``, ``ting``,
``ting5m``.
"""

from __future__ import annotations

from paiju.components.notation import NotationError, parse_tile
from paiju.components.tiles import Tile
from paiju.engine.errors import InvalidActionError
from paiju.engine.grammar import Action, ActionCodec, CodeRange, Verb

DISCARD = 0
CONCEALED_KONG = 34
ADDED_KONG = 68
ZIMO = 102
PASS = 103
PONG = 104
KONG = 105
HU = 106
CHI_LOW = 107
CHI_MID = 108
CHI_HIGH = 109
DECLARE = 110
TING = 111
N_ACTIONS = 145


def _tile_offset(piece: str, text: str) -> int:
    try:
        tile = parse_tile(piece)
    except NotationError as exc:
        raise InvalidActionError(f"bad tile in action {text!r}: {exc}") from None
    if tile.is_flower:
        raise InvalidActionError(f"flowers are never discarded or konged: {text!r}")
    return int(tile)


_TILES = tuple(str(Tile(k)) for k in range(34))

CODEC = ActionCodec(
    "mahjong",
    N_ACTIONS,
    words={
        ZIMO: Action(Verb.ZIMO),
        PASS: Action(Verb.PASS),
        PONG: Action(Verb.PONG),
        KONG: Action(Verb.KONG),
        HU: Action(Verb.HU),
        CHI_LOW: Action(Verb.CHI, "0"),
        CHI_MID: Action(Verb.CHI, "1"),
        CHI_HIGH: Action(Verb.CHI, "2"),
        DECLARE: Action(Verb.TING),
    },
    ranges=(
        CodeRange(Verb.DISCARD, DISCARD, _TILES, _tile_offset),
        CodeRange(Verb.CONCEALED_KONG, CONCEALED_KONG, _TILES, _tile_offset),
        CodeRange(Verb.ADDED_KONG, ADDED_KONG, _TILES, _tile_offset),
        CodeRange(Verb.TING, TING, _TILES, _tile_offset),
    ),
)
"""Mahjong's codes in the one action grammar (:mod:`paiju.engine.grammar`)."""


to_str = CODEC.to_str
"""``4`` → ``"d5m"``; raises :class:`InvalidActionError` for no such code."""
parse = CODEC.parse
"""``"d5m"`` → 4. Raises :class:`InvalidActionError` naming the problem."""
check_code = CODEC.check
"""The code itself if it is one of mahjong's; else :class:`InvalidActionError`."""
