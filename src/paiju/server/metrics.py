"""What ``/api/health`` reports and ``/metrics`` exports (Prometheus text format 0.0.4)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import paiju
from paiju.server import protocol as P

if TYPE_CHECKING:
    from paiju.server.manager import RoomManager


def health_report(manager: RoomManager) -> dict[str, Any]:
    """``ok`` is false (and the status 503) while storage writes are failing."""
    storage = manager.storage
    stats = storage.stats
    rooms = list(manager.rooms.values())
    counters = manager.counters
    return {
        "ok": not storage.paused,
        "status": "storage_paused" if storage.paused else "ok",
        "protocol": P.PROTOCOL_VERSION,
        "version": paiju.__version__,
        "storage": {
            "paused": storage.paused,
            "write_errors": stats.write_errors,
            "pauses": stats.pauses,
            "resumes": stats.resumes,
            "committed_batches": stats.committed_batches,
            "last_error": stats.last_error,
        },
        "tables": {
            "rooms": len(rooms),
            "playing": sum(1 for r in rooms if r.status == "playing"),
            "paused": manager.paused_tables(),
            "idle": manager.idle_tables(),
            "paused_total": counters.tables_paused,
            "resumed_total": counters.tables_resumed,
        },
        "games": {
            "resumed_at_start": counters.games_resumed,
            "broken_at_start": counters.games_broken,
            "idle_reaped": counters.idle_reaped,
        },
        "rate_limited": counters.rate_limited,
        "bots": {
            "worker_processes": len(manager.bots.worker_pids()),
            "worker_restarts": manager.bots.restarts,
        },
    }


def prometheus_text(manager: RoomManager) -> str:
    report = health_report(manager)
    storage, tables, games = report["storage"], report["tables"], report["games"]
    rows: list[tuple[str, str, str, float]] = [
        ("paiju_up", "gauge", "1 while storage takes writes", 1.0 if report["ok"] else 0.0),
        ("paiju_storage_paused", "gauge", "1 while storage writes fail", float(storage["paused"])),
        (
            "paiju_storage_write_errors_total",
            "counter",
            "failed write transactions (each retried)",
            storage["write_errors"],
        ),
        ("paiju_storage_pauses_total", "counter", "times storage paused", storage["pauses"]),
        ("paiju_storage_resumes_total", "counter", "times storage recovered", storage["resumes"]),
        (
            "paiju_storage_committed_batches_total",
            "counter",
            "write transactions committed",
            storage["committed_batches"],
        ),
        ("paiju_rooms", "gauge", "rooms open", tables["rooms"]),
        ("paiju_tables_playing", "gauge", "tables playing", tables["playing"]),
        ("paiju_tables_paused", "gauge", "tables waiting for storage", tables["paused"]),
        ("paiju_tables_idle", "gauge", "bot tables waiting for a watcher", tables["idle"]),
        (
            "paiju_tables_paused_total",
            "counter",
            "tables paused for storage",
            tables["paused_total"],
        ),
        (
            "paiju_tables_resumed_total",
            "counter",
            "tables resumed after storage came back",
            tables["resumed_total"],
        ),
        (
            "paiju_games_resumed_total",
            "counter",
            "games rebuilt from storage at startup",
            games["resumed_at_start"],
        ),
        (
            "paiju_games_broken_total",
            "counter",
            "games set aside as broken at startup",
            games["broken_at_start"],
        ),
        (
            "paiju_games_idle_reaped_total",
            "counter",
            "unwatched bot tables closed",
            games["idle_reaped"],
        ),
        (
            "paiju_bot_worker_restarts_total",
            "counter",
            "bot worker processes replaced after dying",
            report["bots"]["worker_restarts"],
        ),
        (
            "paiju_rate_limited_total",
            "counter",
            "requests refused by a rate limit",
            report["rate_limited"],
        ),
    ]
    out = []
    for name, kind, text, value in rows:
        out.append(f"# HELP {name} {text}")
        out.append(f"# TYPE {name} {kind}")
        out.append(f"{name} {float(value):g}")
    return "\n".join(out) + "\n"
