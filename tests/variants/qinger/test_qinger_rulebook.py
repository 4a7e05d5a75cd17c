"""The rule book lists every seed item, every ambiguity and every scoring item as coded."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from paiju.variants.qinger.items import ITEMS
from paiju.variants.qinger.options import QingerOptions

BOOK = (Path(__file__).resolve().parents[3] / "docs" / "rules" / "qinger.md").read_text(
    encoding="utf-8"
)


def _rows() -> dict[str, list[str]]:
    """Table rows keyed by their first cell."""
    rows = {}
    for line in BOOK.splitlines():
        if line.startswith("| ") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = cells
    return rows


def test_every_seed_item_and_ambiguity_has_a_row() -> None:
    rows = _rows()
    missing = [f"Q{n}" for n in range(1, 31) if f"Q{n}" not in rows]
    missing += [f"QA{n}" for n in range(1, 21) if f"QA{n}" not in rows]
    assert not missing


def test_item_rows_match_the_code() -> None:
    rows = _rows()
    for item_id, item in ITEMS.items():
        cells = rows[f"`{item_id}`"]
        assert cells[1:4] == [item.zh, item.zh_hant, item.en], item_id
        if item.kind == "multiplier":
            assert cells[4] == f"×{item.value}", item_id
        elif item.kind != "rounding":
            assert re.match(rf"{item.value}\b", cells[4]), item_id
        if item.alt_value is not None and item.kind == "bonus" and "mei_hua" not in item_id:
            assert cells[5].startswith(str(item.alt_value)), item_id


def test_every_option_is_documented() -> None:
    for field in dataclasses.fields(QingerOptions):
        assert f"`{field.name}`" in BOOK, field.name
