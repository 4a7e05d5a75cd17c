"""``paiju train <variant> --danger``: labels from the engine's rules, a seeded run, a
file the learned bot loads."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("torch")

import numpy as np

from paiju.bots.learned import N_KINDS, LearnedBot
from paiju.cli import main
from paiju.engine.types import WinType
from paiju.rl.danger import auc, collect, deal_in_labels
from paiju.variants import VARIANTS
from paiju.variants.base import options_from_mapping


def test_a_tiny_danger_run_writes_a_file_the_bot_loads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["train", "jiaxing", "--danger", "--hands", "3", "--epochs", "1", "--seed", "2"]
    assert main([*args, "--out", str(tmp_path / "a")]) == 0
    assert main([*args, "--out", str(tmp_path / "b")]) == 0
    capsys.readouterr()
    a, b = tmp_path / "a" / "jiaxing.npz", tmp_path / "b" / "jiaxing.npz"
    # seeded: the same command writes the same file
    assert a.read_bytes() == b.read_bytes()
    bot = LearnedBot(0, "jiaxing", a)
    assert bot.danger is not None
    with np.load(a) as data:
        assert str(data["kind"]) == "danger"
        assert data["dw0"].dtype == np.float16
        # without the four flags: the shipped bot's parameters (docs/rl.md)
        assert float(data["threshold"]) == 0.15 and int(data["slack"]) == 0
        assert bool(data["ukeire"]) and int(data["from_shanten"]) == 1


def test_danger_cli_rejects_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "qinger", "--danger"]) == 2
    assert main(["train", "jiaxing", "--danger", "--threshold", "1.5"]) == 2
    assert main(["train", "jiaxing", "--danger", "--hands", "0"]) == 2
    capsys.readouterr()


def test_labels_name_the_discards_another_seat_would_win_on() -> None:
    """Each label row is what the claim window would allow: some other seat waits on the
    kind and the rules accept the win with the discarder as its source."""
    flow = VARIANTS["jiaxing"]
    options = options_from_mapping(flow.options_type, {})
    from paiju.bots.greedy import greedy_bot
    from paiju.engine.mahjong import ACT

    greedy = greedy_bot("jiaxing", 0)
    positive = 0
    for s in range(6):
        hand = flow.new_hand(options, seed=s, dealer=0, carry={})
        while not hand.is_over:
            seat = hand.to_act()[0]
            if hand.phase == ACT:
                before = hand.claim_from
                y = deal_in_labels(hand, seat)
                assert hand.claim_from == before
                hand.claim_from, saved = seat, hand.claim_from
                want = [
                    any(
                        t in hand.waits(o) and hand._can_take(o, t, WinType.DISCARD)
                        for o in range(4)
                        if o != seat
                    )
                    for t in range(N_KINDS)
                ]
                hand.claim_from = saved
                assert y.tolist() == [int(w) for w in want]
                positive += int(y.sum())
            hand.apply(greedy(hand, seat), seat)
    assert positive > 0


def test_collect_stores_float16_rows_and_their_hands() -> None:
    x, y, ids = collect("jiaxing", 2, 3)
    assert x.dtype == np.float16 and y.shape == (len(x), N_KINDS)
    assert sorted(set(ids.tolist())) == [0, 1]


def test_auc_is_the_rank_statistic() -> None:
    assert auc(np.array([0.1, 0.4, 0.35, 0.8]), np.array([0, 0, 1, 1])) == pytest.approx(0.75)
    assert auc(np.array([0.5, 0.5]), np.array([0, 1])) == pytest.approx(0.5)


def test_a_danger_run_leaves_its_log_checkpoints_and_curve(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As every ``paiju train`` mode: a JSON line an epoch, a checkpoint an epoch, the
    learning curve."""
    import json

    out = tmp_path / "run"
    args = ["train", "jiaxing", "--danger", "--hands", "3", "--epochs", "2", "--seed", "2"]
    assert main([*args, "--out", str(out)]) == 0
    capsys.readouterr()
    rows = [json.loads(line) for line in (out / "train.log").read_text().splitlines()]
    assert [r["epoch"] for r in rows] == [1, 2] and all(r["phase"] == "danger" for r in rows)
    for epoch in (1, 2):
        LearnedBot(0, "jiaxing", out / f"checkpoint-danger-{epoch}.npz")
    assert (out / "curve.png").read_bytes()[:4] == b"\x89PNG"
