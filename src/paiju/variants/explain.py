"""Settlements that explain themselves: one structured explanation per settlement.

Every settlement, whether the engine made it or ``paiju score`` did, carries an
:class:`Explanation`: the game's formula with its numbers filled in (:class:`Step`) and
every payment in plain words (:class:`PaymentLine`), each line with the seed item it
comes from. Both languages are written from the same numbers in the same place, so the
terminal, the browser and the calculator show one text (``render``) and programs read one
JSON shape (``to_json``, documented in ``docs/spec/score-cli.md``).

Standard library only; the variants build explanations, front ends only render them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from paiju.variants.base import Payment


@dataclass(frozen=True, slots=True)
class Step:
    """One line of the formula, e.g. 花 3 × 番 6 = 18 每家付."""

    zh: str
    en: str
    rule: str
    """The seed item(s) of ``analysis.md`` the line applies (J…, T…, Q…, or JA…)."""

    def to_json(self) -> dict[str, Any]:
        return {"zh": self.zh, "en": self.en, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class PaymentLine:
    """One payment: who pays whom how much, and why in plain words."""

    payer: int
    payee: int
    amount: int
    reason: str
    """The ledger's reason id (an item id or a payment reason such as ``gang``)."""
    zh: str
    en: str
    rule: str
    """The seed item(s) the payment comes from."""

    def to_json(self) -> dict[str, Any]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "amount": self.amount,
            "reason": self.reason,
            "zh": self.zh,
            "en": self.en,
            "rule": self.rule,
        }


@dataclass(frozen=True, slots=True)
class Explanation:
    """How one settlement (a win, or a whole hand) came about."""

    variant: str
    formula: tuple[Step, ...] = ()
    payments: tuple[PaymentLine, ...] = ()

    def __add__(self, other: Explanation) -> Explanation:
        return Explanation(
            self.variant, self.formula + other.formula, self.payments + other.payments
        )

    def with_payments(self, lines: Iterable[PaymentLine]) -> Explanation:
        return Explanation(self.variant, self.formula, self.payments + tuple(lines))

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "formula": [s.to_json() for s in self.formula],
            "payments": [p.to_json() for p in self.payments],
            "text": {"zh": self.render("zh"), "en": self.render("en")},
        }

    def render(self, lang: str = "zh") -> str:
        """The explanation for people, one line per step and per payment."""
        en = lang == "en"
        lines = [f"{s.en if en else s.zh}  [{s.rule}]" for s in self.formula]
        if self.payments:
            lines.append("Payments:" if en else "付款：")
        for p in self.payments:
            who = (
                f"seat {p.payer} pays seat {p.payee} {p.amount}"
                if en
                else f"座位{p.payer} 付 座位{p.payee} {p.amount}"
            )
            lines.append(f"  {who}: {p.en if en else p.zh}  [{p.rule}]")
        return "\n".join(lines)


def combine(variant: str, parts: Sequence[Explanation]) -> Explanation:
    """One explanation of several (e.g. every winner of a hand, in order)."""
    out = Explanation(variant)
    for part in parts:
        out = out + part
    return out


def grouped(payments: Iterable[Payment]) -> list[tuple[int, int, str, int]]:
    """(payer, payee, reason, amount) with the amounts of equal triples added, in the
    order each triple first appears."""
    totals: dict[tuple[int, int, str], int] = {}
    for p in payments:
        key = (p.payer, p.payee, p.reason)
        totals[key] = totals.get(key, 0) + p.amount
    return [(a, b, r, n) for (a, b, r), n in totals.items()]


def plus(terms: Sequence[tuple[str, int]]) -> str:
    """'清一色 9 + 碰碰胡 9' from (name, value) terms."""
    return " + ".join(f"{name} {value}" for name, value in terms)


def exhausted(variant: str, zh: str, en: str, seed: str) -> Explanation:
    """A hand nobody won: one step saying what (if anything) is settled."""
    return Explanation(variant, (Step(zh, en, seed),))
