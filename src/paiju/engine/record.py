"""Game records (JSON Lines) and their verification by replay.

Line 1 is the header: ``{"record": "paiju", "format": 1, "variant", "options", "engine",
"seed", "seats"}``. Then, per hand, a ``hand`` line (index, dealer, seed), the events of
the deal, and for each decision an ``action`` line followed by the events it caused, then a
``hand_end`` line; the last line is ``match_end`` with the totals. Tiles are in notation.

Replay re-runs the engine from the header's seed and options, feeding it the recorded
``action`` lines, regenerates every line and compares: the first line that differs is
reported (a tampered or foreign record).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import IO, Any

import paiju
from paiju.components import boundedjson
from paiju.components.boundedjson import preview
from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.engine.events import Event, to_json
from paiju.engine.fairness import (
    FairDeal,
    FairDealError,
    commitment,
    parse_seed_hex,
    rebuild_wall,
)
from paiju.engine.match import Decide, GameFlow, Hand, HandSummary, Match, play_match

FORMAT_VERSION = 1


class RecordError(ValueError):
    """A malformed record line (exit 2). ``line`` is 1-based."""

    def __init__(self, line: int, problem: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {problem}")


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
    """An ``emit`` callback for :func:`play_match` that builds record lines."""

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


def record_match(
    match: Match,
    players: Sequence[Decide],
    seats: list[str],
    lines: list[dict[str, Any]] | None = None,
) -> list[dict[str, Any]]:
    """Play ``match`` to its end with ``players``; every record line goes into ``lines``."""
    if lines is None:
        lines = []
    lines.append(header(match, seats))
    for _ in play_match(match, players, RecordWriter(lines.append)):
        pass
    lines.append(match_end(match))
    return lines


def dump_lines(lines: Iterable[dict[str, Any]], out: IO[str]) -> None:
    for line in lines:
        out.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")


@dataclass
class ReplayResult:
    ok: bool
    line: int | None = None
    message: str = ""
    hands: int = 0


class _Mismatch(Exception):
    def __init__(self, line: int | None, message: str) -> None:
        self.line = line
        self.message = message


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


Decision = Callable[[Hand, int, int], None]
"""Called by replay at every recorded decision, before it is applied: ``(hand, seat,
action code)``; the hand is the live one (read it, do not change it)."""


FindGame = Callable[[object], GameFlow]
"""The game a header names (``paiju.variants.find_variant``); raises ValueError if none."""


def replay(
    records: list[dict[str, Any]], find_game: FindGame, on_decision: Decision | None = None
) -> ReplayResult:
    """Verify every match in ``records`` (a file may hold several, each from its header);
    ``on_decision`` sees every decision as it is replayed (review, statistics)."""
    starts = [i for i, r in enumerate(records) if "record" in r]
    if not starts or starts[0] != 0:
        return ReplayResult(False, 1, "not a paiju record header")
    hands = 0
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(records)
        result = replay_one(records[start:end], find_game, on_decision)
        if not result.ok:
            if result.line is not None:
                result.line += start
            return result
        hands += result.hands
    return ReplayResult(True, None, f"{len(starts)} record(s) verified", hands)


def replay_one(
    records: list[dict[str, Any]], find_game: FindGame, on_decision: Decision | None = None
) -> ReplayResult:
    """Re-run the engine from the header and recorded actions; compare every line."""
    head = records[0]
    if head.get("record") != "paiju":
        return ReplayResult(False, 1, "not a paiju record header")
    if head.get("format") != FORMAT_VERSION:
        return ReplayResult(False, 1, f"unsupported record format {preview(head.get('format'))}")
    variant = head.get("variant")
    try:
        flow = find_game(variant)
    except ValueError:
        return ReplayResult(False, 1, f"unknown variant {preview(variant)}")
    seed = head.get("seed")
    if isinstance(seed, bool) or not isinstance(seed, int):
        return ReplayResult(False, 1, "header seed must be an integer")
    raw_options = head.get("options")
    if raw_options is None:
        raw_options = {}
    if not isinstance(raw_options, dict):
        return ReplayResult(False, 1, "header options must be an object")
    try:
        options = flow.parse_options(raw_options)
    except ValueError as exc:
        return ReplayResult(False, 1, f"header options: {exc}")
    n_seats = flow.seats(options)
    seats = head.get("seats")
    if not isinstance(seats, list) or len(seats) != n_seats:
        return ReplayResult(False, 1, f"header seats must list {n_seats} players")

    fair = None
    if "fair" in head:
        try:
            fair = _fair_deal(records)
        except _Mismatch as exc:
            return ReplayResult(False, exc.line, exc.message)

    actions = [(i, r) for i, r in enumerate(records) if r.get("type") == "action"]
    cursor = iter(actions)

    def scripted(hand: Hand, seat: int) -> int:
        try:
            index, rec = next(cursor)
        except StopIteration:
            raise _Mismatch(None, "the record ends before the game does") from None
        recorded_seat = rec.get("seat")
        if type(recorded_seat) is not int or recorded_seat != seat:
            raise _Mismatch(index + 1, f"expected an action of seat {seat}")
        text = rec.get("action")
        if not isinstance(text, str):
            raise _Mismatch(index + 1, f"an action is a string, not {preview(text)}")
        try:
            code = hand.parse_action(text)
        except InvalidActionError:
            raise _Mismatch(index + 1, f"unknown action {preview(text)}") from None
        if code not in hand.legal_actions(seat):
            raise _Mismatch(index + 1, f"{preview(rec.get('action'))} is not legal here")
        if on_decision is not None:
            on_decision(hand, seat, code)
        return code

    match = Match(flow, options, seed, fair=fair)
    regenerated: list[dict[str, Any]] = []
    try:
        record_match(match, [scripted] * n_seats, list(seats), regenerated)
    except _Mismatch as exc:
        # an earlier regenerated line that differs is the better report
        diff = _first_diff(records[: len(regenerated)], regenerated)
        if diff is not None and (exc.line is None or diff < exc.line):
            return ReplayResult(False, diff, "differs from what the engine produces")
        return ReplayResult(False, exc.line, exc.message)
    except (IllegalActionError, InvalidActionError) as exc:
        return ReplayResult(False, None, str(exc))
    diff = _first_diff(records, regenerated)
    if diff is not None:
        return ReplayResult(False, diff, "differs from what the engine produces", len(match.hands))
    return ReplayResult(True, None, "record verified", len(match.hands))


def _fair_deal(records: list[dict[str, Any]]) -> FairDeal:
    """The fair deal a record's header states, with the seed its ``match_end`` reveals;
    raises :class:`_Mismatch` naming the line at fault."""
    head, end = records[0], records[-1]
    last = len(records)
    if end.get("type") != "match_end":
        raise _Mismatch(last, "the record ends before match_end reveals the server seed")
    try:
        stated = FairDeal.from_header(head.get("fair"))
    except FairDealError as exc:
        raise _Mismatch(1, f"fair: {exc}") from None
    if "server_seed" not in end:
        raise _Mismatch(last, "match_end does not reveal the server seed")
    try:
        seed = parse_seed_hex(end.get("server_seed"))
    except FairDealError as exc:
        raise _Mismatch(last, str(exc)) from None
    if commitment(seed) != stated.commitment:
        raise _Mismatch(
            1, f"the commitment is not the SHA-256 of the server seed revealed on line {last}"
        )
    return replace(stated, server_seed=seed)


def verify(records: list[dict[str, Any]], find_game: FindGame) -> ReplayResult:
    """``paiju verify``: every match in ``records`` is a fair deal (the revealed seed hashes
    to the commitment, every recorded wall is the one the seeds give) and replays."""
    starts = [i for i, r in enumerate(records) if "record" in r]
    if not starts or starts[0] != 0:
        return ReplayResult(False, 1, "not a paiju record header")
    walls = 0
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(records)
        one = records[start:end]
        if "fair" not in one[0]:
            return ReplayResult(
                False, start + 1, "the header has no 'fair' (not a fair-deal record)"
            )
        try:
            fair = _fair_deal(one)
            walls += _check_walls(one, fair)
        except _Mismatch as bad:
            result = replay_one(one, find_game)
            if bad.line is not None and (
                result.ok or result.line is None or bad.line < result.line
            ):
                result = ReplayResult(False, bad.line, bad.message)
        else:
            result = replay_one(one, find_game)
        if not result.ok:
            if result.line is not None:
                result.line += start
            return result
    return ReplayResult(True, None, f"{len(starts)} record(s), {walls} walls verified", walls)


def _check_walls(records: list[dict[str, Any]], fair: FairDeal) -> int:
    """Rebuild each ``hand_end`` line's walls from the seeds; the count checked."""
    count = 0
    for i, line in enumerate(records):
        if line.get("type") != "hand_end":
            continue
        index, walls = line.get("index"), line.get("walls")
        if type(index) is not int or not 0 <= index < len(records):
            raise _Mismatch(i + 1, "hand_end needs the hand's index")
        if not isinstance(walls, list) or not walls:
            raise _Mismatch(i + 1, "hand_end lists no walls")
        key = fair.key(index)
        for number, wall in enumerate(walls):
            if not isinstance(wall, list) or not all(type(p) is int for p in wall):
                raise _Mismatch(i + 1, f"wall {number} of hand {index} is not a list of pieces")
            if rebuild_wall(key, number, wall) != wall:
                raise _Mismatch(
                    i + 1, f"wall {number} of hand {index} is not the one the seeds give"
                )
            count += 1
    return count


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


def _first_diff(a: list[dict[str, Any]], b: list[dict[str, Any]]) -> int | None:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if not same_json(x, y):
            return i + 1
    if len(a) != len(b):
        return min(len(a), len(b)) + 1
    return None
