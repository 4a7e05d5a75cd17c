"""``paiju train VARIANT``: imitation of a teacher bot, then self-play PPO with masks.

Phase 1 (imitation): the teacher (``strong`` by default) plays every seat of ``hands``
deals; each decision with more than one legal action is one example (the seat's
observation, its action mask, the teacher's action). A policy network (a multilayer
perceptron over the flattened planes and the scalars) learns them by masked
cross-entropy, optionally weighted by the teacher's margin over greedy's action
(``margin_scale``), optionally with the lookahead's far-hand tie-break score as an input
row (``candidate_features``).

Phase 2 (PPO, ``ppo_iters`` > 0): the learner plays one seat of each deal against
opponents drawn from a pool — greedy and the learner's own past snapshots (one added
every ``snapshot_every`` iterations) — with illegal actions masked out of the policy.
The reward is the seat's points (settlement, kong money) scaled by their running
spread; the advantage is the return minus the value head's estimate (one hand is short,
so no discounting), and the update is PPO's clipped objective with an entropy bonus.
With ``decides`` the learner and its snapshots play greedy's action at every other kind
of decision, so PPO samples and trains the network only where the shipped bot uses it.
The value head starts at zero and the first ``value_warmup`` iterations fit it alone;
the advantages are centred and scaled per iteration.

Everything is written under ``out``: ``train.log`` (one JSON line per epoch or
iteration), ``checkpoint-*.pt`` (torch state), ``curve.png`` (the learning curve) and
``<variant>.npz`` (the weights :mod:`paiju.bots.learned` runs with numpy alone).
Needs the ``train`` extra (torch) and the ``rl`` extra.
"""

from __future__ import annotations

import json
import random
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from paiju.rl.codecs import codec_for
from paiju.rl.encode import MahjongEncoder


@dataclass
class TrainConfig:
    variant: str
    out: Path
    teacher: str = "strong"
    hands: int = 600
    epochs: int = 8
    hidden: int = 256
    batch: int = 512
    lr: float = 1e-3
    ppo_iters: int = 0
    ppo_hands: int = 64
    ppo_epochs: int = 3
    ppo_lr: float = 3e-4
    clip: float = 0.2
    entropy: float = 0.01
    snapshot_every: int = 5
    value_warmup: int = 1
    """PPO iterations at the start that fit only the value head (the imitation phase
    leaves it untrained; its guesses would otherwise be the first advantages' noise)."""
    seed: int = 1
    threads: int = 1
    greedy_input: bool = True
    budget: float | None = None
    weight_decay: float = 1e-4
    data: list[Path] | None = None
    workers: int = 1
    margin_scale: float | None = None
    """With it, the imitation loss weighs each example where the teacher overrules greedy
    by its margin over greedy's action in points, divided by this and capped at 1 (an
    overrule worth ``margin_scale`` points or more counts fully, one worth nothing not
    at all); the other examples weigh 1. None: every example weighs 1."""
    far_weight: float = 1.0
    """With ``margin_scale``: the weight of an overrule by the far-hand tie-break (its
    margin is a count of tiles, not points)."""
    candidate_features: bool = False
    """Add :func:`~paiju.bots.learned.candidate_row` to the network's input."""
    value_labels: float | None = None
    """With it, a two-way decision the teacher valued in points (Qing'er's knock or pass)
    is labelled by the action of the higher mean value, not by the teacher's cautious
    pick (which keeps greedy's unless the other is three standard errors better), and
    weighs ``min(1, |difference| / value_labels)``: a cost-sensitive loss whose best
    policy takes the action of the higher expected value. Other examples keep their
    label and weight. Not with ``margin_scale``."""
    decides: tuple[str, ...] | None = None
    """The kinds of decision (:data:`~paiju.bots.learned.DECISION_KINDS`) the network
    makes: the teacher is asked, and examples are taken, only at those; the teacher's
    hands play greedy's (the hint's) action at the others, as the learned bot then does.
    None: every decision."""
    value_features: bool = False
    """Collect :func:`~paiju.bots.learned.value_rows` with each example and give the
    network a per-candidate value head over them (mahjong; imitation only)."""
    value_hidden: int = 32
    """Width of the value head's hidden layer."""
    value_scale: float = 800.0
    """Initial logits per unit of the value head's prior (:data:`VALUE_SCALE`)."""


def _features(
    encoder: Any,
    hand: Any,
    seat: int,
    n_actions: int,
    greedy: Any = None,
    *,
    candidates: bool = False,
) -> npt.NDArray[np.float32]:
    from paiju.bots.learned import features

    return features(encoder, hand, seat, n_actions, greedy, candidates=candidates)


def _hint(cfg: TrainConfig, seed: int) -> Any:
    """The greedy bot whose action is the network's extra input (``greedy_input``)."""
    if not cfg.greedy_input:
        return None
    from paiju.bots.greedy import greedy_bot

    return greedy_bot(cfg.variant, seed)


def _mask(n: int, legal: list[int]) -> npt.NDArray[np.bool_]:
    m = np.zeros(n, dtype=np.bool_)
    m[legal] = True
    return m


def _new_hand(flow: Any, options: Any, rng: random.Random, n_seats: int) -> Any:
    return flow.new_hand(options, seed=rng.getrandbits(48), dealer=rng.randrange(n_seats), carry={})


def _setup(variant: str) -> tuple[Any, Any, int]:
    from paiju.variants import find_variant

    flow = find_variant(variant)
    options = flow.default_options()
    return flow, options, flow.seats(options)


