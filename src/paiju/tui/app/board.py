"""The table on screen: the status line, each seat's panel, the person's row of pieces,
the prompt and the action bar.

Everything here is drawn from the person's ``view`` (what that seat may know) and the
public events; nothing asks the hand a rule. The functions return Rich renderables, so
they are tested without a running app; :class:`TileButton` is the one widget.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.widgets import Static

from paiju.engine.events import Event
from paiju.engine.grammar import Action, Verb
from paiju.engine.types import Phase
from paiju.tui.app.words import Words
from paiju.tui.render import FACE_BG, backs
from paiju.tui.session import PlaySession

SLOT_KEYS = tuple("1234567890abdegijlmorsuvwxyz")
"""Keys of the hand positions, left to right (the drawn tile is always the last one);
the letters skip the action keys and q."""

ROW = 14
"""Pieces per hand row: a Jiaxing hand fits in one, a Qing'er hand takes two."""

CHOICE_KEYS = ("1", "2", "3", "4", "5", "6", "7", "8", "9")

ACTION_KEYS: tuple[tuple[str, str], ...] = (
    ("h", "hu"),
    ("p", "pong"),
    ("k", "kong"),
    ("c", "chi"),
    ("t", "ting"),
    ("n", "knock"),
    ("f", "qifei"),
    ("space", "pass"),
)
"""Key → action group, in the order the action bar lists them."""

_MELD_KEYS = frozenset({"meld.pong", "meld.kong", "meld.added_kong", "meld.concealed_kong"})


_GROUPS: dict[Verb, str | None] = {
    Verb.DISCARD: None,
    Verb.HU: "hu",
    Verb.ZIMO: "hu",
    Verb.PASS: "pass",
    Verb.PONG: "pong",
    Verb.KONG: "kong",
    Verb.CONCEALED_KONG: "kong",
    Verb.ADDED_KONG: "kong",
    Verb.CHI: "chi",
    Verb.TING: "ting",
    Verb.KNOCK: "knock",
    Verb.TAKEOFF: "qifei",
    Verb.WUXI: "qifei",
}


def action_group(action: str) -> str | None:
    """The key group of an action string ("an5m" → "kong"); None for discards."""
    return _GROUPS[Action.parse(action).verb]


def plays_a_piece(action: str) -> bool:
    """The action puts one of the person's pieces down: a discard, or a discard that
    declares ready (``ting5m``)."""
    parsed = Action.parse(action)
    return parsed.verb is Verb.DISCARD or (parsed.verb is Verb.TING and bool(parsed.piece))


class TileButton(Static):
    """One piece of the person's hand; clicking it asks the app to play that slot."""

    DEFAULT_CSS = f"""
    TileButton {{
        width: 6;
        height: 4;
        margin: 1 0 0 0;
        padding: 0 1;
        border: round #8a7f66;
        background: {FACE_BG};
    }}
    TileButton.-cursor {{
        margin: 0 0 1 0;
        border: round #f5c542;
    }}
    TileButton.-dim {{
        opacity: 55%;
    }}
    TileButton.-drawn {{
        margin-left: 2;
    }}
    """

    class Pressed(Message):
        """The person clicked the piece in ``slot``."""

        def __init__(self, slot: int) -> None:
            super().__init__()
            self.slot = slot

    def __init__(self, slot: int) -> None:
        super().__init__("", id=f"slot-{slot}")
        self.slot = slot
        self.piece = ""

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.post_message(self.Pressed(self.slot))


# -- reading the events ------------------------------------------------------------------
def last_discarder(hand_events: Sequence[Event]) -> int:
    """The seat whose newest discard still lies in its river (not claimed), or -1."""
    for ev in reversed(hand_events):
        if ev.type == "discard":
            return int(ev.seat)
        if ev.type in ("pong", "kong"):
            return -1
    return -1


def last_actor(hand_events: Sequence[Event]) -> int:
    """The seat that last offered a piece to the others (a discard, an added kong, a
    Qing'er play), or -1: the one a claim or a rob is on."""
    for ev in reversed(hand_events):
        if ev.type in ("discard", "added_kong", "play"):
            return int(ev.seat)
    return -1


