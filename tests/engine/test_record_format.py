"""Records of older engines (tests/data/record/) verify and resume: a line written before a
field was added to it is compared without it, and every real change is still refused with
its line named (docs/spec/record.md, "Records of an older engine")."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from paiju.engine.fairness import parse_seed_hex
from paiju.engine.record import read_record, replay, verify
from paiju.engine.record_format import ADDED_FIELDS, RETOLD_FIELDS, same_line
from paiju.engine.session import ResumeError, Session
from paiju.variants import VARIANTS, find_variant

OLD = Path(__file__).resolve().parent.parent / "data" / "record"
RECORDS = sorted(OLD.glob("*.jsonl"))
Lines = list[dict[str, Any]]


def _lines(name: str) -> Lines:
    return read_record(str(OLD / name))


def _kept_seed(lines: Lines) -> bytes | None:
    """What a server's storage keeps beside the log: the fair deal's seed."""
    if "fair" not in lines[0]:
        return None
    return parse_seed_hex(lines[-1]["server_seed"])


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_record_of_an_older_engine_replays(path: Path) -> None:
    lines = read_record(str(path))
    result = replay(lines, find_variant)
    assert result.ok, result.message
    assert result.hands >= 2
    if "fair" in lines[0]:
        assert verify(lines, find_variant).ok
    # the record keeps its lines as they were written
    assert Session.replay(lines, find_variant).lines == lines


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_record_of_an_older_engine_lacks_what_came_later(path: Path) -> None:
    """Each file really is in an old shape: the engine writes its lines otherwise now."""
    lines = read_record(str(path))
    made: Lines = []
    session = Session.replay(
        lines, find_variant, on_step=lambda _session, _line, step: made.extend(step.lines)
    )
    assert "profile" not in lines[0] or "feng_ding" not in lines[0]["options"]
    assert len(made) == len(lines) - 1 and made != lines[1:]
    assert session.lines == lines


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_a_stored_log_of_an_older_engine_resumes_and_plays_on(path: Path) -> None:
    """A server's stored log cut in the middle of a hand, as it was before an upgrade: it
    resumes from what storage keeps (the lines and the fair deal's seed) and the recorded
    decisions play on to the same match."""
    lines = read_record(str(path))
    actions = [i for i, line in enumerate(lines) if line.get("type") == "action"]
    cut = actions[len(actions) // 2]
    stored = lines[:cut]
    session = Session.resume(stored, find_variant, _kept_seed(lines))
    assert session.lines == stored
    for line in lines[cut:]:
        if line.get("type") == "action":
            session.act(line["seat"], session.parse(line["action"]))
        elif line.get("type") == "hand" and session.between_hands:
            session.start_hand()
        elif line.get("type") == "hand_end":
            session.end_hand()
    assert session.finished
    assert session.lines[-1]["totals"] == lines[-1]["totals"]
    # the stored old lines and the new ones after the upgrade make one record that verifies
    assert replay(session.lines, find_variant).ok


def _first(kind: str, change: Callable[[dict[str, Any]], None]) -> Callable[[Lines], int]:
    def apply(lines: Lines) -> int:
        index = next(i for i, line in enumerate(lines) if line.get("type") == kind)
        change(lines[index])
        return index + 1

    return apply


TAMPERING: dict[str, Callable[[Lines], int]] = {
    "a score's value": _first("score", lambda line: line.update(per_payer=line["per_payer"] + 1)),
    "a hand's net dropped": _first("hand_end", lambda line: line.pop("net")),
    "a field no engine writes": _first("discard", lambda line: line.update(forged=1)),
    "an added field with a wrong value": _first("score", lambda line: line.update(counts_as="x")),
    "the explanation not an object": _first("end", lambda line: line.update(explanation="paid")),
    "an option that was always written dropped": lambda lines: (
        lines[0]["options"].pop("floor"),
        1,
    )[1],
    # the header itself is what the engine writes for these: the hand's seed shows it
    "the header's seed": lambda lines: (lines[0].update(seed=99), 2)[1],
    # another option plays another game: the first line that shows it is named
    "an added option with another value": lambda lines: (
        lines[0]["options"].update(hun=True),
        0,
    )[1],
}


@pytest.mark.parametrize("how", sorted(TAMPERING))
@pytest.mark.parametrize("name", ["jiaxing-before-counts-as.jsonl", "jiaxing-first-engine.jsonl"])
def test_tampering_with_an_older_record_is_refused_at_its_line(name: str, how: str) -> None:
    lines = copy.deepcopy(_lines(name))
    if how == "an added field with a wrong value" and name == "jiaxing-first-engine.jsonl":
        pytest.skip("that record has no score line with the field to forge")
    line = TAMPERING[how](lines)
    result = replay(lines, find_variant)
    assert not result.ok
    if line == 0:
        assert result.line is not None, result.message
    else:
        assert result.line == line, result.message
    with pytest.raises(ResumeError):
        Session.resume(lines, find_variant, _kept_seed(_lines(name)))


def test_same_line_tolerates_only_what_it_is_told() -> None:
    made = {"type": "score", "seat": 0, "per_payer": 3, "counts_as": "discard"}
    added = frozenset({"score.counts_as"})
    old = {"type": "score", "seat": 0, "per_payer": 3}
    assert same_line(made, old, added, "score")
    assert not same_line(made, old, frozenset(), "score")
    assert not same_line(made, {**old, "per_payer": 4}, added, "score")
    assert not same_line(made, {**old, "counts_as": "self_draw"}, added, "score")
    assert not same_line(made, {"type": "score", "per_payer": 3}, added, "score")
    # strict JSON still: 1 is not true
    assert not same_line({"x": True, "y": 1}, {"x": 1}, frozenset({"k.y"}), "k")
    # nested: an added option of the header
    head = {"record": "paiju", "options": {"a": 1, "b": 0}}
    assert same_line(
        head, {"record": "paiju", "options": {"a": 1}}, frozenset({"header.options.b"}), "header"
    )
    assert not same_line(
        head, {"record": "paiju", "options": {"b": 0}}, frozenset({"header.options.b"}), "header"
    )
    # the retold explanation: any object where the engine writes one, nothing else
    end = {"type": "end", "net": [1, -1], "explanation": {"text": "new words"}}
    assert same_line(end, {**end, "explanation": {"text": "old words"}}, frozenset(), "end")
    assert not same_line(end, {**end, "explanation": None}, frozenset(), "end")
    assert not same_line(end, {**end, "net": [1, 0]}, frozenset(), "end")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_option_newer_than_the_oldest_record_says_it_was_added(variant: str) -> None:
    """An option the oldest kept record of a game does not list must be marked
    ``OptionSpec(..., added=True)`` (docs/spec/record.md, "Records of an older engine"),
    or every record written before it stops verifying at line 1."""
    game = VARIANTS[variant]
    listed = [
        set(lines[0]["options"])
        for lines in map(read_record, map(str, RECORDS))
        if lines[0]["variant"] == variant
    ]
    assert listed, f"no record of {variant} under {OLD}"
    oldest = min(listed, key=len)
    unmarked = sorted(
        n for n, spec in game.option_specs.items() if n not in oldest and not spec.added
    )
    assert unmarked == [], f"mark these options of {variant} OptionSpec(..., added=True)"


def test_every_declared_addition_names_a_field_of_a_line() -> None:
    """A path is ``kind.field``: a typo would tolerate nothing (and nothing would say so)."""
    for path in ADDED_FIELDS | RETOLD_FIELDS:
        assert path.count(".") == 1, path
    for variant in VARIANTS.values():
        for path in variant.record_additions():
            kind, _, field = path.partition(".")
            assert kind and field, path
            if kind == "header":
                option = field.removeprefix("options.")
                assert option in variant.option_specs, path
