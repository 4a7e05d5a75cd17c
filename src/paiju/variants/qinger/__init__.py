"""Qing'er (青儿): the 126-card three-player game (seed 004, analysis §2).

Scoring and the ``paiju score`` calculator live here; the engine calls
:func:`paiju.variants.qinger.scoring.score_hand` to settle a hand and
:func:`paiju.variants.qinger.scoring.can_win` to enforce the >60 threshold.
"""

from paiju.variants.qinger.options import DEFAULT_OPTIONS, QingerOptions
from paiju.variants.qinger.scoring import (
    QingerMeld,
    QingerPlayer,
    QingerResult,
    QingerSituation,
    can_win,
    hand_value_before_multipliers,
    jian_pai_ranks,
    score_hand,
    settle_pairwise,
)

__all__ = [
    "DEFAULT_OPTIONS",
    "QingerMeld",
    "QingerOptions",
    "QingerPlayer",
    "QingerResult",
    "QingerSituation",
    "can_win",
    "hand_value_before_multipliers",
    "jian_pai_ranks",
    "score_hand",
    "settle_pairwise",
]
