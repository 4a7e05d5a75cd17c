"""OpenSpiel Python games: ``python_paiju_jiaxing``, ``python_paiju_taixing``,
``python_paiju_qinger`` (the ``openspiel`` extra, package ``open_spiel``).

A game is one hand of full rules. The deal is chance: four chance nodes of 256 outcomes
each pick the bytes of a 32-bit deal seed (the hand's shuffle and dealer come from it),
so every deal is reachable and a game replays from its action history alone. Then the
players move in the engine's order — after a discard each seat with a claim option
moves in turn, exactly as in :func:`paiju.rl.aec_env` — with the same action codes
(``docs/rl.md``). Utilities are the settlement points (zero-sum); the observation
tensor is the seat's encoding (planes, flattened, then scalars). Rule options are the
game parameter ``options``, a JSON object as text::

    import pyspiel, paiju.rl.openspiel
    game = pyspiel.load_game("python_paiju_jiaxing")
    game = pyspiel.load_game("python_paiju_qinger", {"options": '{"participants": 4}'})
"""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import numpy as np

from paiju.rl.codecs import codec_for

pyspiel: Any = importlib.import_module("pyspiel")

VARIANTS = ("jiaxing", "taixing", "qinger")
SEED_BYTES = 4
MAX_GAME_LENGTH = 4000
"""Far above any hand seen (a few hundred moves); Qing'er's redeals make it unbounded in
principle, so this is the documented cap, not a rule."""


def game_name(variant: str) -> str:
    return f"python_paiju_{variant}"


def _table(variant: str, options_text: str) -> Any:
    from paiju.variants import find_variant

    flow = find_variant(variant)
    try:
        raw = json.loads(options_text) if options_text else {}
    except json.JSONDecodeError as exc:
        raise ValueError(f"parameter 'options' is not JSON: {exc}") from None
    if not isinstance(raw, dict):
        raise ValueError("parameter 'options' must be a JSON object")
    options = flow.parse_options(raw)
    return flow, options, flow.seats(options)


def _make_game_class(variant: str) -> tuple[Any, Any]:
    codec = codec_for(variant)
    default_flow, default_options, default_seats = _table(variant, "")
    game_type = pyspiel.GameType(
        short_name=game_name(variant),
        long_name=f"paiju {variant} (one hand, full rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=default_flow.max_seats(),
        min_num_players=default_seats,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"options": ""},
    )

    class PaijuGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            params = dict(params or {})
            text = str(params.get("options", ""))
            self.flow, self.options, self.n_seats = _table(variant, text)
            info = pyspiel.GameInfo(
                num_distinct_actions=codec.n_actions,
                max_chance_outcomes=256,
                num_players=self.n_seats,
                min_utility=-1e6,
                max_utility=1e6,
                utility_sum=0.0,
                max_game_length=MAX_GAME_LENGTH,
            )
            super().__init__(game_type, info, {"options": text})
            self.encoder = codec.encoder()

        def new_initial_state(self) -> Any:
            return PaijuState(self)

        def make_py_observer(
            self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
        ) -> Any:
            return PaijuObserver(self, iig_obs_type)

    class PaijuState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self._game = game
            self.seed_bytes: list[int] = []
            self.hand: Any = None

        def current_player(self) -> int:
            if self.hand is None:
                return int(pyspiel.PlayerId.CHANCE)
            if self.hand.is_over:
                return int(pyspiel.PlayerId.TERMINAL)
            return int(self.hand.to_act()[0])

        def _legal_actions(self, player: int) -> list[int]:
            if self.hand is None or self.hand.is_over:
                return []
            return list(self.hand.legal_actions(player))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return [(b, 1.0 / 256) for b in range(256)]

        def _apply_action(self, action: int) -> None:
            if self.hand is None:
                self.seed_bytes.append(int(action))
                if len(self.seed_bytes) == SEED_BYTES:
                    seed = int.from_bytes(bytes(self.seed_bytes), "big")
                    g = self._game
                    rng = random.Random(seed)
                    self.hand = g.flow.new_hand(
                        g.options,
                        seed=rng.getrandbits(48),
                        dealer=rng.randrange(g.n_seats),
                        carry={},
                    )
                return
            player = self.hand.to_act()[0]
            self.hand.apply(int(action), player)

        def _action_to_string(self, player: int, action: int) -> str:
            if player == pyspiel.PlayerId.CHANCE:
                return f"seed_byte:{action}"
            return str(codec.action_str(action))

        def is_terminal(self) -> bool:
            return self.hand is not None and bool(self.hand.is_over)

        def returns(self) -> list[float]:
            if self.hand is None:
                return [0.0] * self._game.n_seats
            return [float(x) for x in self.hand.net()]

        def __str__(self) -> str:
            if self.hand is None:
                return f"dealing {self.seed_bytes}"
            return json.dumps(self.hand.view(None), ensure_ascii=False, default=str)

    class PaijuObserver:
        """The seat's encoding as the observation tensor; a text view of the same."""

        def __init__(self, game: Any, iig_obs_type: Any) -> None:
            if iig_obs_type is not None and iig_obs_type.perfect_recall:
                raise ValueError("paiju's OpenSpiel games give observations, not info states")
            enc = game.encoder
            self.encoder = enc
            n_planes = enc.n_planes * enc.kinds
            self.tensor = np.zeros(n_planes + enc.n_scalars, np.float32)
            self.dict = {
                "planes": self.tensor[:n_planes].reshape(enc.n_planes, enc.kinds),
                "scalars": self.tensor[n_planes:],
            }

        def set_from(self, state: Any, player: int) -> None:
            if state.hand is None:
                self.tensor.fill(0.0)
                return
            planes, scalars = self.encoder.encode(state.hand, player)
            self.dict["planes"][:] = planes
            self.dict["scalars"][:] = scalars

        def string_from(self, state: Any, player: int) -> str:
            if state.hand is None:
                return "dealing"
            return json.dumps(state.hand.view(player), ensure_ascii=False, default=str)

    del default_flow, default_options
    return game_type, PaijuGame


def register() -> list[str]:
    """Register every variant's game with pyspiel (idempotent); their names."""
    names = []
    registered = set(pyspiel.registered_names())
    for variant in VARIANTS:
        name = game_name(variant)
        if name not in registered:
            game_type, cls = _make_game_class(variant)
            pyspiel.register_game(game_type, cls)
        names.append(name)
    return names


register()
