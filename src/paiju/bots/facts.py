"""TEMPORARY until paiju.variants.find_variant lands."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class _Facts:
    greedy_bot: str
    strong_search: str
    bot_levels: tuple[str, ...] = ("random", "greedy", "strong")
    default_bot: str = "greedy"


_FACTS = {
    "jiaxing": _Facts("greedy", "lookahead"),
    "taixing": _Facts("taixing_greedy", "lookahead"),
    "qinger": _Facts("qinger_greedy", "montecarlo"),
}


def bot_facts(variant: str) -> _Facts:
    try:
        return _FACTS[variant]
    except KeyError:
        raise ValueError(f"unknown variant {variant!r}") from None
