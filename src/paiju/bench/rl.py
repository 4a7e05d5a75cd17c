"""``rl_steps``: environment steps per second with observations and action masks.

Both sides do the same work, the same number of times: a pass is exactly ``steps``
decisions (hands from seed 0 on, the last one cut where the count is reached), and each
decision is: the deciding seat's observation as numpy planes, its action mask as a numpy
array, a random legal action drawn from the mask (``mask.nonzero()``, then
``random.Random(0).randrange``: the same source on both sides), one environment step.

Ours: :func:`paiju.rl.aec_env` (``rl_steps``: Jiaxing; ``rl_steps_taixing``,
``rl_steps_qinger``: the other two games), the PettingZoo AEC loop (``last()`` gives the
acting seat's planes, scalars and mask; ``step``), default encoder. Peer: RiichiEnv's
environment (Rust core, riichi, a fresh env of one kyoku per seed), every returned
observation encoded with its own ``Observation.encode()`` (74 × 34 float32 planes), its
``mask()`` read as a numpy array, the drawn action code turned into its action by
``find_action``; a step of RiichiEnv answers every seat it asked at once, so its
decisions are counted, not its ``step`` calls. The two sides' timed passes alternate;
the rate is decisions over the median pass's CPU time (``time.process_time``).

Each line has one key more than the others: ``encoder``, ``"c"`` where our observations
came from the C module (``paiju/rl/_cencode.c``) or ``"python"`` where it was not built.
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

STEPS = 8000
"""Decisions per timed pass, on each side (about 80 mahjong hands)."""
STEPS_QUICK = 400

PEER = (
    "riichienv RiichiEnv + Observation.encode + mask (riichi, 1 kyoku a seed); "
    "both sides: the same decisions a pass, obs + mask each, random legal from the mask"
)


def _ours(variant: str) -> Callable[[int], int]:
    from paiju.rl import aec_env

    env = aec_env(variant)

    def run(steps: int) -> int:
        # numpy's Generator costs a few microseconds a call, more than the choice is
        # worth: Python's, on both sides
        rng = random.Random(0)
        done = 0
        seed = 0
        while done < steps:
            env.reset(seed=seed)
            seed += 1
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                done += 1
                if done == steps:
                    break
        return done

    return run


def _riichienv() -> Callable[[int], int]:
    import numpy as np

    # riichienv ships no type information: reach it through importlib, typed as Any
    riichienv: Any = importlib.import_module("riichienv")
    RiichiEnv = riichienv.RiichiEnv
    f32, u8 = np.dtype(np.float32), np.dtype(np.uint8)

    def run(steps: int) -> int:
        rng = random.Random(0)
        done = 0
        seed = 0
        while done < steps:
            env = RiichiEnv(game_mode=0, skip_mjai_logging=True, seed=seed)
            seed += 1
            obs = env.reset()
            while done < steps and not env.done():
                actions = {}
                for pid, o in obs.items():
                    np.frombuffer(o.encode(), f32).reshape(74, 34)
                    legal = np.frombuffer(o.mask(), u8).nonzero()[0]
                    actions[pid] = o.find_action(int(legal[rng.randrange(len(legal))]))
                    done += 1
                    if done == steps:
                        break
                obs = env.step(actions)
        return done

    return run


def _timed(run: Callable[[int], int], steps: int) -> tuple[int, float]:
    # CPU time of this process: both sides run in it, one thread each, so the other
    # jobs on a shared machine count less than in wall-clock time
    start = time.process_time()
    done = run(steps)
    return done, time.process_time() - start


def _rl_steps(name: str, variant: str, repeats: int, quick: bool) -> dict[str, object]:
    steps = STEPS_QUICK if quick else STEPS
    try:
        ours = _ours(variant)
    except ImportError as exc:
        print(f"paiju bench: {name}: the rl extra is not installed ({exc})", file=sys.stderr)
        return result_line(name, 0.0, None, None)
    try:
        theirs: Callable[[int], int] | None = _riichienv()
    except ImportError as exc:
        print(f"paiju bench: {name}: riichienv unavailable ({exc})", file=sys.stderr)
        theirs = None
    # one untimed pass each: our analyser fills its group tables on first sight (as in
    # every other bench line), RiichiEnv warms its own caches
    ours(steps)
    if theirs is not None:
        theirs(steps)
    our_times, their_times = [], []
    for _ in range(max(1, repeats)):
        done, t = _timed(ours, steps)
        our_times.append(t)
        if theirs is not None:
            their_done, t = _timed(theirs, steps)
            their_times.append(t)
            if their_done != done:
                raise RuntimeError(f"{name}: {done} steps ours, {their_done} theirs")
    our_rate = steps / max(statistics.median(our_times), 1e-9)
    if theirs is None:
        line = result_line(name, our_rate, "riichienv", None)
    else:
        their_rate = steps / max(statistics.median(their_times), 1e-9)
        line = result_line(name, our_rate, PEER, their_rate)
    line["encoder"] = _encoder_path(name)
    return line


def _encoder_path(name: str) -> str:
    """Which way our observations were encoded: ``c`` (the C module) or ``python``."""
    from paiju.rl import encode

    if encode._C is None:
        print(
            f"paiju bench: {name}: the encoders' C module is not in use (not built, or "
            "PAIJU_PURE_PYTHON set): "
            "observations encoded in Python (slower; see docs/rl.md)",
            file=sys.stderr,
        )
        return "python"
    return "c"


@register("rl_steps")
def _rl_steps_jiaxing(repeats: int, quick: bool) -> dict[str, object]:
    return _rl_steps("rl_steps", "jiaxing", repeats, quick)


@register("rl_steps_taixing")
def _rl_steps_taixing(repeats: int, quick: bool) -> dict[str, object]:
    return _rl_steps("rl_steps_taixing", "taixing", repeats, quick)


@register("rl_steps_qinger")
def _rl_steps_qinger(repeats: int, quick: bool) -> dict[str, object]:
    return _rl_steps("rl_steps_qinger", "qinger", repeats, quick)
