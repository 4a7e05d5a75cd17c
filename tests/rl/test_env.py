"""The PettingZoo and Gymnasium conformance checks for every game, and the env's own
promises (seeded deals, zero-sum rewards, masks that match the engine)."""

from __future__ import annotations

import types
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test

from paiju.engine.errors import IllegalActionError
from paiju.rl import aec_env, gym_env, parallel_env

GAMES = ["jiaxing", "taixing", "qinger"]


@pytest.mark.parametrize("variant", GAMES)
def test_pettingzoo_api(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(aec_env(variant), num_cycles=300)


@pytest.mark.parametrize("variant", GAMES)
def test_pettingzoo_seed(variant: str) -> None:
    seed_test(lambda: aec_env(variant), num_cycles=200)


@pytest.mark.parametrize("variant", GAMES)
def test_pettingzoo_max_cycles(variant: str) -> None:
    mod = types.SimpleNamespace(
        env=lambda max_cycles: aec_env(variant, max_cycles=max_cycles, illegal="pass"),
        parallel_env=lambda max_cycles: parallel_env(
            variant, max_cycles=max_cycles, illegal="pass"
        ),
    )
    max_cycles_test(mod)


@pytest.mark.parametrize("variant", GAMES)
def test_parallel_api(variant: str) -> None:
    parallel_api_test(parallel_env(variant, illegal="pass"), num_cycles=200)


@pytest.mark.parametrize("variant", GAMES)
def test_gymnasium_check_env(variant: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym_env(variant, opponents="random", illegal="pass"), skip_render_check=True)


def _episode(env: object, seed: int) -> tuple[list[tuple[str, int]], dict[str, float]]:
    e: object = env
    e.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    trace = []
    totals: dict[str, float] = {}
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if term or trunc:
            e.step(None)  # type: ignore[attr-defined]
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        trace.append((agent, action))
        e.step(action)  # type: ignore[attr-defined]
    return trace, totals


@pytest.mark.parametrize("variant", GAMES)
def test_rewards_are_the_settlement_and_zero_sum(variant: str) -> None:
    env = aec_env(variant)
    for seed in range(3):
        _, totals = _episode(env, seed)
        net = env.table.hand.net()
        assert sum(totals.values()) == 0
        for agent, total in totals.items():
            assert total == net[int(agent.split("_")[1])]


@pytest.mark.parametrize("variant", GAMES)
def test_seed_reproduces_the_deal(variant: str) -> None:
    a, b = aec_env(variant), aec_env(variant)
    assert _episode(a, 11) == _episode(b, 11)
    assert a.table.hand.log == b.table.hand.log
    assert _episode(a, 12)[0] != _episode(b, 11)[0]


def test_shaping_adds_a_constant_per_deal() -> None:
    """The shaping potential is paid back at the end: its total is −φ(start)."""
    env = aec_env("jiaxing", shaping=0.5)
    _, totals = _episode(env, 2)
    net = env.table.hand.net()
    env2 = aec_env("jiaxing", shaping=0.5)
    env2.reset(seed=2)
    phi0 = env2.table.potentials()
    for agent, total in totals.items():
        s = int(agent.split("_")[1])
        assert total == pytest.approx(net[s] - phi0[s])


def test_illegal_action_raises_and_changes_nothing() -> None:
    env = aec_env("jiaxing")
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    log = list(env.table.hand.log)
    with pytest.raises(IllegalActionError, match="not legal"):
        env.step(illegal)
    assert env.table.hand.log == log


def test_qinger_four_participants_seat_three_agents() -> None:
    env = aec_env("qinger", {"participants": 4})
    assert len(env.possible_agents) == 4
    for seed in range(4):
        env.reset(seed=seed)
        assert len(env.agents) == 3
        out = env.table.hand.sitting_out
        assert f"seat_{out}" not in env.agents
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=100)


