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
    p.add_argument("--lr", type=float, default=1e-3, help="imitation learning rate")
    p.add_argument("--ppo-iters", type=int, default=0, help="self-play PPO iterations")
    p.add_argument("--ppo-hands", type=int, default=64, help="hands per PPO iteration")
    p.add_argument(
        "--ppo-lr",
        type=float,
        default=3e-4,
        help="PPO learning rate (small, e.g. 1e-5, to fine-tune an imitation start)",
    )
    p.add_argument(
        "--budget", type=float, default=None, help="a strong teacher's seconds per decision"
    )
    p.add_argument(
        "--no-greedy-input",
        dest="greedy_input",
        action="store_false",
        help="leave greedy's action out of the network's input",
    )
    p.add_argument(
        "--data",
        nargs="+",
        default=None,
        metavar="FILE",
        help="imitation-data.npz files of earlier runs, pooled (instead of --hands)",
    )
    p.add_argument(
        "--margin-scale",
        type=float,
        default=None,
        help="weigh the teacher's overrules of greedy by their margin in points / this"
        " (capped at 1); default: every example weighs 1",
    )
    p.add_argument(
        "--far-weight",
        type=float,
        default=1.0,
        help="with --margin-scale: weight of the far-hand tie-break's overrules",
    )
    p.add_argument(
        "--candidate-features",
        action="store_true",
        help="add the lookahead's far tie-break score per discard to the input (mahjong)",
    )
    p.add_argument(
        "--value-labels",
        type=float,
        default=None,
        metavar="POINTS",
        help="label a two-way decision valued in points (knock or pass) by the higher mean,"
        " weighed by |difference| / POINTS (capped at 1)",
    )
    p.add_argument(
        "--decides",
        default=None,
        metavar="KINDS",
        help="comma-separated decision kinds the network makes (turn, claim, knock, takeoff);"
        " the teacher is asked only there, greedy plays the others; default: all",
    )
    p.add_argument(
        "--value-features",
        action="store_true",
        help="collect what the scorer pays one step out per candidate and add a"
        " per-candidate value head over it (mahjong, imitation only)",
    )
    p.add_argument(
        "--value-hidden", type=int, default=32, help="width of the value head's hidden layer"
    )
    p.add_argument(
        "--value-scale",
        type=float,
        default=800.0,
        help="initial logits per unit of the value head's prior (points one step out / 0.5)",
    )
    p.add_argument(
        "--danger",
        action="store_true",
        help="train the danger network instead (mahjong): greedy self-play, public"
        " observation -> chance each discard lets another seat win (paiju.rl.danger)",
    )
    p.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="with --danger: the bot's danger threshold stored in the file (default: the"
        " shipped bot's parameters, for this and the three below)",
    )
    p.add_argument(
        "--weight-decay",
        type=float,
        default=0.0,
        help="with --danger: AdamW's weight decay (the network overfits a hand's rows)",
    )
    p.add_argument(
        "--slack",
        type=int,
        default=None,
        help="with --danger: shanten the bot may give up to avoid danger",
    )
    p.add_argument(
        "--ukeire-tiebreak",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with --danger: the bot breaks ties among safe discards by greedy's measure",
    )
    p.add_argument(
        "--from-shanten",
        type=int,
        default=None,
        help="with --danger: the bot avoids danger only this many tiles from ready or more",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of deals and initial weights")
    p.add_argument("--threads", type=int, default=1, help="torch threads")
    p.add_argument("--workers", type=int, default=1, help="processes playing the teacher's hands")


def run_train(args: argparse.Namespace) -> int:
    from paiju.rl.codecs import CODECS

    if args.variant not in CODECS:
        print(f"paiju train: unknown variant {args.variant!r}", file=sys.stderr)
        return 2
    for name in ("hands", "epochs", "ppo_iters"):
        if getattr(args, name) < 0:
            print(f"paiju train: --{name.replace('_', '-')} must be >= 0", file=sys.stderr)
            return 2
    for name in ("hidden", "ppo_hands", "threads", "workers"):
        if getattr(args, name) < 1:
            print(f"paiju train: --{name.replace('_', '-')} must be >= 1", file=sys.stderr)
            return 2
    if args.lr <= 0 or args.ppo_lr <= 0:
        print("paiju train: --lr and --ppo-lr must be > 0", file=sys.stderr)
        return 2
    if args.budget is not None and args.budget <= 0:
        print("paiju train: --budget must be > 0", file=sys.stderr)
        return 2
    for name in args.data or ():
        if not Path(name).is_file():
            print(f"paiju train: --data: no file {name}", file=sys.stderr)
            return 2
    if args.margin_scale is not None and args.margin_scale <= 0:
        print("paiju train: --margin-scale must be > 0", file=sys.stderr)
        return 2
    if args.far_weight < 0:
        print("paiju train: --far-weight must be >= 0", file=sys.stderr)
        return 2
    if args.value_scale <= 0:
        print("paiju train: --value-scale must be > 0", file=sys.stderr)
        return 2
    if args.value_hidden < 1:
        print("paiju train: --value-hidden must be >= 1", file=sys.stderr)
        return 2
    if args.danger:
        return _run_danger(args)
    if args.hands == 0 and args.ppo_iters == 0 and args.data is None:
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
        lr=args.lr,
        ppo_iters=args.ppo_iters,
        ppo_hands=args.ppo_hands,
        ppo_lr=args.ppo_lr,
        seed=args.seed,
        threads=args.threads,
        workers=args.workers,
        greedy_input=args.greedy_input,
        budget=args.budget,
        data=[Path(name) for name in args.data] if args.data else None,
        margin_scale=args.margin_scale,
        far_weight=args.far_weight,
        candidate_features=args.candidate_features,
        decides=tuple(args.decides.split(",")) if args.decides else None,
        value_labels=args.value_labels,
        value_features=args.value_features,
        value_hidden=args.value_hidden,
        value_scale=args.value_scale,
    )
    try:
        path = train(cfg)
    except ValueError as exc:
        print(f"paiju train: {exc}", file=sys.stderr)
        return 2
    print(f"weights: {path}\nlog: {cfg.out / 'train.log'}\ncurve: {cfg.out / 'curve.png'}")
    return 0


