"""Golden whole-game records: each committed match under ``tests/data/<game>/golden/``
is regenerated in memory and compared whole; a difference names the file and line."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from paiju.engine.record import replay
from paiju.variants import find_variant

_SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "golden.py"
_spec = importlib.util.spec_from_file_location("paiju_golden_script", _SCRIPT)
assert _spec is not None and _spec.loader is not None
golden = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = golden
_spec.loader.exec_module(golden)


@pytest.mark.parametrize("match", golden.MATCHES, ids=lambda m: f"{m.game}/{m.name}")
def test_golden_record(match) -> None:
    text = golden.generate(match)
    problem = golden.first_difference(match, text)
    assert problem is None, problem
    lines = [json.loads(line) for line in text.splitlines()]
    result = replay(lines, find_variant)
    assert result.ok, f"{match.path}: line {result.line}: {result.message}"


def test_one_file_per_match() -> None:
    on_disk = set(golden.DATA.glob("*/golden/*.jsonl"))
    assert on_disk == {m.path for m in golden.MATCHES}, (
        f"stray or missing golden files; regenerate with `{golden.REGENERATE}`"
    )
