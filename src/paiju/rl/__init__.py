"""Environments for reinforcement learning (the ``rl`` extra: numpy, pettingzoo, gymnasium).

- :func:`aec_env` — PettingZoo AEC, agents are the seats, one hand of full rules;
- :func:`parallel_env` — the PettingZoo parallel form;
- :func:`gym_env` — one seat against paiju's bots, Gymnasium;
- :mod:`paiju.rl.encode` — the observation planes; :mod:`paiju.rl.codecs` — the action
  tables; :mod:`paiju.rl.openspiel` — OpenSpiel games (when ``open_spiel`` is installed).

The environments are imported on first use, so the encoders (numpy only, which the
``learned`` bot runs) do not need PettingZoo or Gymnasium. See ``docs/rl.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paiju.rl.env import PaijuAEC, PaijuParallel, Table, aec_env, parallel_env
    from paiju.rl.gym import PaijuGym, gym_env

__all__ = [
    "PaijuAEC",
    "PaijuGym",
    "PaijuParallel",
    "Table",
    "aec_env",
    "gym_env",
    "parallel_env",
]

_HOME = {
    "PaijuAEC": "paiju.rl.env",
    "PaijuParallel": "paiju.rl.env",
    "Table": "paiju.rl.env",
    "aec_env": "paiju.rl.env",
    "parallel_env": "paiju.rl.env",
    "PaijuGym": "paiju.rl.gym",
    "gym_env": "paiju.rl.gym",
}


def __getattr__(name: str) -> Any:
    module = _HOME.get(name)
    if module is None:
        raise AttributeError(f"module 'paiju.rl' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
