"""我的对局: one player's games on this server and their statistics, by the seat tokens the
player's browser kept (there are no accounts).

``POST /api/mine`` takes ``{"tokens": [...]}``: the tokens the server once gave this browser
for its seats. A game is the player's when one of its seats was taken with one of them, and
only that seat is the player's. The answer lists those games, newest first, and the
statistics of :mod:`paiju.stats` over the player's seats of the finished ones (all games,
and each game apart), with the agreement with the strong bot over the seats reviewed on
this server. A review is seconds of CPU: each finished game's seat of the player not yet
reviewed is queued for the background review worker (:mod:`paiju.server.review_api`) as it
is listed, and its entry says ``review``: ``{"status": "queued" | "running", "done",
"total", "ahead"}`` until its summary is kept with the game (``reviewed``, and ``review``
``{"status": "done", ...}``).

Nothing here tells more than the game list and the public records of finished games do:
a game still being played is listed with its status and seat only (its record, which holds
the seed, is not public yet), and the tokens are compared by their hashes, never stored.
"""

from __future__ import annotations

import ipaddress
import json
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from paiju.server.http import client_address
from paiju.server.review_api import queue_in_background
from paiju.server.room import hash_token
from paiju.server.storage import Storage, StoredGame

MAX_TOKENS = 200
"""Tokens one request may bring (a browser keeps one per room it sat down in)."""
MAX_TOKEN_CHARS = 64
MAX_GAMES = 100
"""The player's newest games counted; older ones are left out (``more`` says so)."""

router = APIRouter()


@router.post("/api/mine")
async def my_games(request: Request) -> dict[str, Any]:
    body = await request.body()
    hashes = _token_hashes(body)
    manager = request.app.state.manager
    proxies = [ipaddress.ip_network(p, strict=False) for p in manager.config.trusted_proxies]
    peer = request.client.host if request.client else None
    address = client_address(peer, request.headers.get("x-forwarded-for"), proxies)
    if not manager.allow("lookup", address):
        raise HTTPException(429, "too many look-ups; wait a little")
    storage: Storage = request.app.state.storage
    await storage.flush()
    found = await storage.games_with_tokens(sorted(hashes), MAX_GAMES + 1)
    more = len(found) > MAX_GAMES
    found = found[:MAX_GAMES]
    from paiju.stats import StatsError, merge_stats, seat_counts

    games: list[dict[str, Any]] = []
    counted: list[tuple[StoredGame, Any]] = []
    for game in found:
        seat = _my_seat(game, hashes)
        if seat is None:
            continue  # the hash matched something else in the row: not a seat of ours
        entry = _listing(game, seat)
        reviewed = _reviewed(game, seat)
        if reviewed is None and game.status == "finished":
            state = queue_in_background(request.app, game.id, seat)
            if state["status"] == "done":
                reviewed = state["decisions"], state["agreement"]
            entry["review"] = state
        if reviewed is not None:
            entry["reviewed"] = {"decisions": reviewed[0], "agreement": reviewed[1]}
            entry["review"] = {"status": "done", **entry["reviewed"]}
        if game.status == "finished":
            try:
                mine = seat_counts(await storage.lines(game.id))[seat]
            except (StatsError, IndexError):
                entry["error"] = "this game's record cannot be counted"
            else:
                if reviewed is not None:
                    mine.decisions = reviewed[0]
                    mine.agreed = round(reviewed[0] * reviewed[1])
                entry["stats"] = _brief(mine.to_json())
                counted.append((game, mine))
        games.append(entry)
    oldest_first = list(reversed(counted))
    name = next((e["name"] for e in games if e["name"]), "")
    by_variant: dict[str, Any] = {}
    for variant in sorted({g.variant for g, _ in oldest_first}):
        parts = [p for g, p in oldest_first if g.variant == variant]
        by_variant[variant] = merge_stats(name, parts).to_json()
    return {
        "name": name,
        "games": games,
        "more": more,
        "stats": merge_stats(name, [p for _, p in oldest_first]).to_json(),
        "by_variant": by_variant,
    }


def _token_hashes(body: bytes) -> set[str]:
    try:
        doc = json.loads(body)
    except (ValueError, RecursionError):
        raise HTTPException(422, 'the body must be JSON: {"tokens": ["..."]}') from None
    tokens = doc.get("tokens") if isinstance(doc, dict) else None
    if not isinstance(tokens, list):
        raise HTTPException(422, '"tokens" must be a list of seat tokens')
    if len(tokens) > MAX_TOKENS:
        raise HTTPException(422, f'"tokens" may hold at most {MAX_TOKENS} tokens ({len(tokens)})')
    for i, token in enumerate(tokens):
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_CHARS:
            raise HTTPException(
                422, f"tokens[{i}] must be a seat token (text of 1–{MAX_TOKEN_CHARS} characters)"
            )
    return {hash_token(t) for t in tokens}


def _my_seat(game: StoredGame, hashes: set[str]) -> int | None:
    seats = game.room.get("seats")
    if not isinstance(seats, list):
        return None
    for i, seat in enumerate(seats):
        if isinstance(seat, dict) and seat.get("token_hash") in hashes:
            return i
    return None


def _listing(game: StoredGame, seat: int) -> dict[str, Any]:
    seats = [s for s in game.room.get("seats", []) if isinstance(s, dict)]
    names = [
        str(s.get("name") or "") if s.get("kind") == "person" else f"bot:{s.get('level')}"
        for s in seats
    ]
    entry: dict[str, Any] = {
        "id": game.id,
        "variant": game.variant,
        "status": game.status,
        "seat": seat,
        "name": names[seat] if seat < len(names) else "",
        "seats": names,
        "created_at": game.created_at,
        "updated_at": game.updated_at,
    }
    if game.status == "finished" and isinstance(game.result, dict):
        totals = game.result.get("totals")
        if isinstance(totals, list):
            entry["totals"] = totals
            entry["total"] = totals[seat] if seat < len(totals) else None
    return entry


def _reviewed(game: StoredGame, seat: int) -> tuple[int, float] | None:
    """(decisions, agreement) of the seat's review, when one was made on this server."""
    reviews = (game.result or {}).get("reviews")
    one = reviews.get(str(seat)) if isinstance(reviews, dict) else None
    if not isinstance(one, dict):
        return None
    n, agreement = one.get("decisions"), one.get("agreement")
    if not isinstance(n, int) or not isinstance(agreement, int | float):
        return None
    return n, float(agreement)


def _brief(stats: dict[str, Any]) -> dict[str, Any]:
    keep = ("hands", "wins", "self_draw_share", "deal_ins", "points", "items")
    return {k: stats[k] for k in keep}
