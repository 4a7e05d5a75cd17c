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
from paiju.variants import VARIANTS
from paiju.variants.base import options_from_mapping


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
    flow = VARIANTS[variant]
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
    flow = VARIANTS["jiaxing"]
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


@pytest.mark.parametrize("variant", ["jiaxing", "taixing", "qinger"])
def test_a_residual_network_starts_as_greedy(tmp_path: Path, variant: str) -> None:
    """With ``greedy_input`` the input ends with greedy's action, which ``hint_scale``
    adds to the logits: a network whose layers say nothing plays greedy exactly."""
    codec = codec_for(variant)
    enc = codec.encoder(shanten=True)
    n_in = enc.n_planes * enc.kinds + enc.n_scalars + codec.n_actions
    path = tmp_path / f"{variant}.npz"
    np.savez(
        path,
        w0=np.zeros((n_in, 4), np.float32),
        b0=np.zeros(4, np.float32),
        w1=np.zeros((4, codec.n_actions), np.float32),
        b1=np.zeros(codec.n_actions, np.float32),
        variant=np.array(variant),
        greedy_input=np.array(True),
        hint_scale=np.array(4.0, np.float32),
    )
    flow = VARIANTS[variant]
    options = options_from_mapping(flow.options_type, {})
    bot = LearnedBot(0, variant, path)
    greedy = make_bot("greedy", 0, variant)
    hand = flow.new_hand(options, seed=3, dealer=0, carry={})
    decisions = 0
    while not hand.is_over:
        seat = hand.to_act()[0]
        choice = bot(hand, seat)
        assert choice == greedy(hand, seat)
        decisions += len(hand.legal_actions(seat)) > 1
        hand.apply(choice, seat)
    assert decisions > 5


def test_the_weights_folder_can_be_named_by_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paiju.bots import learned

    path = _weights(tmp_path, "taixing")
    monkeypatch.setenv(learned.WEIGHTS_ENV, str(tmp_path))
    assert learned.weights_path("taixing") == path
    learned._CACHE.clear()
    assert isinstance(make_bot("learned", 0, "taixing"), LearnedBot)
    learned._CACHE.clear()


def test_a_game_offers_learned_exactly_where_weights_ship() -> None:
    """Weights ship only for a game where the learned bot beat greedy (docs/rl.md); that
    game lists ``learned`` among its levels and at server tables, the others do not."""
    from paiju.bots.learned import WEIGHTS_DIR

    for name, flow in VARIANTS.items():
        shipped = (WEIGHTS_DIR / f"{name}.npz").is_file()
        assert ("learned" in flow.bot_levels) == shipped, name
        assert ("learned" in flow.server_bot_levels) == shipped, name
        if shipped:
            # a policy network residual on greedy, or Jiaxing's danger network over greedy
            bot = LearnedBot(0, name, WEIGHTS_DIR / f"{name}.npz")
            assert bot.policy.greedy_input or bot.danger is not None
            assert flow.describe()["bots"]["names"]["learned"]["zh"] == "学习型"


SHIPPED = [v for v, flow in VARIANTS.items() if "learned" in flow.bot_levels]


