"""Game records (JSON Lines, docs/spec/record.md): playing a match into one, and verifying
one by replay (``paiju replay``, ``paiju verify``).

The format itself (header, lines, reading and writing) is :mod:`paiju.engine.record_format`,
re-exported here. Verifying runs :meth:`paiju.engine.session.Session.replay`, the one
replayer that a server's resume and the web replay frames use too: it re-runs the engine
from the header's seed and options, feeding it the recorded ``action`` lines, and compares
every line it regenerates as strict JSON (tolerating only fields added after the record
was written, see :func:`~paiju.engine.record_format.same_line`); the first line that
differs is reported (a tampered or foreign record).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from paiju.engine.match import Decide, Match
from paiju.engine.record_format import (
    FORMAT_VERSION,
    LINE_LIMITS,
    MAX_RECORD_BYTES,
    Decision,
    FindGame,
    RecordError,
    RecordWriter,
    ResumeError,
    check_walls,
    dump_lines,
    header,
    match_end,
    parse_lines,
    read_record,
    same_json,
    stated_fair_deal,
)
from paiju.engine.session import Session

__all__ = [
    "FORMAT_VERSION",
    "LINE_LIMITS",
    "MAX_RECORD_BYTES",
    "Decision",
    "FindGame",
    "RecordError",
    "RecordWriter",
    "ReplayResult",
    "dump_lines",
    "header",
    "match_end",
    "parse_lines",
    "read_record",
    "record_match",
    "replay",
    "same_json",
    "verify",
]


def record_match(
    match: Match,
    players: Sequence[Decide],
    seats: list[str],
    lines: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Play ``match`` to its end with ``players``; every record line goes into ``lines``."""
    session = Session.of(match, seats)
    for _ in session.play(players):
        pass
    if lines is None:
        return session.lines
    lines.extend(session.lines)
    return lines


@dataclass
class ReplayResult:
    ok: bool
    line: int | None = None
    message: str = ""
    hands: int = 0


def _parts(records: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]] | None:
    """Each match of a file that may hold several, each from its header: (offset, lines)."""
    starts = [i for i, r in enumerate(records) if "record" in r]
    if not starts or starts[0] != 0:
        return None
    ends = [*starts[1:], len(records)]
    return [(start, records[start:end]) for start, end in zip(starts, ends, strict=True)]


def _failed(exc: ResumeError, offset: int) -> ReplayResult:
    line = None if exc.line is None else exc.line + offset
    return ReplayResult(False, line, exc.problem)


def replay(
    records: list[dict[str, Any]], find_game: FindGame, on_decision: Decision | None = None
) -> ReplayResult:
    """Verify every match in ``records`` (a file may hold several, each from its header);
    ``on_decision`` sees every decision as it is replayed (review, statistics)."""
    parts = _parts(records)
    if parts is None:
        return ReplayResult(False, 1, "not a paiju record header")
    hands = 0
    for offset, lines in parts:
        try:
            session = Session.replay(lines, find_game, on_decision=on_decision)
        except ResumeError as exc:
            return _failed(exc, offset)
        hands += len(session.match.hands)
    return ReplayResult(True, None, f"{len(parts)} record(s) verified", hands)


def verify(records: list[dict[str, Any]], find_game: FindGame) -> ReplayResult:
    """``paiju verify``: every match in ``records`` is a fair deal (the revealed seed hashes
    to the commitment, every recorded wall is the one the seeds give) and replays."""
    parts = _parts(records)
    if parts is None:
        return ReplayResult(False, 1, "not a paiju record header")
    walls = 0
    for offset, lines in parts:
        if "fair" not in lines[0]:
            return ReplayResult(
                False, offset + 1, "the header has no 'fair' (not a fair-deal record)"
            )
        wall_error: ResumeError | None = None
        try:
            walls += check_walls(lines, stated_fair_deal(lines))
        except ResumeError as exc:
            wall_error = exc
        try:
            Session.replay(lines, find_game)
        except ResumeError as exc:
            # report whichever problem comes first in the file
            if (
                wall_error is None
                or wall_error.line is None
                or (exc.line is not None and exc.line <= wall_error.line)
            ):
                return _failed(exc, offset)
        if wall_error is not None:
            return _failed(wall_error, offset)
    return ReplayResult(True, None, f"{len(parts)} record(s), {walls} walls verified", walls)
