"""The record format (docs/spec/record.md): header and record lines, their JSON Lines file,
and the checks that need no engine run (the fair deal's commitment and walls).

Line 1 is the header: ``{"record": "paiju", "format": 1, "variant", "options", "engine",
"seed", "seats"}``. Then, per hand, a ``hand`` line (index, dealer, seed), the events of
the deal, and for each decision an ``action`` line followed by the events it caused, then a
``hand_end`` line; the last line is ``match_end`` with the totals. Tiles are in notation.

Lines are written by :class:`RecordWriter` inside :class:`paiju.engine.session.Session`,
the one driver; they are checked by re-running the engine in ``Session.replay``, the one
replayer (:mod:`paiju.engine.record`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import IO, Any

import paiju
from paiju.components import boundedjson
from paiju.engine.events import Event, to_json
from paiju.engine.fairness import (
    FairDeal,
    FairDealError,
    commitment,
    parse_seed_hex,
    rebuild_wall,
)
from paiju.engine.match import GameFlow, Hand, HandSummary, Match

FORMAT_VERSION = 1
"""Bumped only by a change that alters or removes what a line says (a breaking change).
Adding a field is not one: it goes into :data:`ADDED_FIELDS` or a game's
``record_additions``, and records written before it keep verifying."""

ADDED_FIELDS = frozenset({"header.profile", "end.explanation"})
"""Fields the engine added to format-1 lines after records were first written, as
``kind.field`` (``kind``: ``header`` or a line's ``type``; nested: ``header.options.x``).
A recorded line that lacks one is compared without it (:func:`same_line`); a recorded line
that has one is compared on it as on every other field. Each game lists its own additions
in its Variant's ``record_additions``. The rule and the list: docs/spec/record.md."""

RETOLD_FIELDS = frozenset({"end.explanation"})
"""Fields that retell, for people, what the compared fields of the record already say (the
settlement's explanation: formula and payment wording in 简体中文 and English, rebuilt from
the items, payments and net). Their wording and shape improve between versions, so only
their JSON kind is compared (an object where the engine writes one, null where it writes
null); paiju shows the explanation the replaying engine writes, never a record's."""


class RecordError(ValueError):
    """A malformed record line (exit 2). ``line`` is 1-based."""

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {problem}")


class ResumeError(ValueError):
    """Record lines that the engine does not reproduce (a tampered, foreign or damaged
    record): ``problem`` says what, ``line`` (1-based, None for the record as a whole)
    where. Raised by the one replayer for ``paiju replay``, a server's resume and the web
    replay frames alike."""

    def __init__(self, problem: str, line: int | None = None) -> None:
        self.problem = problem
        self.line = line
        super().__init__(problem if line is None else f"line {line}: {problem}")


FindGame = Callable[[object], GameFlow]
"""The game a header names (``paiju.variants.find_variant``); raises ValueError if none."""

Decision = Callable[[Hand, int, int], None]
"""Called by replay at every recorded decision, before it is applied: ``(hand, seat,
action code)``; the hand is the live one (read it, do not change it)."""


def header(match: Match, seats: list[str]) -> dict[str, Any]:
    options = match.flow.options_json(match.options)
    out: dict[str, Any] = {
        "record": "paiju",
        "format": FORMAT_VERSION,
        "variant": match.flow.name,
        "options": options,
    }
    # the profile names the table of values the full options were built from
    profile = match.flow.profile_of(options)
    if profile is not None:
        out["profile"] = profile
    out.update({"engine": paiju.__version__, "seed": match.seed, "seats": seats})
    if match.fair is not None:
        out["fair"] = match.fair.header()
    return out


def match_end(match: Match, hands: int | None = None) -> dict[str, Any]:
    """The last line of a record: the totals and, under a fair deal, the revealed server
    seed. ``hands``: the hands played, when a match is cut short (``paiju play``)."""
    line: dict[str, Any] = {
        "type": "match_end",
        "totals": match.totals(),
        "hands": len(match.hands) if hands is None else hands,
    }
    if match.fair is not None:
        line["server_seed"] = match.fair.reveal()
    return line


class RecordWriter:
    """Turns what a driver emits (events, ``("action", seat, text)``, ``("hand", index,
    hand)``, ``("hand_end", summary)``) into record lines for ``sink``."""

    def __init__(self, sink: Callable[[dict[str, Any]], None]) -> None:
        self.sink = sink

    def __call__(self, item: Any) -> None:
        if isinstance(item, Event):
            self.sink(to_json(item))
        elif item[0] == "action":
            _, seat, text = item
            self.sink({"type": "action", "seat": seat, "action": text})
        elif item[0] == "hand":
            _, index, hand = item
            self.sink({"type": "hand", "index": index, "dealer": hand.dealer, "seed": hand.seed})
        elif item[0] == "hand_end":
            summary: HandSummary = item[1]
            self.sink(
                {
                    "type": "hand_end",
                    "index": summary.index,
                    "winners": summary.winners,
                    "exhausted": summary.exhausted,
                    "net": summary.net,
                    **({} if summary.walls is None else {"walls": summary.walls}),
                }
            )


def dump_lines(lines: Iterable[dict[str, Any]], out: IO[str]) -> None:
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


LINE_LIMITS = boundedjson.JsonLimits(max_bytes=1 << 20, max_depth=16, max_string=10_000)
"""One record line: an event or a decision is a few hundred bytes, at most six levels deep."""
MAX_RECORD_BYTES = 64 << 20
"""A whole record file: a long match is a few megabytes."""


def parse_lines(text_lines: Iterable[str | bytes]) -> list[dict[str, Any]]:
    """Decode every line within :data:`LINE_LIMITS`; raises :class:`RecordError` for
    anything that is not a JSON object with a ``type`` (or a header's ``record``)."""
    out = []
    for number, raw in enumerate(text_lines, start=1):
        if not raw.strip():
            raise RecordError(number, "empty line")
        try:
            obj = boundedjson.loads(raw, LINE_LIMITS)
        except boundedjson.JsonLimitError as exc:
            # a line's own position is "line 1 column C": keep the column only
            where = exc.where.split("column", 1)
            column = f" (column{where[1]})" if len(where) == 2 else ""
            raise RecordError(number, f"not JSON{column}: {exc.problem}") from None
        if not isinstance(obj, dict) or not isinstance(obj.get("type", obj.get("record")), str):
            raise RecordError(number, "expected an object with a 'type'")
        out.append(obj)
    if not out:
        raise RecordError(1, "empty record")
    return out


def read_record(path: str) -> list[dict[str, Any]]:
    """The lines of the record file at ``path``. Raises :class:`RecordError` for a file
    over :data:`MAX_RECORD_BYTES` or a malformed line, ``OSError`` when it cannot be read."""
    with open(path, "rb") as fh:
        try:
            data = boundedjson.read_limited(fh, MAX_RECORD_BYTES)
        except boundedjson.JsonLimitError as exc:
            raise RecordError(1, f"the file holds {exc.problem}") from None
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the newline that ends the last line
    return parse_lines(lines)


def stated_fair_deal(records: list[dict[str, Any]]) -> FairDeal:
    """The fair deal a record's header states, with the seed its ``match_end`` reveals;
    raises :class:`ResumeError` naming the line at fault."""
    head, end = records[0], records[-1]
    last = len(records)
    if end.get("type") != "match_end":
        raise ResumeError("the record ends before match_end reveals the server seed", last)
    try:
        stated = FairDeal.from_header(head.get("fair"))
    except FairDealError as exc:
        raise ResumeError(f"fair: {exc}", 1) from None
    if "server_seed" not in end:
        raise ResumeError("match_end does not reveal the server seed", last)
    try:
        seed = parse_seed_hex(end.get("server_seed"))
    except FairDealError as exc:
        raise ResumeError(str(exc), last) from None
    if commitment(seed) != stated.commitment:
        raise ResumeError(
            f"the commitment is not the SHA-256 of the server seed revealed on line {last}", 1
        )
    return replace(stated, server_seed=seed)


def check_walls(records: list[dict[str, Any]], fair: FairDeal) -> int:
    """Rebuild each ``hand_end`` line's walls from the seeds; the count checked. Raises
    :class:`ResumeError` at the first wall that is not the one the seeds give."""
    count = 0
    for i, line in enumerate(records):
        if line.get("type") != "hand_end":
            continue
        index, walls = line.get("index"), line.get("walls")
        if type(index) is not int or not 0 <= index < len(records):
            raise ResumeError("hand_end needs the hand's index", i + 1)
        if not isinstance(walls, list) or not walls:
            raise ResumeError("hand_end lists no walls", i + 1)
        key = fair.key(index)
        for number, wall in enumerate(walls):
            if not isinstance(wall, list) or not all(type(p) is int for p in wall):
                raise ResumeError(f"wall {number} of hand {index} is not a list of pieces", i + 1)
            if rebuild_wall(key, number, wall) != wall:
                raise ResumeError(
                    f"wall {number} of hand {index} is not the one the seeds give", i + 1
                )
            count += 1
    return count


def same_line(made: dict[str, Any], recorded: Any, added: frozenset[str], kind: str) -> bool:
    """``recorded`` is, as JSON, the line the engine ``made`` (see :func:`same_json`), or
    that line as an older engine wrote it: without fields named in ``added`` (paths
    ``kind.field``, see :data:`ADDED_FIELDS`), with :data:`RETOLD_FIELDS` in other words.
    Every other field the record has must be one the engine writes, with the same value."""
    if same_json(made, recorded):
        return True
    # the slow path runs only for a line that differs: an older record's, or a tampered one
    return _same_but_added(made, recorded, added, kind)


def _same_but_added(made: dict[str, Any], recorded: Any, added: frozenset[str], path: str) -> bool:
    if not isinstance(recorded, dict) or not recorded.keys() <= made.keys():
        return False
    for key, value in made.items():
        where = f"{path}.{key}"
        if key not in recorded:
            if where not in added:
                return False
        elif where in RETOLD_FIELDS:
            if _json_kind(value) is not _json_kind(recorded[key]):
                return False
        elif isinstance(value, dict) and any(a.startswith(where + ".") for a in added):
            if not _same_but_added(value, recorded[key], added, where):
                return False
        elif not same_json(value, recorded[key]):
            return False
    return True


def _json_kind(x: Any) -> type:
    # bool before int: True is an int to Python, not to JSON
    for kind in (bool, int, float, str, dict):
        if isinstance(x, kind):
            return kind
    return list if isinstance(x, list | tuple) else type(x)


def same_json(x: Any, y: Any) -> bool:
    """Equal as JSON: ``true`` is not ``1`` and ``1.0`` is not ``1`` (Python's == says they are)."""
    kind = _json_kind(x)
    if kind is not _json_kind(y):
        return False
    if kind is dict:
        return bool(x.keys() == y.keys()) and all(same_json(v, y[k]) for k, v in x.items())
    if kind is list:
        return len(x) == len(y) and all(same_json(u, v) for u, v in zip(x, y, strict=True))
    return bool(x == y)
