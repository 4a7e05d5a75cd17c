"""The ``paiju`` command. Each subcommand lives in its own small function."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence


def _cmd_score(args: argparse.Namespace) -> int:
    from paiju.calculator import InputError, score_text

    try:
        if args.file:
            with open(args.file, encoding="utf-8") as fh:
                text = fh.read()
        else:
            text = sys.stdin.read()
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


def _cmd_simulate(args: argparse.Namespace) -> int:
    import time

    from paiju.bots import make_bot
    from paiju.engine.match import Match, play_match
    from paiju.engine.record import dump_lines, record_match
    from paiju.variants.base import OptionError, options_from_mapping
    from paiju.variants.registry import flows

    flow = flows().get(args.variant)
    if flow is None:
        print(f"paiju simulate: unknown variant {args.variant!r}", file=sys.stderr)
        return 2
    try:
        overrides = json.loads(args.options) if args.options else {}
        if not isinstance(overrides, dict):
            raise OptionError("--options must be a JSON object")
        options = options_from_mapping(flow.options_type, overrides)
        # a flow whose table size depends on the options (Qing'er participants) says so
        n_seats = flow.seats(options) if hasattr(flow, "seats") else flow.n_seats
        names = args.bots.split(",")
        if len(names) == 1:
            names *= n_seats
        if len(names) != n_seats:
            raise ValueError(f"--bots takes one name or {n_seats}, comma-separated")
    except (ValueError, OptionError) as exc:
        print(f"paiju simulate: {exc}", file=sys.stderr)
        return 2
    out = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    hands = 0
    wins = 0
    totals = [0] * n_seats
    start = time.perf_counter()
    try:
        for game in range(args.games):
            seed = args.seed + game
            try:
                players = [
                    make_bot(n, seed * n_seats + i, args.variant) for i, n in enumerate(names)
                ]
            except ValueError as exc:
                print(f"paiju simulate: {exc}", file=sys.stderr)
                return 2
            match = Match(flow, options, seed, n_seats=n_seats)
            if out is not None:
                dump_lines(record_match(match, list(players), names), out)
            else:
                for _ in play_match(match, list(players)):
                    pass
            hands += len(match.hands)
            wins += sum(1 for h in match.hands if h.winners)
            totals = [a + b for a, b in zip(totals, match.totals(), strict=True)]
    finally:
        if out is not None:
            out.close()
    elapsed = time.perf_counter() - start
    summary = {
        "variant": args.variant,
        "games": args.games,
        "hands": hands,
        "hands_with_a_win": wins,
        "totals": totals,
        "seconds": round(elapsed, 3),
        "hands_per_s": round(hands / elapsed, 1) if elapsed else None,
    }
    print(json.dumps(summary, ensure_ascii=False))
    return 0


def _cmd_replay(args: argparse.Namespace) -> int:
    from paiju.engine.record import RecordError, iter_text, parse_lines, replay

    try:
        records = parse_lines(iter_text(args.file))
    except OSError as exc:
        print(f"paiju replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"paiju replay: malformed record, {exc}", file=sys.stderr)
        return 2
    result = replay(records)
    if result.ok:
        print(f"ok: {result.hands} hands verified")
        return 0
    where = f"line {result.line}: " if result.line else ""
    print(f"paiju replay: {where}{result.message}", file=sys.stderr)
    return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paiju",
        description="牌局 paiju: Jiaxing mahjong, Taixing mahjong and Qing'er.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("score", help="score a hand (JSON on stdin or in FILE)")
    p.add_argument("file", nargs="?", help="situation JSON (default: stdin)")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("simulate", help="play bot matches; optionally write their records")
    p.add_argument("variant", help="jiaxing or qinger")
    p.add_argument("--games", type=int, default=1, help="matches to play")
    p.add_argument("--seed", type=int, default=0, help="seed of the first match")
    p.add_argument("--bots", default="greedy", help="one bot name or one per seat, comma-separated")
    p.add_argument("--options", default="", help="rule options as a JSON object")
    p.add_argument("--record", metavar="FILE", help="write the records (JSON Lines) here")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("replay", help="verify a game record by re-running the engine")
    p.add_argument("file", help="record (JSON Lines)")
    p.set_defaults(func=_cmd_replay)

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
