"""``paiju bench``: throughput of our code against named peers, one JSON line per benchmark.

Each line is ``{"name", "ours_per_s", "peer", "peer_per_s", "ratio"}`` with
``ratio = ours_per_s / peer_per_s``. Both sides run in this process on the same prepared
inputs; each side gets its native input format (ours: ``bytes`` of 34 counts; ``mahjong``:
a list of 34 counts; ``riichienv``: a list of 136-format tile ids), converted before any
timing starts. A rate is the median of ``repeats`` timed passes over all inputs, the two
sides' passes interleaved so that drift of the machine hits both alike.

Warm-up and fairness: our analyser fills its per-group tables on the first sight of a group
vector (only the decomposable mahjong group vectors are generated at import), so one
untimed pass over the inputs runs on *both* sides before any timing. After it, our tables
hold the group vectors of these inputs; no whole-hand answer is ever cached, so every timed
call still cuts the hand into groups, looks each group up and combines the group answers.

Peers are optional: if ``mahjong`` or ``riichienv`` is not installed, the line is printed
with ``"peer": null`` (and null rate and ratio) and the reason goes to stderr.

Adding a benchmark (other parts of paiju: self-play, bots…)::

    from paiju.bench import register, result_line, rate

    @register("selfplay_jiaxing")
    def _selfplay(repeats: int, quick: bool) -> dict[str, object]:
        games = 2 if quick else 50
        ours = rate(lambda seed: play_one(seed), list(range(games)), repeats)
        return result_line("selfplay_jiaxing", ours, None, None)

and list the defining module in :data:`EXTRA_MODULES` so that ``paiju bench`` imports it
(a module that does not exist yet is skipped). ``result_line(name, rate, None, None)``
is a line without a peer (``"peer": null``); :func:`compare` times ours against a peer.
"""

from __future__ import annotations

import importlib
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, overload

from paiju.components.analysis import MAHJONG

BenchFn = Callable[[int, bool], dict[str, object]]
"""A benchmark: ``fn(repeats, quick)`` returns one result line (see :func:`result_line`)."""

REGISTRY: dict[str, BenchFn] = {}
"""Benchmarks by name, in the order they print."""

EXTRA_MODULES: list[str] = [
    "paiju.bench.selfplay",
    "paiju.bench.bots",
    "paiju.bench.wild",
    "paiju.server.load",
    "paiju.bench.rl",
]
"""Modules outside this one that register benchmarks; imported by :func:`main`."""

SEED = 20261129
_N_HANDS = 20_000
_N_HANDS_QUICK = 300


@overload
def register(name: str) -> Callable[[BenchFn], BenchFn]: ...
@overload
def register(name: str, fn: BenchFn) -> BenchFn: ...
def register(name: str, fn: BenchFn | None = None) -> BenchFn | Callable[[BenchFn], BenchFn]:
    """Register ``fn`` under ``name``; without ``fn``, a decorator doing the same."""

    def add(func: BenchFn) -> BenchFn:
        if name in REGISTRY:
            raise ValueError(f"benchmark {name!r} is already registered")
        REGISTRY[name] = func
        return func

    if fn is None:
        return add
    return add(fn)


def result_line(
    name: str, ours_per_s: float, peer: str | None, peer_per_s: float | None
) -> dict[str, object]:
    """The JSON object of one benchmark line (rates rounded; ratio only with a peer rate)."""
    ratio = ours_per_s / peer_per_s if peer_per_s else None
    return {
        "name": name,
        "ours_per_s": round(ours_per_s, 1),
        "peer": peer,
        "peer_per_s": None if peer_per_s is None else round(peer_per_s, 1),
        "ratio": None if ratio is None else round(ratio, 3),
    }


def _one_pass(fn: Callable[[Any], object], inputs: Sequence[Any]) -> float:
    start = time.perf_counter()
    for item in inputs:
        fn(item)
    return time.perf_counter() - start


def rate(fn: Callable[[Any], object], inputs: Sequence[Any], repeats: int) -> float:
    """Calls per second of ``fn`` over ``inputs``: one warm-up pass, median of ``repeats``."""
    _one_pass(fn, inputs)
    times = [_one_pass(fn, inputs) for _ in range(max(1, repeats))]
    return len(inputs) / max(statistics.median(times), 1e-9)


def compare(
    name: str,
    *,
    ours: Callable[[Any], object],
    our_inputs: Sequence[Any],
    peer: str,
    theirs: Callable[[Any], object],
    their_inputs: Sequence[Any],
    repeats: int,
) -> dict[str, object]:
    """Time ``ours`` and ``theirs`` on the same hands in their own formats, interleaved."""
    if len(our_inputs) != len(their_inputs):
        raise ValueError("both sides must get the same inputs")
    _one_pass(ours, our_inputs)
    _one_pass(theirs, their_inputs)
    our_times: list[float] = []
    their_times: list[float] = []
    for _ in range(max(1, repeats)):
        our_times.append(_one_pass(ours, our_inputs))
        their_times.append(_one_pass(theirs, their_inputs))
    n = len(our_inputs)
    return result_line(
        name,
        n / max(statistics.median(our_times), 1e-9),
        peer,
        n / max(statistics.median(their_times), 1e-9),
    )