SOURCE_GREEDY, SOURCE_LOOKAHEAD, SOURCE_FAR, SOURCE_MONTECARLO = 0, 1, 2, 3
"""What decided an example's label (``source`` in the data): the teacher's own rule or
greedy (no values), the lookahead's values, the lookahead's far-hand tie-break (an
improving-tile count, no points), or Monte Carlo's mean points (Qing'er's strong bot)."""


@dataclass(frozen=True)
class Choice:
    """The teacher's action and, where its search valued the candidates in points, how
    much better it is than greedy's (``margin``) and than the best other action
    (``gap``); NaN where unknown."""

    action: int
    margin: float = float("nan")
    gap: float = float("nan")
    source: int = SOURCE_GREEDY
    points: dict[int, float] | None = None
    """The lookahead's value of every candidate it valued, in points (None: none)."""


def _teacher_choice(
    bot: Any, hand: Any, seat: int, legal: list[int], default: int | None
) -> Choice:
    """The teacher's action where ``default`` is greedy's (the network's hint).

    Greedy breaks ties between equally good discards at random, so the strong bot's own
    greedy fallback and the hint's greedy would disagree on ties by chance alone, and the
    network would be asked to predict coin flips. The lookahead teacher therefore starts
    from the hint's action, as the strong bot starts from its fallback's (``ties keep
    default``): it differs from the hint only where its values overrule greedy. Its
    values give the choice's margin over greedy's (for the margin-weighted loss)."""
    if default is None:
        return Choice(int(bot(hand, seat)))
    from paiju.bots.lookahead import lookahead_evaluation
    from paiju.bots.strong import StrongBot
    from paiju.engine.mahjong import MahjongHand

    if getattr(bot, "name", None) == "greedy":
        # the hint is the same greedy bot: its action is the teacher's
        return Choice(default, 0.0)
    if isinstance(bot, StrongBot) and bot.search == "lookahead" and isinstance(hand, MahjongHand):
        from paiju.engine import actions as A

        if A.ZIMO in legal:
            return Choice(int(A.ZIMO), 0.0 if default == A.ZIMO else float("nan"))
        ev = lookahead_evaluation(hand, seat, legal, default, bot.lookahead)
        return _choice_of(ev, default)
    if isinstance(bot, StrongBot) and bot.search == "montecarlo":
        return _sampled_choice(bot.evaluate(hand, seat, default=default), default)
    return Choice(int(bot(hand, seat)))


def _sampled_choice(ev: Any, default: int) -> Choice:
    """:class:`Choice` of a Monte Carlo :class:`~paiju.bots.values.Evaluation` made with
    greedy's action as its default (mean points over shared samples)."""
    choice = int(ev.choice)
    if ev.search != "montecarlo":
        return Choice(choice, 0.0 if choice == default else float("nan"))
    points = {a: v.points for a, v in ev.values.items() if v.points is not None}
    mine = points.get(choice, float("nan"))
    margin = mine - points[default] if default in points else float("nan")
    others = [p for a, p in points.items() if a != choice]
    gap = mine - max(others) if others else float("nan")
    return Choice(choice, margin, gap, SOURCE_MONTECARLO)


def _choice_of(ev: Any, default: int) -> Choice:
    """:class:`Choice` of a lookahead :class:`~paiju.bots.values.Evaluation` made with
    greedy's action as its default."""
    from paiju.engine import actions as A

    choice = int(ev.choice)
    points = {a: v.points for a, v in ev.values.items() if v.points is not None}
    if ev.search != "lookahead" or choice not in points:
        # greedy's shanten: the far tie-break may have moved it, by tiles, not points
        if choice == default:
            return Choice(choice, 0.0)
        return Choice(choice, source=SOURCE_FAR)

    def base(a: int) -> int:
        # a discard and the same discard with a ready declaration leave the same hand
        return a - A.TING if a >= A.TING else a

    mine = points[choice]
    margin = mine - points[default] if default in points else float("nan")
    others = [v for a, v in points.items() if base(a) != base(choice)]
    gap = mine - max(others) if others else float("nan")
    return Choice(choice, margin, gap, SOURCE_LOOKAHEAD, points)


class Examples(NamedTuple):
    """Imitation examples, one row per decision: the input (without the candidate row),
    the legal mask, the teacher's action, its margin over greedy's and its gap to the
    best other action in points (NaN: unknown), what decided it (``SOURCE_*``) and the
    :func:`~paiju.bots.learned.candidate_row` (the optional input row)."""

    x: npt.NDArray[np.float16]
    mask: npt.NDArray[np.bool_]
    y: npt.NDArray[np.int64]
    margin: npt.NDArray[np.float32]
    gap: npt.NDArray[np.float32]
    source: npt.NDArray[np.int8]
    cand: npt.NDArray[np.float16]
    values: npt.NDArray[np.float16] | None = None
    """With ``value_features``: each example's :func:`~paiju.bots.learned.value_rows`
    (examples × rows × action codes)."""
    points: npt.NDArray[np.float16] | None = None
    """With ``value_features``: the lookahead's value of each candidate in points (NaN
    where it valued none)."""


