"""``paiju bench``: every registered line prints the documented JSON shape (no timing
thresholds here: speed is for ``paiju bench`` itself to report)."""

from __future__ import annotations

import json

import pytest

import paiju.bench.wild  # noqa: F401  (registers the wild-tile lines)
from paiju.bench import REGISTRY, main, register, result_line, to_136

EXPECTED = {
    "win_check_winning",
    "win_check_random",
    "waits",
    "shanten",
    "win_check_winning_riichienv",
    "win_check_random_riichienv",
    "shanten_riichienv",
    "waits_riichienv",
    "win_check_wild",
    "shanten_wild",
}


def test_every_issue_line_is_registered() -> None:
    assert set(REGISTRY) >= EXPECTED


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_line_shape(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([name], repeats=1, quick=True) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 1
    line = json.loads(lines[0])
    assert list(line) == ["name", "ours_per_s", "peer", "peer_per_s", "ratio"]
    assert line["name"] == name
    assert isinstance(line["ours_per_s"], float) and line["ours_per_s"] > 0
    # both peers are in the dev/bench extras, so a null peer here means a broken import
    assert isinstance(line["peer"], str)
    assert line["peer_per_s"] > 0
    assert line["ratio"] == pytest.approx(line["ours_per_s"] / line["peer_per_s"], rel=1e-2)


def test_unknown_name_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["no_such_bench"], repeats=1, quick=True) == 2
    err = capsys.readouterr().err
    assert "no_such_bench" in err and "win_check_winning" in err


def test_register_rejects_duplicates() -> None:
    with pytest.raises(ValueError, match="already registered"):
        register("waits", lambda repeats, quick: result_line("waits", 1.0, None, None))


def test_registered_line_without_peer(capsys: pytest.CaptureFixture[str]) -> None:
    name = "test_only_no_peer"
    register(name, lambda repeats, quick: result_line(name, 2.0, None, None))
    try:
        assert main([name], repeats=1, quick=True) == 0
    finally:
        del REGISTRY[name]
    line = json.loads(capsys.readouterr().out)
    assert line == {
        "name": name,
        "ours_per_s": 2.0,
        "peer": None,
        "peer_per_s": None,
        "ratio": None,
    }


def test_136_format() -> None:
    counts = [0] * 34
    counts[0] = 2
    counts[33] = 1
    assert to_136(counts) == [0, 1, 132]


def test_missing_peer_prints_null(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paiju import bench

    monkeypatch.setattr(bench, "_mahjong", lambda: "import mahjong failed: test")
    monkeypatch.setattr(bench, "_riichienv", lambda: "import riichienv failed: test")
    assert main(["shanten", "waits_riichienv"], repeats=1, quick=True) == 0
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines()]
    assert [line["name"] for line in lines] == ["shanten", "waits_riichienv"]
    for line in lines:
        assert line["peer"] is None and line["peer_per_s"] is None and line["ratio"] is None
        assert line["ours_per_s"] > 0
    assert "peer mahjong unavailable" in captured.err
    assert "peer riichienv unavailable" in captured.err
