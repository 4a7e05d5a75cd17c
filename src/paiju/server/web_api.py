"""REST endpoints the browser client needs beyond the game server: the scoring calculator
(the same function as ``paiju score``), scoring-item names in both languages, and replay
frames of a finished game (every seat's tiles shown: the record itself reveals them).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import JSONResponse

from paiju.components import boundedjson
from paiju.engine.errors import IllegalActionError, InvalidActionError
from paiju.server.game import GameSession, ResumeError
from paiju.server.storage import Storage

MAX_RECORD_BYTES = 4_000_000
"""An uploaded record larger than this is refused (a long Taixing match is ~1 MB)."""
MAX_SCORE_BYTES = 16_384
RECORD_LINE_LIMITS = boundedjson.JsonLimits(max_bytes=MAX_RECORD_BYTES, max_depth=16)

router = APIRouter()


@router.post("/api/score")
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
async def items() -> dict[str, dict[str, dict[str, str]]]:
    """Every variant's scoring items and payment reasons: id → Chinese and English name."""
    from paiju.variants import names
    from paiju.variants.registry import flows

    out: dict[str, dict[str, dict[str, str]]] = {}
    for variant in flows():
        out[variant] = {
            item_id: {
                "zh": names.item_name(variant, item_id, "zh"),
                "en": names.item_name(variant, item_id, "en"),
            }
            for item_id in names.item_ids(variant)
        }
    return out


@router.get("/api/games/{game_id}/frames")
async def game_frames(game_id: str, request: Request) -> dict[str, Any]:
    storage: Storage = request.app.state.storage
    found = await storage.get_game(game_id)
    if found is None:
        raise HTTPException(404, f"no game {game_id!r}")
    if found.status != "finished":
        raise HTTPException(409, "a game can be replayed once it has finished")
    await storage.flush()
    return _frames_or_422(await storage.lines(game_id))


@router.post("/api/replay")
async def upload_frames(request: Request) -> dict[str, Any]:
    """Body: a record in JSON Lines (as ``paiju replay`` reads it)."""
    body = await request.body()
    if len(body) > MAX_RECORD_BYTES:
        raise HTTPException(413, f"records are limited to {MAX_RECORD_BYTES} bytes")
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
    return _frames_or_422(lines)


def _frames_or_422(lines: list[dict[str, Any]]) -> dict[str, Any]:
    try:
        return replay_frames(lines)
    except (ResumeError, IllegalActionError, InvalidActionError) as exc:
        raise HTTPException(422, f"not a record this engine reproduces: {exc}") from None


def replay_frames(lines: list[dict[str, Any]]) -> dict[str, Any]:
    """Each state of the match after the deal and after every decision, with every seat's
    concealed tiles; the record is first checked line by line against the engine."""
    GameSession.resume(lines)  # raises ResumeError on a tampered or foreign record
    head = lines[0]
    # resume() has validated the header, so the session can be rebuilt step by step
    checked = GameSession.resume(lines[:1])
    session = GameSession(checked.flow, checked.options, head["seed"], list(head["seats"]))
    frames: list[dict[str, Any]] = []

    def capture(action: dict[str, Any] | None, events: list[Any]) -> None:
        from paiju.engine.events import to_json

        if session.hand is None:
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
                "action": action,
                "events": [to_json(e) for e in events],
                "state": state,
                "totals": session.match.totals(),
            }
        )

    for line in lines[1:]:
        kind = line.get("type")
        if kind == "hand":
            step = session.start_hand()
            capture(None, step.events)
        elif kind == "action":
            seat = int(line["seat"])
            step = session.act(seat, session.parse(str(line["action"])))
            if step.events or session.hand_over:
                capture({"seat": seat, "action": line["action"]}, step.events)
        elif kind == "hand_end":
            session.end_hand()
    return {
        "variant": head["variant"],
        "seats": head["seats"],
        "options": head.get("options", {}),
        "hands": len(session.match.hands),
        "totals": session.match.totals(),
        "frames": frames,
    }
