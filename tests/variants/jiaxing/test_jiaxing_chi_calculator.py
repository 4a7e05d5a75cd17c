"""The calculator with chow melds (JA3's alternative reading, option ``chi``)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from paiju.calculator import InputError, score


def situation(**over: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "variant": "jiaxing",
        "dealer": 0,
        "winner": 1,
        "hand": "111z222z333z55z",
        "melds": [{"type": "chi", "tiles": "345m", "from": 0}],
        "win_tile": "5z",
        "win_type": "discard",
        "from": 2,
        "flags": [],
    }
    base.update(over)
    return base


def test_chow_meld_needs_the_chi_option() -> None:
    with pytest.raises(InputError) as info:
        score(situation())
    assert info.value.field == "melds[0].type"


def test_chow_meld_scores_with_the_option_and_is_no_peng_peng_hu() -> None:
    status, out = score(situation(options={"chi": True}))
    assert status == 0
    ids = [i["id"] for i in out["items"]]
    assert "peng_peng_hu" not in ids and ids == ["fang_pao"]
    assert out["payments"] == [0, 2, -2, 0]


@pytest.mark.parametrize("tiles", ["346m", "789p9p", "123z", "35m4m5m"])
def test_malformed_chow_is_an_input_error(tiles: str) -> None:
    with pytest.raises(InputError) as info:
        score(situation(options={"chi": True}, melds=[{"type": "chi", "tiles": tiles, "from": 0}]))
    assert info.value.field == "melds[0].tiles"


def test_taixing_rejects_chow() -> None:
    obj = json.loads(json.dumps(situation(variant="taixing", flowers="1234f")))
    with pytest.raises(InputError) as info:
        score(obj)
    assert info.value.field == "melds[0].type"