# -- the panels --------------------------------------------------------------------------
def status_line(words: Words, session: PlaySession, view: dict[str, Any]) -> Text:
    """The line over the table: game, round, dealer, wall, 钓鱼 and 混儿, the seed."""
    pieces = words.pieces
    parts = [
        words.text(f"variant.{session.variant}"),
        words.text("hand_no", n=session.hand_number)
        if pieces.cards
        else words.text(
            "round",
            wind=words.text(f"wind.{session.match.round_wind % 4}"),
            n=session.hand_number,
        ),
        words.text("dealer_is", who=words.who(view["dealer"])),
    ]
    repeats = 0
    for summary in reversed(session.summaries):
        if summary.dealer != view["dealer"]:
            break
        repeats += 1
    if repeats:
        parts.append(words.text("repeat", n=repeats))
    if "wall_left" in view:
        parts.append(words.text("wall", n=view["wall_left"]))
    elif "stock_left" in view:
        parts.append(words.text("stock", n=view["stock_left"]))
    fisher = view.get("fisher")
    if fisher is not None:
        parts.append(words.text("fisher", who=words.who(fisher)))
    if view.get("wild_kinds"):
        # Jiaxing 混儿: the turned-up tile and the wild kinds it makes
        names = "、".join(pieces.name(k) for k in view["wild_kinds"])
        parts.append(words.text("hun_indicator", tile=pieces.name(view["indicator"]), wilds=names))
    elif view.get("indicator"):
        parts.append(words.text("indicator") + " " + pieces.name(view["indicator"]))
    out = Text("  ·  ".join(parts), style=Style(bold=True))
    out.append("   " + words.text("seed", seed=session.seed), style=Style(dim=True))
    out.append("   " + words.text("prompt.help"), style=Style(dim=True))
    return out


def seat_title(
    words: Words, seat: int, view: dict[str, Any], *, sealed: bool, match_total: int
) -> str:
    """A seat panel's title: who, wind, 庄, 听 / 敲 / 封胡, and the running score."""
    parts = [words.who(seat)]
    if not words.pieces.cards:
        parts.append(words.wind(seat, view["dealer"]))
    if seat == view["dealer"]:
        parts.append(words.text("dealer"))
    player = view["players"][seat]
    if player.get("ready"):
        parts.append(words.text("ready"))
    if player.get("knocked"):
        parts.append(words.text("knocked"))
    if player.get("plays") is False:
        parts.append(words.text("sits_out"))
    if sealed:
        parts.append(words.text("sealed"))
    # the match so far plus what this hand has paid already (kong money is immediate)
    parts.append(f"{match_total + view['net'][seat]:+d}")
    return " · ".join(parts)


def seat_body(
    words: Words,
    player: dict[str, Any],
    *,
    waits: Sequence[str],
    river_highlight: bool,
    per_line: int,
) -> Text:
    """A seat's panel: backs (others) or waits (the person), flowers, 起飞, melds, river."""
    pieces = words.pieces
    seat = player["seat"]
    lines: list[Text] = []
    if seat != words.human:
        row = backs(player["concealed_count"])
        row.append("  " + words.text("concealed", n=player["concealed_count"]))
        lines.append(row)
    elif waits:
        row = Text(words.text("hint.ready") + " ", style=Style(color="#9fd3a8"))
        lines.append(row.append_text(pieces.row(list(waits))))
    flowers = pieces.split(player.get("flowers", ""))
    if flowers:
        lines.append(Text(words.text("flowers") + " ").append_text(pieces.row(flowers)))
    for takeoff in player.get("takeoffs", []):
        lines.append(
            Text(words.text("takeoff") + " ").append_text(pieces.row(pieces.split(takeoff)))
        )
    for meld in player["melds"]:
        lines.append(meld_text(words, meld))
    discards = pieces.split(player["discards"])
    if discards:
        lines.append(Text(words.text("discards"), style=Style(dim=True)))
        lines.append(pieces.row(discards, highlight_last=river_highlight, per_line=per_line))
    return Text("\n").join(lines)


