"""``rl_steps``: environment steps per second with observations and action masks.

Ours: :func:`paiju.rl.aec_env` for Jiaxing, the PettingZoo AEC loop (``last()`` gives the
acting seat's observation planes, scalars and action mask; a random legal action from the
mask; ``step``), whole hands. Peer: RiichiEnv's environment (Rust core), riichi hands of
one kyoku, every returned observation encoded with its own ``Observation.encode()`` (74 ×
34 float32 planes) and answered with a random legal action. A step is one seat's decision
on both sides. The two sides' timed passes alternate, each over the same number of hands;
the rate is steps over the median pass time.
"""

from __future__ import annotations

import importlib
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from paiju.bench import register, result_line

_HANDS = 40
_HANDS_QUICK = 4


def _ours(variant: str) -> Callable[[list[int]], int]:
    import numpy as np

    from paiju.rl import aec_env

    env = aec_env(variant)

    def run(seeds: list[int]) -> int:
        rng = np.random.default_rng(0)
        steps = 0
        for seed in seeds:
            env.reset(seed=seed)
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps

    return run


def _riichienv() -> Callable[[list[int]], int]:
    import numpy as np

    # riichienv ships no type information: reach it through importlib, typed as Any
    riichienv: Any = importlib.import_module("riichienv")
    RiichiEnv = riichienv.RiichiEnv

    def run(seeds: list[int]) -> int:
        rng = random.Random(0)
        steps = 0
        for seed in seeds:
            env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=seed)
            obs = env.reset()
            while not env.done():
                actions = {}
                for pid, o in obs.items():
                    np.frombuffer(o.encode(), dtype=np.float32)
                    actions[pid] = rng.choice(o.legal_actions())
                steps += len(actions)
                obs = env.step(actions)
        return steps

    return run


def _timed(run: Callable[[list[int]], int], seeds: list[int]) -> tuple[int, float]:
    start = time.perf_counter()
    steps = run(seeds)
    return steps, time.perf_counter() - start


@register("rl_steps")
def _rl_steps(repeats: int, quick: bool) -> dict[str, object]:
    seeds = list(range(_HANDS_QUICK if quick else _HANDS))
    try:
        ours = _ours("jiaxing")
    except ImportError as exc:
        print(f"paiju bench: rl_steps: the rl extra is not installed ({exc})", file=sys.stderr)
        return result_line("rl_steps", 0.0, None, None)
    try:
        theirs: Callable[[list[int]], int] | None = _riichienv()
    except ImportError as exc:
        print(f"paiju bench: rl_steps: riichienv unavailable ({exc})", file=sys.stderr)
        theirs = None
    # one untimed pass each: our analyser fills its group tables on first sight (as in
    # every other bench line), RiichiEnv warms its own caches
    ours(seeds)
    if theirs is not None:
        theirs(seeds)
    our_times, their_times = [], []
    our_steps = their_steps = 0
    for _ in range(max(1, repeats)):
        our_steps, t = _timed(ours, seeds)
        our_times.append(t)
        if theirs is not None:
            their_steps, t = _timed(theirs, seeds)
            their_times.append(t)
    our_rate = our_steps / max(statistics.median(our_times), 1e-9)
    if theirs is None:
        return result_line("rl_steps", our_rate, "riichienv", None)
    their_rate = their_steps / max(statistics.median(their_times), 1e-9)
    return result_line(
        "rl_steps",
        our_rate,
        "riichienv RiichiEnv + Observation.encode (riichi, 1 kyoku)",
        their_rate,
    )
