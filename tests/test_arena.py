"""``paiju arena``: rotations, the report's shape and the interval arithmetic."""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import pytest

from paiju.arena import DealTask, arena, deal_seeds, format_table, play_deal, summarize
from paiju.cli import main
from paiju.simulator import InlineExecutor, ci95_half_width, t975


def test_t_quantiles() -> None:
    assert t975(1) == pytest.approx(12.706)
    assert t975(30) == pytest.approx(2.042)
    # past the table: the expansion continues it smoothly towards the normal quantile
    assert t975(31) == pytest.approx(2.0395, abs=2e-4)
    assert t975(60) == pytest.approx(2.0003, abs=2e-4)
    assert t975(120) == pytest.approx(1.9799, abs=2e-4)
    assert t975(10**6) == pytest.approx(1.95997, abs=1e-4)
    assert ci95_half_width([1.0]) == math.inf
    with pytest.raises(ValueError):
        t975(0)


def test_summary_arithmetic() -> None:
    bots = ["a", "b", "b"]
    # points[deal][rotation][slot]
    points = [
        [[6, -3, -3], [3, 0, -3], [0, 0, 0]],
        [[-3, 3, 0], [0, 0, 0], [3, -3, 0]],
        [[9, -6, -3], [6, -3, -3], [3, -3, 0]],
    ]
    report = summarize(bots, points)
    a_deals = [3.0, 0.0, 6.0]
    b_deals = [-1.5, 0.0, -3.0]
    row_a, row_b = report["bots"]
    assert row_a["bot"] == "a" and row_a["seats"] == 1 and row_b["seats"] == 2
    assert row_a["mean"] == pytest.approx(3.0)
    half = 4.303 * statistics.stdev(a_deals) / math.sqrt(3)
    assert row_a["ci95"] == pytest.approx([3.0 - half, 3.0 + half], abs=1e-3)
    assert row_b["mean"] == pytest.approx(statistics.fmean(b_deals))
    (pair,) = report["pairs"]
    diffs = [x - y for x, y in zip(a_deals, b_deals, strict=True)]
    half = 4.303 * statistics.stdev(diffs) / math.sqrt(3)
    assert pair["mean"] == pytest.approx(statistics.fmean(diffs))
    assert pair["ci95"] == pytest.approx([pair["mean"] - half, pair["mean"] + half], abs=1e-3)
    assert pair["significant"] == (pair["ci95"][0] > 0) and pair["better"] in ("a", None)


def test_every_slot_plays_every_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    from paiju.bots import levels

    real = levels.make_player
    made: list[int] = []
    sat: list[set[tuple[int, int]]] = [set() for _ in range(4)]

    def spy(name: str, seed: int = 0, variant: str = "jiaxing", **kw: object) -> object:
        bot = real(name, seed, variant)
        rotation, slot = divmod(len(made), 4)
        made.append(slot)

        def decide(hand: object, seat: int) -> int:
            if rotation < 4:  # the replay below makes more players
                sat[rotation].add((slot, seat))
            return bot(hand, seat)

        return decide

    monkeypatch.setattr(levels, "make_player", spy)
    task = DealTask("jiaxing", {}, ("greedy", "random", "random", "random"), 12345)
    points, control = play_deal(task)
    assert control == []
    assert len(points) == 4 and all(len(r) == 4 and sum(r) == 0 for r in points)
    # rotation r puts slot i in seat (i + r) mod 4
    for r, seen in enumerate(sat):
        assert seen <= {(i, (i + r) % 4) for i in range(4)}
        assert (0, r) in seen
    # the same deal with the same bots plays out the same way
    assert play_deal(task)[0] == points


def test_control_replays_each_slot_replaced() -> None:
    task = DealTask("jiaxing", {}, ("greedy", "random", "random", "random"), 777, control="random")
    points, control = play_deal(task)
    assert len(control) == 4 and all(len(c) == 4 for c in control)
    # a random slot replaced by random: the very game that was played
    for i in (1, 2, 3):
        assert control[i] == [points[r][i] for r in range(4)]
    # the greedy slot replaced: an all-random game with the same seeds, whatever greedy did
    all_random = DealTask("jiaxing", {}, ("random",) * 4, 777)
    assert control[0] == [rot[0] for rot in play_deal(all_random)[0]]
    report = summarize(task.bots, [points], [control], "random")
    assert report["control"] == "random"
    random_row = report["bots"][1]
    assert random_row["advantage"]["mean"] == 0


def test_advantage_arithmetic() -> None:
    points = [[[4, -4], [2, -2]], [[0, 0], [6, -6]], [[-2, 2], [2, -2]]]
    control = [[[1, 1], [0, 0]], [[0, 0], [0, 0]], [[1, -1], [0, 0]]]
    report = summarize(["a", "b"], points, control, "b")
    gains = [(4 - 1 + 2 - 1) / 2, (0 + 6) / 2, (-2 - 1 + 2 + 1) / 2]
    adv = report["bots"][0]["advantage"]
    assert adv["mean"] == pytest.approx(statistics.fmean(gains), abs=1e-4)
    half = 4.303 * statistics.stdev(gains) / math.sqrt(3)
    assert adv["ci95"] == pytest.approx([adv["mean"] - half, adv["mean"] + half], abs=1e-3)
    assert adv["significant"] == (adv["ci95"][0] > 0)
    assert "a in place of b" in format_table(
        {"variant": "x", "deals": 3, "lineup": ["a", "b"], "hands": 6, "seed": 0, **report}
    )


def test_arena_report_shape() -> None:
    report = arena(
        "jiaxing",
        ["greedy", "random", "random", "random"],
        deals=4,
        seed=2,
        executor=InlineExecutor(),
        progress=False,
    )
    assert report["deals"] == 4 and report["hands"] == 16
    assert [r["bot"] for r in report["bots"]] == ["greedy", "random"]
    for row in report["bots"]:
        assert set(row) == {"bot", "seats", "mean", "ci95", "sd"}
        low, high = row["ci95"]
        assert low <= row["mean"] <= high
    assert {"a", "b", "mean", "ci95", "sd", "significant", "better"} == set(report["pairs"][0])
    # zero sum: the seats' means, weighted by how many seats each bot holds, cancel out
    total = sum(r["mean"] * r["seats"] for r in report["bots"])
    assert total == pytest.approx(0, abs=1e-3)
    assert "greedy - random" in format_table(report)
    assert deal_seeds(2, 4) == deal_seeds(2, 4) != deal_seeds(3, 4)


def test_arena_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "arena.json"
    args = ["arena", "jiaxing", "--bots", "random", "--deals", "3", "--quiet"]
    assert main([*args, "--json", str(out)]) == 0
    assert "random" in capsys.readouterr().out
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["lineup"] == ["random"] * 4 and report["hands"] == 12
    assert main([*args, "--json", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 3


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--bots", "random,random"], "--bots"),
        (["--bots", "nobody"], "nobody"),
        (["--deals", "1"], "--deals"),
        (["--options", '{"nope": 1}'], "nope"),
        (["--budget", "0"], "--budget"),
        (["--control", "nobody"], "nobody"),
    ],
)
def test_arena_cli_errors(
    extra: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", "jiaxing", "--quiet", *extra]) == 2
    assert message in capsys.readouterr().err
    assert main(["arena", "nowhere"]) == 2
