"""The ``paiju`` command. Each subcommand lives in its own small function."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from paiju.variants import Variant


def _cmd_score(args: argparse.Namespace) -> int:
    from paiju.calculator import LIMITS, InputError, score_text
    from paiju.components.boundedjson import JsonLimitError, read_limited

    try:
        if args.file:
            with open(args.file, "rb") as fh:
                data = read_limited(fh, LIMITS.max_bytes)
        elif hasattr(sys.stdin, "buffer"):
            data = read_limited(sys.stdin.buffer, LIMITS.max_bytes)
        else:  # a text stream put in place of stdin (an embedding program, a test)
            data = sys.stdin.read(LIMITS.max_bytes + 1).encode("utf-8", "surrogatepass")
        status, out = score_text(data)
    except OSError as exc:
        print(
            f"paiju score: cannot read {args.file or 'stdin'}: {_os_reason(exc)}", file=sys.stderr
        )
        return 2
    except JsonLimitError as exc:
        print(f"paiju score: (json): {exc}", file=sys.stderr)
        return 2
    except InputError as exc:
        print(f"paiju score: {exc}", file=sys.stderr)
        return 2
    if args.explain and "explanation" in out:
        print(out["explanation"]["text"][args.lang])
    elif args.explain:  # not a valid win: the reason is the explanation
        print(out.get("reason", ""))
    else:
        print(json.dumps(out, ensure_ascii=False))
    return status


def _os_reason(exc: OSError) -> str:
    """An OSError's reason without a traceback (``strerror`` is None for some errors)."""
    return exc.strerror or str(exc) or type(exc).__name__


def _cmd_bench(args: argparse.Namespace) -> int:
    from paiju.bench import main as bench_main

    return bench_main(args.only, repeats=args.repeats, quick=args.quick)


def _bot_names(text: str, n_seats: int, variant: str = "jiaxing") -> list[str]:
    names = [n.strip() for n in text.split(",")]
    if len(names) == 1:
        names *= n_seats
    if len(names) != n_seats:
        raise ValueError(f"--bots takes one name or {n_seats}, comma-separated")
    from paiju.bots.levels import make_player

    for name in dict.fromkeys(names):
        make_player(name, 0, variant)  # an unknown name fails here, before any game starts
    return names


def _seats(variant: Variant, overrides: dict[str, object]) -> int:
    """Seats at the table (Qing'er's depend on ``participants``)."""
    return variant.seats(variant.parse_options(overrides))


def _options(variant: Variant, text: str) -> dict[str, object]:
    from paiju.variants.base import OptionError

    try:
        overrides = json.loads(text) if text else {}
    except json.JSONDecodeError as exc:
        raise OptionError(f"--options is not JSON: {exc.msg}") from None
    if not isinstance(overrides, dict):
        raise OptionError("--options must be a JSON object")
    # {"profile": "jiaxing-hun", ...}: a named profile plus overrides
    overrides = variant.resolve_profile(overrides)
    variant.parse_options(overrides)
    return overrides


def _variant(command: str, name: str) -> Variant | None:
    """The variant named on the command line, or None after saying which exist."""
    from paiju.variants import UnknownVariantError, find_variant

    try:
        return find_variant(name)
    except UnknownVariantError as exc:
        print(f"paiju {command}: {exc}", file=sys.stderr)
        return None


def _ray_executor(args: argparse.Namespace) -> Any:
    """The Ray executor ``--ray`` asks for (None without it); a local instance gets
    ``--workers`` CPUs when more than one was asked for."""
    if args.ray is None:
        return None
    from paiju.ray_executor import RayExecutor

    return RayExecutor(args.ray, num_cpus=args.workers if args.workers > 1 else None)


