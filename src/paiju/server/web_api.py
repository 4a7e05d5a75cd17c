"""REST endpoints the browser client needs beyond the game server: the scoring calculator
(the same function as ``paiju score``), scoring-item names in both languages, and replay
frames of a finished game (every seat's tiles shown: the record itself reveals them).
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse, Response

from paiju.components import boundedjson
from paiju.engine.events import to_json
from paiju.engine.session import ResumeError, Session, Step
from paiju.server.rest import ItemNames, ScoreAnswer
from paiju.server.storage import Storage
from paiju.variants import find_variant

MAX_RECORD_BYTES = 4_000_000
"""An uploaded record larger than this is refused (a long Taixing match is ~1 MB)."""
MAX_SCORE_BYTES = 16_384
RECORD_LINE_LIMITS = boundedjson.JsonLimits(max_bytes=MAX_RECORD_BYTES, max_depth=16)

router = APIRouter()


@router.post("/api/score", response_model=ScoreAnswer)
async def score(request: Request) -> JSONResponse:
    """Body: one ``paiju score`` situation. 200 with the calculator's output (``valid``
    false for a well-formed non-win), 422 with ``{"field", "error"}`` for bad input."""
    from paiju.calculator import InputError, score_text

    body = await request.body()
    if len(body) > MAX_SCORE_BYTES:
        raise HTTPException(413, f"a situation is limited to {MAX_SCORE_BYTES} bytes")
    try:
        status, out = score_text(body)
    except InputError as exc:
        return JSONResponse({"error": str(exc)}, status_code=422)
    return JSONResponse({"status": status, **out})


@router.get("/api/items")
async def items() -> ItemNames:
    """Every variant's scoring items and payment reasons: id → Chinese and English name."""
    from paiju.variants import VARIANTS

    out: dict[str, dict[str, dict[str, str]]] = {}
    for name, variant in VARIANTS.items():
        out[name] = {
            item_id: {
                "zh": variant.item_name(item_id, "zh"),
                "en": variant.item_name(item_id, "en"),
            }
            for item_id in variant.item_ids()
        }
    return ItemNames.model_validate(out)


_REPLAYING = threading.Lock()
"""One replay at a time: each takes the interpreter lock for as long as it runs."""


async def _off_loop(work: Callable[[], Response]) -> Response:
    """Run ``work`` in a thread, one at a time. A long record's replay takes seconds of
    CPU (about 0.3 s per 100 kB); on the event loop it would stop every table for that
    long, in a thread the loop keeps its turns (the interpreter switches every few ms)."""

    def locked() -> Response:
        with _REPLAYING:
            return work()

    return await asyncio.to_thread(locked)


@router.get("/api/games/{game_id}/frames")
async def game_frames(game_id: str, request: Request) -> Response:
    storage: Storage = request.app.state.storage
    game_id = game_id[:64]
    found = await storage.get_game(game_id)
    if found is None:
        raise HTTPException(404, f"no game {game_id!r}")
    if found.status != "finished":
        raise HTTPException(409, "a game can be replayed once it has finished")
    await storage.flush()
    lines = await storage.lines(game_id)
    return await _off_loop(lambda: _frames_response(lines))


@router.post("/api/replay")
async def upload_frames(request: Request) -> Response:
    """Body: a record in JSON Lines (as ``paiju replay`` reads it)."""
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        raise HTTPException(413, f"records are limited to {MAX_RECORD_BYTES} bytes")
    return await _off_loop(lambda: _upload_response(body))


def _upload_response(body: bytes) -> Response:
    try:
        return _frames_response(_record_lines(body))
    except HTTPException as exc:
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)


def _record_lines(body: bytes) -> list[dict[str, Any]]:
    try:
        text = boundedjson.decode_utf8(body)
    except boundedjson.JsonLimitError as exc:
        raise HTTPException(422, f"not UTF-8 text: {exc}") from None
    lines = []
    for number, text_line in enumerate(text.splitlines(), 1):
        if not text_line.strip():
            continue
        try:
            line = boundedjson.loads(text_line, RECORD_LINE_LIMITS)
        except boundedjson.JsonLimitError as exc:
            raise HTTPException(422, f"line {number}: {exc}") from None
        if not isinstance(line, dict):
            raise HTTPException(422, f"line {number}: expected a JSON object")
        lines.append(line)
    return lines


def _frames_response(lines: list[dict[str, Any]]) -> Response:
    """The frames as JSON (encoded here, off the loop, as they may run to megabytes), or
    422 naming what is wrong with the record."""
    try:
        frames = replay_frames(lines)
    except ResumeError as exc:
        detail = f"not a record this engine reproduces: {exc}"
        return JSONResponse({"detail": detail}, status_code=422)
    return Response(
        json.dumps(frames, ensure_ascii=False, separators=(",", ":")).encode(),
        media_type="application/json",
    )


def replay_frames(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Each state of the match after the deal and after every decision, with every seat's
    concealed tiles. The frames are taken as the one replayer runs the record, once: a
    record it refuses (:class:`ResumeError`, the error ``paiju replay`` reports) gives none."""
    frames: list[dict[str, Any]] = []

    def capture(session: Session, line: dict[str, Any], step: Step) -> None:
        kind = line.get("type")
        if session.hand is None or kind == "hand_end":
            return
        if kind == "action" and not (step.events or session.hand_over):
            return
        state = session.view(None)
        state.pop("events", None)
        for seat in range(session.n_seats):
            own = session.view(seat)["players"][seat].get("hand")
            if own is not None:
                state["players"][seat]["hand"] = own
        frames.append(
            {
                "hand": len(session.match.hands),
                "action": None
                if kind == "hand"
                else {"seat": line["seat"], "action": line["action"]},
                "events": [to_json(e) for e in step.events],
                "state": state,
                "totals": session.match.totals(),
            }
        )

    session = Session.replay(lines, find_variant, on_step=capture)
    head = lines[0]
    return {
        "variant": head["variant"],
        "seats": head["seats"],
        "options": session.flow.options_json(session.options),
        "hands": len(session.match.hands),
        "totals": session.match.totals(),
        "frames": frames,
    }
