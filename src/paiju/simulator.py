"""Self-play at scale: bot matches over an executor, with a summary and charts.

The runner only uses the :class:`concurrent.futures.Executor` interface (``submit`` and
futures), so a process pool, the in-process :class:`InlineExecutor`, or a cluster executor
with the same interface (Ray's, for one) can run the games. Each game is a match played
from its own seed (``seed + game``, the bots seeded from it as ``paiju simulate`` always
did), so the results do not depend on how many workers ran them or in which order they
finished: the summary is built in game order.

The summary holds: hands and matches played, the win rate by seat, self-drawn against
discard wins, exhaustive draws, the frequency of every scoring item (from the hands' win
results), the mean and spread of the points per seat per hand, and hands per second.
"""

from __future__ import annotations

import json
import math
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import IO, Any, TypeVar

from paiju.engine.events import Event

T = TypeVar("T")
R = TypeVar("R")


# -- executors -------------------------------------------------------------------------


class InlineExecutor(Executor):
    """Runs each task at once in this process (one worker, no pickling, easy debugging)."""

    def submit(self, fn: Callable[..., R], /, *args: Any, **kwargs: Any) -> Future[R]:
        future: Future[R] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as exc:
            future.set_exception(exc)
        return future


def make_executor(workers: int) -> Executor:
    """One worker: in process. More: a process pool of that size."""
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, not {workers}")
    if workers == 1:
        return InlineExecutor()
    return ProcessPoolExecutor(max_workers=workers)


class Progress:
    """A one-line progress bar on ``stream`` (stderr): done/total, rate and time left."""

    def __init__(
        self, total: int, label: str, unit: str = "games", stream: IO[str] | None = None
    ) -> None:
        self.total = total
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.start = time.perf_counter()
        self._last = -1.0
        self._tty = bool(getattr(self.stream, "isatty", lambda: False)())

    def update(self, n: int = 1) -> None:
        self.done += n
        now = time.perf_counter()
        # a terminal redraws often; a log file gets a line every few seconds
        gap = 0.1 if self._tty else 5.0
        if self.done < self.total and now - self._last < gap:
            return
        self._last = now
        elapsed = now - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else 0.0
        width = 30
        filled = width * self.done // max(1, self.total)
        bar = "#" * filled + "." * (width - filled)
        text = (
            f"{self.label} [{bar}] {self.done}/{self.total} {self.unit} "
            f"{rate:.2f}/s, {left:.0f}s left"
        )
        end = "\n" if self.done >= self.total or not self._tty else ""
        self.stream.write(("\r" if self._tty else "") + text + end)
        self.stream.flush()


