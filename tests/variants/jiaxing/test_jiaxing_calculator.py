"""``paiju score`` for Jiaxing, through the command line: the JSON scenario cases."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paiju.cli import main

CASES_FILE = Path(__file__).parents[2] / "data" / "jiaxing" / "score_cases.json"
CASES: list[dict[str, Any]] = json.loads(CASES_FILE.read_text(encoding="utf-8"))


def run_score(
    situation: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    path = tmp_path / "situation.json"
    text = situation if isinstance(situation, str) else json.dumps(situation, ensure_ascii=False)
    path.write_text(text, encoding="utf-8")
    status = main(["score", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_score_case(
    case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = run_score(case["situation"], tmp_path, capsys)
    assert status == case["exit"], (out, err)
    if case["exit"] == 2:
        assert out == ""
        assert err.count("\n") == 1
        assert case["field"] in err
        return
    result = json.loads(out)
    if case["exit"] == 1:
        assert result["valid"] is False
        assert case["reason"] in result["reason"]
        return
    assert result["valid"] is True
    assert result["variant"] == "jiaxing"
    assert {i["id"]: i["value"] for i in result["items"]} == case["items"]
    assert len(result["items"]) == len(case["items"])
    assert result["payments"] == case["payments"]
    assert result["kong_payments"] == case["kong_payments"]
    assert sum(result["payments"]) == 0
    assert sum(result["kong_payments"]) == 0


def test_every_case_names_its_rule() -> None:
    assert all(case["rule"] for case in CASES)
    covered = {token for case in CASES for token in case["rule"].split()}
    for n in range(1, 33):
        if n in (30, 32):
            continue  # 反冲 and 钓鱼 are not part of a single win: see test_jiaxing_scoring
        assert f"J{n}" in covered, f"J{n} has no calculator case"


def test_items_carry_simplified_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = next(c for c in CASES if c["name"].startswith("the score-cli example"))
    status, out, _ = run_score(case["situation"], tmp_path, capsys)
    assert status == 0
    assert json.loads(out)["items"] == [{"id": "quan_qiu_ren", "name": "全求人", "value": 18}]


def test_invalid_json_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run_score("{not json", tmp_path, capsys)
    assert status == 2
    assert out == ""
    assert "json" in err


def test_invalid_reason_is_bilingual(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = next(c for c in CASES if c["name"] == "not a complete hand")
    status, out, _ = run_score(case["situation"], tmp_path, capsys)
    assert status == 1
    assert json.loads(out) == {"valid": False, "reason": "未成牌 / hand is not complete"}


def test_stdin_is_read_when_no_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    case = CASES[0]
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(case["situation"])))
    assert main(["score"]) == case["exit"]
    assert json.loads(capsys.readouterr().out)["payments"] == case["payments"]
