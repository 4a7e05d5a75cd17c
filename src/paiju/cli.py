"""The ``paiju`` command. Each subcommand lives in its own small function."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence


def _cmd_score(args: argparse.Namespace) -> int:
    from paiju.calculator import InputError, score_text

    try:
        text = open(args.file, encoding="utf-8").read() if args.file else sys.stdin.read()
    except OSError as exc:
        print(f"paiju score: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        status, out = score_text(text)
    except InputError as exc:
        print(f"paiju score: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False))
    return status


def _cmd_bench(args: argparse.Namespace) -> int:
    from paiju.bench import main as bench_main

    return bench_main(args.only, repeats=args.repeats, quick=args.quick)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paiju",
        description="牌局 paiju: Jiaxing mahjong, Taixing mahjong and Qing'er.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("score", help="score a hand (JSON on stdin or in FILE)")
    p.add_argument("file", nargs="?", help="situation JSON (default: stdin)")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("bench", help="benchmarks against named peers (JSON lines)")
    p.add_argument("only", nargs="*", help="run only these benchmark names")
    p.add_argument("--repeats", type=int, default=5, help="timed repeats (median is kept)")
    p.add_argument("--quick", action="store_true", help="smaller inputs, for smoke tests")
    p.set_defaults(func=_cmd_bench)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    result: int = args.func(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
