"""The settlement of one hand (结算) and the match ledger.

Read from what the engine publishes, never from the hand object: the ``win`` event
(winners, how, the winning piece), each seat's ``score`` event (items, value, how the win
is paid), the ``fish`` and ``payment`` events, the ``end`` event's structured explanation,
and the person's view at the end (winners' hands are shown there). The same facts reach
the browser, so both front ends settle a hand alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from paiju.engine.events import Event
from paiju.engine.match import HandSummary
from paiju.tui.app.board import last_actor, meld_text
from paiju.tui.app.log import payment_line
from paiju.tui.app.words import Words
from paiju.tui.i18n import item_value, scored_item_name

LEDGER_ROWS = 8
"""Hands listed in the settlement's ledger (older ones still count in the totals)."""


def settlement(
    words: Words,
    view: dict[str, Any],
    hand_events: Sequence[Event],
    *,
    ledger: Table,
    saved_path: str | None,
    last: bool,
) -> RenderableType:
    """The whole settlement screen of a finished hand: each scored seat with its items,
    the fishing, the payments, the explanation, then the ``ledger``."""
    wins = [e.data for e in hand_events if e.type == "win"]
    win = wins[-1] if wins else {}
    winners: list[int] = list(win.get("winners", []))
    scores = {e.seat: e.data for e in hand_events if e.type == "score"}
    parts: list[RenderableType] = []
    if not winners:
        parts.append(Text(words.text("result.exhausted"), style=Style(bold=True)))
    # winners first, then every other seat the variant scores (Qing'er scores all)
    source = last_actor(hand_events)
    for seat in winners + [s for s in scores if s not in winners]:
        if seat in winners:
            parts.append(win_heading(words, seat, win, source))
            parts.append(winning_hand(words, view, seat, win))
        else:
            parts.append(Text(words.who(seat), style=Style(color="#f5c542", bold=True)))
        parts.append(items_table(words, scores.get(seat) or {}, win))
    parts.extend(fish_lines(words, hand_events, winners))
    parts.append(Text(words.text("result.payments"), style=Style(bold=True, underline=True)))
    payments = [e.data for e in hand_events if e.type == "payment"]
    if payments:
        parts.extend(Text("  " + payment_line(words, p)) for p in payments)
    else:
        parts.append(Text("  " + words.text("result.no_payments")))
    # the settlement's own explanation, the text the calculator and the browser show
    ends = [e.data for e in hand_events if e.type == "end" and e.data]
    explained = ends[-1].get("explanation") if ends else None
    if explained:
        parts.append(Text(words.text("result.explanation"), style=Style(bold=True)))
        parts.append(Text(explained["text"]["en" if words.lang == "en" else "zh"], style="dim"))
    parts.append(Text(""))
    parts.append(ledger)
    if saved_path:
        parts.append(Text(words.text("log.saved", path=saved_path), style="dim"))
    footer = "result.match_over" if last else "result.next"
    parts.append(Text(words.text(footer), style=Style(color="#f5c542", bold=True)))
    return Group(*parts)


def win_heading(words: Words, seat: int, win: dict[str, Any], source: int) -> Text:
    """胡 五万 · 自摸 / 上家放炮 / 抢下家的杠: ``source`` is the seat that offered the
    piece (the discarder or the robbed konger), -1 when none did."""
    piece = win.get("tile") or win.get("card") or ""
    heading = Text(
        words.text(
            "result.win", who=words.who(seat), tile=words.pieces.name(piece) if piece else ""
        ),
        style=Style(color="#f5c542", bold=True),
    )
    how = win.get("how")
    if how == "self_draw":
        heading.append("  " + words.text("result.self_draw"))
    elif how == "discard" and source >= 0:
        heading.append("  " + words.text("result.discard", who=words.who(source)))
    elif how == "robbed_kong" and source >= 0:
        heading.append("  " + words.text("result.robbed_kong", who=words.who(source)))
    return heading


def winning_hand(words: Words, view: dict[str, Any], seat: int, win: dict[str, Any]) -> Text:
    """The winner's concealed pieces (sorted, the winning one apart) and melds."""
    pieces = words.pieces
    player = view["players"][seat]
    concealed = pieces.split(player.get("hand", ""))
    win_piece = win.get("tile") or win.get("card") or ""
    if win.get("how") == "self_draw" and win_piece in concealed:
        concealed.remove(win_piece)
    concealed.sort(key=pieces.sort_key)
    row = pieces.row(concealed)
    if win_piece:
        row.append("  ")
        row.append_text(pieces.chip(win_piece, highlight=True))
    for meld in player["melds"]:
        row.append("  ")
        row.append_text(meld_text(words, meld))
    return row


def items_table(words: Words, score: dict[str, Any], win: dict[str, Any]) -> Table:
    """A seat's scored items (from its ``score`` event) and its value or total."""
    table = Table(show_header=False, box=None, padding=(0, 2), expand=False)
    table.add_column(style=Style(color="#e8e0c8"))
    table.add_column(justify="right", style=Style(color="#f5c542", bold=True))
    variant, lang = words.variant, words.lang
    for item in score.get("items", []):
        name = scored_item_name(variant, item, lang)
        table.add_row(name, item_value(variant, item["id"], item["value"], lang))
    if "per_payer" in score:
        # the scorer says how the win is paid where that differs from how it was won
        # (Jiaxing: a kong's replacement counts as 放炮 of the konged seat)
        each = (score.get("counts_as") or win.get("how")) == "self_draw"
        total = words.text("result.per_payer" if each else "result.value", value=score["per_payer"])
    elif "score" in score:
        total = words.text("result.total", value=score["score"])
    else:
        total = ""
    if total:
        table.add_row(Text(total, style="bold"), "")
    return table


def fish_lines(words: Words, hand_events: Sequence[Event], winners: Sequence[int]) -> list[Text]:
    """钓鱼: the tiles turned from the tail, the seat each lands on, how many hit."""
    out = []
    pieces = words.pieces
    for ev in hand_events:
        if ev.type != "fish":
            continue
        landed = [
            f"{pieces.name(t)}→{words.who(seat)}"
            for t, seat in zip(pieces.split(ev.data["tiles"]), ev.data["hits"], strict=False)
        ]
        hits = sum(1 for seat in ev.data["hits"] if seat in winners)
        out.append(
            Text(
                words.text("result.fish", who=words.who(ev.seat), tiles=" ".join(landed), hits=hits)
            )
        )
    return out


def ledger_table(words: Words, summaries: Sequence[HandSummary], totals: Sequence[int]) -> Table:
    """总账: the last :data:`LEDGER_ROWS` hands' net per seat, and the match totals."""
    n = words.n
    table = Table(title=words.text("result.ledger"), expand=False, padding=(0, 1))
    table.add_column(words.text("result.hand_col"), justify="right")
    table.add_column(words.text("dealer"))
    for s in range(n):
        table.add_column(words.who(s), justify="right")
    shown = summaries[-LEDGER_ROWS:]
    if len(shown) < len(summaries):
        table.add_row("…", "", *([""] * n))
    for summary in shown:
        table.add_row(
            str(summary.index + 1), words.who(summary.dealer), *(_signed(v) for v in summary.net)
        )
    table.add_row(
        Text(words.text("result.totals"), style="bold"),
        "",
        *(Text(_signed(v), style="bold") for v in totals),
    )
    return table


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"
