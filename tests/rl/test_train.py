"""``paiju train`` end to end on a tiny budget: log, checkpoints, curve, weights that the
numpy bot loads and that reproduce the torch network's choices."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("matplotlib")

import torch

from paiju.bots.learned import LearnedBot
from paiju.cli import main
from paiju.rl.train import TrainConfig, _features, train


def test_train_writes_everything_and_exports_the_same_policy(tmp_path: Path) -> None:
    cfg = TrainConfig(
        variant="jiaxing",
        out=tmp_path,
        teacher="greedy",
        hands=3,
        epochs=2,
        ppo_iters=2,
        ppo_hands=2,
        snapshot_every=1,
    )
    path = train(cfg)
    rows = [json.loads(line) for line in (tmp_path / "train.log").read_text().splitlines()]
    assert [r["phase"] for r in rows].count("imitation") == 2
    assert [r["phase"] for r in rows].count("ppo") == 2
    assert (tmp_path / "curve.png").stat().st_size > 0
    assert (tmp_path / "checkpoint-imitation-2.pt").exists()
    bot = LearnedBot(0, "jiaxing", path)
    from paiju.rl.env import Table

    table = Table("jiaxing")
    table.seed(2)
    table.new_hand()
    hand = table.hand
    seat = hand.to_act()[0]
    x = _features(bot.encoder, hand, seat)
    from paiju.rl.train import _net

    net = _net(len(x), cfg.hidden, 145)
    net.load_state_dict(torch.load(tmp_path / "checkpoint-ppo-2.pt"))
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(x)[None])
    # the file keeps float16 weights: equal up to that rounding
    np.testing.assert_allclose(bot.policy.logits(x), logits[0].numpy(), rtol=2e-2, atol=2e-2)


def test_train_cli_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "riichi"]) == 2
    assert "unknown variant" in capsys.readouterr().err
    assert main(["train", "jiaxing", "--hands", "-1"]) == 2
    assert main(["train", "jiaxing", "--teacher", "nobody"]) == 2
    assert "--teacher" in capsys.readouterr().err
