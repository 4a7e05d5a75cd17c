"""How the terminal names seats, winds and actions for the person at the table.

Every part of the screen (board, log, settlement) says "上家" or "暗杠 五万" the same way,
so the naming lives here, apart from any widget: it needs the UI language, the game, the
person's seat and how pieces look, and nothing of the hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from paiju.engine.grammar import Action, Verb
from paiju.tui.i18n import has_text, text
from paiju.tui.render import PieceStyle

_ACTION_WORDS = {
    Verb.HU: "act.hu",
    Verb.ZIMO: "act.zimo",
    Verb.PASS: "act.pass",
    Verb.PONG: "act.pong",
    Verb.KONG: "act.kong",
    Verb.TING: "act.ting",
    Verb.KNOCK: "act.knock",
    Verb.WUXI: "act.wuxi",
    Verb.CONCEALED_KONG: "act.concealed_kong",
    Verb.ADDED_KONG: "act.added_kong",
    Verb.TAKEOFF: "act.qifei",
}


@dataclass
class Words:
    """The person's words: ``lang`` for the UI, ``human`` the person's seat of ``n``."""

    variant: str
    lang: str
    human: int
    n: int
    pieces: PieceStyle

    def text(self, key: str, **values: Any) -> str:
        return text(key, self.lang, **values)

    def t(self, key: str, **values: Any) -> str:
        """``key`` in the UI language, preferring the variant's own term (Qing'er 笃)."""
        own = f"{self.variant}.{key}"
        return text(own if has_text(own) else key, self.lang, **values)

    def who(self, seat: int) -> str:
        """The seat as the person sees it: 我, 上家, 对家, 下家."""
        rel = (seat - self.human) % self.n
        if rel == 0:
            return self.text("seat.me")
        if rel == self.n - 1:
            return self.text("seat.prev")
        if rel == 1:
            return self.text("seat.next")
        return self.text("seat.across")

    def wind(self, seat: int, dealer: int) -> str:
        return self.text(f"wind.{(seat - dealer) % self.n % 4}")

    def kind_name(self, kind: str) -> str:
        """A meld kind: a tile or number card, or a face rank J, Q, K."""
        if kind in ("J", "Q", "K"):
            return kind
        return self.pieces.name(kind)

    def chi_name(self, position: int, claim: str | None) -> str:
        """The run a 吃 makes with the ``claim`` tile at ``position`` (0 low … 2 high)."""
        if not claim:
            return str(position)
        rank, suit = int(claim[0]), claim[1]
        start = rank - position
        return " ".join(self.pieces.name(f"{start + i}{suit}") for i in range(3))

    def action_name(self, action: str, claim: str | None = None) -> str:
        """A non-discard action for the action bar: 暗杠 五万, 碰, 自摸…"""
        parsed = Action.parse(action)
        if parsed.verb is Verb.CHI:
            return self.text("act.chi") + " " + self.chi_name(int(parsed.piece), claim)
        key = _ACTION_WORDS.get(parsed.verb)
        if key is None:
            return action
        name = self.t(key)
        return name + " " + self.kind_name(parsed.piece) if parsed.piece else name
