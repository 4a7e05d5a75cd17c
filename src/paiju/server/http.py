"""HTTP hygiene as plain ASGI middleware: security headers, request bodies limited while they
stream in, the client's address (``X-Forwarded-For`` only from trusted proxies), the
websocket ``Origin`` check, and structured (JSON lines) access and error logs."""

from __future__ import annotations

import ipaddress
import json
import logging
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

access_log = logging.getLogger("paiju.access")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Scope = dict[str, Any]

# Inline styles only: the table draws its highlight of the chosen piece with a <style>
# element (web/src/table.tsx); no inline script, eval or foreign origin is allowed.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; "
    "font-src 'self'; connect-src 'self' {ws}; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"cross-origin-resource-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]

BODY_LIMITS = {"/api/replay": 4_000_000, "/api/review": 4_000_000, "/api/score": 16_384}
"""Bytes a request body may have, by path; every other path: :data:`DEFAULT_BODY_LIMIT`."""
DEFAULT_BODY_LIMIT = 16_384


def client_address(peer: str | None, forwarded: str | None, proxies: Sequence[Network]) -> str:
    """The client: the peer, or (when the peer is a trusted proxy) the last address in
    ``X-Forwarded-For`` that is not itself a trusted proxy."""
    address = peer or "unknown"
    if not forwarded or not _trusted(address, proxies):
        return address
    for hop in reversed([h.strip() for h in forwarded.split(",")]):
        if not hop:
            continue
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return address  # a forged or garbled header: believe the peer
        if not _trusted(hop, proxies):
            return hop
    return address


def _trusted(address: str, proxies: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in net for net in proxies)


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str]) -> bool:
    """A browser's websocket must come from the page's own origin (or a configured one).

    Clients that send no ``Origin`` (programs, not browsers) are not cross-site requests
    and may connect; ``"*"`` in ``allowed`` turns the check off."""
    if origin is None or "*" in allowed:
        return True
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


class SecurityHeaders:
    """Adds the CSP and the usual security headers to every HTTP response."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = _header(scope, b"host") or ""
        ws = f"ws://{host} wss://{host}" if host and _safe_host(host) else ""
        csp = CSP.format(ws=ws).replace("  ", " ").encode()

        async def wrapped(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v)
                    for k, v in message.get("headers", [])
                    if k.lower() not in {b"content-security-policy"}
                ]
                headers.extend(HEADERS)
                headers.append((b"content-security-policy", csp))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, wrapped)


class _TooLarge(Exception):
    pass


class BodyLimit:
    """Refuses a request body over its path's limit with 413 as soon as the declared
    length or the bytes received so far pass it (never reading it whole first), and writes
    one access-log line per request."""

    def __init__(self, app: Any, proxies: Sequence[Network] = ()) -> None:
        self.app = app
        self.proxies = list(proxies)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        limit = BODY_LIMITS.get(path, DEFAULT_BODY_LIMIT)
        started = time.monotonic()
        status = {"code": 0}
        peer_pair = scope.get("client")
        peer = str(peer_pair[0]) if peer_pair else None
        client = client_address(peer, _header(scope, b"x-forwarded-for"), self.proxies)

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
            await send(message)

        declared = _header(scope, b"content-length")
        try:
            too_big = declared is not None and int(declared) > limit
        except ValueError:
            too_big = False
        if too_big:
            await _refuse(sending, limit)
        else:
            seen = 0

            async def receiving() -> dict[str, Any]:
                nonlocal seen
                message: dict[str, Any] = await receive()
                if message["type"] == "http.request":
                    seen += len(message.get("body", b""))
                    if seen > limit:
                        raise _TooLarge
                return message

            try:
                await self.app(scope, receiving, sending)
            except _TooLarge:
                if status["code"] == 0:
                    await _refuse(sending, limit)
        access_log.info(
            "http",
            extra={
                "event": "http",
                "client": client,
                "method": scope.get("method"),
                "path": path[:200],
                "status": status["code"],
                "ms": round((time.monotonic() - started) * 1000, 2),
            },
        )


async def _refuse(send: Any, limit: int) -> None:
    body = json.dumps({"detail": f"request bodies here are limited to {limit} bytes"}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _safe_host(host: str) -> bool:
    """A Host header fit to be echoed into the CSP (no spaces, quotes or semicolons)."""
    return all(c.isalnum() or c in ".-:[]" for c in host) and len(host) <= 255


class JSONFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message and the record's extras."""

    RESERVED = frozenset(vars(logging.makeLogRecord({})))

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in self.RESERVED and key not in out and not key.startswith("_"):
                out[key] = value
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False, default=str)


def configure_logging(level: str = "info") -> None:
    """JSON lines on stderr for the access log and every paiju logger."""
    handler = logging.StreamHandler()
    handler.setFormatter(JSONFormatter())
    root = logging.getLogger("paiju")
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    root.propagate = False
