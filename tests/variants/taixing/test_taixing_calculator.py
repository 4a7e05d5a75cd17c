"""``paiju score`` for Taixing: the data-driven cases and the CLI exit codes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paiju.calculator import InputError, score
from paiju.cli import main
from paiju.variants.taixing.items import BY_ID

DATA = Path(__file__).resolve().parents[2] / "data" / "taixing" / "score_cases.json"
CASES: list[dict[str, Any]] = json.loads(DATA.read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_score_case(case: dict[str, Any]) -> None:
    if case["exit"] == 2:
        with pytest.raises(InputError) as info:
            score(case["input"])
        assert info.value.field.split("[")[0].split(".")[0] == case["field"]
        return
    status, out = score(case["input"])
    assert status == case["exit"], out
    if status == 1:
        assert out["valid"] is False
        assert case["reason"] in out["reason"]
        assert set(out) == {"valid", "reason"}
        return
    assert out["valid"] is True
    assert out["variant"] == "taixing"
    assert [[i["id"], i["value"]] for i in out["items"]] == case["items"]
    assert all(i["name"] == BY_ID[i["id"]].zh for i in out["items"])
    assert out["payments"] == case["payments"]
    assert sum(out["payments"]) == 0
    assert out["kong_payments"] == [0, 0, 0, 0]


def test_every_scoring_rule_has_a_case() -> None:
    covered = {r for c in CASES for r in c["rules"]}
    scoring_items = {f"T{n}" for n in (6, 9, 10, *range(11, 28))}
    scoring_ambiguities = {f"TA{n}" for n in (1, 2, 3, 5, 6, 7, 11, 12, 13, 14, 15)}
    assert scoring_items | scoring_ambiguities <= covered


def _write(tmp_path: Path, obj: Any) -> str:
    path = tmp_path / "situation.json"
    path.write_text(json.dumps(obj, ensure_ascii=False), encoding="utf-8")
    return str(path)


def _case(name_start: str) -> dict[str, Any]:
    return next(c for c in CASES if c["name"].startswith(name_start))


def test_cli_exit_0_seed_example(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = _case("seed worked example")
    assert main(["score", _write(tmp_path, case["input"])]) == 0
    captured = capsys.readouterr()
    out = json.loads(captured.out)
    assert out["payments"] == [0, 18, -18, 0]
    assert captured.err == ""


def test_cli_exit_1_not_lacking_a_suit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = _case("缺门 required")
    assert main(["score", _write(tmp_path, case["input"])]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out == {"valid": False, "reason": "未缺门 / hand does not lack a suit"}


def test_cli_exit_1_too_few_flowers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    case = _case("小胡 self-drawn with one flower")
    assert main(["score", _write(tmp_path, case["input"])]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False
    assert out["reason"].startswith("花数不足：自摸需2花")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"hand": "123m456m789p234p11q"}, "hand"),
        ({"win_tile": "5s"}, "win_tile"),
        ({"options": {"rounds": "four"}}, "options"),
        ({"flags": ["double_ron"]}, "flags"),
        ({"draw_streak": -1}, "draw_streak"),
        ({"leopard": "yes"}, "leopard"),
        ({"flowers": "1m"}, "flowers"),
        ({"winner": 4}, "winner"),
    ],
)
def test_cli_exit_2_names_the_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, Any], field: str
) -> None:
    situation = {**_case("小胡 self-drawn with two flowers")["input"], **change}
    assert main(["score", _write(tmp_path, situation)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert field in captured.err
    assert len(captured.err.strip().splitlines()) == 1


def test_cli_exit_2_bad_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"variant": "taixing", ', encoding="utf-8")
    assert main(["score", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "json" in captured.err


def test_cli_reads_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    case = _case("包牌 on a self-draw")
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(case["input"], ensure_ascii=False)))
    assert main(["score"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["payments"] == [0, 6, -6, 0]
    assert [i["id"] for i in out["items"]] == ["xiao_hu", "hua", "bao_pai"]