def run_ordered(
    executor: Executor,
    fn: Callable[[T], R],
    tasks: Sequence[T],
    progress: Progress | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``fn`` over ``tasks`` on ``executor``; results in task order whatever finishes
    first. ``on_result(index, result)`` is called in task order as results become ready,
    so a caller can stream them (records) without holding back the pool."""
    from concurrent.futures import FIRST_COMPLETED, wait

    if isinstance(executor, InlineExecutor):
        # submitting runs the task at once: go one by one so progress shows as it happens
        done_in_order = []
        for i, task in enumerate(tasks):
            result = executor.submit(fn, task).result()
            done_in_order.append(result)
            if progress is not None:
                progress.update()
            if on_result is not None:
                on_result(i, result)
        return done_in_order
    futures = [executor.submit(fn, task) for task in tasks]
    results: list[R | None] = [None] * len(tasks)
    ready = [False] * len(tasks)
    emitted = 0
    pending = set(futures)
    index = {id(f): i for i, f in enumerate(futures)}
    try:
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for f in done:
                i = index[id(f)]
                results[i] = f.result()
                ready[i] = True
                if progress is not None:
                    progress.update()
            while emitted < len(tasks) and ready[emitted]:
                if on_result is not None:
                    on_result(emitted, results[emitted])  # type: ignore[arg-type]
                emitted += 1
    except BaseException:
        for f in pending:
            f.cancel()
        raise
    return results  # type: ignore[return-value]


# -- one game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """Everything a worker needs to play one match (plain data: it crosses processes)."""

    variant: str
    options: dict[str, Any]
    bots: tuple[str, ...]
    seed: int
    record: bool = False
    budget: float | None = None


@dataclass
class HandStats:
    dealer: int
    winners: list[int]
    self_drawn: bool
    exhausted: bool
    net: list[int]
    items: list[str] = field(default_factory=list)
    """Scoring item ids of every winner's hand (one entry per winner and item)."""


@dataclass
class GameResult:
    seed: int
    hands: list[HandStats]
    totals: list[int]
    seconds: float
    record: list[dict[str, Any]] | None = None


def game_players(task: GameTask, n_seats: int) -> list[Any]:
    """The task's bots, each seeded from the game's seed and its seat."""
    from paiju.bots.levels import make_player
    from paiju.engine.session import bot_seed

    return [
        make_player(name, bot_seed(task.seed, i, n_seats), task.variant, budget=task.budget)
        for i, name in enumerate(task.bots)
    ]


def hand_items(events: Iterable[Event]) -> list[str]:
    """The scoring item ids of a hand's wins, as its ``score`` events state them (one per
    scored seat, each listing its items), in the order they were scored."""
    out: list[str] = []
    for ev in events:
        if ev.type == "score" and isinstance(ev.data, dict):
            out.extend(str(item.get("id")) for item in ev.data.get("items", ()))
    return out


def play_game(task: GameTask) -> GameResult:
    """Play one match of ``task`` to its end (the worker's entry point)."""
    from paiju.engine.fairness import FairDeal, offline_server_seed
    from paiju.engine.session import Session
    from paiju.variants import find_variant

    flow = find_variant(task.variant)
    options = flow.parse_options(task.options)
    n_seats = flow.seats(options)
    players = game_players(task, n_seats)
    # the fair-deal scheme with a seed anyone can derive from the game's seed: bot-only
    # matches stay reproducible, and their records verify like a server's
    fair = FairDeal.create(offline_server_seed(task.seed), "simulate", [""] * n_seats)
    session = Session(flow, options, task.seed, list(task.bots), fair=fair, record=task.record)
    hands: list[HandStats] = []
    start = time.perf_counter()
    while not session.finished:
        dealt = session.start_hand()
        played = session.play_hand(players)
        summary = session.end_hand().hand_ended
        assert summary is not None
        hands.append(
            HandStats(
                dealer=summary.dealer,
                winners=list(summary.winners),
                self_drawn=summary.self_drawn,
                exhausted=summary.exhausted,
                net=list(summary.net),
                items=hand_items([*dealt.events, *played.events]),
            )
        )
    lines = session.lines if task.record else None
    return GameResult(task.seed, hands, session.match.totals(), time.perf_counter() - start, lines)


# -- the summary ---------------------------------------------------------------------------


def spread(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard deviation, min, max and the quartiles of ``values``."""
    if not values:
        return {
            "mean": 0.0,
            "sd": 0.0,
            "min": 0.0,
            "p25": 0.0,
            "median": 0.0,
            "p75": 0.0,
            "max": 0.0,
        }
    ordered = sorted(values)
    q = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else [ordered[0]] * 3
    return {
        "mean": round(statistics.fmean(ordered), 4),
        "sd": round(statistics.pstdev(ordered), 4),
        "min": ordered[0],
        "p25": q[0],
        "median": q[1],
        "p75": q[2],
        "max": ordered[-1],
    }


def summarize(
    variant: str, bots: Sequence[str], results: Sequence[GameResult], seconds: float
) -> dict[str, Any]:
    """The summary of a run (see the module's docstring); plain JSON data."""
    n_seats = len(bots)
    hands = [h for r in results for h in r.hands]
    n_hands = len(hands)
    wins_by_seat = [0] * n_seats
    self_drawn = discard = exhausted = 0
    items: Counter[str] = Counter()
    points: list[list[int]] = [[] for _ in range(n_seats)]
    for h in hands:
        for w in h.winners:
            wins_by_seat[w] += 1
        if h.exhausted:
            exhausted += 1
        elif h.winners:
            if h.self_drawn:
                self_drawn += 1
            else:
                discard += 1
        items.update(h.items)
        for s in range(n_seats):
            points[s].append(h.net[s])
    won = self_drawn + discard
    all_points = [p for seat in points for p in seat]
    return {
        "variant": variant,
        "bots": list(bots),
        "games": len(results),
        "hands": n_hands,
        "win_rate_by_seat": [round(w / n_hands, 4) if n_hands else 0.0 for w in wins_by_seat],
        "wins": {
            "self_drawn": self_drawn,
            "discard": discard,
            "self_drawn_share": round(self_drawn / won, 4) if won else 0.0,
            "exhaustive_draws": exhausted,
        },
        "items": {k: items[k] for k in sorted(items, key=lambda k: (-items[k], k))},
        "item_rate_per_won_hand": {
            k: round(items[k] / won, 4) for k in sorted(items, key=lambda k: (-items[k], k))
        }
        if won
        else {},
        "points_per_hand": spread(all_points),
        "points_per_hand_by_seat": [spread(p) for p in points],
        "match_totals_by_seat": [sum(r.totals[s] for r in results) for s in range(n_seats)],
        "seconds": round(seconds, 3),
        "hands_per_s": round(n_hands / seconds, 1) if seconds > 0 else None,
    }


# -- charts --------------------------------------------------------------------------------


def write_charts(summary: dict[str, Any], results: Sequence[GameResult], out_dir: str) -> list[str]:
    """PNG charts of the item frequencies and the points distribution into ``out_dir``.
    Returns the files written; raises ImportError when matplotlib is missing."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []
    items = summary["items"]
    fig, ax = plt.subplots(figsize=(8, max(3.0, 0.3 * len(items) + 1)))
    names = list(items)[::-1]
    ax.barh(names, [items[n] for n in names], color="#4c72b0")
    ax.set_xlabel("times scored (once per winning hand it appears in)")
    ax.set_title(f"{summary['variant']}: scoring items over {summary['hands']} hands")
    fig.tight_layout()
    path = os.path.join(out_dir, "items.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path)

    fig, ax = plt.subplots(figsize=(8, 4))
    values = [h.net[s] for r in results for h in r.hands for s in range(len(h.net))]
    if values:
        lo, hi = min(values), max(values)
        bins = max(1, min(60, hi - lo + 1))
        ax.hist(values, bins=bins, color="#55a868")
    ax.set_yscale("log")
    ax.set_xlabel("points per seat per hand")
    ax.set_ylabel("count")
    ax.set_title(f"{summary['variant']}: points distribution ({', '.join(summary['bots'])})")
    fig.tight_layout()
    path = os.path.join(out_dir, "points.png")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    written.append(path)
    return written


# -- the whole run ---------------------------------------------------------------------------


def simulate(
    variant: str,
    *,
    games: int,
    bots: Sequence[str],
    seed: int = 0,
    options: dict[str, Any] | None = None,
    workers: int = 1,
    executor: Executor | None = None,
    record: IO[str] | None = None,
    out_dir: str | None = None,
    budget: float | None = None,
    progress: bool = True,
    log: IO[str] | None = None,
) -> dict[str, Any]:
    """Play ``games`` matches and return the summary. With ``out_dir``: write
    ``summary.json``, ``records.jsonl`` and the charts there. ``record``: also stream the
    records to that file. ``executor`` overrides ``workers`` (any Executor)."""
    from paiju.engine.record import dump_lines

    if games < 0:
        raise ValueError(f"--games must not be negative, not {games}")
    log = log if log is not None else sys.stderr
    want_records = record is not None or out_dir is not None
    tasks = [
        GameTask(variant, dict(options or {}), tuple(bots), seed + g, want_records, budget)
        for g in range(games)
    ]
    rec_file: IO[str] | None = None
    if out_dir is not None:
        os.makedirs(out_dir, exist_ok=True)
        rec_file = open(os.path.join(out_dir, "records.jsonl"), "w", encoding="utf-8")  # noqa: SIM115

    def stream(_: int, result: GameResult) -> None:
        if result.record is not None:
            for sink in (record, rec_file):
                if sink is not None:
                    dump_lines(result.record, sink)
            result.record = None

    own = executor is None
    pool = executor if executor is not None else make_executor(workers)
    bar = Progress(games, f"simulate {variant}", stream=log) if progress and games else None
    start = time.perf_counter()
    try:
        results = run_ordered(pool, play_game, tasks, bar, stream)
    finally:
        if own:
            pool.shutdown(cancel_futures=True)
        if rec_file is not None:
            rec_file.close()
    elapsed = time.perf_counter() - start
    summary = summarize(variant, bots, results, elapsed)
    summary["seed"] = seed
    summary["workers"] = workers if own else None
    if out_dir is not None:
        try:
            summary["charts"] = [
                os.path.basename(p) for p in write_charts(summary, results, out_dir)
            ]
        except ImportError:
            summary["charts"] = []
            print(
                "paiju simulate: matplotlib is not installed (pip install 'paiju[charts]'): "
                "no charts written",
                file=log,
            )
        with open(os.path.join(out_dir, "summary.json"), "w", encoding="utf-8") as fh:
            json.dump(summary, fh, ensure_ascii=False, indent=2)
            fh.write("\n")
    return summary


def ci95_half_width(values: Sequence[float]) -> float:
    """Half the width of the 95% confidence interval of the mean of ``values`` (Student t)."""
    n = len(values)
    if n < 2:
        return math.inf
    return t975(n - 1) * statistics.stdev(values) / math.sqrt(n)


_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
"""The two-sided 95% quantile of Student's t for 1…30 degrees of freedom."""


def t975(df: int) -> float:
    """Student's t 97.5% quantile: the table up to 30 degrees of freedom, then the
    Cornish–Fisher expansion around the normal quantile (error below 1e-4 there)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959963984540054
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )
