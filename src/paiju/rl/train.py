"""``paiju train VARIANT``: imitation of a teacher bot, then self-play PPO with masks.

Phase 1 (imitation): the teacher (``strong`` by default) plays every seat of ``hands``
deals; each decision with more than one legal action is one example (the seat's
observation, its action mask, the teacher's action). A policy network (a multilayer
perceptron over the flattened planes and the scalars) learns them by masked
cross-entropy.

Phase 2 (PPO, ``ppo_iters`` > 0): the learner plays one seat of each deal against
opponents drawn from a pool — greedy and the learner's own past snapshots (one added
every ``snapshot_every`` iterations) — with illegal actions masked out of the policy.
The reward is the seat's points (settlement, kong money) scaled by their running
spread; the advantage is the return minus the value head's estimate (one hand is short,
so no discounting), and the update is PPO's clipped objective with an entropy bonus.

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
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from paiju.rl.codecs import codec_for


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
    seed: int = 1
    threads: int = 1


def _features(encoder: Any, hand: Any, seat: int) -> npt.NDArray[np.float32]:
    planes, scalars = encoder.encode(hand, seat)
    return np.concatenate((planes.ravel(), scalars))


def _mask(n: int, legal: list[int]) -> npt.NDArray[np.bool_]:
    m = np.zeros(n, dtype=np.bool_)
    m[legal] = True
    return m


def _new_hand(flow: Any, options: Any, rng: random.Random, n_seats: int) -> Any:
    return flow.new_hand(options, seed=rng.getrandbits(48), dealer=rng.randrange(n_seats), carry={})


def _setup(variant: str) -> tuple[Any, Any, int]:
    from paiju.variants.base import options_from_mapping
    from paiju.variants.registry import flows

    flow = flows()[variant]
    options = options_from_mapping(flow.options_type, {})
    seats = getattr(flow, "seats", None)
    n_seats = seats(options) if seats is not None else flow.n_seats
    return flow, options, n_seats


def collect_imitation(
    cfg: TrainConfig, stream: IO[str]
) -> tuple[npt.NDArray[np.float16], npt.NDArray[np.bool_], npt.NDArray[np.int64]]:
    """The teacher's decisions over ``cfg.hands`` deals (features, masks, actions)."""
    from paiju.bots.levels import make_player
    from paiju.simulator import Progress

    codec = codec_for(cfg.variant)
    encoder = codec.encoder(shanten=True)
    flow, options, n_seats = _setup(cfg.variant)
    rng = random.Random(cfg.seed)
    xs: list[npt.NDArray[np.float16]] = []
    ms: list[npt.NDArray[np.bool_]] = []
    ys: list[int] = []
    bar = Progress(cfg.hands, f"imitate {cfg.teacher}", unit="hands", stream=stream)
    for _ in range(cfg.hands):
        hand = _new_hand(flow, options, rng, n_seats)
        players = [
            make_player(cfg.teacher, rng.getrandbits(32), cfg.variant) for _ in range(n_seats)
        ]
        while not hand.is_over:
            seat = hand.to_act()[0]
            legal = hand.legal_actions(seat)
            action = players[seat](hand, seat)
            if len(legal) > 1:
                xs.append(_features(encoder, hand, seat).astype(np.float16))
                ms.append(_mask(codec.n_actions, legal))
                ys.append(action)
            hand.apply(action, seat)
        bar.update()
    return np.stack(xs), np.stack(ms), np.asarray(ys, dtype=np.int64)


def _net(n_in: int, hidden: int, n_out: int) -> Any:
    import torch
    from torch import nn

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body = nn.Sequential(
                nn.Linear(n_in, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
            )
            self.pi = nn.Linear(hidden, n_out)
            self.v = nn.Linear(hidden, 1)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.body(x)
            return self.pi(h), self.v(h).squeeze(-1)

    return Net()


def export_npz(net: Any, path: Path, variant: str, encoder: Any) -> None:
    """The policy layers as numpy arrays (``x @ w + b``), for :mod:`paiju.bots.learned`."""
    body = [m for m in net.body if hasattr(m, "weight")]
    arrays: dict[str, Any] = {}
    for i, layer in enumerate([*body, net.pi]):
        # float16 halves the file; the bot computes in float32
        arrays[f"w{i}"] = layer.weight.detach().numpy().T.astype(np.float16)
        arrays[f"b{i}"] = layer.bias.detach().numpy().astype(np.float16)
    arrays["variant"] = np.array(variant)
    arrays["n_planes"] = np.array(encoder.n_planes)
    arrays["n_scalars"] = np.array(encoder.n_scalars)
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


def imitation(cfg: TrainConfig, net: Any, data: Any, log: _Log) -> None:
    import torch

    x_all, m_all, y_all = data
    n = len(y_all)
    idx = np.random.default_rng(cfg.seed).permutation(n)
    n_val = max(1, n // 20)
    val, tr = idx[:n_val], idx[n_val:]
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr)
    xv = torch.from_numpy(x_all[val].astype(np.float32))
    mv = torch.from_numpy(m_all[val])
    yv = torch.from_numpy(y_all[val])
    for epoch in range(cfg.epochs):
        net.train()
        perm = np.random.default_rng(cfg.seed + epoch).permutation(tr)
        total, count = 0.0, 0
        for start in range(0, len(perm), cfg.batch):
            b = perm[start : start + cfg.batch]
            x = torch.from_numpy(x_all[b].astype(np.float32))
            m = torch.from_numpy(m_all[b])
            y = torch.from_numpy(y_all[b])
            logits, _ = net(x)
            logits = logits.masked_fill(~m, -1e9)
            loss = torch.nn.functional.cross_entropy(logits, y)
            opt.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            opt.step()
            total += float(loss.detach()) * len(b)
            count += len(b)
        net.eval()
        with torch.no_grad():
            logits, _ = net(xv)
            logits = logits.masked_fill(~mv, -1e9)
            val_loss = float(torch.nn.functional.cross_entropy(logits, yv))
            acc = float((logits.argmax(-1) == yv).float().mean())
        log.write(
            {
                "phase": "imitation",
                "epoch": epoch + 1,
                "loss": round(total / max(1, count), 4),
                "val_loss": round(val_loss, 4),
                "val_accuracy": round(acc, 4),
            }
        )
        torch.save(net.state_dict(), cfg.out / f"checkpoint-imitation-{epoch + 1}.pt")


def _numpy_policy(net: Any) -> Any:
    from paiju.bots.learned import Policy

    body = [m for m in net.body if hasattr(m, "weight")]
    return Policy(
        [
            (
                layer.weight.detach().numpy().T.astype(np.float32).copy(),
                layer.bias.detach().numpy().astype(np.float32).copy(),
            )
            for layer in [*body, net.pi]
        ]
    )


def ppo(cfg: TrainConfig, net: Any, log: _Log, stream: IO[str]) -> None:
    import torch

    from paiju.bots.levels import make_player
    from paiju.simulator import Progress

    codec = codec_for(cfg.variant)
    encoder = codec.encoder(shanten=True)
    flow, options, n_seats = _setup(cfg.variant)
    rng = random.Random(cfg.seed + 1000)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.ppo_lr)
    pool: list[Any] = [_numpy_policy(net)]
    spread = 1.0
    bar = Progress(cfg.ppo_iters, "ppo", unit="iterations", stream=stream)

    def snapshot_player(policy: Any) -> Any:
        def play(hand: Any, seat: int) -> int:
            legal = hand.legal_actions(seat)
            if len(legal) == 1:
                return int(legal[0])
            logits = policy.logits(_features(encoder, hand, seat))
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
                x = _features(encoder, hand, seat)
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
        net.train()
        for _ in range(cfg.ppo_epochs):
            perm = torch.randperm(len(acts))
            for start in range(0, len(acts), cfg.batch):
                b = perm[start : start + cfg.batch]
                logits, v = net(x_t[b])
                logits = logits.masked_fill(~m_t[b], -1e9)
                dist = torch.distributions.Categorical(logits=logits)
                lp = dist.log_prob(a_t[b])  # type: ignore[no-untyped-call]
                adv = r_t[b] - v.detach()
                ratio = torch.exp(lp - lp_t[b])
                pg = -torch.min(ratio * adv, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * adv).mean()
                vloss = ((v - r_t[b]) ** 2).mean()
                loss = pg + 0.5 * vloss - cfg.entropy * dist.entropy().mean()  # type: ignore[no-untyped-call]
                opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                opt.step()
        if (it + 1) % cfg.snapshot_every == 0:
            pool.append(_numpy_policy(net))
            torch.save(net.state_dict(), cfg.out / f"checkpoint-ppo-{it + 1}.pt")
        log.write(
            {
                "phase": "ppo",
                "iteration": it + 1,
                "mean_points": round(float(np.mean(points)), 3),
                "decisions": len(acts),
                "pool": len(pool),
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
    n_in = encoder.n_planes * encoder.kinds + encoder.n_scalars
    log = _Log(cfg.out / "train.log", out_stream)
    log.write({"phase": "config", **{k: str(v) for k, v in asdict(cfg).items()}})
    net = _net(n_in, cfg.hidden, codec.n_actions)
    if cfg.hands > 0 and cfg.epochs > 0:
        data = collect_imitation(cfg, out_stream)
        log.write({"phase": "data", "examples": len(data[2])})
        imitation(cfg, net, data, log)
        del data
    if cfg.ppo_iters > 0:
        ppo(cfg, net, log, out_stream)
    path = cfg.out / f"{cfg.variant}.npz"
    export_npz(net, path, cfg.variant, encoder)
    plot(log.rows, cfg.out / "curve.png", cfg.variant)
    return path