class _Rows:
    """Examples being collected."""

    def __init__(self) -> None:
        self.x: list[npt.NDArray[np.float16]] = []
        self.mask: list[npt.NDArray[np.bool_]] = []
        self.y: list[int] = []
        self.margin: list[float] = []
        self.gap: list[float] = []
        self.source: list[int] = []
        self.cand: list[npt.NDArray[np.float16]] = []
        self.values: list[npt.NDArray[np.float16]] = []
        self.points: list[npt.NDArray[np.float16]] = []

    def extend(self, other: _Rows) -> None:
        for name in vars(self):
            getattr(self, name).extend(getattr(other, name))

    def __len__(self) -> int:
        return len(self.y)

    def stack(self, n_in: int, n_actions: int) -> Examples:
        if not self.y:
            return Examples(
                np.zeros((0, n_in), np.float16),
                np.zeros((0, n_actions), np.bool_),
                np.zeros(0, np.int64),
                np.zeros(0, np.float32),
                np.zeros(0, np.float32),
                np.zeros(0, np.int8),
                np.zeros((0, n_actions), np.float16),
            )
        with_values = len(self.values) == len(self.y)
        return Examples(
            np.stack(self.x),
            np.stack(self.mask),
            np.asarray(self.y, dtype=np.int64),
            np.asarray(self.margin, dtype=np.float32),
            np.asarray(self.gap, dtype=np.float32),
            np.asarray(self.source, dtype=np.int8),
            np.stack(self.cand),
            np.stack(self.values) if with_values else None,
            np.stack(self.points) if with_values else None,
        )


def _hand_jobs(cfg: TrainConfig, n_seats: int) -> list[tuple[int, int, list[int]]]:
    """Each teacher hand's deal seed, dealer and seat seeds, drawn up front so that the
    examples do not depend on how the hands are split among worker processes."""
    rng = random.Random(cfg.seed)
    return [
        (rng.getrandbits(48), rng.randrange(n_seats), [rng.getrandbits(32) for _ in range(n_seats)])
        for _ in range(cfg.hands)
    ]


def _imitate_hand(cfg: TrainConfig, job: tuple[int, int, list[int]]) -> _Rows:
    """The teacher's decisions with more than one legal action in one hand."""
    from paiju.bots.learned import candidate_row, decision_kind, value_rows
    from paiju.bots.levels import make_player

    codec = codec_for(cfg.variant)
    encoder = _encoder(cfg.variant)
    flow, options, _ = _setup(cfg.variant)
    seed, dealer, seat_seeds = job
    hand = flow.new_hand(options, seed=seed, dealer=dealer, carry={})
    players = [make_player(cfg.teacher, s, cfg.variant, budget=cfg.budget) for s in seat_seeds]
    hint = _hint(cfg, seed & 0xFFFFFFFF)
    rows = _Rows()
    while not hand.is_over:
        seat = hand.to_act()[0]
        legal = hand.legal_actions(seat)
        if len(legal) == 1:
            hand.apply(legal[0], seat)
            continue
        default = None if hint is None else int(hint(hand, seat))
        if cfg.decides is not None and decision_kind(hand) not in cfg.decides:
            # greedy's decision, as the learned bot plays it: no example
            hand.apply(legal[0] if default is None else default, seat)
            continue
        choice = _teacher_choice(players[seat], hand, seat, legal, default)
        fixed = None if default is None else (lambda h, s, a=default: a)
        rows.x.append(_features(encoder, hand, seat, codec.n_actions, fixed).astype(np.float16))
        rows.mask.append(_mask(codec.n_actions, legal))
        rows.y.append(choice.action)
        rows.margin.append(choice.margin)
        rows.gap.append(choice.gap)
        rows.source.append(choice.source)
        rows.cand.append(candidate_row(hand, seat, codec.n_actions, default).astype(np.float16))
        if cfg.value_features:
            rows.values.append(value_rows(hand, seat, codec.n_actions).astype(np.float16))
            valued = np.full(codec.n_actions, np.nan, np.float16)
            for a, v in (choice.points or {}).items():
                valued[a] = v
            rows.points.append(valued)
        hand.apply(choice.action, seat)
    return rows


_ENCODERS: dict[str, Any] = {}


def _encoder(variant: str) -> Any:
    # one per process: the shanten planes' tables warm up over many hands
    enc = _ENCODERS.get(variant)
    if enc is None:
        enc = _ENCODERS[variant] = codec_for(variant).encoder(shanten=True)
    return enc


def _imitate_chunk(cfg: TrainConfig, jobs: list[tuple[int, int, list[int]]]) -> _Rows:
    rows = _Rows()
    for job in jobs:
        rows.extend(_imitate_hand(cfg, job))
    return rows


def _input_width(cfg: TrainConfig) -> int:
    """Width of the saved examples' input: planes, scalars and greedy's row (the
    candidate row is kept apart and inserted when a network reads it)."""
    codec = codec_for(cfg.variant)
    enc = _encoder(cfg.variant)
    n_obs: int = enc.n_planes * enc.kinds + enc.n_scalars
    return n_obs + (codec.n_actions if cfg.greedy_input else 0)


