"""The load driver (real uvicorn and websockets on loopback) and the serve/load commands."""

from __future__ import annotations

import pytest

from paiju.cli import build_parser
from paiju.server.load import LoadPlan, LoadResult, run_load


def test_load_run_plays_every_table_over_real_websockets() -> None:
    figures = run_load(LoadPlan(tables=3, hands=1, seconds=60.0, think=0.0))
    assert figures["finished_tables"] == 3
    assert figures["errors"] == 0 and not figures["timed_out"]
    assert figures["actions"] > 3 * 20
    assert figures["actions_per_s"] > 0
    assert 0 < figures["p50_ms"] <= figures["p99_ms"] <= figures["max_ms"]


@pytest.mark.parametrize(
    ("plan", "problem"),
    [
        (LoadPlan(tables=0), "tables"),
        (LoadPlan(hands=0), "hands"),
        (LoadPlan(seconds=0), "seconds"),
        (LoadPlan(think=-1), "think"),
        (LoadPlan(variant="chess"), "unknown variant"),
    ],
)
def test_load_plan_is_checked(plan: LoadPlan, problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        run_load(plan)


def test_percentiles_of_the_summary() -> None:
    result = LoadResult(tables=1, finished_tables=1, actions=100, seconds=2.0)
    result.latencies_ms = [float(i) for i in range(1, 101)]
    summary = result.summary()
    assert summary["actions_per_s"] == 50.0
    assert summary["p50_ms"] == pytest.approx(50.5, abs=0.6)
    assert summary["p99_ms"] == pytest.approx(99.0, abs=1.0)
    assert summary["max_ms"] == 100.0


def test_serve_defaults_to_loopback_port_8000() -> None:
    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.database) == ("127.0.0.1", 8000, None)
    args = build_parser().parse_args(["load", "--tables", "5", "--process"])
    assert args.tables == 5 and args.process is True
