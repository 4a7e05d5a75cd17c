"""``paiju score`` and ``paiju replay`` never print a traceback: every input, however broken,
ends in a documented exit code with a one-line message (docs/spec/score-cli.md,
docs/spec/record.md). The default run fuzzes a few hundred inputs; ``-m slow`` many more."""

from __future__ import annotations

import contextlib
import io
import json
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from paiju.cli import main

DATA = Path(__file__).parent / "data"
FAST = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=4000, deadline=None, suppress_health_check=list(HealthCheck))


def _situations() -> list[dict[str, Any]]:
    out = []
    for variant in ("jiaxing", "taixing", "qinger"):
        cases = json.loads((DATA / variant / "score_cases.json").read_text(encoding="utf-8"))
        if isinstance(cases, dict):
            cases = cases["cases"]
        out += [c.get("input", c.get("situation")) for c in cases]
    return out


SITUATIONS = _situations()
_TMP = tempfile.TemporaryDirectory(prefix="paiju-fuzz-")


def _run(argv: list[str], data: bytes) -> tuple[int, str, str]:
    path = Path(_TMP.name) / "input"
    path.write_bytes(data)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([*argv, str(path)])
    return status, out.getvalue(), err.getvalue()


def _one_line(err: str, command: str) -> None:
    assert err.startswith(f"paiju {command}: "), err
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert len(err) < 2000, len(err)


# -- values a hostile or careless user might type ---------------------------------------

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.sampled_from([10**4000, -(10**30), 2**63, -1, 0, 1, 3, 4])
    | st.floats()
    | st.text(max_size=12)
    | st.sampled_from(["x" * 5000, "1m", "55z", "hu", "pong", "jiaxing", "qinger", "\ud800"])
)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=8,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


def _replace(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, head: _replace(value[head], rest, new)}
    out = list(value)
    out[head] = _replace(out[head], rest, new)
    return out


@st.composite
def _mutated(draw: st.DrawFn, documents: list[Any]) -> Any:
    doc = draw(st.sampled_from(documents))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(_paths(doc))))
        doc = _replace(doc, path, draw(_values))
    return doc


def _dumps(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False).encode("utf-8", "surrogatepass")


def _nested(depth: int) -> bytes:
    return b'{"variant": ' + b"[" * depth + b"]" * depth + b"}"


def _duplicate_key(doc: dict[str, Any]) -> bytes:
    text = json.dumps(doc)
    return ('{"variant": "taixing", ' + text[1:]).encode()


def _score_inputs() -> st.SearchStrategy[bytes]:
    return st.one_of(
        st.binary(max_size=300),
        _values.map(_dumps),
        _mutated(SITUATIONS).map(_dumps),
        st.integers(0, 5000).map(_nested),
        st.sampled_from(SITUATIONS).map(_duplicate_key),
        st.tuples(st.sampled_from(SITUATIONS).map(_dumps), st.binary(min_size=1, max_size=4)).map(
            lambda t: t[0][:-1] + t[1] + t[0][-1:]
        ),
        st.sampled_from([b"NaN", b'{"variant": Infinity}', b"\xef\xbb\xbf{}", b"", b"  \n"]),
    )


def _check_score(data: bytes) -> None:
    status, out, err = _run(["score"], data)
    assert status in (0, 1, 2)
    if status == 2:
        assert out == ""
        _one_line(err, "score")
    else:
        result = json.loads(out)
        assert result["valid"] is (status == 0)
        assert err == ""


@FAST
@given(_score_inputs())
def test_score_answers_every_input_with_an_exit_code(data: bytes) -> None:
    _check_score(data)


@pytest.mark.slow
@SLOW
@given(_score_inputs())
def test_score_answers_every_input_with_an_exit_code_long(data: bytes) -> None:
    _check_score(data)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"[" * 100_000, "more than 65536 bytes"),
        (_nested(9), "nested deeper than 8"),
        (b'{"variant": "jiaxing", "dealer": 1' + b"0" * 4000 + b"}", "more than 20 digits"),
        (b'{"variant": "ji\xffaxing"}', "not UTF-8 (byte 0xff at offset 15)"),
        (b'{"variant": "jiaxing", "variant": "qinger"}', "duplicate key 'variant'"),
        (b'{"variant": NaN}', "NaN is not a JSON number"),
        (b"[1, 2]", "(top level): expected a JSON object"),
        (b'"jiaxing"', "(top level): expected a JSON object"),
        (b'{"variant": "' + b"x" * 1001 + b'"}', "longer than 1000 characters"),
        (b'{"variant": "jiaxing", "dealer": "\\udc00"}', "lone UTF-16 surrogate"),
        (b'{"variant": 7}', "variant: unknown variant 7"),
    ],
)
def test_score_names_what_is_wrong(data: bytes, message: str) -> None:
    status, out, err = _run(["score"], data)
    assert (status, out) == (2, "")
    _one_line(err, "score")
    assert message in err


def test_score_bounds_draw_streak() -> None:
    doc = next(s for s in SITUATIONS if s["variant"] == "taixing")
    status, _, err = _run(["score"], _dumps({**doc, "draw_streak": 2**62}))
    assert status == 2 and "draw_streak: expected an integer 0…30" in err


def test_score_reads_stdin_as_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    stdin = io.TextIOWrapper(io.BytesIO(b'{"variant": "jiaxing", "x": "\xff"}'))
    monkeypatch.setattr("sys.stdin", stdin)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["score"]) == 2
    assert "not UTF-8" in err.getvalue()


