"""The ``paiju score`` contract (docs/spec/score-cli.md): JSON in, JSON out.

This module only finds the game; each variant's calculator translates between JSON and its
typed situation, and the variant's own scoring function (the one its engine settles hands
with) does the scoring.
"""

from __future__ import annotations

from typing import Any

from paiju.components import boundedjson
from paiju.components.boundedjson import preview
from paiju.variants import VARIANTS
from paiju.variants.situation import InputError

LIMITS = boundedjson.JsonLimits(max_bytes=64 * 1024, max_depth=8, max_string=1000)
"""A situation is a few hundred bytes, four levels deep; these bounds leave room for
whitespace and long option lists while keeping every message and every scan small."""


def score(obj: Any) -> tuple[int, dict[str, Any]]:
    """Exit status and output object for one situation. Raises InputError (exit 2)."""
    if not isinstance(obj, dict):
        raise InputError("(top level)", "expected a JSON object")
    name = obj.get("variant")
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        known = ", ".join(sorted(VARIANTS))
        raise InputError("variant", f"unknown variant {preview(name)} (known: {known})")
    out = variant.score_json(obj)
    return (0 if out.get("valid") else 1), out


def score_text(text: str | bytes) -> tuple[int, dict[str, Any]]:
    """Exit status and output for one situation as JSON text (or UTF-8 bytes), read within
    :data:`LIMITS`. Raises InputError (exit 2)."""
    try:
        obj = boundedjson.loads(text, LIMITS)
    except boundedjson.JsonLimitError as exc:
        raise InputError("(json)", str(exc)) from None
    return score(obj)


__all__ = ["LIMITS", "InputError", "score", "score_text"]