def collect_imitation(cfg: TrainConfig, stream: IO[str]) -> Examples:
    """The teacher's decisions over ``cfg.hands`` deals, in ``cfg.workers`` processes;
    the same examples, in the same order, for any count."""
    from paiju.simulator import Progress

    _, _, n_seats = _setup(cfg.variant)
    jobs = _hand_jobs(cfg, n_seats)
    chunk = 10
    chunks = [jobs[i : i + chunk] for i in range(0, len(jobs), chunk)]
    bar = Progress(cfg.hands, f"imitate {cfg.teacher}", unit="hands", stream=stream)
    rows = _Rows()
    results: Any
    pool = None
    if cfg.workers > 1:
        from concurrent.futures import ProcessPoolExecutor
        from functools import partial

        pool = ProcessPoolExecutor(cfg.workers)
        results = pool.map(partial(_imitate_chunk, cfg), chunks)
    else:
        results = (_imitate_chunk(cfg, c) for c in chunks)
    try:
        for part, c in zip(results, chunks, strict=True):
            rows.extend(part)
            bar.update(len(c))
    finally:
        if pool is not None:
            pool.shutdown()
    return rows.stack(_input_width(cfg), codec_for(cfg.variant).n_actions)


def save_examples(path: Path, data: Examples) -> None:
    np.savez(path, **{k: v for k, v in data._asdict().items() if v is not None})


def load_examples(paths: list[Path], n_in: int, n_actions: int, variant: str) -> Examples:
    """The examples of one or more ``imitation-data.npz`` files, in order. A file of an
    earlier version (no margins) has unknown margins and no candidate rows."""
    parts: list[Examples] = []
    for path in paths:
        with np.load(path) as saved:
            x, mask, y = saved["x"], saved["mask"], saved["y"]
            if x.shape[1] != n_in or mask.shape[1] != n_actions:
                raise ValueError(f"{path} does not hold {variant} examples of this input")
            n = len(y)
            nan = np.full(n, np.nan, np.float32)
            parts.append(
                Examples(
                    x,
                    mask,
                    y,
                    saved.get("margin", nan),
                    saved.get("gap", nan),
                    saved["source"] if "source" in saved else np.full(n, -1, np.int8),
                    saved["cand"]
                    if "cand" in saved
                    else np.full((n, n_actions), np.nan, np.float16),
                    saved.get("values"),
                    saved.get("points"),
                )
            )
    if len(parts) == 1:
        return parts[0]
    fields: list[Any] = [
        None if any(a is None for a in arrays) else np.concatenate(arrays)
        for arrays in zip(*parts, strict=True)
    ]
    return Examples(*fields)


def example_weights(data: Examples, n_actions: int, cfg: TrainConfig) -> npt.NDArray[np.float32]:
    """Each example's weight in the imitation loss (see ``TrainConfig.margin_scale``)."""
    w = np.ones(len(data.y), dtype=np.float32)
    if cfg.margin_scale is None:
        return w
    if not cfg.greedy_input:
        raise ValueError("the margin-weighted loss needs greedy's action in the input")
    over = data.x[:, -n_actions:].argmax(axis=1) != data.y
    far = over & (data.source == SOURCE_FAR)
    valued = over & ~far
    unknown = valued & ~np.isfinite(data.margin)
    if unknown.any():
        raise ValueError(
            f"{int(unknown.sum())} examples overrule greedy without a recorded margin"
            " (examples of an earlier version): collect them again for --margin-scale"
        )
    w[valued] = np.clip(data.margin[valued] / cfg.margin_scale, 0.0, 1.0)
    w[far] = cfg.far_weight
    return w