def meld_text(words: Words, meld: dict[str, Any]) -> Text:
    """A meld as shown: its name, its pieces, and the seat that fed it."""
    kind = meld["type"]
    name = words.t(f"meld.{kind}") if f"meld.{kind}" in _MELD_KEYS else kind
    if "cards" in meld:
        shown = words.pieces.split(meld["cards"])
    else:
        shown = [meld["tile"]] * (3 if kind == "pong" else 4)
    out = Text(_pad_cells(name, 4) + " ", style=Style(color="#e8e0c8"))
    out.append_text(words.pieces.row(shown))
    source = meld.get("from")
    if source is not None and source >= 0:
        out.append(" ← " + words.who(source), style=Style(dim=True))
    return out


def hand_labels(slots: Sequence[str], row: int, *, has_drawn: bool, cursor: int) -> Text:
    """The key under each piece of hand row ``row`` (the cursor's in colour)."""
    labels = Text()
    for i in range(row * ROW, min(len(slots), (row + 1) * ROW)):
        if has_drawn and i == len(slots) - 1:
            labels.append("  ")
        style = Style(color="#f5c542", bold=True) if i == cursor else None
        labels.append(f"{SLOT_KEYS[i]:^6}", style=style)
    return labels


# -- the prompt and the action bar -------------------------------------------------------
def prompt(
    words: Words,
    view: dict[str, Any],
    legal: Sequence[str],
    *,
    mode: str,
    waiting_for: int | None,
    offered_by: int,
    hint: Text | None,
) -> Text:
    """What the person is asked now (or whom the table waits for)."""
    if not legal:
        if waiting_for is None:
            return Text("")
        return Text(words.text("prompt.wait", who=words.who(waiting_for)), style=Style(dim=True))
    phase = view["phase"]
    claim = view.get("claim_tile") or view.get("claim_card")
    if mode == "choose":
        return Text(words.text("prompt.choose"))
    if mode == "ting":
        return Text(words.text("prompt.ting_mode"))
    if phase in (Phase.CLAIM, Phase.ROB) and claim:
        key = "prompt.rob" if phase == Phase.ROB else "prompt.claim"
        before, _, after = words.text(key, who=words.who(offered_by), tile="\0").partition("\0")
        out = Text(before)
        out.append_text(words.pieces.chip(claim, highlight=True))
        out.append(after)
        return out
    if phase in (Phase.DECLARE, Phase.KNOCK, Phase.TAKEOFF):
        return Text(words.text(f"prompt.{phase}"))
    out = Text(words.text("prompt.discard"))
    if hint:
        out.append("   ")
        out.append_text(hint)
    return out


def wait_hint(words: Words, view: dict[str, Any], piece: str | None) -> Text | None:
    """What the person would wait on after discarding ``piece`` (mahjong only)."""
    if words.pieces.cards or piece is None:
        return None
    waits = view.get("ready_discards", {}).get(piece)
    if not waits:
        return None
    out = Text(words.text("hint.waits") + " ", style=Style(color="#9fd3a8"))
    out.append_text(words.pieces.row(waits))
    return out


def actions_markup(
    words: Words,
    legal: Sequence[str],
    *,
    choices: Sequence[str] | None,
    claim: str | None,
) -> str:
    """The action bar as clickable markup: a numbered menu of ``choices`` when the person
    picks one of several, else one entry per key group that has a legal action."""
    if choices is not None:
        parts = [
            f"[@click=app.press('{CHOICE_KEYS[i]}')][b]{CHOICE_KEYS[i]}[/b] "
            f"{words.action_name(a, claim)}[/]"
            for i, a in enumerate(choices)
        ]
        parts.append(f"[@click=app.press('escape')][b]Esc[/b] {words.text('cancel')}[/]")
        return "   ".join(parts)
    parts = []
    for key, group in ACTION_KEYS:
        options = [a for a in legal if action_group(a) == group]
        if not options:
            continue
        if group == "hu" or (len(options) == 1 and group != "ting"):
            label = words.action_name(options[0], claim)
        else:
            label = words.t(f"act.{group}")
        shown = words.text("key.space") if key == "space" else key
        parts.append(f"[@click=app.press('{key}')][reverse] {shown} [/reverse] {label}[/]")
    return "   ".join(parts)


def _pad_cells(label: str, width: int) -> str:
    return label + " " * max(0, width - cell_len(label))
