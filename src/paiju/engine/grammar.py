"""The one action grammar: how every game's action strings are built and read.

An action string is a word (:class:`Verb`, pinyin) and, for the words that take one, a
piece in notation: ``d5m`` (discard 5m), ``an5m`` / ``jia5m`` (concealed / added kong),
``ting5m`` (discard and declare ready), ``qifei9c`` (Qing'er takeoff), ``chi0`` (a chow
with the discard as its low tile); the bare words are ``zimo``, ``pass``, ``pong``,
``kong``, ``hu``, ``ting``, ``knock``, ``wuxi``. :class:`Action` is that string typed;
``str(action)`` is the only place an action string is put together.

Each game maps its dense int codes to actions with one :class:`ActionCodec` (mahjong's
in :mod:`paiju.engine.actions`, Qing'er's in ``variants/qinger/hand.py``), so records,
the server, the terminal, bots and RL all read and write the same strings.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from paiju.engine.errors import InvalidActionError


class Verb(StrEnum):
    """The action words; the value is the word as written."""

    DISCARD = "d"
    CONCEALED_KONG = "an"
    ADDED_KONG = "jia"
    TING = "ting"
    """Bare: declare ready without discarding; with a piece: discard it and declare."""
    TAKEOFF = "qifei"
    CHI = "chi"
    """With the discard's place in the run: 0 low, 1 middle, 2 high."""
    ZIMO = "zimo"
    PASS = "pass"
    PONG = "pong"
    KONG = "kong"
    HU = "hu"
    KNOCK = "knock"
    WUXI = "wuxi"
    """Qing'er 五喜起飞: show all five jokers."""


TAKES_PIECE = frozenset(
    {Verb.DISCARD, Verb.CONCEALED_KONG, Verb.ADDED_KONG, Verb.TING, Verb.TAKEOFF, Verb.CHI}
)
"""The words written with a piece after them (``ting`` is also a word alone)."""

_BARE = frozenset(v.value for v in Verb if v not in TAKES_PIECE) | {Verb.TING.value}
_PREFIXES = tuple(sorted((v for v in TAKES_PIECE), key=lambda v: -len(v.value)))

EVENT_VERBS: Mapping[str, Verb] = MappingProxyType(
    {
        "discard": Verb.DISCARD,
        "concealed_kong": Verb.CONCEALED_KONG,
        "added_kong": Verb.ADDED_KONG,
        "ready": Verb.TING,
        "takeoff": Verb.TAKEOFF,
        "chi": Verb.CHI,
        "pong": Verb.PONG,
        "kong": Verb.KONG,
        "knock": Verb.KNOCK,
    }
)
"""The event a move writes, by the word of the action that makes it: a discard (``d5m``,
or ``ting5m`` with a ``ready`` before it) writes ``discard``, ``an``/``jia`` the
``concealed_kong``/``added_kong``, a takeoff (``qifei``, ``wuxi``) ``takeoff``, a knock
window's answer ``knock``. Event types stay the record's English words; a ring that says
what an event did names it by this verb, as it names the action (the web's callouts)."""


def grammar_table() -> dict[str, Any]:
    """The grammar as data, for clients that read action strings themselves (the web's
    generated ``web/src/schema/grammar.ts``): each word, whether a piece follows it
    (``required``, ``optional`` for ``ting``, ``none``), longest first so a prefix test
    in that order reads every string as :meth:`Action.parse` does; and :data:`EVENT_VERBS`."""
    words = sorted(Verb, key=lambda v: (-len(v.value), v.value))
    return {
        "verbs": [
            {
                "word": v.value,
                "piece": "optional"
                if v.value in _BARE and v in TAKES_PIECE
                else "required"
                if v in TAKES_PIECE
                else "none",
            }
            for v in words
        ],
        "events": {kind: verb.value for kind, verb in EVENT_VERBS.items()},
    }


@dataclass(frozen=True, slots=True)
class Action:
    """One action as text: its word and the piece it names ("" for a bare word)."""

    verb: Verb
    piece: str = ""

    def __str__(self) -> str:
        return self.verb.value + self.piece

    @classmethod
    def parse(cls, text: object) -> Action:
        """``"d5m"`` → ``Action(Verb.DISCARD, "5m")``. Says nothing of whether the piece
        exists (the game's codec does); raises :class:`InvalidActionError` for a string
        that is no action word at all."""
        if not isinstance(text, str):
            raise InvalidActionError(f"an action is a string, not {text!r}")
        if text in _BARE:
            return cls(Verb(text))
        for verb in _PREFIXES:
            if text.startswith(verb.value):
                return cls(verb, text[len(verb.value) :])
        raise InvalidActionError(f"unknown action {text!r}")


@dataclass(frozen=True, slots=True)
class CodeRange:
    """``count`` consecutive codes from ``base``: ``verb`` with the piece of each offset.

    ``pieces[i]`` writes offset ``i``; ``decode(piece, text)`` reads a piece back to its
    offset and raises :class:`InvalidActionError` (naming ``text``) for a bad one."""

    verb: Verb
    base: int
    pieces: Sequence[str]
    decode: Callable[[str, str], int]


class ActionCodec:
    """A game's int codes ↔ :class:`Action` and action strings."""

    def __init__(
        self,
        game: str,
        n_actions: int,
        words: Mapping[int, Action],
        ranges: Sequence[CodeRange],
    ) -> None:
        self.game = game
        self.n_actions = n_actions
        self._actions: list[Action | None] = [None] * n_actions
        for r in ranges:
            for i, piece in enumerate(r.pieces):
                self._actions[r.base + i] = Action(r.verb, piece)
        for code, action in words.items():
            self._actions[code] = action
        self._strings = [None if a is None else str(a) for a in self._actions]
        self._words = {action: code for code, action in words.items()}
        self._ranges = {r.verb: r for r in ranges}

    def check(self, code: object) -> int:
        """``code`` if it is an int in this game's code range; else :class:`InvalidActionError`
        (a bool is no code, though Python counts it an int)."""
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code < self.n_actions:
            raise InvalidActionError(f"not a {self.game} action code: {code!r}")
        return code

    def action(self, code: object) -> Action:
        """The action of ``code``; raises :class:`InvalidActionError` for no such code."""
        action = self._actions[self.check(code)]
        if action is None:
            raise InvalidActionError(f"not a {self.game} action code: {code!r}")
        return action

    def to_str(self, code: int) -> str:
        """``code``'s action string; raises :class:`InvalidActionError` for no such code."""
        text = self._strings[code] if type(code) is int and 0 <= code < self.n_actions else None
        if text is None:
            return str(self.action(code))
        return text

    def encode(self, action: Action) -> int:
        """The code of ``action``; raises :class:`InvalidActionError` naming it."""
        code = self._words.get(action)
        if code is not None:
            return code
        text = str(action)
        r = self._ranges.get(action.verb)
        if r is None:
            raise InvalidActionError(f"unknown action {text!r}")
        return r.base + r.decode(action.piece, text)

    def parse(self, text: object) -> int:
        """An action string to its code (see :meth:`Action.parse` and :meth:`encode`)."""
        return self.encode(Action.parse(text))
