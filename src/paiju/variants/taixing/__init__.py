"""泰兴麻将 Taixing mahjong: options, the item table, scoring and the ``paiju score`` adapter.

The engine settles a hand with :func:`paiju.variants.taixing.scoring.score_win`, the same
function ``paiju score`` uses.
"""

from paiju.variants.taixing.options import TaixingOptions
from paiju.variants.taixing.scoring import (
    flower_count,
    is_winning,
    is_winning_shape,
    meets_minimum,
    score_win,
)

__all__ = [
    "TaixingOptions",
    "flower_count",
    "is_winning",
    "is_winning_shape",
    "meets_minimum",
    "score_win",
]
