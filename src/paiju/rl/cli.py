"""The ``paiju train`` subcommand's arguments and runner (kept out of ``paiju.cli``)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_train_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("variant", help="jiaxing, taixing or qinger")
    p.add_argument("--out", default="out/train", help="directory for log, checkpoints, weights")
    p.add_argument("--teacher", default="strong", help="bot imitated first (strong, greedy)")
    p.add_argument("--hands", type=int, default=600, help="teacher hands to imitate (0: none)")
    p.add_argument("--epochs", type=int, default=8, help="imitation epochs")
    p.add_argument("--hidden", type=int, default=256, help="width of the two hidden layers")
    p.add_argument("--ppo-iters", type=int, default=0, help="self-play PPO iterations")
    p.add_argument("--ppo-hands", type=int, default=64, help="hands per PPO iteration")
    p.add_argument("--seed", type=int, default=1, help="seed of deals and initial weights")
    p.add_argument("--threads", type=int, default=1, help="torch threads")


def run_train(args: argparse.Namespace) -> int:
    from paiju.rl.codecs import CODECS

    if args.variant not in CODECS:
        print(f"paiju train: unknown variant {args.variant!r}", file=sys.stderr)
        return 2
    for name in ("hands", "epochs", "ppo_iters"):
        if getattr(args, name) < 0:
            print(f"paiju train: --{name.replace('_', '-')} must be >= 0", file=sys.stderr)
            return 2
    for name in ("hidden", "ppo_hands", "threads"):
        if getattr(args, name) < 1:
            print(f"paiju train: --{name.replace('_', '-')} must be >= 1", file=sys.stderr)
            return 2
    if args.hands == 0 and args.ppo_iters == 0:
        print("paiju train: nothing to do (--hands 0 and --ppo-iters 0)", file=sys.stderr)
        return 2
    try:
        import torch  # noqa: F401
    except ImportError:
        print("paiju train: needs PyTorch: pip install 'paiju[rl,train]'", file=sys.stderr)
        return 2
    from paiju.bots.levels import make_player
    from paiju.rl.train import TrainConfig, train

    try:
        make_player(args.teacher, 0, args.variant)
    except ValueError as exc:
        print(f"paiju train: --teacher: {exc}", file=sys.stderr)
        return 2
    cfg = TrainConfig(
        variant=args.variant,
        out=Path(args.out),
        teacher=args.teacher,
        hands=args.hands,
        epochs=args.epochs,
        hidden=args.hidden,
        ppo_iters=args.ppo_iters,
        ppo_hands=args.ppo_hands,
        seed=args.seed,
        threads=args.threads,
    )
    path = train(cfg)
    print(f"weights: {path}\nlog: {cfg.out / 'train.log'}\ncurve: {cfg.out / 'curve.png'}")
    return 0