def _run_danger(args: argparse.Namespace) -> int:
    """``paiju train <variant> --danger``: the danger network (:mod:`paiju.rl.danger`)."""
    from paiju.bots.learned import N_KINDS
    from paiju.rl.codecs import codec_for

    if codec_for(args.variant).encoder().kinds != N_KINDS:
        print("paiju train: --danger is for the mahjong games (34 tile kinds)", file=sys.stderr)
        return 2
    if args.hands == 0 and args.data is None:
        print("paiju train: --danger needs --hands > 0 or --data", file=sys.stderr)
        return 2
    if args.threshold is not None and not 0 < args.threshold < 1:
        print("paiju train: --threshold must be between 0 and 1", file=sys.stderr)
        return 2
    if args.from_shanten is not None and args.from_shanten < 0:
        print("paiju train: --from-shanten must be >= 0", file=sys.stderr)
        return 2
    if args.weight_decay < 0:
        print("paiju train: --weight-decay must be >= 0", file=sys.stderr)
        return 2
    if args.slack is not None and args.slack < 0:
        print("paiju train: --slack must be >= 0", file=sys.stderr)
        return 2
    try:
        import torch  # noqa: F401
    except ImportError:
        print("paiju train: needs PyTorch: pip install 'paiju[rl,train]'", file=sys.stderr)
        return 2
    from paiju.rl.danger import DangerConfig, train_danger

    given = {
        "threshold": args.threshold,
        "slack": args.slack,
        "ukeire": args.ukeire_tiebreak,
        "from_shanten": args.from_shanten,
    }
    cfg = DangerConfig(
        variant=args.variant,
        out=Path(args.out),
        hands=args.hands,
        epochs=args.epochs,
        hidden=args.hidden,
        lr=args.lr,
        weight_decay=args.weight_decay,
        seed=args.seed,
        threads=args.threads,
        data=[Path(name) for name in args.data] if args.data else None,
        **{k: v for k, v in given.items() if v is not None},
    )
    try:
        path = train_danger(cfg)
    except ValueError as exc:
        print(f"paiju train: {exc}", file=sys.stderr)
        return 2
    print(f"weights: {path}\nfigures: {cfg.out / 'danger.json'}")
    return 0
