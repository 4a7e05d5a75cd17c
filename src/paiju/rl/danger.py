"""The danger network (``paiju train <variant> --danger``): from a seat's public
observation, the chance that discarding each tile kind now lets another seat win on it.

Greedy ignores danger entirely, and an oracle that knew the other hands (greedy, but
at its own turn a discard that deals in to nobody) beat greedy by a third of a point a
hand in Jiaxing (docs/rl.md). This module learns that danger from what the seat may see:

* :func:`collect` plays greedy self-play hands and, at every turn decision of a seat
  where discards are legal, stores the seat's observation (the default encoder's planes,
  flattened, then its scalars; float16) and the label row ``y[34]``: 1 where discarding
  that kind now would let some other seat win on it by the engine's own rules, for all
  34 kinds (held or not);
* :func:`fit` trains an MLP (inputs → hidden → hidden → 34 logits, ReLU) with binary
  cross-entropy, holding out 5 % of the hands;
* :func:`export_danger` writes the ``.npz`` that :class:`paiju.bots.learned.LearnedBot`
  runs with numpy (``kind == "danger"``), with the bot's decision parameters.

Needs numpy and torch (the ``rl`` / ``train`` extras); the bot side needs numpy only.
"""

from __future__ import annotations

import io
import json
import math
import random
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from paiju.bots.learned import N_KINDS, Layers, observation_size, observe


@dataclass(frozen=True)
class DangerConfig:
    variant: str
    out: Path
    hands: int = 1500
    epochs: int = 6
    hidden: int = 256
    lr: float = 1e-3
    weight_decay: float = 0.0
    """AdamW's decoupled weight decay (0: plain Adam)."""
    batch: int = 256
    seed: int = 1
    threads: int = 1
    # the bot's parameters stored in the file; the defaults are the shipped bot's, tuned
    # on validation deals (docs/rl.md)
    threshold: float = 0.15
    """A discard whose chance of dealing in is at most this is safe."""
    slack: int = 0
    """Shanten the bot may give up, against greedy's discard, to play a safe one."""
    ukeire: bool = True
    """The bot's tie-break among safe discards: greedy's own measure before the chance."""
    from_shanten: int = 1
    """The bot avoids danger only from this many tiles from ready (0: everywhere)."""
    data: list[Path] | None = None
    """Earlier runs' ``danger-data.npz`` files, pooled (instead of collecting)."""


def deal_in_labels(hand: Any, seat: int) -> npt.NDArray[np.uint8]:
    """1 for each kind whose discard by ``seat`` now would let another seat win on it.

    Asks the engine's own rules (waits, then whether the win would be accepted). The win
    is built with the hand's ``claim_from`` as its source, which at the discarder's turn
    still names an earlier discarder: it is set to ``seat`` for the check, as it is in
    the real claim window, and restored after (nothing else changes)."""
    from paiju.engine.types import WinType

    y = np.zeros(N_KINDS, dtype=np.uint8)
    saved = hand.claim_from
    hand.claim_from = seat
    try:
        for s in range(4):
            if s == seat:
                continue
            for t in hand.waits(s):
                if t < N_KINDS and not y[t] and hand._can_take(s, t, WinType.DISCARD):
                    y[t] = 1
    finally:
        hand.claim_from = saved
    return y


def _is_turn(hand: Any, seat: int, legal: list[int]) -> bool:
    from paiju.engine.mahjong import ACT

    return bool(hand.phase == ACT and hand.current == seat and any(a < N_KINDS for a in legal))


