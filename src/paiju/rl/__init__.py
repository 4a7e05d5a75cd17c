"""Environments for reinforcement learning (the ``rl`` extra: numpy, pettingzoo, gymnasium).

- :func:`aec_env` — PettingZoo AEC, agents are the seats, one hand of full rules;
- :func:`parallel_env` — the PettingZoo parallel form;
- :func:`gym_env` — one seat against paiju's bots, Gymnasium;
- :mod:`paiju.rl.encode` — the observation planes; :mod:`paiju.rl.codecs` — the action
  tables; :mod:`paiju.rl.openspiel` — OpenSpiel games (when ``open_spiel`` is installed).

See ``docs/rl.md``.
"""

from __future__ import annotations

from paiju.rl.codecs import action_table
from paiju.rl.env import PaijuAEC, PaijuParallel, Table, aec_env, parallel_env
from paiju.rl.gym import PaijuGym, gym_env

__all__ = [
    "PaijuAEC",
    "PaijuGym",
    "PaijuParallel",
    "Table",
    "action_table",
    "aec_env",
    "gym_env",
    "parallel_env",
]
