"""The load driver (real uvicorn and websockets on loopback) and the serve/load commands."""

from __future__ import annotations

import dataclasses
import os

import pytest

from paiju.cli import build_parser
from paiju.server.load import (
    PROBE_FIGURES,
    SERVER_FIGURES,
    LoadPlan,
    LoadResult,
    report_line,
    run_load,
)


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
        (LoadPlan(probes=33), "probes"),
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


def test_a_server_process_reports_its_loop_lag_and_cpu() -> None:
    figures = run_load(LoadPlan(tables=2, hands=1, seconds=60.0, think=0.0, process=True))
    assert figures["finished_tables"] == 2 and figures["errors"] == 0
    assert set(SERVER_FIGURES) <= set(figures)
    assert 0 <= figures["server_lag_p50_ms"] <= figures["server_lag_p99_ms"]
    assert figures["server_cpu_s"] > 0 and figures["server_cpu_ms_per_action"] > 0
    if os.path.exists("/proc/thread-self/schedstat"):
        # Linux: the loop thread's time on a core, and runnable without one
        assert figures["server_loop_ran_s"] >= 0 and figures["server_loop_waited_s"] >= 0
    line = report_line(figures)
    assert "ping p50" in line and "decision round trip" in line and "server loop lag" in line


def test_the_report_line_says_whether_ping_p99_is_under_50_ms() -> None:
    figures = {"ping_p50_ms": 3.0, "ping_p99_ms": 12.5, "p50_ms": 4.0, "p99_ms": 80.0}
    assert "p99 12.5 ms (under 50 ms)" in report_line(figures)
    assert "(NOT under 50 ms)" in report_line({**figures, "ping_p99_ms": 50.0})
    assert "decision round trip p50 4.0 ms, p99 80.0 ms" in report_line(figures)


def test_a_prober_process_times_pings_apart_from_the_driver() -> None:
    figures = run_load(LoadPlan(tables=2, hands=1, seconds=60.0, think=0.05, probes=2))
    assert figures["finished_tables"] == 2 and figures["errors"] == 0
    assert set(PROBE_FIGURES) <= set(figures)
    assert figures["probe_pings"] > 0
    assert 0 < figures["probe_ping_p50_ms"] <= figures["probe_ping_p99_ms"]
    assert isinstance(figures["probe_nice"], int)
    assert len(figures["load_average"]) == 3
    line = report_line(figures)
    assert line.startswith("prober ping p50 ") and "driver ping p50" in line
    assert "load average" in line


def test_without_a_prober_there_are_no_prober_figures() -> None:
    figures = {"ping_p50_ms": 3.0, "ping_p99_ms": 12.5, "probe_pings": None}
    assert "prober" not in report_line(figures)


def test_a_niced_driver_and_a_server_in_a_session_of_its_own() -> None:
    trace: dict[str, object] = {}
    nice = os.getpriority(os.PRIO_PROCESS, 0)
    plan = LoadPlan(tables=2, hands=1, seconds=60.0, think=0.0, process=True, probes=1)
    figures = run_load(dataclasses.replace(plan, driver_nice=5, ramp=0.2), trace=trace)
    assert figures["finished_tables"] == 2 and figures["errors"] == 0
    assert figures["driver_nice"] == 5 and figures["own_sessions"] is True
    # the driver's nice was its own thread's: the calling thread keeps its priority
    assert os.getpriority(os.PRIO_PROCESS, 0) == nice
    assert figures["server_gc_count"] >= 0
    assert isinstance(trace["pings"], list) and trace["server_pid"] != trace["driver_pid"]
    line = report_line(figures)
    assert "driver nice 5" in line and "sessions of their own" in line
    assert "sat down over 0.2 s" in line


def test_driver_nice_is_bounded_and_the_cli_passes_it() -> None:
    with pytest.raises(ValueError, match="driver_nice"):
        LoadPlan(driver_nice=20).check()
    with pytest.raises(ValueError, match="ramp"):
        LoadPlan(ramp=-1.0).check()
    argv = ["load", "--process", "--driver-nice", "10", "--same-session", "--ramp", "10"]
    args = build_parser().parse_args(argv)
    assert args.driver_nice == 10 and args.same_session is True and args.ramp == 10.0


def test_a_thinking_seat_still_reads_its_socket() -> None:
    """A pong that comes while a seat thinks is timed when it comes, not after the think."""
    import asyncio
    import json
    import random
    import time

    from paiju.server.load import _Seat

    class Sent:
        def __init__(self) -> None:
            self.frames: list[dict[str, object]] = []

        async def send(self, text: str) -> None:
            self.frames.append(json.loads(text))

    async def scenario() -> None:
        result = LoadResult(tables=1, finished_tables=0, actions=0, seconds=0.0)
        seat = _Seat(result, random.Random(0), think=60.0)
        ws = Sent()
        await seat.handle(ws, {"type": "update", "turn": 3, "legal": ["d1m"]})
        assert ws.frames == [] and result.actions == 0  # still thinking
        seat.ping_sent = time.perf_counter()
        await seat.handle(ws, {"type": "pong"})
        assert len(result.pings_ms) == 1 and seat.ping_sent is None
        # a later decision overtakes the one thought over, which then sends nothing
        seat.think = 0.0
        await seat.handle(ws, {"type": "update", "turn": 5, "legal": ["zimo", "d2m"]})
        assert ws.frames == [{"type": "act", "action": "zimo", "turn": 5}]
        for task in list(seat._acting):
            task.cancel()

    asyncio.run(scenario())