def collect(
    variant: str, hands: int, seed: int, stream: IO[str] | None = None
) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.uint8], npt.NDArray[np.int32]]:
    """Greedy self-play: (inputs float16, labels, the hand index of each row)."""
    from paiju.bots.greedy import greedy_bot
    from paiju.rl.codecs import codec_for
    from paiju.variants import find_variant

    flow = find_variant(variant)
    options = flow.default_options()
    encoder = codec_for(variant).encoder()
    from paiju.simulator import Progress

    rng = random.Random(seed)
    bots = [greedy_bot(variant, seed * 4 + s) for s in range(4)]
    xs: list[npt.NDArray[np.float16]] = []
    ys: list[npt.NDArray[np.uint8]] = []
    ids: list[int] = []
    bar = Progress(hands, "danger: greedy hands", unit="hands", stream=stream or sys.stderr)
    for i in range(hands):
        hand = flow.new_hand(options, seed=rng.getrandbits(48), dealer=rng.randrange(4), carry={})
        while not hand.is_over:
            for seat in hand.to_act():
                legal = hand.legal_actions(seat)
                if _is_turn(hand, seat, legal):
                    xs.append(observe(encoder, hand, seat).astype(np.float16))
                    ys.append(deal_in_labels(hand, seat))
                    ids.append(i)
                action = legal[0] if len(legal) == 1 else bots[seat](hand, seat)
                hand.apply(int(action), seat)
                if hand.is_over:
                    break
        bar.update()
    n_in = observation_size(variant)
    x = np.stack(xs) if xs else np.zeros((0, n_in), np.float16)
    y = np.stack(ys) if ys else np.zeros((0, N_KINDS), np.uint8)
    return x, y, np.asarray(ids, dtype=np.int32)


def auc(scores: npt.NDArray[Any], labels: npt.NDArray[Any]) -> float:
    """The area under the ROC curve (rank statistic; ties share their mean rank)."""
    s = np.asarray(scores, dtype=np.float64).ravel()
    t = np.asarray(labels).ravel().astype(bool)
    pos = int(t.sum())
    neg = len(t) - pos
    if pos == 0 or neg == 0:
        return float("nan")
    order = np.argsort(s, kind="mergesort")
    ranks = np.empty(len(s), dtype=np.float64)
    sorted_s = s[order]
    # mean rank for tied scores
    _, first, counts = np.unique(sorted_s, return_index=True, return_counts=True)
    mean_rank = first + (counts + 1) / 2.0
    ranks[order] = np.repeat(mean_rank, counts)
    return float((ranks[t].sum() - pos * (pos + 1) / 2.0) / (pos * neg))