def value_labelled(
    data: Examples, weights: npt.NDArray[np.float32], scale: float
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
    """Labels and weights with ``TrainConfig.value_labels``: each two-way example with a
    recorded gap (the choice's mean points minus the other action's) is labelled by the
    action of the higher mean and weighs ``min(1, |gap| / scale)``."""
    y = data.y.copy()
    w = weights.copy()
    two = (data.mask.sum(axis=1) == 2) & np.isfinite(data.gap)
    rows = np.flatnonzero(two)
    for i in rows[data.gap[rows] < 0]:
        a, b = np.flatnonzero(data.mask[i])
        y[i] = b if y[i] == a else a
    w[rows] = np.minimum(1.0, np.abs(data.gap[rows]) / scale)
    return y, w


def network_input(data: Examples, n_actions: int, cfg: TrainConfig) -> npt.NDArray[np.float16]:
    """The examples' input as the network reads it: with ``candidate_features`` the
    candidate row goes in before greedy's row (which stays last)."""
    if not cfg.candidate_features:
        return data.x
    if not np.isfinite(data.cand).all():
        raise ValueError("these examples hold no candidate rows: collect them again")
    if cfg.greedy_input:
        return np.concatenate((data.x[:, :-n_actions], data.cand, data.x[:, -n_actions:]), axis=1)
    return np.concatenate((data.x, data.cand), axis=1)


def differs_from_greedy(x: npt.NDArray[Any], y: npt.NDArray[np.int64], n_actions: int) -> int:
    """Examples whose teacher action is not greedy's (the hint row is the input's tail)."""
    return int((x[:, -n_actions:].argmax(axis=1) != y).sum())


HINT_SCALE = 4.0
"""Initial weight of greedy's action in the logits (``greedy_input``): the untrained
network plays greedy's action with a margin of about this many logits."""


CANDIDATE_SCALE = 2000.0
"""Initial weight of the candidate row in the logits (``candidate_features``): its
values are tiles / 40 and scores can differ by a fifth of a tile (a held pair's tile
counts 3.4), so a fifth of a tile is worth 10 logits, more than greedy's hint: the
untrained network plays the far-hand tie-break exactly."""


VALUE_SCALE = 800.0
"""Initial logits per unit of the value head's prior (``value_features``): the points one
step out (:data:`~paiju.bots.learned.PRIOR_ROWS`, 0.5 points a unit) of two candidates
differ by hundredths, and 0.005 of a unit then beats the hint's 4 logits: on 16,838
valued decisions of 500 teacher hands, the prior alone with that bonus for greedy's
action agreed with the lookahead on 0.926 of them (greedy alone: 0.869) and made 68 %
of its overrules' points."""


def _net(
    n_in: int,
    hidden: int,
    n_out: int,
    greedy_input: bool = False,
    candidate_features: bool = False,
    *,
    value_hidden: int = 0,
    value_scale: float = 0.0,
) -> Any:
    """The policy (and value) network; ``value_hidden`` > 0 adds the per-candidate value
    head (:meth:`paiju.bots.learned.Policy.value_head`) of that width, its prior's
    logits per unit starting at ``value_scale`` (default :data:`VALUE_SCALE`)."""
    import torch
    from torch import nn

    from paiju.bots.learned import PRIOR_ROWS, VALUE_HEAD_GAIN, VALUE_INPUTS, VALUED_ROW

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
            )
            self.pi = nn.Linear(hidden, n_out)
            self.v = nn.Linear(hidden, 1)
            self.hint_scale = nn.Parameter(torch.tensor(HINT_SCALE if greedy_input else 0.0))
            self.greedy_input = greedy_input
            self.candidate_features = candidate_features
            self.cand_scale = nn.Parameter(
                torch.tensor(CANDIDATE_SCALE if candidate_features else 0.0)
            )
            self.value_head: nn.Sequential | None = None
            scale = (value_scale or VALUE_SCALE) if value_hidden else 0.0
            self.value_scale = nn.Parameter(torch.tensor(scale))
            if value_hidden > 0:
                self.value_head = nn.Sequential(
                    nn.Linear(VALUE_INPUTS, value_hidden), nn.ReLU(), nn.Linear(value_hidden, 1)
                )
                # silent at first: the untrained network plays as it would without it
                last = self.value_head[2]
                assert isinstance(last, nn.Linear)
                nn.init.zeros_(last.weight)
                nn.init.zeros_(last.bias)

        def forward(
            self, x: torch.Tensor, values: torch.Tensor | None = None
        ) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.body(x)
            logits = self.pi(h)
            if self.greedy_input:
                # the residual: greedy's action (the input's tail) added to the logits
                logits = logits + self.hint_scale * x[:, -n_out:]
            end = x.shape[1] - (n_out if self.greedy_input else 0)
            if self.candidate_features:
                logits = logits + self.cand_scale * x[:, end - n_out : end]
            if self.value_head is not None:
                if values is None:
                    raise ValueError("the value head needs the examples' value rows")
                zero = torch.zeros_like(x[:, :n_out])
                hint = x[:, -n_out:] if self.greedy_input else zero
                cand = x[:, end - n_out : end] if self.candidate_features else zero
                z = torch.cat((values, hint[:, None], cand[:, None]), dim=1).transpose(1, 2)
                prior = values[:, list(PRIOR_ROWS)].sum(dim=1)
                head = self.value_scale * prior + VALUE_HEAD_GAIN * self.value_head(z).squeeze(-1)
                logits = logits + head * values[:, VALUED_ROW]
            return logits, self.v(h).squeeze(-1)

    return Net()


def export_npz(
    net: Any,
    path: Path,
    variant: str,
    encoder: Any,
    greedy_input: bool,
    *,
    candidate_features: bool = False,
    decides: tuple[str, ...] | None = None,
) -> None:
    """The policy layers as numpy arrays (``x @ w + b``), for :mod:`paiju.bots.learned`;
    ``decides``: the decision kinds the network makes (absent from the file: all)."""
    body = [m for m in net.body if hasattr(m, "weight")]
    arrays: dict[str, Any] = {}
    for i, layer in enumerate([*body, net.pi]):
        # float16 halves the file; the bot computes in float32
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float16)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    arrays["variant"] = np.array(variant)
    arrays["n_planes"] = np.array(encoder.n_planes)
    arrays["n_scalars"] = np.array(encoder.n_scalars)
    arrays["greedy_input"] = np.array(greedy_input)
    arrays["candidate_features"] = np.array(candidate_features)
    arrays["candidate_scale"] = np.array(float(net.cand_scale.detach()), dtype=np.float32)
    arrays["hint_scale"] = np.array(float(net.hint_scale.detach()), dtype=np.float32)
    if decides is not None:
        arrays["decides"] = np.array(sorted(decides))
    if net.value_head is not None:
        arrays["value_scale"] = np.array(float(net.value_scale.detach()), dtype=np.float32)
        linear = [m for m in net.value_head if hasattr(m, "weight")]
        for i, layer in enumerate(linear):
            arrays[f"vw{i}"] = layer.weight.detach().numpy().T.astype(np.float16)
            arrays[f"vb{i}"] = layer.bias.detach().numpy().astype(np.float16)
    np.savez_compressed(path, **arrays)


class _Log:
    def __init__(self, path: Path, stream: IO[str]) -> None:
        self.file = path.open("a", encoding="utf-8")
        self.stream = stream
        self.rows: list[dict[str, Any]] = []

    def write(self, row: dict[str, Any]) -> None:
        row = {"time": round(time.time(), 1), **row}
        self.rows.append(row)
        line = json.dumps(row)
        self.file.write(line + "\n")
        self.file.flush()
        print(line, file=self.stream, flush=True)


