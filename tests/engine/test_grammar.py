"""The one action grammar (``paiju.engine.grammar``) and both games' codecs on it."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.engine import actions as A
from paiju.engine.errors import InvalidActionError
from paiju.engine.grammar import EVENT_VERBS, Action, Verb, grammar_table
from paiju.variants.qinger import hand as Q

CODECS = {"mahjong": A.CODEC, "qinger": Q.CODEC}


@pytest.mark.parametrize("game", sorted(CODECS))
def test_every_code_has_one_string_and_reads_back(game: str) -> None:
    codec = CODECS[game]
    strings = [codec.to_str(c) for c in range(codec.n_actions)]
    assert len(set(strings)) == codec.n_actions
    for code, text in enumerate(strings):
        action = Action.parse(text)
        assert str(action) == text
        assert codec.encode(action) == code == codec.parse(text)


def test_words_and_pieces() -> None:
    assert Action.parse("d5m") == Action(Verb.DISCARD, "5m")
    assert Action.parse("ting") == Action(Verb.TING)
    assert Action.parse("ting5m") == Action(Verb.TING, "5m")
    assert Action.parse("qifei9c") == Action(Verb.TAKEOFF, "9c")
    assert Action.parse("chi2") == Action(Verb.CHI, "2")
    assert A.to_str(A.DECLARE) == "ting" and A.to_str(A.TING + 4) == "ting5m"
    assert Q.to_str(Q.TAKEOFF_JOKERS) == "wuxi" and Q.to_str(Q.CONCEALED_KONG + 29) == "anK"


@pytest.mark.parametrize(
    ("game", "text", "says"),
    [
        ("mahjong", "x", "unknown action"),
        ("mahjong", "chi5", "unknown action"),
        ("mahjong", "d9z", "bad tile"),
        ("mahjong", "knock", "unknown action"),
        ("qinger", "ting5s", "unknown action"),
        ("qinger", "anBJ", "meld kind"),
        ("qinger", "dXX", "bad card"),
    ],
)
def test_bad_strings_are_refused_naming_the_problem(game: str, text: str, says: str) -> None:
    with pytest.raises(InvalidActionError, match=says):
        CODECS[game].parse(text)


@given(st.text(max_size=8))
def test_any_string_is_a_code_or_a_clear_refusal(text: str) -> None:
    for codec in CODECS.values():
        try:
            code = codec.parse(text)
        except InvalidActionError:
            continue
        assert 0 <= code < codec.n_actions


def _read_by_table(text: str) -> Action | None:
    """How a client reads a string from :func:`grammar_table` (web/src/notation.ts)."""
    for verb in grammar_table()["verbs"]:
        word, piece = verb["word"], verb["piece"]
        if text == word and piece != "required":
            return Action(Verb(word))
        if piece != "none" and len(text) > len(word) and text.startswith(word):
            return Action(Verb(word), text[len(word) :])
    return None


@pytest.mark.parametrize("game", sorted(CODECS))
def test_the_published_table_reads_every_action_as_the_engine_does(game: str) -> None:
    codec = CODECS[game]
    for code in range(codec.n_actions):
        text = codec.to_str(code)
        assert _read_by_table(text) == Action.parse(text), text
    assert _read_by_table("x") is None and _read_by_table("chi") is None


def test_every_move_event_names_a_verb_and_the_web_module_is_current() -> None:
    assert set(grammar_table()["events"].values()) <= {v.value for v in Verb}
    script = Path(__file__).resolve().parents[2] / "scripts" / "grammar-ts.py"
    spec = importlib.util.spec_from_file_location("grammar_ts", script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    stale = "web/src/schema/grammar.ts is stale: run scripts/grammar-ts.py"
    assert module.TARGET.read_text(encoding="utf-8") == module.module_text(), stale


# the other words whose action writes these events: a discard that declares ready, the five
# jokers' takeoff, and a knock window's pass (a knock event that says no)
_ALSO = {"discard": {Verb.TING}, "takeoff": {Verb.WUXI}, "knock": {Verb.PASS}}


def test_each_move_event_follows_an_action_of_its_verb_by_its_seat() -> None:
    """EVENT_VERBS against the engine: in every golden record, each move event of a seat
    comes after that seat's action of the event's verb, with nothing of that seat between."""
    golden = Path(__file__).resolve().parents[1] / "data"
    seen: set[str] = set()
    for path in sorted(golden.glob("*/golden/*.jsonl")):
        last: dict[int, Verb] = {}
        for line in map(json.loads, path.read_text(encoding="utf-8").splitlines()):
            kind, seat = line.get("type"), line.get("seat")
            if kind == "hand":
                last = {}
            elif kind == "action":
                last[seat] = Action.parse(line["action"]).verb
            elif kind in EVENT_VERBS and seat in last:
                allowed = {EVENT_VERBS[kind], *_ALSO.get(kind, ())}
                assert last[seat] in allowed, f"{path.name}: {line} after {last[seat]}"
                seen.add(kind)
    assert seen >= {"discard", "pong", "concealed_kong", "knock"}
