"""Self-play on Ray: the same results as the process pool for the same seeds, the same
progress bar, records and charts (one local Ray of two CPUs for the whole module)."""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

# before Ray is imported: the test instance binds to loopback only (see paiju.ray_executor)
os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
ray = pytest.importorskip("ray")

from paiju.arena import arena  # noqa: E402
from paiju.cli import main  # noqa: E402
from paiju.engine.record import read_record, replay  # noqa: E402
from paiju.ray_executor import RayExecutor  # noqa: E402
from paiju.simulator import Progress, run_ordered, simulate  # noqa: E402

TIMING = ("seconds", "hands_per_s", "workers", "ray")
OPTIONS = {"hands": 1}
BOTS = ["greedy", "random", "greedy", "random"]


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    # the executor finds this instance and leaves it running: one start for every test
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    try:
        yield
    finally:
        ray.shutdown()


def stable(summary: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in summary.items() if k not in TIMING}


def test_run_ordered_on_ray_keeps_order_progress_and_errors(local_ray: None) -> None:
    stream = io.StringIO()
    bar = Progress(6, "ray", stream=stream)
    with RayExecutor() as pool:
        assert run_ordered(pool, abs, [-6, 5, -4, 3, -2, 1], bar) == [6, 5, 4, 3, 2, 1]
        # a task's error reaches the caller as that error (Ray wraps it in a subclass)
        with pytest.raises(ValueError, match="invalid literal"):
            run_ordered(pool, int, ["1", "x", "3"])
    assert "6/6" in stream.getvalue() and bar.done == 6
    assert ray.is_initialized(), "a Ray the executor did not start is left running"


def test_simulate_on_ray_equals_the_process_pool(local_ray: None, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    log = io.StringIO()
    on_ray = simulate(
        "jiaxing",
        games=3,
        bots=BOTS,
        seed=11,
        options=OPTIONS,
        executor=RayExecutor(),
        out_dir=str(tmp_path / "ray"),
        log=log,
    )
    pooled = simulate(
        "jiaxing",
        games=3,
        bots=BOTS,
        seed=11,
        options=OPTIONS,
        workers=2,
        out_dir=str(tmp_path / "pool"),
        progress=False,
    )
    assert stable(on_ray) == stable(pooled)
    assert on_ray["hands"] == 3
    assert "3/3 games" in log.getvalue()
    assert on_ray["charts"] == ["items.png", "points.png"]
    for name in on_ray["charts"]:
        assert (tmp_path / "ray" / name).read_bytes().startswith(b"\x89PNG")
    ray_records = (tmp_path / "ray" / "records.jsonl").read_text(encoding="utf-8")
    assert ray_records == (tmp_path / "pool" / "records.jsonl").read_text(encoding="utf-8")
    assert replay(read_record(str(tmp_path / "ray" / "records.jsonl"))).ok


def test_arena_on_ray_equals_the_process_pool(local_ray: None) -> None:
    common: dict[str, Any] = {"deals": 2, "seed": 5, "progress": False, "control": "random"}
    bots = ["greedy", "random", "random", "random"]
    on_ray = arena("taixing", bots, executor=RayExecutor(), **common)
    pooled = arena("taixing", bots, workers=2, **common)
    on_ray.pop("seconds")
    pooled.pop("seconds")
    assert on_ray == pooled


def test_cli_simulate_and_arena_with_ray(
    local_ray: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["simulate", "jiaxing", "--games", "2", "--seed", "4", "--bots", "random"]
    args += ["--options", '{"hands": 1}']
    assert main([*args, "--ray"]) == 0
    captured = capsys.readouterr()
    on_ray = json.loads(captured.out)
    assert on_ray["ray"] == "local" and on_ray["workers"] is None
    assert "simulate jiaxing" in captured.err
    assert main([*args, "--quiet"]) == 0
    inline = json.loads(capsys.readouterr().out)
    assert stable(on_ray) == stable(inline)

    arena_args = ["arena", "jiaxing", "--bots", "greedy,random,random,random", "--deals", "2"]
    arena_args += ["--quiet", "--json", "-"]
    assert main([*arena_args, "--ray"]) == 0
    ray_report = json.loads(capsys.readouterr().out)
    assert main(arena_args) == 0
    inline_report = json.loads(capsys.readouterr().out)
    ray_report.pop("seconds")
    inline_report.pop("seconds")
    assert ray_report == inline_report


def test_without_ray_the_command_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import builtins

    real_import = builtins.__import__

    def no_ray(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "ray" or name.startswith("ray."):
            raise ImportError("no ray here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    assert main(["simulate", "jiaxing", "--games", "1", "--ray", "--quiet"]) == 2
    assert "paiju[cluster]" in capsys.readouterr().err
    assert main(["arena", "jiaxing", "--bots", "random", "--deals", "2", "--ray"]) == 2
    assert "paiju[cluster]" in capsys.readouterr().err