def imitation(
    cfg: TrainConfig,
    net: Any,
    data: tuple[npt.NDArray[Any], npt.NDArray[np.bool_], npt.NDArray[np.int64]],
    log: _Log,
    *,
    weights: npt.NDArray[np.float32] | None = None,
    margins: npt.NDArray[np.float32] | None = None,
    values: npt.NDArray[np.float16] | None = None,
) -> None:
    """Masked cross-entropy, each example weighed by ``weights`` (default 1); the epoch
    of the lowest (weighted) held-out loss is kept. ``margins`` (points; NaN unknown)
    add the share of the held-out overrules' margin the network repeats to the log;
    ``values`` (the examples' value rows) feed a network's value head."""
    import torch

    x_all, m_all, y_all = data
    n = len(y_all)
    w_all = np.ones(n, np.float32) if weights is None else weights
    idx = np.random.default_rng(cfg.seed).permutation(n)
    n_val = max(1, n // 20)
    val, tr = idx[:n_val], idx[n_val:]
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    xv = torch.from_numpy(x_all[val].astype(np.float32))
    mv = torch.from_numpy(m_all[val])
    yv = torch.from_numpy(y_all[val])
    wv = torch.from_numpy(w_all[val])

    def rows_of(b: npt.NDArray[np.int64]) -> Any:
        return None if values is None else torch.from_numpy(values[b].astype(np.float32))

    zv = rows_of(val)
    # a constant normaliser (the mean weight), so that batches of few weighty examples
    # do not take larger steps than the others
    w_mean = max(float(w_all[tr].mean()), 1e-6) if len(tr) else 1.0
    best: tuple[float, int, dict[str, Any]] | None = None
    for epoch in range(cfg.epochs):
        net.train()
        perm = np.random.default_rng(cfg.seed + epoch).permutation(tr)
        total, count = 0.0, 0
        for start in range(0, len(perm), cfg.batch):
            b = perm[start : start + cfg.batch]
            x = torch.from_numpy(x_all[b].astype(np.float32))
            m = torch.from_numpy(m_all[b])
            y = torch.from_numpy(y_all[b])
            w = torch.from_numpy(w_all[b])
            logits, _ = net(x, rows_of(b))
            logits = logits.masked_fill(~m, -1e9)
            ce = torch.nn.functional.cross_entropy(logits, y, reduction="none")
            loss = (ce * w).mean() / w_mean
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            total += float(loss.detach()) * len(b)
            count += len(b)
        net.eval()
        with torch.no_grad():
            logits, _ = net(xv, zv)
            logits = logits.masked_fill(~mv, -1e9)
            ce = torch.nn.functional.cross_entropy(logits, yv, reduction="none")
            val_loss = float((ce * wv).sum() / wv.sum().clamp(min=1e-6))
            pred = logits.argmax(-1)
            acc = float((pred == yv).float().mean())
        row: dict[str, Any] = {
            "phase": "imitation",
            "epoch": epoch + 1,
            "loss": round(total / max(1, count), 4),
            "val_loss": round(val_loss, 4),
            "val_accuracy": round(acc, 4),
        }
        if cfg.greedy_input:
            # where the teacher overrules greedy, how often the network does the same;
            # where it does not, how often the network strays from greedy anyway
            hint = torch.from_numpy(x_all[val][:, -m_all.shape[1] :].argmax(axis=1))
            over = yv != hint
            kept = int((pred[over] == yv[over]).sum())
            strays = int((pred[~over] != yv[~over]).sum())
            row["val_overrules_kept"] = round(kept / max(1, int(over.sum())), 4)
            row["val_strays"] = round(strays / max(1, int((~over).sum())), 4)
            if margins is not None:
                # the overrules' worth in points, and how much of it the network keeps
                mgn = torch.from_numpy(np.nan_to_num(margins[val], nan=0.0))
                worth = float(mgn[over].sum())
                got = float(mgn[over & (pred == yv)].sum())
                row["val_margin_kept"] = round(got / worth, 4) if worth > 0 else None
        log.write(row)
        torch.save(net.state_dict(), cfg.out / f"checkpoint-imitation-{epoch + 1}.pt")
        if best is None or val_loss < best[0]:
            best = (val_loss, epoch + 1, {k: v.clone() for k, v in net.state_dict().items()})
    if best is not None:
        # the epoch that predicts the held-out examples best: later ones overfit
        net.load_state_dict(best[2])
        log.write({"phase": "imitation_kept", "epoch": best[1], "val_loss": round(best[0], 4)})


def _numpy_policy(net: Any, greedy_input: bool, candidates: bool = False) -> Any:
    from paiju.bots.learned import Policy

    body = [m for m in net.body if hasattr(m, "weight")]

    def arrays(layers: list[Any]) -> list[tuple[Any, Any]]:
        return [
            (
                layer.weight.detach().numpy().T.astype(np.float32).copy(),
                layer.bias.detach().numpy().astype(np.float32).copy(),
            )
            for layer in layers
        ]

    head = [] if net.value_head is None else [m for m in net.value_head if hasattr(m, "weight")]
    return Policy(
        arrays([*body, net.pi]),
        greedy_input,
        float(net.hint_scale.detach()),
        candidates,
        float(net.cand_scale.detach()),
        value_layers=arrays(head),
        value_scale=float(net.value_scale.detach()),
    )


def ppo(cfg: TrainConfig, net: Any, log: _Log, stream: IO[str]) -> None:
    import torch

    from paiju.bots.learned import decision_kind
    from paiju.bots.levels import make_player
    from paiju.simulator import Progress

    codec = codec_for(cfg.variant)
    encoder = codec.encoder(shanten=True)
    flow, options, n_seats = _setup(cfg.variant)
    rng = random.Random(cfg.seed + 1000)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.ppo_lr)
    pool: list[Any] = [_numpy_policy(net, cfg.greedy_input, cfg.candidate_features)]
    hint = _hint(cfg, cfg.seed + 1000)
    # the imitation phase never trains the value head: start it at "no advantage" (0)
    torch.nn.init.zeros_(net.v.weight)
    torch.nn.init.zeros_(net.v.bias)
    spread = 1.0
    bar = Progress(cfg.ppo_iters, "ppo", unit="iterations", stream=stream)

    def greedys(hand: Any) -> bool:
        """With ``decides``: greedy (the hint) makes this decision, as the learned bot
        then plays it, and PPO neither samples nor learns it."""
        return cfg.decides is not None and decision_kind(hand) not in cfg.decides

    def snapshot_player(policy: Any) -> Any:
        def play(hand: Any, seat: int) -> int:
            legal = hand.legal_actions(seat)
            if len(legal) == 1:
                return int(legal[0])
            if greedys(hand):
                return int(hint(hand, seat))
            logits = policy.logits(
                _features(
                    encoder, hand, seat, codec.n_actions, hint, candidates=cfg.candidate_features
                )
            )
            return int(max(legal, key=lambda a: float(logits[a])))

        return play

    for it in range(cfg.ppo_iters):
        xs, ms, acts, logps, rets = [], [], [], [], []
        points = []
        net.eval()
        for _ in range(cfg.ppo_hands):
            hand = _new_hand(flow, options, rng, n_seats)
            me = rng.choice(codec.players(hand))
            players: dict[int, Any] = {}
            for s in range(n_seats):
                if s == me:
                    continue
                if rng.random() < 0.5:
                    players[s] = make_player("greedy", rng.getrandbits(32), cfg.variant)
                else:
                    players[s] = snapshot_player(rng.choice(pool))
            steps: list[int] = []
            rewards: list[float] = []
            last_net = 0
            while not hand.is_over:
                seat = hand.to_act()[0]
                if seat != me:
                    hand.apply(players[seat](hand, seat), seat)
                    continue
                legal = hand.legal_actions(seat)
                if len(legal) == 1:
                    hand.apply(legal[0], seat)
                    continue
                if greedys(hand):
                    hand.apply(int(hint(hand, seat)), seat)
                    continue
                x = _features(
                    encoder, hand, seat, codec.n_actions, hint, candidates=cfg.candidate_features
                )
                m = _mask(codec.n_actions, legal)
                with torch.no_grad():
                    logits, _ = net(torch.from_numpy(x)[None])
                    logits = logits[0].masked_fill(~torch.from_numpy(m), -1e9)
                    dist = torch.distributions.Categorical(logits=logits)
                    a = int(dist.sample())  # type: ignore[no-untyped-call]
                    lp = float(dist.log_prob(torch.tensor(a)))  # type: ignore[no-untyped-call]
                net_now = hand.net()[me]
                if steps:
                    rewards[-1] += net_now - last_net
                last_net = net_now
                xs.append(x)
                ms.append(m)
                acts.append(a)
                logps.append(lp)
                steps.append(len(xs) - 1)
                rewards.append(0.0)
                hand.apply(a, seat)
            final = hand.net()[me]
            points.append(final)
            if steps:
                rewards[-1] += final - last_net
                ret = 0.0
                out = [0.0] * len(steps)
                for i in range(len(steps) - 1, -1, -1):
                    ret += rewards[i]
                    out[i] = ret
                rets.extend(out)
        if not xs:
            continue
        r = np.asarray(rets, dtype=np.float32)
        spread = 0.9 * spread + 0.1 * float(np.std(r) + 1e-6) if it else float(np.std(r) + 1e-6)
        x_t = torch.from_numpy(np.stack(xs))
        m_t = torch.from_numpy(np.stack(ms))
        a_t = torch.tensor(acts)
        lp_t = torch.tensor(logps)
        r_t = torch.from_numpy(r / spread)
        with torch.no_grad():
            # the advantages of the iteration's data under the value head before its
            # updates, centred and scaled: Qing'er's points are large and heavy-tailed
            adv_all = r_t - net(x_t)[1]
            adv_all = (adv_all - adv_all.mean()) / (adv_all.std() + 1e-6) if len(r) > 1 else adv_all
        warm = it < cfg.value_warmup
        net.train()
        kl_sum = 0.0
        for _ in range(cfg.ppo_epochs):
            perm = torch.randperm(len(acts))
            for start in range(0, len(acts), cfg.batch):
                b = perm[start : start + cfg.batch]
                logits, v = net(x_t[b])
                vloss = ((v - r_t[b]) ** 2).mean()
                if warm:
                    # the value head only: the policy keeps the imitation's answers
                    loss = vloss
                else:
                    logits = logits.masked_fill(~m_t[b], -1e9)
                    dist = torch.distributions.Categorical(logits=logits)
                    lp = dist.log_prob(a_t[b])  # type: ignore[no-untyped-call]
                    adv = adv_all[b]
                    ratio = torch.exp(lp - lp_t[b])
                    clipped = ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * adv
                    pg = -torch.min(ratio * adv, clipped).mean()
                    ent = dist.entropy().mean()  # type: ignore[no-untyped-call]
                    loss = pg + 0.5 * vloss - cfg.entropy * ent
                    kl_sum += float((lp_t[b] - lp).detach().sum())
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                opt.step()
        if (it + 1) % cfg.snapshot_every == 0:
            pool.append(_numpy_policy(net, cfg.greedy_input, cfg.candidate_features))
            torch.save(net.state_dict(), cfg.out / f"checkpoint-ppo-{it + 1}.pt")
        log.write(
            {
                "phase": "ppo",
                "iteration": it + 1,
                "mean_points": round(float(np.mean(points)), 3),
                "decisions": len(acts),
                "pool": len(pool),
                "value_only": warm,
                "approx_kl": round(kl_sum / max(1, len(acts) * cfg.ppo_epochs), 5),
            }
        )
        bar.update()


