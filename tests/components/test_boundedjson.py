"""The bounded JSON reader: every limit refuses with a message, and ordinary JSON is read as
``json.loads`` reads it."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from paiju.components.boundedjson import (
    JsonLimitError,
    JsonLimits,
    loads,
    preview,
    read_limited,
)

SMALL = JsonLimits(max_bytes=200, max_depth=3, max_int_digits=5, max_string=10)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("[[[[1]]]]", "nested deeper than 3"),
        ('{"a":{"b":{"c":{}}}}', "nested deeper than 3"),
        ("123456", "more than 5 digits"),
        ("-123456", "more than 5 digits"),
        ('"abcdefghijk"', "longer than 10 characters"),
        ('{"abcdefghijk": 1}', "longer than 10 characters"),
        ("NaN", "NaN is not a JSON number"),
        ("[Infinity]", "Infinity is not a JSON number"),
        ("-Infinity", "-Infinity is not a JSON number"),
        ("1e999", "out of range"),
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ('"\\ud800"', "lone UTF-16 surrogate"),
        ("[1, 2", "Expecting"),
        ("", "Expecting value"),
        ("[" + " " * 300 + "]", "more than 200 bytes"),
    ],
)
def test_each_limit_is_refused_with_its_reason(text: str, problem: str) -> None:
    with pytest.raises(JsonLimitError) as info:
        loads(text, SMALL)
    assert problem in str(info.value)


def test_limits_are_inclusive() -> None:
    assert loads('[[["abcdefghij", -12345]]]', SMALL) == [[["abcdefghij", -12345]]]


def test_a_surrogate_pair_is_one_character_not_an_error() -> None:
    assert loads('"\\ud83c\\udc04"') == "\U0001f004"


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert loads('["[[[[[[", "\\"[[[["]', SMALL) == ["[[[[[[", '"[[[[']


def test_a_position_is_named_for_a_syntax_error() -> None:
    with pytest.raises(JsonLimitError) as info:
        loads('{\n  "a": [1,\n  }')
    assert info.value.where == "line 3 column 3"


def test_deep_nesting_far_past_the_interpreter_stack_is_refused() -> None:
    with pytest.raises(JsonLimitError, match="nested deeper"):
        loads("[" * 100_000 + "]" * 100_000, JsonLimits(max_bytes=1 << 20))


def test_bytes_must_be_utf8_and_the_byte_is_named() -> None:
    with pytest.raises(JsonLimitError) as info:
        loads(b'{"a":\n"\xff"}')
    assert "0xff at offset 7" in str(info.value)
    assert info.value.where == "line 2"
    assert loads('{"牌": "五万"}'.encode()) == {"牌": "五万"}


def test_read_limited_stops_one_byte_past_the_limit() -> None:
    stream = io.BytesIO(b"x" * 1000)
    with pytest.raises(JsonLimitError, match="more than 10 bytes"):
        read_limited(stream, 10)
    assert stream.tell() == 11
    assert read_limited(io.BytesIO(b"x" * 10), 10) == b"x" * 10


def test_preview_stays_short_for_huge_values() -> None:
    assert len(preview("x" * 1_000_000)) <= 60
    assert "digits" in preview(10**5000)
    assert "items" in preview(list(range(1000)))
    assert preview("五万") == "'五万'"


_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**19), 10**19)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=20,
)


@given(_json)
def test_within_the_limits_it_reads_what_json_reads(value: Any) -> None:
    text = json.dumps(value, ensure_ascii=False)
    assert loads(text) == json.loads(text)
    assert loads(text.encode()) == json.loads(text)
