"""Player statistics over records (paiju.stats, paiju stats)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from paiju.bots import make_player
from paiju.cli import main
from paiju.engine.match import Decide, Match
from paiju.engine.record import dump_lines, record_match
from paiju.stats import record_stats
from paiju.variants.registry import flows


def record(variant: str, players: Sequence[Decide], seed: int, **options: Any) -> list[Any]:
    flow = flows()[variant]
    match = Match(flow, flow.options_type(**options), seed, n_seats=len(players))
    return record_match(match, list(players), [getattr(p, "name", "custom") for p in players])


def greedy(variant: str, seats: range) -> list[Decide]:
    return [make_player("greedy", 100 + s, variant) for s in seats]


def test_player_statistics(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    variant = "jiaxing"
    matches = [record(variant, greedy(variant, range(4)), seed, hands=3) for seed in (1, 2)]
    stats = {p.name: p for p in record_stats(matches)}
    (p,) = stats.values()  # every seat is called "greedy": one player
    ends = [x for m in matches for x in m if x.get("type") == "hand_end"]
    assert p.hands == 4 * len(ends) and p.matches == 2
    assert p.wins == sum(len(e["winners"]) for e in ends)
    assert p.points == 0  # the four seats' points cancel
    wins = [x for m in matches for x in m if x.get("type") == "win"]
    assert p.self_drawn == sum(len(w["winners"]) for w in wins if w["how"] == "self_draw")
    assert p.deal_ins == sum(1 for w in wins if w["how"] != "self_draw")
    assert sum(p.match_points) == 0 and len(p.match_points) == 2
    named = record(
        variant, [make_player("random", 0, variant), *greedy(variant, range(1, 4))], 3, hands=1
    )
    by_name = {s.name: s for s in record_stats([named], agreement=True)}
    assert set(by_name) == {"random", "greedy"}
    assert by_name["random"].hands == by_name["greedy"].hands // 3
    rnd, grd = by_name["random"].agreement, by_name["greedy"].agreement
    assert rnd is not None and grd is not None and rnd < grd
    path = tmp_path / "m.jsonl"
    with path.open("w", encoding="utf-8") as fh:
        dump_lines(named, fh)
    assert main(["stats", str(path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {d["name"] for d in doc} == {"random", "greedy"}
    assert all(0 <= d["win_rate"] <= 1 and 0 <= d["deal_in_rate"] <= 1 for d in doc)
    assert main(["stats", str(path), "--lang", "en"]) == 0
    assert "win rate" in capsys.readouterr().out
    assert main(["stats", str(tmp_path / "none.jsonl")]) == 2