def _cmd_simulate(args: argparse.Namespace) -> int:
    from paiju.simulator import simulate
    from paiju.variants.base import OptionError

    flow = _variant("simulate", args.variant)
    if flow is None:
        return 2
    try:
        options = _options(flow, args.options)
        names = _bot_names(args.bots, _seats(flow, options), args.variant)
        if args.workers < 1:
            raise ValueError(f"--workers must be at least 1, not {args.workers}")
        if args.games < 0:
            raise ValueError(f"--games must not be negative, not {args.games}")
        if args.budget is not None and args.budget <= 0:
            raise ValueError(f"--budget must be positive, not {args.budget}")
    except (ValueError, OptionError) as exc:
        print(f"paiju simulate: {exc}", file=sys.stderr)
        return 2
    try:
        out = open(args.record, "w", encoding="utf-8") if args.record else None  # noqa: SIM115
    except OSError as exc:
        print(f"paiju simulate: cannot write {args.record}: {exc.strerror}", file=sys.stderr)
        return 2
    from paiju.ray_executor import RayUnavailableError

    try:
        executor = _ray_executor(args)
    except RayUnavailableError as exc:
        print(f"paiju simulate: {exc}", file=sys.stderr)
        if out is not None:
            out.close()
        return 2
    try:
        summary = simulate(
            args.variant,
            games=args.games,
            bots=names,
            seed=args.seed,
            options=options,
            workers=args.workers,
            executor=executor,
            record=out,
            out_dir=args.out,
            budget=args.budget,
            progress=not args.quiet,
        )
    except OSError as exc:
        print(f"paiju simulate: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    finally:
        if out is not None:
            out.close()
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if executor is not None:
        summary["workers"] = None
        summary["ray"] = args.ray
    summary["hands_with_a_win"] = summary["hands"] - summary["wins"]["exhaustive_draws"]
    summary["totals"] = summary["match_totals_by_seat"]
    print(json.dumps(summary, ensure_ascii=False))
    return 0


def _cmd_arena(args: argparse.Namespace) -> int:
    from paiju.arena import arena, format_table
    from paiju.variants.base import OptionError

    flow = _variant("arena", args.variant)
    if flow is None:
        return 2
    try:
        options = _options(flow, args.options)
        names = _bot_names(args.bots, _seats(flow, options), args.variant)
        if args.control is not None:
            _bot_names(args.control, 1, args.variant)
        if args.budget is not None and args.budget <= 0:
            raise ValueError(f"--budget must be positive, not {args.budget}")
        if args.workers < 1:
            raise ValueError(f"--workers must be at least 1, not {args.workers}")
    except (ValueError, OptionError) as exc:
        print(f"paiju arena: {exc}", file=sys.stderr)
        return 2
    from paiju.ray_executor import RayUnavailableError

    try:
        executor = _ray_executor(args)
    except RayUnavailableError as exc:
        print(f"paiju arena: {exc}", file=sys.stderr)
        return 2
    try:
        report = arena(
            args.variant,
            names,
            deals=args.deals,
            seed=args.seed,
            options=options,
            workers=args.workers,
            executor=executor,
            budget=args.budget,
            control=args.control,
            search=args.search,
            progress=not args.quiet,
        )
    except (ValueError, OptionError) as exc:
        print(f"paiju arena: {exc}", file=sys.stderr)
        return 2
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    text = json.dumps(report, ensure_ascii=False)
    if args.json == "-":
        print(text)
        print(format_table(report), file=sys.stderr)
        return 0
    print(format_table(report))
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                fh.write(text + "\n")
        except OSError as exc:
            print(f"paiju arena: cannot write {args.json}: {exc.strerror}", file=sys.stderr)
            return 2
    return 0


def _cmd_train(args: argparse.Namespace) -> int:
    from paiju.rl.cli import run_train

    return run_train(args)


def _read_record(
    command: str, path: str, *, name_file: bool = False
) -> list[dict[str, Any]] | None:
    """The lines of the record at ``path``, or None once ``paiju <command>`` has said
    why it cannot read them (``name_file``: the message names the file, for commands
    that read several)."""
    from paiju.engine.record import RecordError, read_record

    try:
        return read_record(path)
    except OSError as exc:
        print(f"paiju {command}: cannot read {path}: {_os_reason(exc)}", file=sys.stderr)
    except RecordError as exc:
        where = f"{path}: " if name_file else ""
        print(f"paiju {command}: {where}malformed record, {exc}", file=sys.stderr)
    return None


def _check_record(command: str, path: str) -> int:
    """``paiju replay`` / ``paiju verify``: exit 0 (and ``ok: …``) when the record checks,
    1 naming the line at fault, 2 when it cannot be read (docs/spec/record.md)."""
    from paiju.engine.record import replay, verify
    from paiju.variants import find_variant

    records = _read_record(command, path)
    if records is None:
        return 2
    result = (replay if command == "replay" else verify)(records, find_variant)
    if result.ok:
        print(
            f"ok: {result.hands} hands verified" if command == "replay" else f"ok: {result.message}"
        )
        return 0
    where = f"line {result.line}: " if result.line else ""
    print(f"paiju {command}: {where}{result.message}", file=sys.stderr)
    return 1


def _cmd_replay(args: argparse.Namespace) -> int:
    return _check_record("replay", args.file)


def _cmd_review(args: argparse.Namespace) -> int:
    from paiju.review import ReviewError, format_review, progress_bar, review_record

    records = _read_record("review", args.file)
    if records is None:
        return 2
    if args.rollouts is not None and args.rollouts < 1:
        print("paiju review: --rollouts must be at least 1", file=sys.stderr)
        return 2
    total = sum(1 for r in records if r.get("type") == "hand")
    try:
        review = review_record(
            records,
            args.seat,
            bot=args.bot,
            seed=args.seed,
            rollouts=args.rollouts,
            progress=progress_bar(lang=args.lang) if total >= 4 and not args.quiet else None,
        )
    except ReviewError as exc:
        print(f"paiju review: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(review.to_json(), ensure_ascii=False))
    else:
        print(format_review(review, args.lang, every=not args.summary))
    return 0


def _cmd_stats(args: argparse.Namespace) -> int:
    from paiju.stats import StatsError, format_stats, record_stats

    matches = []
    for path in args.files:
        records = _read_record("stats", path, name_file=True)
        if records is None:
            return 2
        matches.append(records)
    try:
        stats = record_stats(matches, agreement=args.agreement)
    except StatsError as exc:
        print(f"paiju stats: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([s.to_json() for s in stats], ensure_ascii=False))
    else:
        print(format_stats(stats, args.lang))
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    return _check_record("verify", args.file)


def _cmd_play(args: argparse.Namespace) -> int:
    import secrets

    try:
        from paiju.tui.app.play import PlayApp
    except ImportError as exc:
        print(
            f"paiju play: the terminal game needs Textual ({exc.name} is missing); "
            "install it with: pip install 'paiju[tui]'",
            file=sys.stderr,
        )
        return 2
    from paiju.engine.fairness import FairDeal, new_client_seed, new_server_seed
    from paiju.tui.session import PlaySession
    from paiju.variants.base import OptionError

    flow = _variant("play", args.variant)
    if flow is None:
        return 2
    if args.delay < 0:
        print("paiju play: --delay must not be negative", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    record = args.record or f"paiju-{args.variant}-{seed}.jsonl"
    try:
        options = flow.parse_options(_options(flow, args.options))
        fair = None
        if args.seed is None:
            # a secret server seed, committed in the record's header, and the person's
            # own client seed (seat 0); the bots bring none
            seeds = [new_client_seed()] + [""] * (flow.seats(options) - 1)
            fair = FairDeal.create(new_server_seed(), "play", seeds)
        session = PlaySession(
            args.variant,
            seed=seed,
            bots=args.bots.split(","),
            options=options,
            record_path=record,
            fair=fair,
        )
    except (ValueError, OptionError) as exc:
        print(f"paiju play: {exc}", file=sys.stderr)
        return 2
    app = PlayApp(session, lang=args.lang, tile_style=args.tiles, bot_delay=args.delay)
    saved = app.run()
    if saved:
        print(("record saved: " if args.lang == "en" else "记录已保存：") + saved)
    elif session.summaries:
        # a match cut short is recorded as a shorter one, which needs a ``hands`` option
        print(
            "no record written: these rules cannot end a match early (no 'hands' option)"
            if args.lang == "en"
            else "没有保存记录：这套规则没有局数选项，中途结束的对局无法记录",
            file=sys.stderr,
        )
    else:
        print(
            "no hand was finished: no record written"
            if args.lang == "en"
            else "没有打完的局，没有保存记录",
            file=sys.stderr,
        )
    return 0


def _server_config(text: str | None, config: Any) -> Any:
    """``--settings '{"bot_delay": 0}'``: ServerConfig fields over ``config``; None after
    naming what is wrong."""
    import dataclasses

    from paiju.server.room import ServerConfig

    if not text:
        return config
    try:
        values = json.loads(text)
    except json.JSONDecodeError as exc:
        print(f"paiju serve: --settings is not JSON: {exc}", file=sys.stderr)
        return None
    fields = {f.name: f for f in dataclasses.fields(ServerConfig)}
    if not isinstance(values, dict):
        print("paiju serve: --settings must be a JSON object", file=sys.stderr)
        return None
    for name, value in values.items():
        if name not in fields:
            known = ", ".join(fields)
            print(
                f"paiju serve: --settings: unknown setting {name!r} (known: {known})",
                file=sys.stderr,
            )
            return None
        current = getattr(config, name)
        if not isinstance(current, int | float | None):
            print(f"paiju serve: --settings: {name} has its own option", file=sys.stderr)
            return None
        ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
        if name == "seed":
            ok = value is None or (isinstance(value, int) and not isinstance(value, bool))
        if not ok:
            print(f"paiju serve: --settings: {name} must be a non-negative number", file=sys.stderr)
            return None
        setattr(config, name, type(current)(value) if current is not None else value)
    return config


def _cluster_settings(args: argparse.Namespace) -> Any:
    """The node's settings from ``--node`` and ``--redis`` (both needed), or None after
    saying what is wrong."""
    try:
        from paiju.server.cluster.node import ClusterSettings
    except ImportError as exc:
        print(f"paiju serve: {exc.name} is missing; pip install 'paiju[cluster]'", file=sys.stderr)
        return None
    if args.node is None or args.redis is None:
        print("paiju serve: a cluster node needs both --node NAME and --redis URL", file=sys.stderr)
        return None
    database = args.database or ""
    if not database.startswith(("postgresql", "postgres://")):
        print(
            "paiju serve: a cluster node needs --database with a PostgreSQL URL "
            "(the nodes share it)",
            file=sys.stderr,
        )
        return None
    settings = ClusterSettings(args.node, args.redis, lease_ttl=args.lease)
    try:
        settings.check()
    except ValueError as exc:
        print(f"paiju serve: {exc}", file=sys.stderr)
        return None
    return settings


def _cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from paiju.server.app import create_app
        from paiju.server.collector import tune_collector
        from paiju.server.http import configure_logging
        from paiju.server.room import ServerConfig
        from paiju.server.storage import check_database
    except ImportError as exc:
        print(f"paiju serve: {exc.name} is missing; pip install 'paiju[server]'", file=sys.stderr)
        return 2
    import ipaddress

    try:
        for proxy in args.trusted_proxy:
            ipaddress.ip_network(proxy, strict=False)
    except ValueError as exc:
        print(f"paiju serve: --trusted-proxy: {exc}", file=sys.stderr)
        return 2
    if not 0 <= args.bot_delay <= 10:
        print("paiju serve: --bot-delay must be between 0 and 10 seconds", file=sys.stderr)
        return 2
    if not 256 <= args.max_frame_bytes <= 1_048_576:
        print("paiju serve: --max-frame-bytes must be between 256 and 1048576", file=sys.stderr)
        return 2
    cluster = None
    if args.node is not None or args.redis is not None:
        cluster = _cluster_settings(args)
        if cluster is None:
            return 2
    config = _server_config(
        args.settings,
        ServerConfig(
            trusted_proxies=tuple(args.trusted_proxy),
            allowed_origins=tuple(args.allow_origin),
            max_frame_bytes=args.max_frame_bytes,
            bot_delay=args.bot_delay,
        ),
    )
    if config is None:
        return 2
    problem = check_database(args.database)
    if problem is not None:
        print(f"paiju serve: {problem}", file=sys.stderr)
        return 2
    configure_logging(args.log_level)
    app = create_app(args.database, config, cluster=cluster)
    tune_collector(config.gc_young)
    where = f" as node {cluster.node}" if cluster is not None else ""
    print(f"paiju: serving on http://{args.host}:{args.port}/{where}", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level="warning",
        access_log=False,
        ws="websockets-sansio",
        ws_max_size=args.max_frame_bytes,
        ws_per_message_deflate=False,
        h11_max_incomplete_event_size=16_384,
        # a connection handler that never returns must not keep a stopping node up
        timeout_graceful_shutdown=30,
    )
    return 0


def _cmd_cluster_load(args: argparse.Namespace) -> int:
    try:
        from paiju.server.cluster.load import ClusterPlan, run_cluster_load
    except ImportError as exc:
        print(f"paiju load: {exc.name} is missing; pip install 'paiju[server]'", file=sys.stderr)
        return 2
    plan = ClusterPlan(
        urls=[u.strip() for u in args.urls.split(",") if u.strip()],
        tables=args.tables,
        hands=args.hands,
        seconds=args.seconds,
        think=args.think,
        variant=args.variant,
        kill_pid=args.kill_pid,
        kill_after=args.kill_after,
        database=args.database,
        placement=args.placement,
    )
    try:
        figures = run_cluster_load(plan)
    except (ValueError, ProcessLookupError, PermissionError) as exc:
        print(f"paiju load: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures, ensure_ascii=False))
    lost = figures.get("decisions_lost", 0)
    return 0 if not figures["timed_out"] and not lost else 1


def _cmd_load(args: argparse.Namespace) -> int:
    if args.urls is not None:
        return _cmd_cluster_load(args)
    if args.kill_pid is not None or args.database is not None:
        print(
            "paiju load: --kill-pid and --database go with --urls (a running cluster)",
            file=sys.stderr,
        )
        return 2
    try:
        from paiju.server.load import LoadPlan, report_line, run_load
    except ImportError as exc:
        print(f"paiju load: {exc.name} is missing; pip install 'paiju[server]'", file=sys.stderr)
        return 2
    plan = LoadPlan(
        tables=args.tables,
        hands=args.hands,
        seconds=args.seconds,
        think=args.think,
        variant=args.variant,
        process=args.process,
        strong_tables=args.strong_tables,
        bot_processes=args.bot_processes,
        probes=args.probes,
        driver_nice=args.driver_nice,
        ramp=args.ramp,
        own_sessions=not args.same_session,
    )
    try:
        figures = run_load(plan)
    except ValueError as exc:
        print(f"paiju load: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(figures, ensure_ascii=False))
    print(f"paiju load: {report_line(figures)}", file=sys.stderr)
    return 0 if figures["errors"] == 0 and not figures["timed_out"] else 1


def _add_options_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--options",
        default="",
        help='rule options as a JSON object; "profile" names a rule profile, e.g. '
        '\'{"profile": "jiaxing-hun", "hun_kinds": 1}\'',
    )


def _add_ray_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="run the games as Ray tasks: a local Ray, or the cluster at ADDRESS "
        "(needs paiju[cluster])",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="paiju",
        description="牌局 paiju: Jiaxing mahjong, Taixing mahjong and Qing'er.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("score", help="score a hand (JSON on stdin or in FILE)")
    p.add_argument("file", nargs="?", help="situation JSON (default: stdin)")
    p.add_argument(
        "--explain",
        action="store_true",
        help="print how the settlement came about, for people (the JSON's 'explanation')",
    )
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of --explain")
    p.set_defaults(func=_cmd_score)

    p = sub.add_parser("simulate", help="play bot matches; optionally write their records")
    p.add_argument("variant", help="jiaxing, taixing or qinger")
    p.add_argument("--games", type=int, default=1, help="matches to play")
    p.add_argument("--seed", type=int, default=0, help="seed of the first match")
    p.add_argument("--bots", default="greedy", help="one bot name or one per seat, comma-separated")
    _add_options_argument(p)
    p.add_argument("--record", metavar="FILE", help="write the records (JSON Lines) here")
    p.add_argument("--workers", type=int, default=1, help="worker processes (1: in process)")
    p.add_argument(
        "--out", metavar="DIR", help="write summary.json, records.jsonl and PNG charts here"
    )
    p.add_argument("--budget", type=float, help="seconds per decision for strong bots")
    _add_ray_argument(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_simulate)

    p = sub.add_parser("arena", help="duplicate evaluation of bots (seats rotated per deal)")
    p.add_argument("variant", help="jiaxing, taixing or qinger")
    p.add_argument("--bots", default="strong,greedy,greedy,greedy", help="one name per seat")
    p.add_argument("--deals", type=int, default=100, help="deals (hand seeds) to replay")
    p.add_argument("--seed", type=int, default=0, help="seed of the deal stream")
    _add_options_argument(p)
    p.add_argument("--workers", type=int, default=1, help="worker processes (1: in process)")
    p.add_argument("--budget", type=float, help="seconds per decision for strong bots")
    p.add_argument(
        "--search",
        choices=("lookahead", "montecarlo", "both"),
        help="the strong bots' search (default: the game's own, see docs/bots.md)",
    )
    p.add_argument(
        "--control",
        metavar="BOT",
        help="also replay each deal with each slot replaced by BOT: advantage over it",
    )
    p.add_argument("--json", metavar="FILE", help="write the JSON report here ('-': stdout)")
    _add_ray_argument(p)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_arena)

    from paiju.rl.cli import add_train_arguments

    p = sub.add_parser("train", help="train the learned bot (needs paiju[rl,train])")
    add_train_arguments(p)
    p.set_defaults(func=_cmd_train)

    p = sub.add_parser("replay", help="verify a game record by re-running the engine")
    p.add_argument("file", help="record (JSON Lines)")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("review", help="复盘: set one seat's decisions beside a bot's")
    p.add_argument("file", help="record (JSON Lines)")
    p.add_argument("--seat", type=int, required=True, help="the seat reviewed (0-based)")
    p.add_argument("--bot", default="strong", help="the bot that judges: strong (default), greedy")
    p.add_argument("--seed", type=int, default=0, help="the judging bot's seed (default 0)")
    p.add_argument(
        "--rollouts",
        type=int,
        default=8,
        help="Monte Carlo samples a decision (Qing'er; default 8, fixed for repeatable reviews)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--summary", action="store_true", help="print only the summary")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language (default zh)")
    p.set_defaults(func=_cmd_review)

    p = sub.add_parser("stats", help="each player's statistics over records")
    p.add_argument("files", nargs="+", help="records (JSON Lines)")
    p.add_argument(
        "--agreement", action="store_true", help="also each player's agreement with strong (slow)"
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language (default zh)")
    p.set_defaults(func=_cmd_stats)

    p = sub.add_parser(
        "verify", help="check a record's fair deal (commitment, every wall) and replay it"
    )
    p.add_argument("file", help="record (JSON Lines)")
    p.set_defaults(func=_cmd_verify)

    p = sub.add_parser("play", help="play against bots in the terminal (needs paiju[tui])")
    p.add_argument("variant", help="jiaxing, taixing or qinger")
    p.add_argument("--lang", choices=("zh", "en"), default="zh", help="language (default zh)")
    p.add_argument("--seed", type=int, default=None, help="match seed (default: random)")
    p.add_argument("--bots", default="greedy", help="one bot name, or one per other seat")
    p.add_argument(
        "--record", metavar="FILE", help="record file (default paiju-VARIANT-SEED.jsonl)"
    )
    _add_options_argument(p)
    p.add_argument(
        "--tiles",
        choices=("hanzi", "code", "glyph"),
        default=None,
        help="tile faces: hanzi 五万 (zh default), code 5m (en default), glyph (Unicode tiles)",
    )
    p.add_argument("--delay", type=float, default=0.5, help="seconds a bot pauses before it plays")
    p.set_defaults(func=_cmd_play)

    p = sub.add_parser("serve", help="run the game server (websocket + REST)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument(
        "--database",
        metavar="URL",
        help="SQLAlchemy URL (default: PAIJU_DATABASE_URL or SQLite data/paiju.db)",
    )
    p.add_argument(
        "--max-frame-bytes",
        type=int,
        default=8192,
        help="largest websocket message accepted (default 8192)",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy (address or network) whose X-Forwarded-For is believed; repeatable",
    )
    p.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a browser origin allowed to open the websocket besides the served one "
        "(e.g. http://localhost:5173; '*' turns the check off); repeatable",
    )
    p.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        help="seconds a bot waits before its turn's move, so people can follow (default 0.6)",
    )
    p.add_argument(
        "--settings",
        metavar="JSON",
        help='server settings over the defaults, e.g. \'{"bot_delay": 0.2, "rejoin_grace": 60}\'',
    )
    p.add_argument("--node", metavar="NAME", help="run as this node of a cluster (with --redis)")
    p.add_argument("--redis", metavar="URL", help="the cluster's Redis (redis://HOST:PORT/DB)")
    p.add_argument(
        "--lease",
        type=float,
        default=3.0,
        help="seconds a node's room leases last unrenewed (how soon a dead node's rooms move)",
    )
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("load", help="load-test a server with bot tables over websockets")
    p.add_argument("--tables", type=int, default=200, help="concurrent tables")
    p.add_argument("--hands", type=int, default=1, help="hands per table")
    p.add_argument("--seconds", type=float, default=300.0, help="wall-clock limit")
    p.add_argument("--think", type=float, default=0.5, help="mean seconds per decision")
    p.add_argument("--variant", default="jiaxing", help="game to play")
    p.add_argument("--process", action="store_true", help="run the server in a child process")
    p.add_argument(
        "--strong-tables",
        type=int,
        default=0,
        help="extra tables of server-side strong bots playing beside the measured ones",
    )
    p.add_argument(
        "--bot-processes",
        type=int,
        default=2,
        help="the server's bot worker processes (0: strong bots think in its threads)",
    )
    p.add_argument(
        "--probes",
        type=int,
        default=4,
        help="ping-only connections from a prober process of its own at normal priority "
        "(its pings are timed apart from this driver's busy event loop; 0: none)",
    )
    p.add_argument(
        "--driver-nice",
        type=int,
        default=0,
        metavar="N",
        help="nice value of the thread that plays the tables (the server and the prober "
        "keep theirs): the clients stand for people on other machines",
    )
    p.add_argument(
        "--ramp",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="spread the tables' sitting down over this many seconds (0: all at once)",
    )
    p.add_argument(
        "--same-session",
        action="store_true",
        help="with --process: keep the server and the prober in this session (by default "
        "each starts one of its own, a scheduling group of its own under Linux autogroup)",
    )
    p.add_argument(
        "--urls",
        metavar="WS,WS",
        help="drive a running cluster: its nodes' websocket addresses, comma-separated "
        "(ws://127.0.0.1:8001/ws,ws://127.0.0.1:8002/ws); seats are spread over them",
    )
    p.add_argument(
        "--kill-pid",
        type=int,
        metavar="PID",
        help="failover drill: kill -9 this node process --kill-after seconds into play",
    )
    p.add_argument("--kill-after", type=float, default=10.0, help="seconds before the kill")
    p.add_argument(
        "--placement",
        choices=("seat", "table"),
        default="seat",
        help="with --urls: spread each table's seats over the nodes, or one node a table",
    )
    p.add_argument(
        "--database",
        metavar="URL",
        help="with --urls: the cluster's PostgreSQL, to count told decisions missing from the logs",
    )
    p.set_defaults(func=_cmd_load)

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
