"""``paiju simulate``: the summary, determinism across worker counts, records, charts."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from paiju.cli import main
from paiju.engine.record import read_record, replay
from paiju.simulator import (
    GameTask,
    InlineExecutor,
    Progress,
    make_executor,
    play_game,
    run_ordered,
    simulate,
    spread,
)

KEYS = {
    "variant",
    "bots",
    "games",
    "hands",
    "win_rate_by_seat",
    "wins",
    "items",
    "item_rate_per_won_hand",
    "points_per_hand",
    "points_per_hand_by_seat",
    "match_totals_by_seat",
    "seconds",
    "hands_per_s",
    "seed",
    "workers",
}
TIMING = ("seconds", "hands_per_s", "workers")
OPTIONS = {"hands": 3}
BOTS = ["greedy", "random", "greedy", "random"]


def stable(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING}


def test_summary_keys_and_consistency() -> None:
    summary = simulate("jiaxing", games=3, bots=BOTS, seed=7, options=OPTIONS, progress=False)
    assert set(summary) == KEYS
    assert summary["games"] == 3 and summary["hands"] == 9
    wins = summary["wins"]
    won = wins["self_drawn"] + wins["discard"]
    assert won + wins["exhaustive_draws"] == 9
    assert sum(summary["win_rate_by_seat"]) >= won / 9 - 1e-9
    assert sum(summary["match_totals_by_seat"]) == 0
    assert summary["points_per_hand"]["mean"] == pytest.approx(0, abs=1e-9)
    # every won hand scores at least one item, and ids are the scorer's stable ids
    assert sum(summary["items"].values()) >= won
    assert all(k.replace("_", "").isalpha() for k in summary["items"])


def test_workers_do_not_change_the_results(tmp_path: Path) -> None:
    one = simulate("jiaxing", games=4, bots=BOTS, seed=3, options=OPTIONS, progress=False)
    two = simulate(
        "jiaxing", games=4, bots=BOTS, seed=3, options=OPTIONS, workers=2, progress=False
    )
    assert stable(one) == stable(two)
    assert two["workers"] == 2
    other = simulate("jiaxing", games=4, bots=BOTS, seed=4, options=OPTIONS, progress=False)
    assert stable(other) != stable(one)


def test_out_dir_holds_summary_records_and_charts(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out = tmp_path / "run"
    summary = simulate(
        "jiaxing",
        games=2,
        bots=BOTS,
        seed=1,
        options=OPTIONS,
        out_dir=str(out),
        progress=False,
    )
    on_disk = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert on_disk == summary
    assert summary["charts"] == ["items.png", "points.png"]
    for name in summary["charts"]:
        assert (out / name).read_bytes().startswith(b"\x89PNG")
    result = replay(read_record(str(out / "records.jsonl")))
    assert result.ok and result.hands == 6


def test_charts_are_skipped_without_matplotlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    log = io.StringIO()
    summary = simulate(
        "jiaxing",
        games=1,
        bots=["random"] * 4,
        options=OPTIONS,
        out_dir=str(tmp_path),
        progress=False,
        log=log,
    )
    assert summary["charts"] == [] and "matplotlib" in log.getvalue()
    assert (tmp_path / "summary.json").exists() and not (tmp_path / "items.png").exists()


def test_records_match_the_single_process_format() -> None:
    task = GameTask("jiaxing", OPTIONS, tuple(BOTS), 5, record=True)
    result = play_game(task)
    assert result.record is not None
    assert result.record[0]["record"] == "paiju" and result.record[-1]["type"] == "match_end"
    assert replay(result.record).ok
    assert len(result.hands) == 3 and sum(result.totals) == 0


def test_run_ordered_keeps_task_order() -> None:
    seen: list[int] = []
    out = run_ordered(InlineExecutor(), abs, [-3, 1, -2], on_result=lambda i, r: seen.append(i))
    assert out == [3, 1, 2] and seen == [0, 1, 2]
    stream = io.StringIO()
    bar = Progress(3, "inline", stream=stream)
    run_ordered(InlineExecutor(), abs, [1, 2, 3], bar)
    assert "3/3" in stream.getvalue() and bar.done == 3
    with make_executor(2) as pool:
        assert run_ordered(pool, abs, list(range(-20, 0))) == list(range(20, 0, -1))
    with pytest.raises(ValueError, match="workers"):
        make_executor(0)
    with pytest.raises(ZeroDivisionError):
        run_ordered(InlineExecutor(), lambda x: 1 // x, [1, 0])


def test_progress_bar_writes_to_its_stream() -> None:
    stream = io.StringIO()
    bar = Progress(3, "test", stream=stream)
    for _ in range(3):
        bar.update()
    text = stream.getvalue()
    assert "3/3" in text and "[" in text


def test_spread() -> None:
    s = spread([1, 2, 3, 4, 5])
    assert s["mean"] == 3 and s["min"] == 1 and s["max"] == 5 and s["median"] == 3
    assert spread([])["mean"] == 0.0


def test_cli_simulate_with_workers_and_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim"
    args = ["simulate", "jiaxing", "--games", "2", "--seed", "9", "--bots", "random"]
    args += ["--options", '{"hands": 2}', "--workers", "2", "--out", str(out)]
    assert main(args) == 0
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["hands"] == 4 and summary["hands_per_s"] > 0
    assert "simulate jiaxing" in captured.err
    assert (out / "summary.json").exists() and (out / "records.jsonl").exists()
    assert main(["replay", str(out / "records.jsonl")]) == 0
    assert main(["simulate", "jiaxing", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err
