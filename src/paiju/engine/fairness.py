"""Provably fair deals (docs/spec/fair-deal.md): a committed server seed, the players' own
seeds, and a documented shuffle, so anyone can rebuild every wall once the seed is revealed.

Before a match the server draws a secret 32-byte *server seed* and shows every seat its
SHA-256, the *commitment*. Each person's client sends a *client seed* of its own choosing.
Hand ``h``'s randomness is keyed by

    hand_key = HMAC-SHA256(server_seed, ["paiju-fair-1", room, h, [client seeds by seat]])

(the message is that JSON array, compact, UTF-8), and every wall, redeal and die of the hand
comes from :class:`FairRandom` streams under that key. When the match ends the server
reveals the seed: it hashes to the commitment, and the walls in the record are the ones the
key gives. Nobody could choose a wall: the server fixed its seed before it saw the client
seeds, and no client knew the server seed when it chose its own.

Standard library only; no randomness here except :func:`new_server_seed`, the one place a
front end takes entropy from the operating system.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import re
import secrets
from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

SCHEME = "paiju-fair-1"
"""The version of the whole recipe: message, streams, integer draws and shuffle."""

SEED_BYTES = 32
MAX_CLIENT_SEED = 64
MAX_ROOM = 64
_CLIENT_SEED = re.compile(r"[A-Za-z0-9_-]{0,64}")
_ROOM = re.compile(r"[\x21-\x7e]{1,64}")  # printable ASCII, no spaces
_HEX = re.compile(r"[0-9a-f]{64}")

T = TypeVar("T")


class HandRandom(Protocol):
    """What a hand draws its randomness from: ``random.Random(seed)`` or a
    :class:`FairRandom`. The seam through which a match gives each hand its walls."""

    def shuffle(self, x: list[Any], /) -> None: ...

    def randint(self, a: int, b: int, /) -> int: ...


def shuffle(rng: HandRandom, pieces: list[Any]) -> None:
    """``rng.shuffle(pieces)``: a wall of tiles or a deck of cards. For a plain
    ``random.Random``, the same draws (its ``_randbelow``: ``getrandbits`` of the bit
    length, again while too large) made here without its two Python calls a piece, which
    were a fifth of a self-play hand's cost; a test checks the orders are the ones
    ``random.Random.shuffle`` makes, so recorded deals replay by seed."""
    if type(rng) is not random.Random:
        rng.shuffle(pieces)
        return
    steps = _SHUFFLE_STEPS.get(len(pieces))
    if steps is None:
        steps = _SHUFFLE_STEPS[len(pieces)] = tuple(
            (i, i + 1, (i + 1).bit_length()) for i in reversed(range(1, len(pieces)))
        )
    getrandbits = rng.getrandbits
    for i, n, bits in steps:
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        pieces[i], pieces[j] = pieces[j], pieces[i]


_SHUFFLE_STEPS: dict[int, tuple[tuple[int, int, int], ...]] = {}
"""Per length, each step of :func:`shuffle`: (position, the bound drawn below, its bit
length)."""


class FairDealError(ValueError):
    """A seed, room or commitment that the scheme cannot use; the message says which."""


def new_server_seed() -> bytes:
    """A fresh secret server seed (32 bytes from the operating system)."""
    return secrets.token_bytes(SEED_BYTES)


def new_client_seed() -> str:
    """A client seed as a browser or the terminal makes one (16 random bytes, base64url)."""
    return secrets.token_urlsafe(16)


def offline_server_seed(seed: int) -> bytes:
    """The server seed of a reproducible offline match (``paiju simulate --seed``): anyone
    who knows ``seed`` knows it, so such a commitment only shows the scheme at work."""
    return hashlib.sha256(f"paiju-offline-seed:{seed}".encode()).digest()


def commitment(server_seed: bytes) -> str:
    """The commitment to ``server_seed``: its SHA-256, 64 lowercase hex digits."""
    return hashlib.sha256(server_seed).hexdigest()


def check_client_seed(value: Any) -> str:
    """``value`` if it is a client seed: 0 to 64 characters of ``A-Z a-z 0-9 _ -``."""
    if not isinstance(value, str) or not _CLIENT_SEED.fullmatch(value):
        raise FairDealError(
            f"a client seed is 0 to {MAX_CLIENT_SEED} characters of A-Z a-z 0-9 _ - "
            f"(got {value!r:.40})"
        )
    return value


def check_room(value: Any) -> str:
    if not isinstance(value, str) or not _ROOM.fullmatch(value):
        raise FairDealError(f"a room is 1 to {MAX_ROOM} printable ASCII characters, no spaces")
    return value


def parse_seed_hex(value: Any, what: str = "server seed") -> bytes:
    """A 32-byte seed or digest from its 64 lowercase hex digits."""
    if not isinstance(value, str) or not _HEX.fullmatch(value):
        raise FairDealError(f"the {what} must be 64 lowercase hex digits")
    return bytes.fromhex(value)


def hand_message(room: str, hand: int, client_seeds: Sequence[str]) -> bytes:
    """The HMAC message of hand ``hand`` (0-based): compact JSON, UTF-8."""
    doc = [SCHEME, room, hand, list(client_seeds)]
    return json.dumps(doc, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def hand_key(server_seed: bytes, room: str, hand: int, client_seeds: Sequence[str]) -> bytes:
    return hmac.new(server_seed, hand_message(room, hand, client_seeds), hashlib.sha256).digest()


class _Stream:
    """Bytes ``HMAC-SHA256(key, f"{label}:{k}")`` for k = 0, 1, 2, … read 4 at a time as
    big-endian unsigned integers; :meth:`below` draws uniformly by rejection."""

    __slots__ = ("block", "buffer", "key", "label")

    def __init__(self, key: bytes, label: str) -> None:
        self.key = key
        self.label = label
        self.block = 0
        self.buffer = b""

    def word(self) -> int:
        if len(self.buffer) < 4:
            msg = f"{self.label}:{self.block}".encode("ascii")
            self.buffer += hmac.new(self.key, msg, hashlib.sha256).digest()
            self.block += 1
        value = int.from_bytes(self.buffer[:4], "big")
        self.buffer = self.buffer[4:]
        return value

    def below(self, n: int) -> int:
        """Uniform in ``0 … n-1`` (``1 <= n <= 2**32``): words at or above the largest
        multiple of ``n`` are skipped, so no value is more likely than another."""
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"cannot draw below {n}")
        limit = (1 << 32) - (1 << 32) % n
        while True:
            w = self.word()
            if w < limit:
                return w % n

    def copy(self) -> _Stream:
        new = _Stream(self.key, self.label)
        new.block = self.block
        new.buffer = self.buffer
        return new


def _stream_shuffle(pieces: MutableSequence[T], stream: _Stream) -> None:
    """Fisher–Yates from the end: for i = n-1 … 1, swap ``pieces[i]`` with ``pieces[j]``,
    ``j = stream.below(i + 1)``."""
    for i in range(len(pieces) - 1, 0, -1):
        j = stream.below(i + 1)
        pieces[i], pieces[j] = pieces[j], pieces[i]


class FairRandom:
    """A hand's source of randomness under the fair scheme, used where a hand would use a
    ``random.Random(seed)``: :meth:`shuffle` for walls and decks, :meth:`randint` for dice.

    Wall ``j`` of the hand (its first shuffle is 0, a redeal's is 1, …) is the pieces in
    ascending order shuffled by the stream ``wall/j``; dice and other draws come one after
    another from the stream ``roll``. Each wall is therefore rebuilt from the key and its
    number alone, whatever else the hand drew. ``walls`` keeps every shuffled order.
    """

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.walls: list[list[int]] = []
        self._roll = _Stream(key, "roll")

    def shuffle(self, pieces: list[Any], /) -> None:
        pieces.sort()
        _stream_shuffle(pieces, _Stream(self.key, f"wall/{len(self.walls)}"))
        self.walls.append(list(pieces))

    def randint(self, a: int, b: int, /) -> int:
        return a + self._roll.below(b - a + 1)

    def randrange(self, n: int) -> int:
        return self._roll.below(n)

    def __copy__(self) -> FairRandom:
        new = FairRandom(self.key)
        new.walls = [list(w) for w in self.walls]
        new._roll = self._roll.copy()
        return new


def rebuild_wall(key: bytes, number: int, pieces: Sequence[int]) -> list[int]:
    """Wall ``number`` of the hand with ``key``, from the same pieces in any order."""
    out = sorted(pieces)
    _stream_shuffle(out, _Stream(key, f"wall/{number}"))
    return out


@dataclass(frozen=True)
class FairDeal:
    """One match's fair-deal parameters. ``server_seed`` is None until it is revealed (a
    server keeps it apart from everything seats can see until the match ends)."""

    commitment: str
    room: str
    client_seeds: tuple[str, ...]
    server_seed: bytes | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        parse_seed_hex(self.commitment, "commitment")
        check_room(self.room)
        for seed in self.client_seeds:
            check_client_seed(seed)
        if self.server_seed is not None:
            if len(self.server_seed) != SEED_BYTES:
                raise FairDealError(f"the server seed is {SEED_BYTES} bytes")
            if commitment(self.server_seed) != self.commitment:
                raise FairDealError("the server seed does not hash to the commitment")

    @classmethod
    def create(cls, server_seed: bytes, room: str, client_seeds: Sequence[str]) -> FairDeal:
        return cls(commitment(server_seed), room, tuple(client_seeds), server_seed)

    def _seed(self) -> bytes:
        if self.server_seed is None:
            raise FairDealError("the server seed is not known (it is revealed at match end)")
        return self.server_seed

    def key(self, hand: int) -> bytes:
        return hand_key(self._seed(), self.room, hand, self.client_seeds)

    def hand_random(self, hand: int) -> FairRandom:
        return FairRandom(self.key(hand))

    def first_dealer(self, n_seats: int) -> int:
        """The first dealer: the stream ``dealer`` under hand 0's key."""
        return _Stream(self.key(0), "dealer").below(n_seats)

    def header(self) -> dict[str, Any]:
        """What the record header and every seat are shown before the match."""
        return {
            "scheme": SCHEME,
            "commitment": self.commitment,
            "room": self.room,
            "client_seeds": list(self.client_seeds),
        }

    def reveal(self) -> str:
        """The server seed in hex, for the ``match_end`` line and the seats."""
        return self._seed().hex()

    @classmethod
    def from_header(cls, doc: Any, server_seed_hex: Any = None) -> FairDeal:
        """The parameters a record header (``"fair"``) states, with the revealed seed."""
        if not isinstance(doc, Mapping):
            raise FairDealError("'fair' must be an object")
        if doc.get("scheme") != SCHEME:
            raise FairDealError(f"unknown fair-deal scheme {doc.get('scheme')!r:.40}")
        unknown = sorted(set(doc) - {"scheme", "commitment", "room", "client_seeds"})
        if unknown:
            raise FairDealError(f"unknown field {unknown[0]!r:.40} in 'fair'")
        seeds = doc.get("client_seeds")
        if not isinstance(seeds, list):
            raise FairDealError("'client_seeds' must be a list, one per seat")
        seed = None if server_seed_hex is None else parse_seed_hex(server_seed_hex)
        if not isinstance(doc.get("commitment"), str):
            raise FairDealError("the commitment must be 64 lowercase hex digits")
        return cls(doc["commitment"], doc.get("room"), tuple(seeds), seed)  # type: ignore[arg-type]