def _no_peer(
    name: str,
    *,
    peer: str,
    reason: str,
    ours: Callable[[Any], object],
    inputs: Sequence[Any],
    repeats: int,
) -> dict[str, object]:
    print(f"paiju bench: {name}: peer {peer} unavailable ({reason}); ours only", file=sys.stderr)
    return result_line(name, rate(ours, inputs, repeats), None, None)


# -- inputs --------------------------------------------------------------------------


def random_complete(rng: random.Random, run_share: float = 0.6) -> list[int]:
    """A complete 14-tile count vector: four random sets (a run with probability
    ``run_share``, else a triplet) and a pair, never more than four of a kind."""
    while True:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < run_share:
                start = rng.randrange(3) * 9 + rng.randrange(7)
                for k in range(start, start + 3):
                    counts[k] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            return counts


class Hands:
    """Seeded mahjong hands as 34-count lists (each kind at most four times)."""

    def __init__(self, seed: int = SEED) -> None:
        self.rng = random.Random(seed)

    def complete(self) -> list[int]:
        """Four random sets (runs or triplets) and a pair."""
        return random_complete(self.rng)

    def random(self, n_tiles: int) -> list[int]:
        """``n_tiles`` drawn from a shuffled 136-tile wall."""
        counts = [0] * 34
        for tile in self.rng.sample(range(136), n_tiles):
            counts[tile // 4] += 1
        return counts

    def ready(self) -> list[int]:
        """A complete hand less one tile: waits on at least that kind."""
        counts = self.complete()
        held = [k for k in range(34) for _ in range(counts[k])]
        counts[self.rng.choice(held)] -= 1
        return counts

    def perturbed(self, swaps: int) -> list[int]:
        """A complete hand with ``swaps`` tiles replaced by random others (shanten ≥ −1)."""
        counts = self.complete()
        for _ in range(swaps):
            held = [k for k in range(34) for _ in range(counts[k])]
            counts[self.rng.choice(held)] -= 1
            counts[self.rng.choice([k for k in range(34) if counts[k] < 4])] += 1
        return counts


def to_136(counts: Sequence[int]) -> list[int]:
    """Tile ids in riichienv's 136 format (kind × 4 + copy) for a 34-count vector."""
    return [kind * 4 + copy for kind, n in enumerate(counts) for copy in range(n)]


def _size(quick: bool) -> int:
    return _N_HANDS_QUICK if quick else _N_HANDS


def _mahjong() -> tuple[Any, Any] | str:
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError as exc:
        return f"import mahjong failed: {exc}; pip install '.[bench]'"
    return Agari, Shanten


def _riichienv() -> Any | str:
    try:
        return importlib.import_module("riichienv")
    except ImportError as exc:
        return f"import riichienv failed: {exc}; pip install '.[bench]'"


def _win_inputs(kind: str, quick: bool) -> list[list[int]]:
    hands = Hands()
    if kind == "winning":
        return [hands.complete() for _ in range(_size(quick))]
    return [hands.random(14) for _ in range(_size(quick))]


def _ready_inputs(quick: bool) -> list[list[int]]:
    hands = Hands()
    return [hands.ready() for _ in range(max(1, _size(quick) // 10))]


def _shanten_inputs(quick: bool) -> list[list[int]]:
    # Half random draws, half complete hands with one to three tiles swapped: both the
    # typical hand and the near-ready ones where a search has most to explore.
    hands = Hands()
    n = _size(quick) // 4
    return [hands.random(14) for _ in range(n)] + [hands.perturbed(1 + i % 3) for i in range(n)]


# -- benchmarks against mahjong ------------------------------------------------------


def _versus_mahjong_agari(name: str, inputs: list[list[int]], repeats: int) -> dict[str, object]:
    keys = [bytes(c) for c in inputs]
    peer = _mahjong()
    if isinstance(peer, str):
        return _no_peer(
            name,
            peer="mahjong",
            reason=peer,
            ours=MAHJONG.is_complete,
            inputs=keys,
            repeats=repeats,
        )
    agari = peer[0].is_agari
    return compare(
        name,
        ours=MAHJONG.is_complete,
        our_inputs=keys,
        peer="mahjong.Agari.is_agari",
        theirs=agari,
        their_inputs=inputs,
        repeats=repeats,
    )


@register("win_check_winning")
def _win_check_winning(repeats: int, quick: bool) -> dict[str, object]:
    return _versus_mahjong_agari("win_check_winning", _win_inputs("winning", quick), repeats)


@register("win_check_random")
def _win_check_random(repeats: int, quick: bool) -> dict[str, object]:
    return _versus_mahjong_agari("win_check_random", _win_inputs("random", quick), repeats)


@register("waits")
def _waits(repeats: int, quick: bool) -> dict[str, object]:
    inputs = _ready_inputs(quick)
    keys = [bytes(c) for c in inputs]
    ours = MAHJONG.waits
    peer = _mahjong()
    if isinstance(peer, str):
        return _no_peer(
            "waits", peer="mahjong", reason=peer, ours=ours, inputs=keys, repeats=repeats
        )
    agari = peer[0].is_agari

    def peer_waits(counts: list[int]) -> list[int]:
        # what a mahjong user writes: try each of the 34 kinds not already held four times
        found = []
        for kind in range(34):
            if counts[kind] < 4:
                counts[kind] += 1
                if agari(counts):
                    found.append(kind)
                counts[kind] -= 1
        return found

    return compare(
        "waits",
        ours=ours,
        our_inputs=keys,
        peer="mahjong.Agari.is_agari×34",
        theirs=peer_waits,
        their_inputs=inputs,
        repeats=repeats,
    )


@register("shanten")
def _shanten(repeats: int, quick: bool) -> dict[str, object]:
    inputs = _shanten_inputs(quick)
    keys = [bytes(c) for c in inputs]
    ours = MAHJONG.shanten_standard
    peer = _mahjong()
    if isinstance(peer, str):
        return _no_peer(
            "shanten", peer="mahjong", reason=peer, ours=ours, inputs=keys, repeats=repeats
        )
    regular = peer[1].calculate_shanten_for_regular_hand
    return compare(
        "shanten",
        ours=ours,
        our_inputs=keys,
        peer="mahjong.Shanten.calculate_shanten_for_regular_hand",
        theirs=regular,
        their_inputs=inputs,
        repeats=repeats,
    )


# -- benchmarks against riichienv (compiled, called once per hand) -------------------


def _versus_riichienv(
    name: str,
    *,
    ours: Callable[[Any], object],
    inputs: list[list[int]],
    repeats: int,
    peer_call: Callable[[Any], Callable[[Any], object]],
    peer_name: str,
) -> dict[str, object]:
    keys = [bytes(c) for c in inputs]
    module = _riichienv()
    if isinstance(module, str):
        return _no_peer(
            name, peer="riichienv", reason=module, ours=ours, inputs=keys, repeats=repeats
        )
    tiles = [to_136(c) for c in inputs]
    return compare(
        name,
        ours=ours,
        our_inputs=keys,
        peer=peer_name,
        theirs=peer_call(module),
        their_inputs=tiles,
        repeats=repeats,
    )


def _win_check_riichienv(kind: str) -> BenchFn:
    name = f"win_check_{kind}_riichienv"

    def bench(repeats: int, quick: bool) -> dict[str, object]:
        # riichienv has no bare win check; its shanten is −1 exactly on a complete hand
        return _versus_riichienv(
            name,
            ours=MAHJONG.is_complete,
            inputs=_win_inputs(kind, quick),
            repeats=repeats,
            peer_call=lambda m: m.calculate_shanten,
            peer_name="riichienv.calculate_shanten",
        )

    return register(name, bench)


_win_check_riichienv("winning")
_win_check_riichienv("random")


@register("shanten_riichienv")
def _shanten_riichienv(repeats: int, quick: bool) -> dict[str, object]:
    # riichienv's shanten covers regular hands, seven pairs and thirteen orphans; ours
    # covers the first two (thirteen orphans is no hand in our games)
    return _versus_riichienv(
        "shanten_riichienv",
        ours=MAHJONG.shanten,
        inputs=_shanten_inputs(quick),
        repeats=repeats,
        peer_call=lambda m: m.calculate_shanten,
        peer_name="riichienv.calculate_shanten",
    )


@register("waits_riichienv")
def _waits_riichienv(repeats: int, quick: bool) -> dict[str, object]:
    def peer(module: Any) -> Callable[[Any], object]:
        evaluator = module.HandEvaluator
        return lambda tiles: evaluator(tiles).get_waits()

    return _versus_riichienv(
        "waits_riichienv",
        ours=MAHJONG.waits,
        inputs=_ready_inputs(quick),
        repeats=repeats,
        peer_call=peer,
        peer_name="riichienv.HandEvaluator.get_waits",
    )


# -- entry point ---------------------------------------------------------------------


def _load_extra_modules() -> None:
    for module in EXTRA_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise


def main(only: list[str], repeats: int = 5, quick: bool = False) -> int:
    """Run the benchmarks named in ``only`` (all when empty), printing one JSON line each."""
    _load_extra_modules()
    unknown = [name for name in only if name not in REGISTRY]
    if unknown:
        print(
            f"paiju bench: unknown benchmark {', '.join(unknown)}; known: {', '.join(REGISTRY)}",
            file=sys.stderr,
        )
        return 2
    if repeats < 1:
        print(f"paiju bench: --repeats must be at least 1, got {repeats}", file=sys.stderr)
        return 2
    for name in only or list(REGISTRY):
        print(json.dumps(REGISTRY[name](repeats, quick), ensure_ascii=False), flush=True)
    return 0