def test_render_ansi_shows_every_seat() -> None:
    env = aec_env("taixing", render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text is not None and text.count("seat ") == 4


def test_bad_arguments_are_named() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        aec_env("riichi")
    with pytest.raises(ValueError, match="render_mode"):
        aec_env("jiaxing", render_mode="human")
    with pytest.raises(ValueError, match="illegal"):
        aec_env("jiaxing", illegal="ignore")
    with pytest.raises(ValueError, match="opponents"):
        gym_env("qinger", opponents=["greedy"])


def test_gym_episode_against_greedy() -> None:
    env = gym_env("jiaxing", seat=2, opponents="greedy")
    obs, _ = env.reset(seed=5)
    total = 0.0
    done = False
    while not done:
        action = int(np.flatnonzero(obs["action_mask"])[0])
        obs, reward, done, _, _info = env.step(action)
        total += reward
    assert total == env.table.hand.net()[2]


@pytest.mark.parametrize("variant", GAMES)
def test_aec_observations_equal_the_reference_encoding(variant: str) -> None:
    """What the AEC loop hands out at every decision of random hands (the fast path:
    tables kept between calls, the mask built once and shared with ``infos``) equals the
    plain encoding of the same position and a mask of exactly the engine's legal
    actions; an observation handed out earlier is not changed by later steps."""
    env = aec_env(variant)
    plain = type(env.table.encoder)()
    rng = np.random.default_rng(3)
    kept: list[tuple[dict[str, np.ndarray], dict[str, np.ndarray]]] = []
    decisions = 0
    for seed in range(3):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = env.possible_agents.index(agent)
            planes, scalars = plain.encode_reference(env.table.hand, seat)
            np.testing.assert_array_equal(obs["observation"], planes)
            np.testing.assert_array_equal(obs["scalars"], scalars)
            legal = env.table.hand.legal_actions(seat)
            assert obs["action_mask"].nonzero()[0].tolist() == legal
            np.testing.assert_array_equal(info["action_mask"], obs["action_mask"])
            if decisions % 17 == 0:
                kept.append(({k: v.copy() for k, v in obs.items()}, obs))
            decisions += 1
            env.step(int(rng.choice(legal)))
    assert decisions > 100
    for copy, handed in kept:
        for k in copy:
            np.testing.assert_array_equal(copy[k], handed[k])


@pytest.mark.parametrize("variant", GAMES)
def test_aec_last_and_agent_iter_match_pettingzoos(variant: str) -> None:
    """The faster ``last`` and ``agent_iter`` of :class:`PaijuAEC` give what
    :class:`pettingzoo.AECEnv`'s own would, through the end of the hand and its dead
    steps; ``max_iter`` still bounds the loop."""
    from pettingzoo import AECEnv
    from pettingzoo.utils.env import AECIterator

    env = aec_env(variant, illegal="pass")
    env.reset(seed=4)
    assert len(list(env.agent_iter(3))) == 3
    rng = np.random.default_rng(4)
    mine = iter(env.agent_iter())
    theirs = AECIterator(env, 2**63)
    steps = 0
    for agent in mine:
        assert agent == next(theirs)
        obs, reward, term, trunc, info = env.last()
        ref_obs, *ref_rest = AECEnv.last(env)
        assert [reward, term, trunc, info] == ref_rest
        assert env.last(observe=False)[0] is None
        for k in obs:
            np.testing.assert_array_equal(obs[k], ref_obs[k])
            assert obs[k] is not ref_obs[k]
        if term or trunc:
            env.step(None)
            continue
        assert obs["action_mask"] is not info["action_mask"]
        # now and then an illegal action: substituted, and said so in the next info
        if steps % 13 == 5:
            env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
            nxt = env.agent_selection
            assert env.terminations[nxt] or env.infos[nxt].get("illegal") is True
        else:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert not env.agents and steps > 20
    with pytest.raises(StopIteration):
        next(theirs)
