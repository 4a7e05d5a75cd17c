"""Strong bots think in worker processes (issue 13 item 5): off the server's interpreter,
each table's bots kept in one worker so that they play exactly as they would in a thread,
and a worker that dies is replaced while its tables play on."""

from __future__ import annotations

import json
import os
import signal
from typing import Any

from fastapi.testclient import TestClient

from paiju.bots import make_bot
from paiju.engine.record import replay
from paiju.engine.session import bot_seed
from paiju.variants import find_variant

STRONG = [{"kind": "bot", "level": "strong"}] * 4


def _watch_a_strong_table(app: Any, player_factory: Any, hands: int = 1) -> list[Any]:
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.send(
            {
                "type": "create_room",
                "variant": "jiaxing",
                "options": {"hands": hands},
                "seats": STRONG,
            }
        )
        end = p.until("match_end")
        pids = app.state.manager.bots.worker_pids()
        policies = [os.sched_getscheduler(pid) for pid in pids]
        text = client.get(f"/api/games/{end['game_id']}/record").text
    return [pids, [json.loads(line) for line in text.splitlines()], policies]


def test_strong_bots_decide_in_worker_processes_and_play_as_in_threads(
    make_app: Any, player_factory: Any
) -> None:
    # two hands: one hand won at the third turn would leave too few decisions to compare
    pids, lines, policies = _watch_a_strong_table(make_app(), player_factory, hands=2)
    assert pids and os.getpid() not in pids
    # in the idle scheduling class: the server's loop preempts them whenever it wakes
    assert policies == [os.SCHED_IDLE] * len(pids)
    # the same bots, made here from the same seeds and asked the same questions in the
    # same order, choose every recorded decision: each kept its state between decisions
    seed = lines[0]["seed"]
    bots = [make_bot("strong", bot_seed(seed, seat, 4), "jiaxing") for seat in range(4)]
    chosen: list[tuple[int, int, int]] = []

    def check(hand: Any, seat: int, code: int) -> None:
        chosen.append((seat, code, bots[seat](hand.copy(), seat)))

    assert replay(lines, find_variant, check).ok
    assert len(chosen) > 20
    assert [(s, c) for s, c, _ in chosen] == [(s, b) for s, _, b in chosen]


def test_without_worker_processes_strong_bots_think_in_threads(
    make_app: Any, player_factory: Any
) -> None:
    pids, lines, _ = _watch_a_strong_table(make_app(bot_processes=0), player_factory)
    assert pids == []
    assert replay(lines, find_variant).ok


def test_a_killed_bot_worker_is_replaced_and_the_table_plays_on(
    make_app: Any, player_factory: Any
) -> None:
    app = make_app()
    with TestClient(app) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        p.send(
            {"type": "create_room", "variant": "jiaxing", "options": {"hands": 2}, "seats": STRONG}
        )
        pool = app.state.manager.bots
        while not pool.worker_pids():
            p.until("update")
        for pid in pool.worker_pids():
            os.kill(pid, signal.SIGKILL)
        end = p.until("match_end")
        assert pool.restarts >= 1
        assert pool.worker_pids()  # a new worker took over
        bots = client.get("/api/health").json()["bots"]
        assert bots["worker_restarts"] == pool.restarts and bots["worker_processes"] >= 1
        assert f"paiju_bot_worker_restarts_total {pool.restarts}" in client.get("/metrics").text
        text = client.get(f"/api/games/{end['game_id']}/record").text
    lines = [json.loads(line) for line in text.splitlines()]
    assert replay(lines, find_variant).ok


_SERVER_THAT_DIES = """
import asyncio, os, signal, sys
from paiju.server.botpool import BotPool
from paiju.engine.session import Session
from paiju.variants import find_variant

async def main():
    pool = BotPool(processes=1)
    flow = find_variant("jiaxing")
    session = Session(flow, flow.default_options(), 1, ["a"] * 4)
    session.start_hand()
    seat = session.to_act()[0]
    bot = pool.make("g:0", "strong", 1, "jiaxing")
    await pool.decide(bot, session.hand.copy(), seat)
    print(pool.worker_pids()[0], flush=True)
    os.kill(os.getpid(), signal.SIGKILL)

asyncio.run(main())
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


def test_bot_workers_leave_when_their_server_is_killed() -> None:
    import subprocess
    import sys
    import time

    run = subprocess.run(
        [sys.executable, "-c", _SERVER_THAT_DIES],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert run.returncode == -signal.SIGKILL, run.stderr
    worker = int(run.stdout.split()[0])
    deadline = time.monotonic() + 60  # a liveness bound, not a timing claim
    while _alive(worker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(worker)


def test_learned_bots_play_a_table_where_their_game_offers_them(
    make_app: Any, player_factory: Any
) -> None:
    """``learned`` (numpy, milliseconds a move) thinks in threads at a game whose weights
    ship (its Variant's server levels), and is refused at one without weights."""
    offered = [
        v
        for v in ("jiaxing", "taixing", "qinger")
        if "learned" in find_variant(v).server_bot_levels
    ]
    with TestClient(make_app()) as client, client.websocket_connect("/ws") as ws:
        p = player_factory(ws)
        p.recv()
        for variant in ("jiaxing", "taixing", "qinger"):
            n = 3 if variant == "qinger" else 4
            p.send(
                {
                    "type": "create_room",
                    "variant": variant,
                    "options": {"hands": 1},
                    "seats": [{"kind": "bot", "level": "learned"}] * n,
                }
            )
            if variant not in offered:
                assert p.until("error")["code"] == "bad_bot"
                continue
            end = p.until("match_end")
            text = client.get(f"/api/games/{end['game_id']}/record").text
            lines = [json.loads(line) for line in text.splitlines()]
            seed = lines[0]["seed"]
            bots = [make_bot("learned", bot_seed(seed, s, n), variant) for s in range(n)]
            chosen: list[tuple[int, int]] = []

            def check(
                hand: Any, seat: int, code: int, bots: list[Any] = bots, chosen: Any = chosen
            ) -> None:
                chosen.append((code, bots[seat](hand.copy(), seat)))

            assert replay(lines, find_variant, check).ok
            assert len(chosen) > 20 and all(a == b for a, b in chosen)
