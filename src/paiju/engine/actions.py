"""Mahjong actions as small ints: one dense code space for engine, bots, records and RL.

Codes (``N_ACTIONS`` in all):

- 0–33 discard kind k; 34–67 concealed kong of k; 68–101 added kong of k;
- ``ZIMO`` self-drawn win; ``PASS``; ``PONG``; ``KONG`` (exposed kong of the discard);
  ``HU`` (win on the discard or on a robbed kong); ``CHI_LOW/MID/HIGH`` (the discard is the
  low, middle or high tile of the run: only where a variant allows chow); ``DECLARE``
  (declare ready without discarding: a non-dealer's 天听 right after the deal);
- 111–144 discard k and declare ready (报听 / the dealer's 天听, where a variant allows it).

Strings (records, terminal, server) use :func:`to_str` / :func:`parse`: ``d5m``, ``an5m``,
``jia5m``, ``zimo``, ``pass``, ``pong``, ``kong``, ``hu``, ``chi0/1/2``, ``ting``,
``ting5m``.
"""

from __future__ import annotations

from paiju.components.notation import NotationError, parse_tile
from paiju.components.tiles import Tile
from paiju.engine.errors import InvalidActionError

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

_NAMED = {
    ZIMO: "zimo",
    PASS: "pass",
    PONG: "pong",
    KONG: "kong",
    HU: "hu",
    CHI_LOW: "chi0",
    CHI_MID: "chi1",
    CHI_HIGH: "chi2",
    DECLARE: "ting",
}
_BY_NAME = {v: k for k, v in _NAMED.items()}
_PREFIXES = (("ting", TING), ("jia", ADDED_KONG), ("an", CONCEALED_KONG), ("d", DISCARD))


def to_str(action: int) -> str:
    if 0 <= action < 34:
        return "d" + str(Tile(action))
    if 34 <= action < 68:
        return "an" + str(Tile(action - 34))
    if 68 <= action < 102:
        return "jia" + str(Tile(action - 68))
    if TING <= action < N_ACTIONS:
        return "ting" + str(Tile(action - TING))
    name = _NAMED.get(action)
    if name is None:
        raise InvalidActionError(f"no action with code {action!r}")
    return name


def parse(text: str) -> int:
    """``"d5m"`` → 4. Raises :class:`InvalidActionError` naming the problem."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is a string, not {text!r}")
    if text in _BY_NAME:
        return _BY_NAME[text]
    for prefix, base in _PREFIXES:
        if text.startswith(prefix):
            try:
                tile = parse_tile(text[len(prefix) :])
            except NotationError as exc:
                raise InvalidActionError(f"bad tile in action {text!r}: {exc}") from None
            if tile.is_flower:
                raise InvalidActionError(f"flowers are never discarded or konged: {text!r}")
            return base + int(tile)
    raise InvalidActionError(f"unknown action {text!r}")


def check_code(action: object) -> int:
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < N_ACTIONS:
        raise InvalidActionError(f"not an action code: {action!r}")
    return action
