"""The game log beside the board: one line per public event, as the person may see it."""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text

from paiju.engine.events import Event, to_json
from paiju.tui.app.words import Words
from paiju.tui.i18n import item_name

PRIVATE_EVENTS = frozenset({"deal", "draw", "replacement_draw", "draw_for_dealer"})
"""Events the log never shows: their pieces are private (and the rest is noise)."""

_PIECE_EVENTS = frozenset({"pong", "kong", "added_kong", "flower", "ready", "takeoff"})


def payment_line(words: Words, data: dict[str, Any]) -> str:
    """一笔付款: who pays whom how much, and the item it pays for."""
    return words.text(
        "log.payment",
        payer=words.who(data["payer"]),
        payee=words.who(data["payee"]),
        amount=data["amount"],
        reason=item_name(words.variant, data["reason"], words.lang),
    )


def describe(words: Words, ev: Event) -> Text | None:
    """One log line for ``ev`` as the person may see it, or None to skip it."""
    kind = ev.type
    if kind in PRIVATE_EVENTS:
        return None
    pieces = words.pieces
    data = to_json(ev)
    who = words.who(ev.seat) if ev.seat >= 0 else ""
    piece = data.get("tile") or data.get("card")
    name = pieces.name(piece) if isinstance(piece, str) else ""
    if isinstance(data.get("cards"), str) and not name:
        name = " ".join(pieces.name(p) for p in pieces.split(data["cards"]))
    if kind == "discard":
        return Text(words.text("log.discard", who=who, tile=name))
    if kind in _PIECE_EVENTS:
        return Text(words.text(f"log.{kind}", who=who, tile=name))
    if kind == "knock":
        return Text(words.text("log.knock" if data.get("knock") else "log.no_knock", who=who))
    if kind == "indicator" and isinstance(data.get("wild_kinds"), list):
        # Jiaxing 混儿: the turned-up tile and the kinds it makes wild
        wilds = "、".join(pieces.name(p) for p in data["wild_kinds"] if isinstance(p, str))
        return Text(
            words.text("log.hun_indicator", tile=name, wilds=wilds),
            style=Style(color="#f5c542"),
        )
    if kind == "indicator":
        return Text(
            words.text("log.indicator", tile=name, ranks=data.get("jian_pai", "")),
            style=Style(color="#f5c542"),
        )
    if kind == "redeal":
        return Text(words.text("log.redeal"))
    if kind == "concealed_kong":
        # the konger sees its own kong's tile; the others only when the rules show it
        own = ev.seat == words.human or "cards" in data
        key = "log.concealed_kong_own" if own else "log.concealed_kong"
        return Text(words.text(key, who=who, tile=name))
    if kind == "win":
        return Text(
            " ".join(words.text("log.win", who=words.who(w)) for w in data.get("winners", [])),
            style=Style(color="#f5c542", bold=True),
        )
    if kind in ("exhaustive_draw", "exhausted"):
        return Text(words.text("log.exhausted"), style=Style(bold=True))
    if kind == "payment":
        return Text(payment_line(words, data), style=Style(color="#9fd3a8"))
    if kind == "dice":
        return Text(words.text("log.dice", who=who, dice="+".join(map(str, data["dice"]))))
    return None