def plot(rows: list[dict[str, Any]], path: Path, variant: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    imit = [r for r in rows if r["phase"] == "imitation"]
    pp = [r for r in rows if r["phase"] == "ppo"]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    if imit:
        axes[0].plot([r["epoch"] for r in imit], [r["val_accuracy"] for r in imit], marker="o")
        axes[0].set_xlabel("imitation epoch")
        axes[0].set_ylabel("agreement with the teacher (held out)")
    if pp:
        axes[1].plot([r["iteration"] for r in pp], [r["mean_points"] for r in pp])
        axes[1].set_xlabel("PPO iteration")
        axes[1].set_ylabel("learner's mean points per hand")
    fig.suptitle(f"paiju train {variant}")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def train(cfg: TrainConfig, stream: IO[str] | None = None) -> Path:
    """Run both phases; returns the path of the exported ``.npz``."""
    import torch

    out_stream = stream if stream is not None else sys.stderr
    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    cfg.out.mkdir(parents=True, exist_ok=True)
    codec = codec_for(cfg.variant)
    encoder = codec.encoder(shanten=True)
    if cfg.candidate_features and codec.encoder is not MahjongEncoder:
        raise ValueError("--candidate-features: the candidate row is for mahjong only")
    if cfg.value_labels is not None and (cfg.value_labels <= 0 or cfg.margin_scale is not None):
        raise ValueError("--value-labels must be > 0 and not with --margin-scale")
    if cfg.decides is not None:
        from paiju.bots.learned import DECISION_KINDS

        unknown = sorted(set(cfg.decides) - set(DECISION_KINDS))
        if unknown or not cfg.decides:
            raise ValueError(
                f"--decides: unknown kinds {unknown} (known: {', '.join(DECISION_KINDS)})"
            )
        if not cfg.greedy_input:
            raise ValueError("--decides needs greedy's action in the input (the other kinds)")
    if cfg.value_features and codec.encoder is not MahjongEncoder:
        raise ValueError("--value-features: the value rows are for mahjong only")
    if cfg.value_features and cfg.ppo_iters > 0:
        raise ValueError("--value-features: PPO does not feed the value head (imitation only)")
    width = _input_width(cfg)
    n_in = width + (codec.n_actions if cfg.candidate_features else 0)
    log = _Log(cfg.out / "train.log", out_stream)
    log.write({"phase": "config", **{k: str(v) for k, v in asdict(cfg).items()}})
    net = _net(
        n_in,
        cfg.hidden,
        codec.n_actions,
        cfg.greedy_input,
        cfg.candidate_features,
        value_hidden=cfg.value_hidden if cfg.value_features else 0,
        value_scale=cfg.value_scale,
    )
    if cfg.data is not None or (cfg.hands > 0 and cfg.epochs > 0):
        if cfg.data is not None:
            data = load_examples(cfg.data, width, codec.n_actions, cfg.variant)
        else:
            data = collect_imitation(cfg, out_stream)
            # kept, so that other network settings can be tried on the same examples
            save_examples(cfg.out / "imitation-data.npz", data)
        row: dict[str, Any] = {"phase": "data", "examples": len(data.y)}
        if cfg.greedy_input:
            row["teacher_not_greedy"] = differs_from_greedy(data.x, data.y, codec.n_actions)
        weights = example_weights(data, codec.n_actions, cfg)
        labels = data.y
        if cfg.value_labels is not None:
            labels, weights = value_labelled(data, weights, cfg.value_labels)
            row["value_labels_not_greedy"] = differs_from_greedy(data.x, labels, codec.n_actions)
        if cfg.margin_scale is not None:
            row["weight_of_overrules"] = round(
                float(weights[data.x[:, -codec.n_actions :].argmax(axis=1) != data.y].sum()), 1
            )
        log.write(row)
        if cfg.epochs > 0:
            x = network_input(data, codec.n_actions, cfg)
            # the margins are the teacher's picks' (not the value labels')
            margins = data.margin if cfg.greedy_input and cfg.value_labels is None else None
            if cfg.value_features and data.values is None:
                raise ValueError("--value-features: these examples hold no value rows")
            values = data.values if cfg.value_features else None
            imitation(
                cfg,
                net,
                (x, data.mask, labels),
                log,
                weights=weights,
                margins=margins,
                values=values,
            )
            del x
        del data
    if cfg.ppo_iters > 0:
        ppo(cfg, net, log, out_stream)
    path = cfg.out / f"{cfg.variant}.npz"
    export_npz(
        net,
        path,
        cfg.variant,
        encoder,
        cfg.greedy_input,
        candidate_features=cfg.candidate_features,
        decides=cfg.decides,
    )
    plot(log.rows, cfg.out / "curve.png", cfg.variant)
    return path
