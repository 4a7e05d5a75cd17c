"""``paiju serve`` refuses a half-configured node or bad settings with a clear message, and
``paiju load --urls`` checks its plan, before anything starts (no services needed)."""

from __future__ import annotations

import pytest

from paiju.cli import main
from paiju.server.cluster.load import ClusterPlan
from paiju.server.cluster.node import ClusterSettings

PG = "postgresql://paiju@127.0.0.1:1/paiju"


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--node", "a", "--database", PG], "--redis"),
        (["--redis", "redis://127.0.0.1:1/0", "--database", PG], "--node"),
        (["--node", "a", "--redis", "redis://127.0.0.1:1/0"], "PostgreSQL"),
        (["--node", "a b", "--redis", "redis://127.0.0.1:1/0", "--database", PG], "node name"),
        (["--node", "a", "--redis", "http://x", "--database", PG], "redis://"),
        (["--settings", "{nope"], "not JSON"),
        (["--settings", '{"bot_dely": 1}'], "unknown setting 'bot_dely'"),
        (["--settings", '{"bot_delay": -1}'], "non-negative"),
        (["--settings", '{"trusted_proxies": 1}'], "its own option"),
    ],
)
def test_serve_refuses_bad_cluster_arguments(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "1", *args]) == 2
    assert says in capsys.readouterr().err


def test_settings_and_plans_are_checked() -> None:
    with pytest.raises(ValueError, match="tick"):
        ClusterSettings("a", "redis://127.0.0.1:1/0", lease_ttl=0.2, tick=0.5).check()
    ClusterSettings("node-1.eu", "rediss://h:6380/0").check()
    with pytest.raises(ValueError, match="ws://"):
        ClusterPlan(urls=["http://127.0.0.1:1/ws"]).check()
    with pytest.raises(ValueError, match="placement"):
        ClusterPlan(urls=["ws://127.0.0.1:1/ws"], placement="room").check()
    with pytest.raises(ValueError, match="at least one"):
        ClusterPlan(urls=[]).check()


def test_load_options_that_need_a_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["load", "--kill-pid", "12345"]) == 2
    assert "--urls" in capsys.readouterr().err
    assert main(["load", "--urls", "http://nowhere", "--tables", "1"]) == 2
    assert "ws://" in capsys.readouterr().err


def test_told_decisions_must_appear_in_order_in_the_log() -> None:
    from paiju.server.cluster.load import _unmatched

    # the server's own answers for the seat (a timeout's pass) may sit in between
    assert _unmatched(["d1m", "pong", "d5p"], ["d1m", "pass", "pong", "d5p"]) == []
    assert _unmatched(["d1m", "pong"], ["d1m"]) == [1]
    assert _unmatched(["pong", "d1m"], ["d1m", "pong"]) == [1], "order counts"
