"""Events: what happened in a hand. The record is the header plus these, as JSON lines.

An :class:`Event` is a small tuple (cheap to make in the hot loop); :func:`to_json` turns it
into the record's object with tiles in notation, and :func:`for_seat` hides what a seat
may not know (other seats' draws and deals).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from paiju.components.notation import format_tiles
from paiju.components.tiles import TILE_TEXT, Tile


class Event(NamedTuple):
    type: str
    seat: int = -1
    tile: int = -1
    source: int = -1
    data: Any = None


new_event = tuple.__new__
"""``new_event(Event, (type, seat, tile, source, data))``: an :class:`Event` of all five
fields (the defaults written out: -1, -1, -1, None) without the named tuple's keyword-filling
``__new__``, half its cost; for the events of every draw and discard in the hot loop."""


PRIVATE_TYPES = frozenset({"deal", "draw", "replacement_draw"})
"""Events whose tiles only their own seat may see."""


def to_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"type": event.type}
    if event.seat >= 0:
        out["seat"] = event.seat
    if event.tile >= 0:
        out["tile"] = TILE_TEXT[event.tile]
    if event.source >= 0:
        out["from"] = event.source
    data = event.data
    if data is not None:
        if isinstance(data, dict):
            out.update(data)
        elif event.type == "deal":
            out["tiles"] = format_tiles(Tile(t) for t in data)
        else:
            out["data"] = data
    return out


def for_seat(event: Event, seat: int | None) -> dict[str, Any]:
    """The JSON of ``event`` as ``seat`` may see it (None: a spectator)."""
    out = to_json(event)
    if event.type in PRIVATE_TYPES and event.seat != seat:
        out.pop("tile", None)
        if "tiles" in out:
            out["tiles"] = len(event.data)
    return out
