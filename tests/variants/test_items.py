"""The one item-row type (``paiju.variants.items``) every game's table uses."""

from __future__ import annotations

import pytest

from paiju.variants import VARIANTS
from paiju.variants.items import UNITS, ItemRow


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_table_is_made_of_item_rows_with_a_known_unit(name: str) -> None:
    variant = VARIANTS[name]
    rows = variant.item_rows()
    assert rows
    for item_id, row in rows.items():
        assert isinstance(row, ItemRow) and row.id == item_id
        assert row.unit in UNITS and row.rule
        assert variant.item_unit(item_id) == row.unit


def test_units_are_the_tables_own() -> None:
    taixing = VARIANTS["taixing"]
    assert taixing.item_unit("qing_yi_se") == "fan"
    assert taixing.item_unit("di_hua") == "flower"
    assert taixing.item_unit("gang") == "points"


def test_a_scored_row_shows_its_count_and_needs_a_value() -> None:
    row = ItemRow("peng", "碰", "碰", "Pong", 1, "set", "Q23")
    scored = row.scored(2, count=2)
    assert (scored.zh, scored.en, scored.value) == ("碰 ×2", "Pong ×2", 2)
    assert row.scored().value == 1
    with pytest.raises(ValueError, match="no table value"):
        ItemRow("x", "x", "x", "x", None, "money", "J0").scored()
    with pytest.raises(ValueError, match="unknown unit"):
        ItemRow("x", "x", "x", "x", 1, "fan", "T1", unit="tiles")
