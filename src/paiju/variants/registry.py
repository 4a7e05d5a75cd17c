"""Which variants exist, and where their calculator scorers live (imported lazily)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Scorer = Callable[[Any], dict[str, Any]]


def _jiaxing() -> Scorer:
    from paiju.variants.jiaxing.calculator import score_json

    return score_json


def _taixing() -> Scorer:
    from paiju.variants.taixing.calculator import score_json

    return score_json


def _qinger() -> Scorer:
    from paiju.variants.qinger.calculator import score_json

    return score_json


def score_loaders() -> dict[str, Callable[[], Scorer]]:
    """Variant name → a loader returning its ``paiju score`` function."""
    return {"jiaxing": _jiaxing, "taixing": _taixing, "qinger": _qinger}


def flows() -> dict[str, Any]:
    """Variant name → its match flow (engine.match.VariantFlow) for simulate and replay."""
    from paiju.variants.jiaxing.flow import JiaxingFlow
    from paiju.variants.qinger.flow import QingerFlow
    from paiju.variants.taixing.flow import TaixingFlow

    return {"jiaxing": JiaxingFlow(), "qinger": QingerFlow(), "taixing": TaixingFlow()}
