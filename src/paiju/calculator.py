"""The ``paiju score`` contract (docs/spec/score-cli.md): JSON in, JSON out.

This module only finds the game; each variant's calculator translates between JSON and its
typed situation, and the variant's own scoring function (the one its engine settles hands
with) does the scoring.
"""

from __future__ import annotations

import json
from typing import Any

from paiju.variants import UnknownVariantError, find_variant
from paiju.variants.situation import InputError


def score(obj: Any) -> tuple[int, dict[str, Any]]:
    """Exit status and output object for one situation. Raises InputError (exit 2)."""
    if not isinstance(obj, dict):
        raise InputError("(top level)", "expected a JSON object")
    try:
        variant = find_variant(obj.get("variant"))
    except UnknownVariantError as exc:
        raise InputError("variant", str(exc)) from None
    out = variant.score_json(obj)
    return (0 if out.get("valid") else 1), out


def score_text(text: str) -> tuple[int, dict[str, Any]]:
    try:
        obj = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError("(json)", f"not valid JSON: {exc}") from None
    return score(obj)


__all__ = ["InputError", "score", "score_text"]
