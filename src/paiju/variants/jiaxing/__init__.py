"""Jiaxing 嘉兴麻将: options, scoring items, settlement and the ``paiju score`` scorer.

The rule book is ``docs/rules/jiaxing.md``; the engine's hand flow lives in ``flow.py``.
"""

from paiju.variants.jiaxing.options import JiaxingOptions
from paiju.variants.jiaxing.scoring import (
    DECLARED_READY,
    fan_chong,
    fishing,
    is_winning,
    kong_money,
    liable_feeder,
    lian_gang_payer,
    melds_kong_money,
    score_win,
    sealed_seats,
)

__all__ = [
    "DECLARED_READY",
    "JiaxingOptions",
    "fan_chong",
    "fishing",
    "is_winning",
    "kong_money",
    "liable_feeder",
    "lian_gang_payer",
    "melds_kong_money",
    "score_win",
    "sealed_seats",
]