def fit(
    cfg: DangerConfig,
    x: npt.NDArray[np.float16],
    y: npt.NDArray[np.uint8],
    ids: npt.NDArray[np.int32],
    stream: IO[str],
    *,
    on_epoch: Any = None,
) -> tuple[Layers, dict[str, float]]:
    """Train the MLP; 5 % of the hands (whole hands, so no hand is on both sides) held
    out. Returns the layers (numpy ``(w, b)``, ``w`` inputs × outputs) and the figures.
    ``on_epoch(figures, layers)``, if given, is called after every epoch (the run's log
    and checkpoints)."""
    import torch
    from torch import nn

    torch.manual_seed(cfg.seed)
    torch.set_num_threads(cfg.threads)
    rng = np.random.default_rng(cfg.seed)
    hand_ids = np.unique(ids)
    held = rng.permutation(hand_ids)[: max(1, round(len(hand_ids) * 0.05))]
    is_held = np.isin(ids, held)
    if is_held.all():
        # too few hands to hold any out (a tiny test run): evaluate on the training rows
        is_held[:] = False
    tr = np.flatnonzero(~is_held)
    va = np.flatnonzero(is_held) if is_held.any() else tr
    n_in = x.shape[1]
    net = nn.Sequential(
        nn.Linear(n_in, cfg.hidden),
        nn.ReLU(),
        nn.Linear(cfg.hidden, cfg.hidden),
        nn.ReLU(),
        nn.Linear(cfg.hidden, N_KINDS),
    )
    opt = torch.optim.AdamW(net.parameters(), lr=cfg.lr, weight_decay=cfg.weight_decay)
    loss_fn = nn.BCEWithLogitsLoss()
    xt = torch.from_numpy(x)
    yt = torch.from_numpy(y)

    def evaluate(rows: npt.NDArray[np.int64]) -> tuple[float, npt.NDArray[np.float32]]:
        net.eval()
        outs = []
        with torch.no_grad():
            for k in range(0, len(rows), 4096):
                b = torch.from_numpy(rows[k : k + 4096])
                outs.append(net(xt[b].float()))
        logits = torch.cat(outs) if outs else torch.zeros((0, N_KINDS))
        loss = float(loss_fn(logits, yt[torch.from_numpy(rows)].float())) if len(rows) else 0.0
        net.train()
        return loss, logits.numpy()

    figures: dict[str, float] = {}
    best: tuple[float, dict[str, Any], dict[str, float]] | None = None
    for epoch in range(cfg.epochs):
        perm = rng.permutation(tr)
        total = 0.0
        for k in range(0, len(perm), cfg.batch):
            b = torch.from_numpy(perm[k : k + cfg.batch])
            loss = loss_fn(net(xt[b].float()), yt[b].float())
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(b)
        held_loss, logits = evaluate(va)
        figures = {
            "epoch": epoch + 1,
            "train_bce": total / max(1, len(tr)),
            "held_bce": held_loss,
            "held_auc": auc(logits, y[va]),
        }
        if on_epoch is not None:
            on_epoch(dict(figures), _layers(net))
        else:
            print("danger: " + json.dumps(figures), file=stream)
        # the network overfits within a few epochs (a hand's rows are alike): keep the
        # epoch of the lowest held-out loss
        if best is None or held_loss < best[0]:
            state = {k: v.detach().clone() for k, v in net.state_dict().items()}
            best = (held_loss, state, dict(figures))
    if best is not None:
        net.load_state_dict(best[1])
        figures = best[2]
    _, logits = evaluate(va)
    base = float(y[va].mean()) if len(va) else 0.0
    # the base rate's own BCE: what a network that knew nothing would score
    eps = 1e-7
    base_bce = -(base * math.log(base + eps) + (1 - base) * math.log(1 - base + eps))
    figures.update(
        {
            "rows": float(len(y)),
            "train_rows": float(len(tr)),
            "held_rows": float(len(va)),
            "hands": float(len(hand_ids)),
            "base_rate": base,
            "base_bce": base_bce,
        }
    )
    return _layers(net), figures


def _layers(net: Any) -> Layers:
    """The torch network's linear layers as numpy ``(w, b)``, ``w`` inputs × outputs."""
    from torch import nn

    layers = []
    for m in net:
        if isinstance(m, nn.Linear):
            w = m.weight.detach().numpy().T.copy()
            bias = m.bias.detach().numpy().copy()
            layers.append((w.astype(np.float32), bias.astype(np.float32)))
    return layers