@pytest.mark.parametrize("variant", SHIPPED)
def test_the_arena_runs_the_shipped_learned_bot(
    variant: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from paiju.bots import learned
    from paiju.cli import main

    monkeypatch.delenv(learned.WEIGHTS_ENV, raising=False)
    n = VARIANTS[variant].seats(VARIANTS[variant].default_options())
    bots = ",".join(["learned"] + ["greedy"] * (n - 1))
    assert main(["arena", variant, "--bots", bots, "--deals", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "learned - greedy" in out


def test_the_candidate_row_holds_the_lookaheads_far_tie_break() -> None:
    """Far from ready the strong bot's lookahead moves greedy's discard to the one with
    the most improving tiles, a held pair's counted as pongs too. The candidate row has
    values exactly where that tie-break decides (every discard two or more from ready,
    greedy's among the best), only on the best-shanten discards; where the tie-break
    moves greedy's discard, the discard it takes has the row's highest value, and where
    it keeps greedy's, none is higher than greedy's."""
    from paiju.bots.learned import candidate_row
    from paiju.bots.lookahead import lookahead_evaluation
    from paiju.bots.simple import reader
    from paiju.engine.mahjong import ACT

    flow = VARIANTS["taixing"]
    options = options_from_mapping(flow.options_type, {})
    greedy = make_bot("greedy", 0, "taixing")
    moved = kept = near = 0
    for seed in range(5):
        hand = flow.new_hand(options, seed=seed, dealer=seed % 4, carry={})
        while not hand.is_over:
            seat = hand.to_act()[0]
            legal = hand.legal_actions(seat)
            default = greedy(hand, seat)
            row = candidate_row(hand, seat, 145, default)
            tiles = [a for a in legal if a < 34]
            if hand.phase != ACT or len(tiles) < 2:
                assert not row.any()
                hand.apply(default, seat)
                continue
            counts = bytearray(hand.counts[seat][:34])
            sh = {}
            for t in tiles:
                counts[t] -= 1
                sh[t] = reader(hand, seat).shanten(bytes(counts), len(hand.melds[seat]))
                counts[t] += 1
            best = min(sh.values())
            far = best >= 2 and sh.get(default) == best
            assert row.any() == far
            if not far:
                near += 1
            else:
                assert {a for a in range(145) if row[a]} == {t for t in tiles if sh[t] == best}
                ev = lookahead_evaluation(hand, seat, legal, default)
                assert ev.search == "greedy"
                if ev.choice != default:
                    moved += 1
                    assert row[ev.choice] == row.max() > row[default]
                else:
                    kept += 1
                    assert row[default] == row.max()
            hand.apply(default, seat)
    assert moved > 0 and kept > 0 and near > 0


def test_a_file_with_candidate_rows_needs_the_wider_input(tmp_path: Path) -> None:
    codec = codec_for("taixing")
    enc = codec.encoder(shanten=True)
    n_obs = enc.n_planes * enc.kinds + enc.n_scalars
    for width, ok in ((n_obs + 2 * codec.n_actions, True), (n_obs + codec.n_actions, False)):
        path = tmp_path / f"{width}" / "taixing.npz"
        path.parent.mkdir()
        np.savez(
            path,
            w0=np.zeros((width, 4), np.float32),
            b0=np.zeros(4, np.float32),
            w1=np.zeros((4, codec.n_actions), np.float32),
            b1=np.zeros(codec.n_actions, np.float32),
            variant=np.array("taixing"),
            greedy_input=np.array(True),
            candidate_features=np.array(True),
            hint_scale=np.array(4.0, np.float32),
        )
        if ok:
            bot = LearnedBot(0, "taixing", path)
            flow = VARIANTS["taixing"]
            hand = flow.new_hand(flow.default_options(), seed=1, dealer=0, carry={})
            assert len(bot.features(hand, hand.to_act()[0])) == width
        else:
            with pytest.raises(LearnedBotError, match="does not fit"):
                LearnedBot(1, "taixing", path)


def test_a_network_that_decides_knocks_leaves_every_other_decision_to_greedy(
    tmp_path: Path,
) -> None:
    from paiju.bots.greedy import greedy_bot
    from paiju.bots.learned import decision_kind
    from paiju.variants.qinger import hand as Q

    path = _weights(tmp_path, "qinger", favourite=Q.PASS)
    with np.load(path) as data:
        arrays = dict(data)
    np.savez(path, **arrays, decides=np.array(["knock"]))
    bot = LearnedBot(5, "qinger", path)
    shadow = greedy_bot("qinger", 5)
    flow = VARIANTS["qinger"]
    options = options_from_mapping(flow.options_type, {})
    others = [make_bot("greedy", s, "qinger") for s in (1, 2)]
    kinds = set()
    for seed in range(3):
        hand = flow.new_hand(options, seed=seed, dealer=0, carry={})
        while not hand.is_over:
            seat = hand.to_act()[0]
            legal = hand.legal_actions(seat)
            if seat != 0:
                hand.apply(others[seat - 1](hand, seat), seat)
                continue
            if len(legal) == 1:
                hand.apply(legal[0], seat)
                continue
            greedy = shadow(hand, seat)
            kind = decision_kind(hand)
            kinds.add(kind)
            got = bot(hand, seat)
            # the network (whose favourite is PASS) answers the knock; greedy the rest
            assert got == (Q.PASS if kind == "knock" else greedy)
            hand.apply(got, seat)
    assert {"knock", "turn"} <= kinds
