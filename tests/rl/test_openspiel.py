"""The OpenSpiel games pass pyspiel's random simulation test (short: one game each)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel")

import pyspiel

from paiju.rl import openspiel as paiju_openspiel


@pytest.mark.parametrize("variant", paiju_openspiel.VARIANTS)
def test_random_sim(variant: str) -> None:
    game = pyspiel.load_game(paiju_openspiel.game_name(variant))
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_options_parameter_and_bad_options() -> None:
    game = pyspiel.load_game("python_paiju_qinger", {"options": '{"participants": 4}'})
    assert game.num_players() == 4
    with pytest.raises(Exception, match="not JSON"):
        pyspiel.load_game("python_paiju_jiaxing", {"options": "{"})


def test_same_chance_bytes_same_game() -> None:
    game = pyspiel.load_game("python_paiju_taixing")
    histories = []
    for _ in range(2):
        state = game.new_initial_state()
        for b in (1, 2, 3, 4):
            state.apply_action(b)
        for _ in range(20):
            state.apply_action(state.legal_actions()[0])
        histories.append(state.history())
    assert histories[0] == histories[1]
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