def _write_npz(path: Path, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Like ``np.savez_compressed``, with a fixed timestamp in the zip entries so that the
    same run writes the same bytes (``np.savez`` stamps the current time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name, arr in arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(arr), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, buf.getvalue())


def export_danger(
    path: Path,
    variant: str,
    layers: list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
    *,
    threshold: float,
    slack: int,
    ukeire: bool = False,
    from_shanten: int = 0,
) -> None:
    """The bot's weights file: float16 layers ``dw0, db0, …``, ``kind = "danger"``."""
    arrays: dict[str, npt.NDArray[Any]] = {
        "variant": np.array(variant),
        "kind": np.array("danger"),
        "n_inputs": np.array(layers[0][0].shape[0], dtype=np.int64),
        "threshold": np.array(threshold, dtype=np.float64),
        "slack": np.array(slack, dtype=np.int64),
        "ukeire": np.array(ukeire),
        "from_shanten": np.array(from_shanten, dtype=np.int64),
    }
    for i, (w, b) in enumerate(layers):
        arrays[f"dw{i}"] = w.astype(np.float16)
        arrays[f"db{i}"] = b.astype(np.float16)
    _write_npz(path, arrays)


def set_parameters(
    path: Path,
    out: Path,
    *,
    threshold: float,
    slack: int,
    ukeire: bool = False,
    from_shanten: int = 0,
) -> None:
    """A copy of the danger file ``path`` at ``out`` with other decision parameters
    (tuning the bot does not retrain the network)."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["threshold"] = np.array(threshold, dtype=np.float64)
    arrays["slack"] = np.array(slack, dtype=np.int64)
    arrays["ukeire"] = np.array(ukeire)
    arrays["from_shanten"] = np.array(from_shanten, dtype=np.int64)
    _write_npz(out, arrays)


def train_danger(cfg: DangerConfig, stream: IO[str] | None = None) -> Path:
    """Collect (or load ``cfg.data``), fit, export ``<out>/<variant>.npz``; the data go
    to ``<out>/danger-data.npz``, a JSON line per epoch to ``<out>/train.log``, each
    epoch's network to ``checkpoint-danger-<epoch>.npz``, the learning curve to
    ``curve.png`` and the kept epoch's figures to ``danger.json``."""
    out = stream or sys.stdout
    cfg.out.mkdir(parents=True, exist_ok=True)
    n_in = observation_size(cfg.variant)
    if cfg.data:
        xs, ys, idss = [], [], []
        offset = 0
        for name in cfg.data:
            with np.load(name, allow_pickle=False) as d:
                if str(d["variant"]) != cfg.variant or d["x"].shape[1] != n_in:
                    raise ValueError(f"{name} does not hold {cfg.variant} danger data")
                xs.append(d["x"])
                ys.append(d["y"])
                # hand indices kept apart between files (held-out split by hand)
                idss.append(d["ids"] + offset)
                offset += int(d["ids"].max()) + 1 if len(d["ids"]) else 0
        x, y, ids = np.concatenate(xs), np.concatenate(ys), np.concatenate(idss)
        took = 0.0
    else:
        start = time.perf_counter()
        x, y, ids = collect(cfg.variant, cfg.hands, cfg.seed, out)
        took = time.perf_counter() - start
        np.savez(cfg.out / "danger-data.npz", x=x, y=y, ids=ids, variant=np.array(cfg.variant))
    if not len(y):
        raise ValueError("no turn decisions collected")
    print(f"danger: {len(y)} rows from {len(np.unique(ids))} hands, {took:.1f} s", file=out)
    from paiju.rl.train import _Log

    log = _Log(cfg.out / "train.log", out)

    def epoch_done(figures: dict[str, float], layers: Layers) -> None:
        log.write({"phase": "danger", **figures})
        _export(cfg, cfg.out / f"checkpoint-danger-{int(figures['epoch'])}.npz", layers)

    layers, figures = fit(cfg, x, y, ids, out, on_epoch=epoch_done)
    figures["collect_seconds"] = took
    path = cfg.out / f"{cfg.variant}.npz"
    _export(cfg, path, layers)
    (cfg.out / "danger.json").write_text(json.dumps(figures, indent=1) + "\n")
    plot_danger(log.rows, cfg.out / "curve.png", cfg.variant)
    return path


def _export(cfg: DangerConfig, path: Path, layers: Layers) -> None:
    export_danger(
        path,
        cfg.variant,
        layers,
        threshold=cfg.threshold,
        slack=cfg.slack,
        ukeire=cfg.ukeire,
        from_shanten=cfg.from_shanten,
    )


def plot_danger(rows: list[dict[str, Any]], path: Path, variant: str) -> None:
    """The learning curve: training and held-out loss, and the held-out AUC, by epoch."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    epochs = [r["epoch"] for r in rows]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    axes[0].plot(epochs, [r["train_bce"] for r in rows], marker="o", label="training")
    axes[0].plot(epochs, [r["held_bce"] for r in rows], marker="o", label="held out")
    axes[0].set_xlabel("epoch")
    axes[0].set_ylabel("binary cross-entropy")
    axes[0].legend()
    axes[1].plot(epochs, [r["held_auc"] for r in rows], marker="o")
    axes[1].set_xlabel("epoch")
    axes[1].set_ylabel("held-out AUC (all 34 kinds)")
    fig.suptitle(f"paiju train {variant} --danger")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
