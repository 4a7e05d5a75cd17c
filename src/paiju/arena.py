"""Duplicate evaluation: the same deals replayed with the bots rotated through the seats.

A *deal* is one hand from one seed (the wall, the dice, the dealer's seat). For each deal
the lineup is played once per rotation: in rotation ``r`` lineup slot ``i`` sits in seat
``(i + r) mod n``, so every bot plays every seat's tiles of every deal. The luck of the
deal cancels out of the comparison: what is left is how the bots played.

A bot's score on a deal is its mean net points per hand over the rotations (and over the
slots, when a name appears more than once). The report gives each bot's mean over the
deals with a 95% confidence interval (Student t over the per-deal scores, which are
independent), and for each pair of bots the mean per-deal difference with its own
interval (a paired comparison, tighter than the two intervals side by side): a pair is
*significant* when that interval excludes zero.

With a *control* bot (``--control greedy``) every rotation is also replayed with each
slot in turn replaced by the control, every seed unchanged. A bot's *advantage* is its
points minus the control's points in exactly its place (same deal, seat, opponents and
their seeds). Where the two make the same choices the games are identical and the
difference is exactly zero, so only the decisions where they differ add noise: a much
tighter interval than comparing means across seats, for the price of one more game per
rotation and slot that differs from the control.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import IO, Any

from paiju.simulator import Progress, ci95_half_width, make_executor, run_ordered


@dataclass(frozen=True)
class DealTask:
    """One deal to replay in every rotation (plain data: it crosses processes)."""

    variant: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    deal_seed: int
    dealer: int = 0
    budget: float | None = None
    control: str | None = None
    search: str | None = None


def deal_seeds(seed: int, deals: int) -> list[int]:
    """The hand seeds of an arena run: a stream of 48-bit seeds from ``seed``."""
    rng = random.Random(seed)
    return [rng.getrandbits(48) for _ in range(deals)]


def bot_seed(deal_seed: int, rotation: int, slot: int) -> int:
    """Each bot's own seed in one rotation of one deal (distinct, reproducible)."""
    return (deal_seed * 131 + rotation * 17 + slot) % (1 << 62)


def _play_rotation(
    task: DealTask, names: Sequence[str], rotation: int, options: Any, flow: Any
) -> list[int]:
    from paiju.bots.levels import make_player
    from paiju.engine.match import play_hand

    n = len(names)
    players: list[Any] = [None] * n
    for i, name in enumerate(names):
        players[(i + rotation) % n] = make_player(
            name,
            bot_seed(task.deal_seed, rotation, i),
            task.variant,
            budget=task.budget,
            search=task.search,
        )
    hand = flow.new_hand(options, seed=task.deal_seed, dealer=task.dealer, carry={})
    play_hand(hand, players)
    net = hand.net()
    return [net[(i + rotation) % n] for i in range(n)]


def play_deal(task: DealTask) -> tuple[list[list[int]], list[list[int]]]:
    """Play ``task``'s deal once per rotation: ``points[r][i]`` is slot ``i``'s net
    points in rotation ``r``. With a control bot, also ``control[r][i]``: the same
    rotation with slot ``i`` alone replaced by the control (every other slot, and every
    seed, as in the real game), listed per slot ``i`` as ``control[i][r]``."""
    from paiju.variants.base import options_from_mapping
    from paiju.variants.registry import flows

    flow = flows()[task.variant]
    options = options_from_mapping(flow.options_type, task.options)
    n = len(task.bots)
    points = [_play_rotation(task, task.bots, r, options, flow) for r in range(n)]
    control: list[list[int]] = []
    if task.control is not None:
        cache: dict[tuple[str, ...], list[list[int]]] = {}
        for i in range(n):
            names = list(task.bots)
            names[i] = task.control
            key = tuple(names)
            if key not in cache:
                cache[key] = (
                    points
                    if key == task.bots
                    else [_play_rotation(task, names, r, options, flow) for r in range(n)]
                )
            control.append([cache[key][r][i] for r in range(n)])
    return points, control


def _interval(values: Sequence[float]) -> dict[str, Any]:
    mean = statistics.fmean(values) if values else 0.0
    half = ci95_half_width(values)
    finite = half != float("inf")
    return {
        "mean": round(mean, 4),
        "ci95": [round(mean - half, 4), round(mean + half, 4)] if finite else None,
        "sd": round(statistics.stdev(values), 4) if len(values) > 1 else None,
    }


def _significance(row: dict[str, Any], above: str, below: str | None) -> None:
    ci = row["ci95"]
    row["significant"] = ci is not None and (ci[0] > 0 or ci[1] < 0)
    row["better"] = (above if row["mean"] > 0 else below) if row["significant"] else None


