"""Test files need unique names: ``tests/`` has no packages, so pytest imports each test
module by its bare name and two ``test_session.py`` in different folders collide."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_every_test_file_name_is_unique() -> None:
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []
