"""The learned bot with a danger file (``kind == "danger"``): greedy, except a discard
the network finds dangerous at the bot's own turn."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np

from paiju.bots import make_bot
from paiju.bots.greedy import greedy_bot
from paiju.bots.learned import N_KINDS, DangerPolicy, LearnedBot, LearnedBotError, observation_size
from paiju.engine.mahjong import ACT
from paiju.engine.match import play_hand
from paiju.rl.danger import export_danger
from paiju.variants import VARIANTS
from paiju.variants.base import options_from_mapping


def _danger_file(tmp_path: Path, bias: float, threshold: float = 0.5, slack: int = 8) -> Path:
    """A random danger network whose every logit is about ``bias`` (the weights are
    small), so every chance is about sigmoid(bias)."""
    rng = np.random.default_rng(0)
    n_in = observation_size("jiaxing")
    layers = [
        (rng.normal(scale=1e-3, size=(n_in, 8)).astype(np.float32), np.zeros(8, np.float32)),
        (rng.normal(scale=1e-3, size=(8, 8)).astype(np.float32), np.zeros(8, np.float32)),
        (
            rng.normal(scale=1e-3, size=(8, N_KINDS)).astype(np.float32),
            np.full(N_KINDS, bias, np.float32),
        ),
    ]
    path = tmp_path / "jiaxing.npz"
    export_danger(path, "jiaxing", layers, threshold=threshold, slack=slack)
    return path


def _hands(n: int) -> list[object]:
    flow = VARIANTS["jiaxing"]
    options = options_from_mapping(flow.options_type, {})
    return [flow.new_hand(options, seed=s, dealer=s % 4, carry={}) for s in range(n)]


def test_a_danger_file_loads_as_the_danger_network(tmp_path: Path) -> None:
    bot = LearnedBot(0, "jiaxing", _danger_file(tmp_path, 0.0, threshold=0.3, slack=1))
    assert isinstance(bot.danger, DangerPolicy)
    assert bot.danger.threshold == pytest.approx(0.3)
    assert bot.danger.slack == 1
    x = np.zeros(observation_size("jiaxing"), np.float32)
    assert bot.danger.chances(x).shape == (N_KINDS,)


def test_a_danger_file_for_another_game_is_refused(tmp_path: Path) -> None:
    path = _danger_file(tmp_path, 0.0)
    other = tmp_path / "taixing.npz"
    other.write_bytes(path.read_bytes())
    with pytest.raises(LearnedBotError, match="holds weights for jiaxing"):
        LearnedBot(0, "taixing", other)


@pytest.mark.parametrize("bias", [-8.0, 8.0])
def test_the_danger_bot_plays_legal_actions_over_whole_hands(tmp_path: Path, bias: float) -> None:
    """Everything safe (bias -8) or everything dangerous (+8, the least dangerous discard
    each time): legal actions, hands that end and balance."""
    path = _danger_file(tmp_path, bias)
    bot = LearnedBot(0, "jiaxing", path)

    def checked(hand: object, seat: int) -> int:
        action = bot(hand, seat)
        assert action in hand.legal_actions(seat)  # type: ignore[attr-defined]
        return action

    for hand in _hands(3):
        play_hand(hand, [checked] + [make_bot("greedy", s, "jiaxing") for s in range(3)])
        assert hand.is_over  # type: ignore[attr-defined]
        assert sum(hand.net()) == 0  # type: ignore[attr-defined]


def test_below_the_threshold_the_danger_bot_plays_greedys_action(tmp_path: Path) -> None:
    """Every chance about sigmoid(-8) < 0.5: the bot is greedy at every decision."""
    bot = LearnedBot(0, "jiaxing", _danger_file(tmp_path, -8.0))
    greedy = greedy_bot("jiaxing", 0)
    turns = 0
    for hand in _hands(3):
        while not hand.is_over:  # type: ignore[attr-defined]
            seat = hand.to_act()[0]  # type: ignore[attr-defined]
            want = greedy(hand, seat)
            assert bot(hand, seat) == want
            turns += hand.phase == ACT  # type: ignore[attr-defined]
            hand.apply(want, seat)  # type: ignore[attr-defined]
    assert turns > 20


def test_where_greedys_discard_is_dangerous_the_bot_keeps_the_hand_nearest_ready(
    tmp_path: Path,
) -> None:
    """Only greedy's discard over the threshold: the bot plays another discard, one that
    leaves the hand as near ready as any other safe discard."""
    from paiju.bots.simple import reader

    bot = LearnedBot(0, "jiaxing", _danger_file(tmp_path, -8.0))
    danger = bot.danger
    assert danger is not None
    greedy = greedy_bot("jiaxing", 0)
    hand = _hands(1)[0]
    seat = hand.to_act()[0]  # type: ignore[attr-defined]
    assert hand.phase == ACT  # type: ignore[attr-defined]
    legal = hand.legal_actions(seat)  # type: ignore[attr-defined]
    want = greedy(hand, seat)
    danger.layers[-1][1][want] = 8.0
    try:
        got = bot(hand, seat)
    finally:
        danger.layers[-1][1][want] = -8.0
    assert got != want and got in legal and got < N_KINDS
    counts = bytearray(hand.counts[seat][:N_KINDS])  # type: ignore[attr-defined]
    declared = len(hand.melds[seat])  # type: ignore[attr-defined]

    def shanten(t: int) -> int:
        counts[t] -= 1
        sh = reader(hand, seat).shanten(bytes(counts), declared)  # type: ignore[arg-type]
        counts[t] += 1
        return int(sh)

    assert shanten(got) == min(shanten(t) for t in legal if t < N_KINDS and t != want)
