"""``paiju score`` on the second-pass cases (``tests/data/<game>/second_pass_cases.json``).

Each case: a situation, the exit status, and for exit 2 the field named on stderr; for exit
0 the winner's items (mahjong) and any output keys under ``expect``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from paiju.cli import main

DATA = Path(__file__).parents[1] / "data"
CASES: list[tuple[str, dict[str, Any]]] = [
    (game, case)
    for game in ("jiaxing", "taixing", "qinger")
    for case in json.loads((DATA / game / "second_pass_cases.json").read_text("utf-8"))
]


def run(
    situation: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], *flags: str
) -> tuple[int, str, str]:
    path = tmp_path / "situation.json"
    path.write_text(json.dumps(situation, ensure_ascii=False), encoding="utf-8")
    status = main(["score", *flags, str(path)])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize(("game", "case"), CASES, ids=[f"{g}: {c['name']}" for g, c in CASES])
def test_case(
    game: str, case: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert case["situation"]["variant"] == game
    status, out, err = run(case["situation"], tmp_path, capsys)
    assert status == case["exit"], (out, err)
    if status == 2:
        assert out == "" and err.count("\n") == 1
        assert f"paiju score: {case['field']}:" in err, err
        return
    result = json.loads(out)
    if status == 1:
        assert result["valid"] is False and case["reason"] in result["reason"]
        return
    if "items" in case:
        assert {i["id"]: i["value"] for i in result["items"]} == case["items"]
    for key, value in case.get("expect", {}).items():
        assert result[key] == value, key
    # the explanation's payment lines add up to every payment the result reports
    n = len(result["payments"])
    explained = [0] * n
    for line in result["explanation"]["payments"]:
        explained[line["payer"]] -= line["amount"]
        explained[line["payee"]] += line["amount"]
        assert line["zh"] and line["en"] and line["rule"]
    reported = list(result["payments"])
    for extra in (result.get("kong_payments"), result.get("fishing", {}).get("payments")):
        if extra:
            reported = [a + b for a, b in zip(reported, extra, strict=True)]
    assert explained == reported
    assert all(step["rule"] for step in result["explanation"]["formula"])
    for words in case.get("explain_contains", []):
        assert words in result["explanation"]["text"]["zh"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_explain_prints_the_explanation_text(
    lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for game, case in CASES:
        if case["exit"] != 0:
            continue
        status, out, _ = run(case["situation"], tmp_path, capsys)
        text = json.loads(out)["explanation"]["text"][lang]
        status, printed, _ = run(case["situation"], tmp_path, capsys, "--explain", "--lang", lang)
        assert status == 0 and printed == text + "\n", game
        assert ("Payments:" if lang == "en" else "付款：") in printed


def test_every_case_names_its_rule() -> None:
    assert all(case["rule"] for _, case in CASES)
