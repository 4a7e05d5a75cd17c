"""``paiju score`` for Qing'er: the data-driven cases and the exit codes through the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paiju.calculator import InputError, score
from paiju.cli import main

CASES_PATH = Path(__file__).resolve().parents[2] / "data" / "qinger" / "score_cases.json"
CASES: list[dict[str, Any]] = json.loads(CASES_PATH.read_text(encoding="utf-8"))


def _ids(cases: list[dict[str, Any]]) -> list[str]:
    return [c["name"] for c in cases]


VALID = [c for c in CASES if c["exit"] == 0]
INVALID = [c for c in CASES if c["exit"] == 1]
MALFORMED = [c for c in CASES if c["exit"] == 2]


@pytest.mark.parametrize("case", VALID, ids=_ids(VALID))
def test_valid_case(case: dict[str, Any]) -> None:
    status, out = score(case["input"])
    assert status == 0, out
    assert out["valid"] is True and out["variant"] == "qinger"
    assert set(out) == {"valid", "variant", "scores", "items", "payments", "explanation"}
    assert out["scores"] == case["scores"]
    assert out["payments"] == case["payments"]
    assert sum(out["payments"]) == 0
    got = [[[item["id"], item["value"]] for item in items] for items in out["items"]]
    assert got == case["items"]
    # every point of a score is explained by an item
    for items, total in zip(out["items"], out["scores"], strict=True):
        assert sum(item["value"] for item in items) == total


@pytest.mark.parametrize("case", INVALID, ids=_ids(INVALID))
def test_invalid_case(case: dict[str, Any]) -> None:
    status, out = score(case["input"])
    assert status == 1
    assert out == {"valid": False, "reason": case["reason"]}


@pytest.mark.parametrize("case", MALFORMED, ids=_ids(MALFORMED))
def test_malformed_case(case: dict[str, Any]) -> None:
    with pytest.raises(InputError) as info:
        score(case["input"])
    assert info.value.field == case["field"]


def test_every_rule_item_has_a_case() -> None:
    covered = {rule for case in CASES for rule in case["rules"]}
    wanted = {f"Q{n}" for n in (1, *range(8, 31))}
    assert wanted <= covered, sorted(wanted - covered)


def _run(tmp_path: Path, obj: Any, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    path = tmp_path / "situation.json"
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    code = main(["score", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _case(name: str) -> dict[str, Any]:
    return next(c for c in CASES if c["name"] == name)


def test_cli_exit_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(tmp_path, _case("qing_er_edge_wen_qian")["input"], capsys)
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert answer["scores"] == [140, 10, 10]
    assert answer["items"][0][1] == {"id": "qing_er", "name": "青儿", "value": 100}


def test_cli_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(tmp_path, _case("threshold_exactly_60")["input"], capsys)
    assert code == 1 and err == ""
    assert json.loads(out) == {"valid": False, "reason": "不足60分 / score must exceed 60"}


@pytest.mark.parametrize("name", ["four_big_jokers", "takeoff_not_alike", "bad_notation"])
def test_cli_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    case = _case(name)
    code, out, err = _run(tmp_path, case["input"], capsys)
    assert code == 2
    assert out == ""
    assert case["field"] in err
    assert err.count("\n") == 1


def test_cli_bad_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.json"
    path.write_text('{"variant": "qinger", ', encoding="utf-8")
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "(json)" in captured.err


def test_stakes_default_from_options() -> None:
    obj = dict(_case("jie_hun_big_jokers")["input"])
    del obj["stakes"]
    _, out = score(obj)
    assert out["payments"] == [210, -60, -150]  # 1-2-3, all knocked → 3
    obj["options"] = {"stake_form": "3-4-5"}
    _, out = score(obj)
    assert out["payments"] == [350, -100, -250]  # all knocked → 5


def test_advert_kept_in_hand_option() -> None:
    obj = dict(_case("jie_hun_small_jokers_and_advert")["input"])
    players = [dict(p) for p in obj["players"]]
    players[1] = {**players[1], "hand": "456hAD", "flowers": "BJ"}
    obj["players"] = players
    with pytest.raises(InputError) as info:
        score(obj)
    assert info.value.field == "players[1].hand"
    obj["options"] = {"advert_is_flower": False}
    status, out = score(obj)
    assert status == 0
    assert out["items"][1] == [
        {"id": "da_gui", "name": "大鬼", "value": 10},
        {"id": "guang_gao", "name": "广告", "value": 30},
    ]


def test_error_messages_name_the_card() -> None:
    with pytest.raises(InputError, match=r"4 × BJ \(大鬼\) across all players, but only 3"):
        score(_case("four_big_jokers")["input"])
