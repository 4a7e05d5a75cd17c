"""``paiju train`` end to end on a tiny budget: log, checkpoints, curve, weights that the
numpy bot loads and that reproduce the torch network's choices."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("matplotlib")

import torch

from paiju.bots.learned import LearnedBot
from paiju.cli import main
from paiju.rl.train import TrainConfig, train


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
    x = bot.features(hand, seat)
    # greedy's action is the input's last row (greedy_input, the default)
    assert bot.policy.greedy_input and x[-145:].sum() == 1
    from paiju.rl.train import _net

    net = _net(len(x), cfg.hidden, 145, True)
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


def test_imitation_examples_do_not_depend_on_the_worker_count(tmp_path: Path) -> None:
    from paiju.rl.train import collect_imitation, differs_from_greedy

    cfg = TrainConfig(variant="taixing", out=tmp_path, teacher="strong", hands=2, seed=3)
    one = collect_imitation(cfg, io.StringIO())
    cfg.workers = 2
    two = collect_imitation(cfg, io.StringIO())
    for a, b in zip(one, two, strict=True):
        np.testing.assert_array_equal(a, b)
    # greedy's own hint: a greedy teacher never differs from it (its random tie-breaks
    # would otherwise be labels no network can predict)
    cfg = TrainConfig(variant="taixing", out=tmp_path, teacher="greedy", hands=2, seed=3)
    got = collect_imitation(cfg, io.StringIO())
    assert len(got.y) > 20 and differs_from_greedy(got.x, got.y, 145) == 0
    assert (got.margin == 0).all()


def test_the_teachers_overrules_carry_their_margin(tmp_path: Path) -> None:
    """Every example the lookahead decided by its values records how many points its
    choice is worth over greedy's: positive exactly where it overrules greedy, zero where
    it keeps greedy's; a far-hand tie-break's overrule has no margin in points."""
    from paiju.rl.train import SOURCE_FAR, SOURCE_LOOKAHEAD, collect_imitation

    cfg = TrainConfig(variant="taixing", out=tmp_path, teacher="strong", hands=4, seed=5)
    got = collect_imitation(cfg, io.StringIO())
    hint = got.x[:, -145:].argmax(axis=1)
    over = hint != got.y
    look = got.source == SOURCE_LOOKAHEAD
    assert (look & over).sum() > 0 and (look & ~over).sum() > 0
    assert (got.margin[look & over] > 0).all()
    assert (got.margin[look & ~over] == 0).all()
    # the gap to the runner-up never exceeds the margin over greedy's action
    gap = got.gap[look & over]
    assert (gap[np.isfinite(gap)] <= got.margin[look & over][np.isfinite(gap)] + 1e-6).all()
    far = got.source == SOURCE_FAR
    assert over[far].all() and np.isnan(got.margin[far]).all()
    # greedy decided the rest, so they are never overrules
    assert not over[~look & ~far].any()
    assert got.cand.shape == (len(got.y), 145)


def _examples(y: list[int], hint: list[int], margin: list[float], source: list[int]) -> Any:
    from paiju.rl.train import Examples

    n, k = len(y), 4
    x = np.zeros((n, 3 + k), np.float16)
    x[np.arange(n), 3 + np.asarray(hint)] = 1
    return Examples(
        x,
        np.ones((n, k), np.bool_),
        np.asarray(y, np.int64),
        np.asarray(margin, np.float32),
        np.full(n, np.nan, np.float32),
        np.asarray(source, np.int8),
        np.arange(n * k, dtype=np.float16).reshape(n, k),
    )


def test_margin_weights_count_an_overrule_by_its_points(tmp_path: Path) -> None:
    from paiju.rl.train import SOURCE_FAR, SOURCE_GREEDY, SOURCE_LOOKAHEAD, example_weights

    L, F, G = SOURCE_LOOKAHEAD, SOURCE_FAR, SOURCE_GREEDY
    data = _examples(
        y=[1, 2, 0, 3, 1],
        hint=[1, 0, 1, 0, 0],
        margin=[0.0, 0.05, 0.4, float("nan"), float("nan")],
        source=[L, L, L, F, G],
    )
    cfg = TrainConfig(variant="taixing", out=tmp_path)
    assert example_weights(data, 4, cfg).tolist() == [1, 1, 1, 1, 1]
    cfg.margin_scale, cfg.far_weight = 0.2, 0.5
    with pytest.raises(ValueError, match="without a recorded margin"):
        # the last example overrules greedy with no margin (an earlier version's data)
        example_weights(data, 4, cfg)
    data = data._replace(y=np.asarray([1, 2, 0, 3, 0]))
    np.testing.assert_allclose(example_weights(data, 4, cfg), [1, 0.25, 1, 0.5, 1])


def test_the_candidate_row_goes_before_greedys_row(tmp_path: Path) -> None:
    from paiju.rl.train import network_input

    data = _examples(y=[0, 1], hint=[2, 3], margin=[0, 0], source=[0, 0])
    cfg = TrainConfig(variant="taixing", out=tmp_path, candidate_features=True)
    x = network_input(data, 4, cfg)
    np.testing.assert_array_equal(x[:, :3], data.x[:, :3])
    np.testing.assert_array_equal(x[:, 3:7], data.cand)
    np.testing.assert_array_equal(x[:, 7:], data.x[:, 3:])
    with pytest.raises(ValueError, match="no candidate rows"):
        network_input(data._replace(cand=np.full((2, 4), np.nan, np.float16)), 4, cfg)


def test_examples_of_several_files_are_pooled_and_old_files_still_load(tmp_path: Path) -> None:
    from paiju.rl.train import load_examples, save_examples

    a = _examples(y=[0, 1], hint=[0, 1], margin=[0, 0], source=[0, 0])
    b = _examples(y=[2], hint=[3], margin=[0.5], source=[1])
    save_examples(tmp_path / "a.npz", a)
    np.savez(tmp_path / "old.npz", x=b.x, mask=b.mask, y=b.y)  # before margins
    got = load_examples([tmp_path / "a.npz", tmp_path / "old.npz"], 7, 4, "taixing")
    assert got.y.tolist() == [0, 1, 2]
    assert got.margin[:2].tolist() == [0, 0] and np.isnan(got.margin[2])
    assert np.isnan(got.cand[2]).all() and got.source[2] == -1
    with pytest.raises(ValueError, match="does not hold taixing examples"):
        load_examples([tmp_path / "a.npz"], 8, 4, "taixing")


def test_a_margin_weighted_network_with_candidate_rows_exports_what_it_learned(
    tmp_path: Path,
) -> None:
    cfg = TrainConfig(
        variant="taixing",
        out=tmp_path,
        teacher="strong",
        hands=2,
        epochs=1,
        seed=5,
        margin_scale=0.5,
        far_weight=0.1,
        candidate_features=True,
    )
    path = train(cfg)
    rows = [json.loads(line) for line in (tmp_path / "train.log").read_text().splitlines()]
    assert "weight_of_overrules" in rows[1] and "val_margin_kept" in rows[2]
    bot = LearnedBot(0, "taixing", path)
    assert bot.policy.candidate_features and bot.policy.greedy_input
    from paiju.rl.env import Table

    table = Table("taixing")
    table.seed(4)
    table.new_hand()
    hand = table.hand
    seat = hand.to_act()[0]
    x = bot.features(hand, seat)
    from paiju.rl.train import _net

    net = _net(len(x), cfg.hidden, 145, True, True)
    net.load_state_dict(torch.load(tmp_path / "checkpoint-imitation-1.pt"))
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(x)[None])
    np.testing.assert_allclose(bot.policy.logits(x), logits[0].numpy(), rtol=2e-2, atol=2e-2)


def test_train_cli_rejects_bad_margin_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "taixing", "--margin-scale", "0"]) == 2
    assert "--margin-scale" in capsys.readouterr().err
    assert main(["train", "taixing", "--far-weight", "-1"]) == 2
    assert "--far-weight" in capsys.readouterr().err
    assert main(["train", "taixing", "--data", "/nonexistent/a.npz"]) == 2
    assert "no file" in capsys.readouterr().err


def test_a_network_that_decides_only_knocks_learns_from_knocks_alone(tmp_path: Path) -> None:
    """``decides``: the Monte Carlo teacher is asked only at the knock (敲), starting from
    the hint's action; every example is a knock, labelled with its margin over greedy's
    answer, and the exported file names the kinds the network makes."""
    from paiju.rl.train import SOURCE_MONTECARLO
    from paiju.variants.qinger import hand as Q

    cfg = TrainConfig(
        variant="qinger",
        out=tmp_path,
        teacher="strong",
        budget=0.02,
        hands=2,
        epochs=1,
        seed=4,
        decides=("knock",),
    )
    path = train(cfg)
    with np.load(tmp_path / "imitation-data.npz") as data:
        mask, y, x = data["mask"], data["y"], data["x"]
        source, margin = data["source"], data["margin"]
    # one knock answer per seat a hand, at least (a hand nobody knocks is dealt again)
    assert len(y) >= 6
    assert (mask.sum(axis=1) == 2).all() and mask[:, [Q.KNOCK, Q.PASS]].all()
    assert (source == SOURCE_MONTECARLO).all()
    hint = x[:, -Q.N_ACTIONS :].argmax(axis=1)
    assert (margin[hint == y] == 0).all()
    bot = LearnedBot(0, "qinger", path)
    assert bot.policy.decides == {"knock"}
    with pytest.raises(ValueError, match="unknown kinds"):
        train(TrainConfig(variant="qinger", out=tmp_path, hands=1, decides=("bluff",)))
    with pytest.raises(ValueError, match="value-labels"):
        train(TrainConfig(variant="qinger", out=tmp_path, hands=1, value_labels=0.0))


def test_value_labels_take_the_higher_mean_of_a_two_way_decision() -> None:
    """``value_labels``: a two-way decision is labelled by the action of the higher mean
    (the gap's sign) and weighs its difference over the scale, capped at 1; a decision
    with more legal actions or no recorded gap keeps its label and weight."""
    from paiju.rl.train import Examples, value_labelled

    n, k = 4, 4
    mask = np.zeros((n, k), np.bool_)
    mask[:, [1, 3]] = True
    mask[3] = True  # four-way
    gap = np.asarray([30.0, -10.0, np.nan, -50.0], np.float32)
    data = Examples(
        np.zeros((n, 3), np.float16),
        mask,
        np.asarray([1, 1, 3, 0], np.int64),
        np.zeros(n, np.float32),
        gap,
        np.full(n, 3, np.int8),
        np.zeros((n, k), np.float16),
    )
    y, w = value_labelled(data, np.ones(n, np.float32), 20.0)
    assert y.tolist() == [1, 3, 3, 0]
    np.testing.assert_allclose(w, [1.0, 0.5, 1.0, 1.0])
    assert data.y.tolist() == [1, 1, 3, 0]  # the examples themselves are unchanged


def _valued_position(seed: int) -> tuple[Any, int]:
    """A Taixing position (greedy play) where some candidate has value rows."""
    from paiju.bots.greedy import greedy_bot
    from paiju.bots.learned import VALUED_ROW, value_rows
    from paiju.variants import find_variant

    flow = find_variant("taixing")
    options = flow.default_options()
    for k in range(20):
        hand = flow.new_hand(options, seed=seed + k, dealer=k % 4, carry={})
        bots = [greedy_bot("taixing", s) for s in range(4)]
        while not hand.is_over:
            seat = hand.to_act()[0]
            if len(hand.legal_actions(seat)) > 1 and value_rows(hand, seat, 145)[VALUED_ROW].any():
                return hand, seat
            hand.apply(bots[seat](hand, seat), seat)
    raise AssertionError("no valued position")


def test_value_rows_fill_the_lookaheads_region_only() -> None:
    """Rows are filled exactly where the row ``valued`` says, a ready declaration's code
    repeats its discard's rows, and the accepted waits never exceed the unseen tiles."""
    from paiju.bots.learned import READY_TILES_SCALE, VALUE_ROWS, VALUED_ROW, value_rows
    from paiju.bots.simple import unseen_counts
    from paiju.engine import actions as A

    hand, seat = _valued_position(11)
    rows = value_rows(hand, seat, 145)
    assert rows.shape == (len(VALUE_ROWS), 145)
    valued = rows[VALUED_ROW] > 0
    assert not rows[:, ~valued].any()
    legal = set(hand.legal_actions(seat))
    assert set(np.flatnonzero(valued).tolist()) <= legal
    for a in np.flatnonzero(valued):
        if a >= A.TING:
            np.testing.assert_array_equal(rows[:, a], rows[:, a - A.TING])
    ready = rows[VALUE_ROWS.index("ready_tiles")] * READY_TILES_SCALE
    assert (ready <= sum(unseen_counts(hand, seat)) + 1e-3).all()
    assert (rows >= 0).all()


def test_a_value_head_network_exports_what_it_learned(tmp_path: Path) -> None:
    """Examples carry the value rows and the lookahead's value of each candidate; the
    trained value head runs the same in numpy (the learned bot) as in torch."""
    from paiju.bots.learned import value_rows
    from paiju.rl.train import SOURCE_LOOKAHEAD, collect_imitation

    cfg = TrainConfig(
        variant="taixing",
        out=tmp_path,
        teacher="strong",
        hands=2,
        epochs=2,
        lr=1e-2,
        seed=5,
        candidate_features=True,
        value_features=True,
        value_hidden=8,
    )
    got = collect_imitation(cfg, io.StringIO())
    assert got.values is not None and got.points is not None
    assert got.values.shape == (len(got.y), 7, 145)
    look = got.source == SOURCE_LOOKAHEAD
    # where the lookahead valued candidates, their points are recorded, the choice's too
    assert np.isfinite(got.points[look, got.y[look]].astype(np.float32)).all()
    path = train(cfg)
    bot = LearnedBot(0, "taixing", path)
    assert bot.policy.value_features and len(bot.policy.value_layers) == 2
    hand, seat = _valued_position(11)
    x = bot.features(hand, seat)
    v = value_rows(hand, seat, 145)
    from paiju.rl.train import _net

    net = _net(len(x), cfg.hidden, 145, True, True, value_hidden=8)
    log = [json.loads(line) for line in (tmp_path / "train.log").read_text().splitlines()]
    kept = next(r["epoch"] for r in log if r["phase"] == "imitation_kept")
    net.load_state_dict(torch.load(tmp_path / f"checkpoint-imitation-{kept}.pt"))
    with torch.no_grad():
        logits, _ = net(torch.from_numpy(x)[None], torch.from_numpy(v)[None])
    assert np.abs(bot.policy.value_head(x, v)).max() > 0
    np.testing.assert_allclose(bot.policy.logits(x, v), logits[0].numpy(), rtol=2e-2, atol=2e-2)
    assert bot(hand, seat) in hand.legal_actions(seat)


def test_value_features_are_for_mahjong_imitation(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="mahjong only"):
        train(TrainConfig(variant="qinger", out=tmp_path, value_features=True, hands=1))
    with pytest.raises(ValueError, match="imitation only"):
        train(TrainConfig(variant="taixing", out=tmp_path, value_features=True, ppo_iters=1))


def test_ppo_with_decides_samples_and_learns_only_those_decisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``decides`` with PPO: the learner's network is asked only at the knock; greedy
    plays the learner's other decisions; the first iteration fits the value head alone
    (the policy's weights unchanged), the later ones move the policy."""
    import paiju.rl.train as train_module
    from paiju.bots.learned import decision_kind

    kinds: list[str] = []
    real = train_module._features

    def recorded(encoder: Any, hand: Any, *args: Any, **kwargs: Any) -> Any:
        # every input the network reads, the learner's and its snapshots'
        kinds.append(decision_kind(hand))
        return real(encoder, hand, *args, **kwargs)

    monkeypatch.setattr(train_module, "_features", recorded)
    cfg = TrainConfig(
        variant="qinger",
        out=tmp_path,
        teacher="greedy",
        hands=1,
        epochs=1,
        hidden=8,
        ppo_iters=2,
        ppo_hands=6,
        ppo_lr=1e-3,
        snapshot_every=1,
        decides=("knock",),
    )
    path = train(cfg)
    rows = [json.loads(line) for line in (tmp_path / "train.log").read_text().splitlines()]
    ppo_rows = [r for r in rows if r["phase"] == "ppo"]
    assert [r["value_only"] for r in ppo_rows] == [True, False]
    assert all(r["decisions"] > 0 for r in ppo_rows)
    # the network is asked at knocks only: greedy makes every other decision
    assert kinds and set(kinds) == {"knock"}
    before = torch.load(tmp_path / "checkpoint-imitation-1.pt")
    warm = torch.load(tmp_path / "checkpoint-ppo-1.pt")
    last = torch.load(tmp_path / "checkpoint-ppo-2.pt")
    assert torch.equal(before["pi.weight"], warm["pi.weight"])
    assert not torch.equal(before["v.weight"], warm["v.weight"])
    assert not torch.equal(warm["pi.weight"], last["pi.weight"])
    assert LearnedBot(0, "qinger", path).policy.decides == {"knock"}