def summarize(
    bots: Sequence[str],
    points: Sequence[Sequence[Sequence[int]]],
    control: Sequence[Sequence[Sequence[int]]] | None = None,
    control_name: str | None = None,
) -> dict[str, Any]:
    """Per-bot means with intervals and the paired comparisons, from ``points[d][r][i]``;
    with ``control[d][i][r]`` (see :func:`play_deal`) also each bot's advantage over the
    control bot in its place."""
    names = list(dict.fromkeys(bots))
    slots = {name: [i for i, b in enumerate(bots) if b == name] for name in names}
    per_deal: dict[str, list[float]] = {name: [] for name in names}
    for deal in points:
        for name in names:
            values = [rot[i] for rot in deal for i in slots[name]]
            per_deal[name].append(sum(values) / len(values))
    table = []
    for name in names:
        row: dict[str, Any] = {"bot": name, "seats": len(slots[name])}
        row.update(_interval(per_deal[name]))
        if control:
            gains = []
            for deal, ctrl in zip(points, control, strict=True):
                diffs = [deal[r][i] - ctrl[i][r] for i in slots[name] for r in range(len(deal))]
                gains.append(sum(diffs) / len(diffs))
            adv: dict[str, Any] = _interval(gains)
            _significance(adv, name, control_name)
            row["advantage"] = adv
        table.append(row)
    pairs = []
    for a_i, a in enumerate(names):
        for b in names[a_i + 1 :]:
            deltas = [x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)]
            pair: dict[str, Any] = {"a": a, "b": b, **_interval(deltas)}
            _significance(pair, a, b)
            pairs.append(pair)
    out: dict[str, Any] = {"bots": table, "pairs": pairs}
    if control_name is not None:
        out["control"] = control_name
    return out


def arena(
    variant: str,
    bots: Sequence[str],
    *,
    deals: int,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    executor: Executor | None = None,
    budget: float | None = None,
    control: str | None = None,
    search: str | None = None,
    progress: bool = True,
    log: IO[str] | None = None,
) -> dict[str, Any]:
    """Run the duplicate evaluation and return its report (plain JSON data). ``control``:
    also replay every rotation with each slot in turn replaced by this bot, for each
    bot's advantage over it (see :func:`summarize`)."""
    from paiju.variants.registry import flows

    flow = flows().get(variant)
    if flow is None:
        raise ValueError(f"unknown variant {variant!r} (known: {', '.join(flows())})")
    from paiju.variants.base import options_from_mapping

    parsed = options_from_mapping(flow.options_type, options or {})
    # Qing'er's table size follows its options (participants)
    n_seats = flow.seats(parsed) if hasattr(flow, "seats") else flow.n_seats
    if len(bots) != n_seats:
        raise ValueError(f"{variant} needs {n_seats} bots, got {len(bots)}")
    if deals < 2:
        raise ValueError(f"--deals must be at least 2 for an interval, not {deals}")
    seeds = deal_seeds(seed, deals)
    if search is not None:
        from paiju.bots.strong import SEARCHES

        if search not in SEARCHES:
            raise ValueError(f"unknown search {search!r} (known: {', '.join(SEARCHES)})")
    tasks = [
        DealTask(variant, dict(options or {}), tuple(bots), s, 0, budget, control, search)
        for s in seeds
    ]
    own = executor is None
    pool = executor if executor is not None else make_executor(workers)
    bar = (
        Progress(deals, f"arena {variant}", unit="deals", stream=log or sys.stderr)
        if progress
        else None
    )
    start = time.perf_counter()
    try:
        played = run_ordered(pool, play_deal, tasks, bar)
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
    elapsed = time.perf_counter() - start
    report = {
        "variant": variant,
        "lineup": list(bots),
        "deals": deals,
        "hands": deals * len(bots),
        "seed": seed,
        "budget": budget,
        "search": search,
        "seconds": round(elapsed, 3),
    }
    points = [p for p, _ in played]
    controls = [c for _, c in played] if control is not None else None
    report.update(summarize(bots, points, controls, control))
    return report


def format_table(report: dict[str, Any]) -> str:
    """The report as a readable table (points per hand, 95% confidence intervals)."""
    lines = [
        f"{report['variant']}: {report['deals']} deals x {len(report['lineup'])} rotations "
        f"= {report['hands']} hands, lineup {','.join(report['lineup'])}, seed {report['seed']}",
        f"{'bot':<10} {'seats':>5} {'mean/hand':>10}   95% CI",
    ]
    for row in report["bots"]:
        ci = row["ci95"]
        ci_text = f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "n/a"
        lines.append(f"{row['bot']:<10} {row['seats']:>5} {row['mean']:>+10.3f}   {ci_text}")
    for row in report["bots"]:
        adv = row.get("advantage")
        if adv is not None and row["bot"] != report.get("control"):
            ci = adv["ci95"]
            ci_text = f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "n/a"
            verdict = f"{adv['better']} better (95%)" if adv["significant"] else "not significant"
            lines.append(
                f"{row['bot']} in place of {report['control']}: {adv['mean']:+.3f} per hand "
                f"{ci_text}  {verdict}"
            )
    for row in report["pairs"]:
        ci = row["ci95"]
        ci_text = f"[{ci[0]:+.3f}, {ci[1]:+.3f}]" if ci else "n/a"
        verdict = f"{row['better']} better (95%)" if row["significant"] else "not significant"
        lines.append(f"{row['a']} - {row['b']}: {row['mean']:+.3f} {ci_text}  {verdict}")
    return "\n".join(lines)
