"""JSON from untrusted sources, with limits checked before anything large is built.

``json.loads`` alone accepts input that makes a program fail or stall in ways a user cannot
read: nesting deep enough for a ``RecursionError``, integers of thousands of digits (slow to
convert, and refused by ``int`` past ``sys.int_max_str_digits`` with a ``ValueError``),
``NaN`` and ``Infinity`` (not JSON at all), duplicate keys (silently, the last one wins),
strings with lone surrogates (which no UTF-8 file, terminal or database can hold) and bytes
that are not UTF-8. :func:`loads` refuses each of these with a :class:`JsonLimitError` whose
message says what is wrong and where, and :func:`read_limited` reads a file or stream
without ever holding more than the size limit. The calculator, the record reader and the
server all read JSON through here, so one set of rules (docs/spec/score-cli.md) holds.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import IO, Any


@dataclass(frozen=True)
class JsonLimits:
    """Bounds on one JSON document. The defaults fit every paiju input with room to spare."""

    max_bytes: int = 1 << 20
    """The whole document, in UTF-8 bytes."""
    max_depth: int = 32
    """Arrays and objects inside one another (a situation needs 4)."""
    max_int_digits: int = 20
    """Digits of one integer: every 64-bit value fits, ``10**4000`` does not."""
    max_string: int = 10_000
    """Characters of one string or key, as written (escapes count as written)."""


DEFAULT_LIMITS = JsonLimits()


class JsonLimitError(ValueError):
    """Input that is not JSON or breaks a limit. ``where`` is ``"line L column C"`` or ``""``."""

    def __init__(self, problem: str, where: str = "") -> None:
        self.problem = problem
        self.where = where
        super().__init__(f"{where}: {problem}" if where else problem)


# A string literal (escapes included) or one bracket. The string pattern is the unrolled
# loop, which the regex engine matches without backtracking; an unterminated string runs to
# the end, so brackets inside it are not counted.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\Z)|[\[\]{}]', re.DOTALL)
# an escaped UTF-16 surrogate: only then can a decoded string hold a lone one
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def _position(text: str, index: int) -> str:
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return f"line {line} column {column}"


def _prescan(text: str, limits: JsonLimits) -> None:
    depth = 0
    max_depth = limits.max_depth
    # the quotes are not part of the string's length
    max_token = limits.max_string + 2
    for m in _TOKENS.finditer(text):
        c = text[m.start()]
        if c == '"':
            if m.end() - m.start() > max_token:
                raise JsonLimitError(
                    f"a string longer than {limits.max_string} characters",
                    _position(text, m.start()),
                )
        elif c in "[{":
            depth += 1
            if depth > max_depth:
                raise JsonLimitError(
                    f"nested deeper than {max_depth} arrays/objects", _position(text, m.start())
                )
        else:
            depth -= 1


def _no_constants(name: str) -> Any:
    raise JsonLimitError(f"{name} is not a JSON number")


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise JsonLimitError(f"duplicate key {preview(key)}")
        out[key] = value
    return out


def _lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            try:
                v.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v)
            stack.extend(v.values())
    return False


def loads(data: str | bytes, limits: JsonLimits = DEFAULT_LIMITS) -> Any:
    """Decode one JSON document within ``limits``; raises :class:`JsonLimitError`."""
    if isinstance(data, bytes):
        if len(data) > limits.max_bytes:
            raise JsonLimitError(f"more than {limits.max_bytes} bytes")
        text = decode_utf8(data)
    else:
        text = data
        # a str's UTF-8 size is at most 4 bytes a character, so only near the limit encode
        if len(text) * 4 > limits.max_bytes and len(text.encode("utf-8", "surrogatepass")) > (
            limits.max_bytes
        ):
            raise JsonLimitError(f"more than {limits.max_bytes} bytes")
    _prescan(text, limits)
    digits = limits.max_int_digits

    def parse_int(s: str) -> int:
        if len(s) - (s[0] == "-") > digits:
            raise JsonLimitError(f"an integer of more than {digits} digits")
        return int(s)

    def parse_float(s: str) -> float:
        value = float(s)
        if not math.isfinite(value):
            raise JsonLimitError(f"the number {preview(s)} is out of range")
        return value

    try:
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_int=parse_int,
            parse_float=parse_float,
            parse_constant=_no_constants,
        )
    except json.JSONDecodeError as exc:
        raise JsonLimitError(exc.msg, f"line {exc.lineno} column {exc.colno}") from None
    if _SURROGATE_ESCAPE.search(text) and _lone_surrogate(value):
        raise JsonLimitError("a string holds a lone UTF-16 surrogate (\\ud800-\\udfff)")
    return value


def decode_utf8(data: bytes) -> str:
    """``data`` as text; invalid UTF-8 is a :class:`JsonLimitError` naming the byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise JsonLimitError(
            f"not UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start})", f"line {line}"
        ) from None


def read_limited(stream: IO[bytes], max_bytes: int) -> bytes:
    """At most ``max_bytes`` from a binary stream; a longer one is a :class:`JsonLimitError`
    (read no further than one byte past the limit)."""
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise JsonLimitError(f"more than {max_bytes} bytes")
    return data


def preview(value: Any, width: int = 60) -> str:
    """``repr(value)`` cut to ``width`` characters, for error messages about untrusted input."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**width:
        # repr of a huge int is slow and may raise (sys.int_max_str_digits)
        return f"<an integer of about {value.bit_length() * 0.30103:.0f} digits>"
    if isinstance(value, list | dict | tuple) and len(value) > width:
        return f"<a {type(value).__name__} of {len(value)} items>"
    if isinstance(value, str) and len(value) > 4 * width:
        value = value[: 4 * width]
    text = repr(value)
    return text if len(text) <= width else text[: width - 1] + "…"