def test_unreadable_files_are_exit_2(tmp_path: Path) -> None:
    for command in ("score", "replay"):
        for path in (tmp_path / "missing.json", tmp_path):
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                assert main([command, str(path)]) == 2
            _one_line(err.getvalue(), command)
            assert "cannot read" in err.getvalue()


# -- records ----------------------------------------------------------------------------


def _make_records() -> dict[str, bytes]:
    out = {}
    for variant in ("jiaxing", "taixing", "qinger"):
        path = Path(_TMP.name) / f"{variant}.jsonl"
        with contextlib.redirect_stdout(io.StringIO()):
            status = main(
                [
                    "simulate",
                    variant,
                    "--seed",
                    "3",
                    "--options",
                    '{"hands": 1}',
                    "--record",
                    str(path),
                    "--quiet",
                ]
            )
        assert status == 0
        out[variant] = path.read_bytes()
    return out


RECORDS = _make_records()
RECORD_LINES = {v: [json.loads(x) for x in data.splitlines()] for v, data in RECORDS.items()}


@st.composite
def _records(draw: st.DrawFn) -> tuple[bytes, list[Any] | None]:
    """A broken record and, when it is still JSON lines, what it decodes to."""
    variant = draw(st.sampled_from(sorted(RECORDS)))
    lines = RECORDS[variant].splitlines()
    docs: list[Any] = list(RECORD_LINES[variant])
    how = draw(st.sampled_from(["field", "field", "bytes", "cut", "insert", "deep"]))
    i = draw(st.integers(0, len(lines) - 1))
    if how == "field":
        docs[i] = draw(_mutated([docs[i]]))
        lines[i] = _dumps(docs[i])
    elif how == "bytes":
        line = bytearray(lines[i])
        line[draw(st.integers(0, len(line) - 1))] = draw(st.integers(0, 255))
        if bytes(line) != lines[i]:
            lines[i] = bytes(line)
            docs = None  # type: ignore[assignment]
    elif how == "cut":
        lines, docs = lines[:i], docs[:i]
    elif how == "insert":
        value = draw(_values)
        lines.insert(i, _dumps(value))
        docs.insert(i, value)
    else:
        depth = draw(st.integers(1, 3000))
        lines[i] = b'{"type": "action", "seat": ' + b"[" * depth + b"]" * depth + b"}"
        docs = None  # type: ignore[assignment]
    return b"\n".join(lines) + b"\n", docs


def _strict(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _check_replay(case: tuple[bytes, list[Any] | None]) -> None:
    data, docs = case
    status, out, err = _run(["replay"], data)
    assert status in (0, 1, 2)
    if status:
        assert out == ""
        _one_line(err, "replay")
        return
    assert out.startswith("ok: ") and err == ""
    # a record that verifies says what the original said, except the header's labels
    assert docs is not None
    original = next(v for v in RECORD_LINES.values() if v[0]["variant"] == docs[0]["variant"])
    labels = ("engine", "seats")
    assert len(docs) == len(original)
    assert {k: v for k, v in docs[0].items() if k not in labels} == {
        k: v for k, v in original[0].items() if k not in labels
    }
    assert [_strict(d) for d in docs[1:]] == [_strict(d) for d in original[1:]]


@FAST
@given(_records())
def test_replay_answers_every_record_with_an_exit_code(case: tuple[bytes, list[Any]]) -> None:
    _check_replay(case)


@pytest.mark.slow
@SLOW
@given(_records())
def test_replay_answers_every_record_with_an_exit_code_long(case: tuple[bytes, list[Any]]) -> None:
    _check_replay(case)


@pytest.mark.parametrize(
    ("mutate", "status", "message"),
    [
        (lambda lines: [b"\xff" + lines[0], *lines[1:]], 2, "line 1: not JSON: not UTF-8"),
        (lambda lines: [lines[0], b"[" * 50, *lines[1:]], 2, "line 2: not JSON (column 17)"),
        (lambda lines: [lines[0], b"7", *lines[1:]], 2, "line 2: expected an object"),
        (lambda lines: [*lines[:3], b""], 2, "line 4: empty line"),
        (
            lambda lines: [lines[0].replace(b'"seed":3', b'"seed":true'), *lines[1:]],
            1,
            "line 1: header seed must be an integer",
        ),
        (
            lambda lines: [lines[0].replace(b'"seed":3', b'"seed":1' + b"0" * 30), *lines[1:]],
            2,
            "line 1: not JSON: an integer of more than 20 digits",
        ),
        (
            lambda lines: [lines[0].replace(b'"options":{', b'"options":7,"x":{'), *lines[1:]],
            1,
            "line 1: header options must be an object",
        ),
    ],
)
def test_replay_names_the_line(mutate: Any, status: int, message: str) -> None:
    got, out, err = _run(["replay"], b"\n".join(mutate(RECORDS["jiaxing"].splitlines())) + b"\n")
    assert (got, out) == (status, "")
    _one_line(err, "replay")
    assert message in err, err


def test_replay_refuses_true_for_a_seat() -> None:
    lines = RECORDS["taixing"].splitlines()
    i = next(k for k, x in enumerate(lines) if b'"type":"action","seat":1,' in x)
    lines[i] = lines[i].replace(b'"seat":1', b'"seat":true')
    status, _, err = _run(["replay"], b"\n".join(lines) + b"\n")
    assert status == 1 and f"line {i + 1}:" in err
