"""Review (复盘) over REST: the ``paiju review --json`` object for one seat of a record.

``POST /api/review?seat=N`` takes a record (JSON Lines, as ``paiju replay`` reads it) in
the body; ``GET /api/games/{id}/review?seat=N`` reviews a finished game of this server.
Both answer the object of :meth:`paiju.review.Review.to_json` with the strong bot as the
judge. A review is CPU work of seconds (a four-round Jiaxing match: about ten seconds of
one core), so it runs in a worker thread, one at a time (a second one waiting gets 429),
on records of at most :data:`MAX_REVIEW_HANDS` hands and :data:`MAX_REVIEW_BYTES` bytes,
and Monte Carlo (Qing'er) takes :data:`REVIEW_ROLLOUTS` samples a decision.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, HTTPException, Request

from paiju.server.storage import Storage

MAX_REVIEW_BYTES = 4_000_000
MAX_REVIEW_HANDS = 40
"""A four-round Jiaxing match is about 30 hands."""
REVIEW_ROLLOUTS = 8

router = APIRouter()
_busy = asyncio.Lock()


@router.post("/api/review")
async def review_upload(request: Request, seat: int) -> dict[str, Any]:
    """Body: a record in JSON Lines; ``seat``: the seat reviewed (0-based)."""
    body = await request.body()
    if len(body) > MAX_REVIEW_BYTES:
        raise HTTPException(413, f"a record to review is limited to {MAX_REVIEW_BYTES} bytes")
    lines = body.split(b"\n")
    while lines and not lines[-1].strip():
        lines.pop()
    return await _review(_parse(lines), seat)


@router.get("/api/games/{game_id}/review")
async def review_game(game_id: str, seat: int, request: Request) -> dict[str, Any]:
    storage: Storage = request.app.state.storage
    found = await storage.get_game(game_id)
    if found is None:
        raise HTTPException(404, f"no game {game_id!r}")
    if found.status != "finished":
        raise HTTPException(409, "a game can be reviewed once it has finished")
    await storage.flush()
    return await _review(await storage.lines(game_id), seat)


def _parse(lines: list[bytes]) -> list[dict[str, Any]]:
    from paiju.engine.record import RecordError, parse_lines

    try:
        return parse_lines(lines)
    except RecordError as exc:
        raise HTTPException(422, f"malformed record, {exc}") from None


async def _review(records: list[dict[str, Any]], seat: int) -> dict[str, Any]:
    from paiju.review import ReviewError, review_record

    hands = sum(1 for r in records if r.get("type") == "hand")
    if hands > MAX_REVIEW_HANDS:
        raise HTTPException(413, f"a review is limited to {MAX_REVIEW_HANDS} hands ({hands})")
    if _busy.locked():
        raise HTTPException(429, "another review is running; try again in a moment")
    async with _busy:
        try:
            review = await asyncio.to_thread(review_record, records, seat, rollouts=REVIEW_ROLLOUTS)
        except ReviewError as exc:
            raise HTTPException(422, str(exc)) from None
    return review.to_json()
