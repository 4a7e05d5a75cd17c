"""The learned bot: numpy inference over a weights file, legal moves only, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")

import numpy as np

from paiju.bots import make_bot
from paiju.bots.learned import LearnedBot, LearnedBotError
from paiju.engine.match import play_hand
from paiju.rl.codecs import codec_for
from paiju.variants.base import options_from_mapping
from paiju.variants.registry import flows


def _weights(tmp_path: Path, variant: str, favourite: int | None = None) -> Path:
    codec = codec_for(variant)
    enc = codec.encoder(shanten=True)
    n_in = enc.n_planes * enc.kinds + enc.n_scalars
    rng = np.random.default_rng(0)
    w0 = rng.normal(size=(n_in, 8)).astype(np.float32)
    w1 = rng.normal(size=(8, codec.n_actions)).astype(np.float32)
    b1 = np.zeros(codec.n_actions, dtype=np.float32)
    if favourite is not None:
        b1[favourite] = 1e6
    path = tmp_path / f"{variant}.npz"
    np.savez(path, w0=w0, b0=np.zeros(8, np.float32), w1=w1, b1=b1, variant=np.array(variant))
    return path


@pytest.mark.parametrize("variant", ["jiaxing", "taixing", "qinger"])
def test_learned_bot_plays_whole_hands(tmp_path: Path, variant: str) -> None:
    path = _weights(tmp_path, variant)
    flow = flows()[variant]
    options = options_from_mapping(flow.options_type, {})
    n = 3 if variant == "qinger" else 4
    bots = [LearnedBot(0, variant, path)] + [make_bot("greedy", s, variant) for s in range(n - 1)]
    for seed in range(3):
        hand = flow.new_hand(options, seed=seed, dealer=0, carry={})
        play_hand(hand, bots)
        assert hand.is_over
        assert sum(hand.net()) == 0


def test_learned_bot_takes_the_highest_legal_logit(tmp_path: Path) -> None:
    from paiju.engine import actions as A

    path = _weights(tmp_path, "jiaxing", favourite=A.PASS)
    bot = LearnedBot(0, "jiaxing", path)
    flow = flows()["jiaxing"]
    options = options_from_mapping(flow.options_type, {})
    hand = flow.new_hand(options, seed=1, dealer=0, carry={})
    seat = hand.to_act()[0]
    legal = hand.legal_actions(seat)
    logits = bot.policy.logits(bot.features(hand, seat))
    assert bot(hand, seat) == max(legal, key=lambda a: logits[a])
    assert A.PASS not in legal  # the favourite is never played when it is illegal


def test_missing_or_foreign_weights_are_named(tmp_path: Path) -> None:
    with pytest.raises(LearnedBotError, match="no learned weights"):
        LearnedBot(0, "jiaxing", tmp_path / "none.npz")
    path = _weights(tmp_path, "qinger")
    with pytest.raises(LearnedBotError, match="qinger, not jiaxing"):
        LearnedBot(0, "jiaxing", path)


def test_arena_checks_learned_weights_for_its_own_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paiju.bots import learned
    from paiju.cli import main

    monkeypatch.setattr(learned, "WEIGHTS_DIR", tmp_path)
    learned._CACHE.clear()
    assert main(["arena", "qinger", "--bots", "learned,greedy,greedy", "--deals", "2"]) == 2
    err = capsys.readouterr().err
    assert "no learned weights for qinger" in err and err.count("\n") == 1
