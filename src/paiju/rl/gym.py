"""One seat learning against paiju's bots, as a Gymnasium environment."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium

from paiju.rl.env import Obs, Table

Player = Callable[[Any, int], int]


class PaijuGym(gymnasium.Env[Obs, int]):
    """Seat ``seat`` plays; every other seat is a bot. An episode is one hand; a step
    is one decision of the learning seat (the bots' moves in between happen inside
    ``step``). The reward is the seat's points since its last decision (and shaping,
    see :class:`paiju.rl.env.Table`); ``info["action_mask"]`` repeats the mask.

    ``opponents``: a bot name for every other seat (``"greedy"``, ``"random"``,
    ``"strong"``, ``"learned"``), a list of names (one per other seat, in seat order), or a
    list of players (``player(hand, seat) -> action``). Named bots are made anew each
    episode with seeds from the environment's stream, so ``reset(seed=…)`` reproduces
    the whole episode."""

    def __init__(
        self,
        variant: str,
        seat: int = 0,
        opponents: str | Sequence[str | Player] = "greedy",
        options: dict[str, Any] | None = None,
        render_mode: str | None = None,
        **table: Any,
    ) -> None:
        if render_mode is not None and render_mode != "ansi":
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.metadata = {"render_modes": ["ansi"]}
        self.table = Table(variant, options, **table)
        self.variant = variant
        n = self.table.n_seats
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0–{n - 1}, not {seat!r}")
        self.seat = seat
        others = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(others) != n - 1:
            raise ValueError(f"{variant} needs {n - 1} opponents, got {len(others)}")
        for o in others:
            if isinstance(o, str):
                self._check_bot(o)
        self._opponents = others
        self.render_mode = render_mode
        self.observation_space = self.table.observation_space()  # type: ignore[assignment]
        self.action_space = self.table.action_space()  # type: ignore[assignment]
        self._players: dict[int, Player] = {}
        self._seeded = False

    def _check_bot(self, name: str) -> None:
        from paiju.bots.levels import make_player

        make_player(name, 0, self.variant)

    def _make_players(self) -> None:
        from paiju.bots.levels import make_player

        rng = self.table._rng
        others = [s for s in range(self.table.n_seats) if s != self.seat]
        self._players = {}
        for s, o in zip(others, self._opponents, strict=True):
            bot_seed = rng.getrandbits(32)
            self._players[s] = make_player(o, bot_seed, self.variant) if isinstance(o, str) else o

    def _advance(self) -> None:
        """Let the bots move until the learning seat must act or the hand is over."""
        hand = self.table.hand
        while not hand.is_over:
            actors = hand.to_act()
            if self.seat in actors:
                # claims are answered in the engine's order: bots before us answer first
                first = actors[0]
                if first == self.seat:
                    return
                hand.apply(self._players[first](hand, first), first)
                continue
            s = actors[0]
            hand.apply(self._players[s](hand, s), s)

    def _obs_info(self) -> tuple[Obs, dict[str, Any]]:
        obs = self.table.observe(self.seat)
        return obs, {"action_mask": obs["action_mask"]}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None or not self._seeded:
            self.table.seed(seed)
            self._seeded = True
        while True:
            self.table.new_hand()
            self._make_players()
            if self.seat in self.table.players:
                self._advance()
                if not self.table.hand.is_over:
                    break
        self.table.rewards()
        return self._obs_info()

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        t = self.table
        code, substituted = t.legalize(action, self.seat)
        t.hand.apply(code, self.seat)
        self._advance()
        reward = t.rewards()[self.seat]
        obs, info = self._obs_info()
        if substituted:
            info["illegal"] = True
        if self.render_mode == "ansi":
            print(t.render(), end="")
        return obs, float(reward), bool(t.hand.is_over), False, info

    def render(self) -> str | None:
        return self.table.render() if self.render_mode is not None else None


def gym_env(
    variant: str,
    seat: int = 0,
    opponents: str | Sequence[str | Player] = "greedy",
    options: dict[str, Any] | None = None,
    render_mode: str | None = None,
    **kwargs: Any,
) -> PaijuGym:
    """A Gymnasium environment: ``seat`` of ``variant`` against ``opponents``."""
    return PaijuGym(variant, seat, opponents, options, render_mode, **kwargs)
