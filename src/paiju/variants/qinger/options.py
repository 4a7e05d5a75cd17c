"""Qing'er (青儿) rule options: one field per cheap alternative reading (QA1–QA20).

Defaults follow ``shared/rules/decisions.md``; the rule book ``docs/rules/qinger.md`` maps
every field to its seed item. Fields are literal strings, booleans or integers so that
:func:`paiju.variants.base.options_from_mapping` can read them from JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paiju.variants.base import OptionError

StakeForm = Literal["1-2-3", "2-3-4", "3-4-5"]

STAKE_FORMS: dict[str, tuple[int, int, int]] = {
    "1-2-3": (1, 2, 3),
    "2-3-4": (2, 3, 4),
    "3-4-5": (3, 4, 5),
}
"""Q1: multiplier for a pair of players where neither / one / both knocked."""


@dataclass(frozen=True)
class QingerOptions:
    """House rules for one Qing'er table. Every field has the shipped default."""

    # -- table and flow (the engine reads these) -------------------------------------
    stake_form: StakeForm = "1-2-3"
    """Q1: the stake form chosen before play (the calculator's ``stakes`` overrides it)."""
    participants: Literal[3, 4] = 3
    """QA1: 4 = four at the table, the seat before the dealer sits each hand out."""
    deal_order: Literal["reverse_of_play", "play_order"] = "reverse_of_play"
    """QA2: the seed deals clockwise but plays counter-clockwise."""
    redeal_if_nobody_knocks: bool = True
    """QA4: nobody knocks (敲) → the hand is redealt."""
    advert_is_flower: bool = True
    """QA11: 广告 is set aside and replaced like a joker; False keeps it as a dead card."""
    takeoff_at_deal: bool = True
    """Q6: four alike (or all five jokers) may be shown at the deal (起飞)."""
    takeoff_face_quads_by_rank: bool = False
    """Q6 「4張花色相同并且同字」: a takeoff is four cards of one suit and rank, so the
    face cards (3 ♥ + 1 ♣ of each rank) cannot take off. True: four face cards of one rank
    (♥K♥K♥K♣K) may take off too, as they meld by rank (QA6)."""
    one_winner_per_discard: bool = True
    """QA20: only the claimant nearest in turn order wins; False lets every claimant win
    (``QingerHand.also_won``), each scored as a winner and settled pairwise."""
    exhausted_stock_settles: bool = True
    """QA19: with no winner the always-scored items are still settled pairwise."""
    dealer_stays_on_win: bool = True
    """Q2: the dealer keeps the deal after winning."""
    dealer_stays_on_exhausted_stock: bool = True
    """Q2: the dealer keeps the deal when the stock runs out."""

    # -- win threshold (QA7) -----------------------------------------------------------
    win_threshold: int = 60
    win_threshold_strict: bool = True
    """True: the score must exceed the threshold (大于60); False: reach it."""
    win_threshold_basis: Literal["total", "set_points"] = "total"
    """What is compared: the winner's whole pre-multiplier total, or set points only."""

    # -- set points (QA9, QA10) --------------------------------------------------------
    concealed_triplet_seen_points: int = 8
    """QA9: 见牌手里3张, a cell the seed leaves empty (ratio reading: 8)."""
    concealed_kong_unseen_points: int = 6
    """QA9: 非见牌暗笃, a cell the seed leaves empty (ratio reading: 6)."""
    rounding_scope: Literal["set_points", "total"] = "set_points"
    """QA10: what 越10加10 rounds up to a multiple of 10."""

    # -- bonuses -----------------------------------------------------------------------
    advert_indicator_as_joker: bool = True
    """QA8: a 广告 见张 counts as 喜喜见 (joker indicator) for doubling and 穷穷狠 too."""
    club_face_bonus: Literal["own_seat", "dealer_king_only"] = "own_seat"
    """QA12: which ♣ face card is worth 20 (the others 10)."""

    # -- the winner's items --------------------------------------------------------------
    qing_er_base: Literal["replace", "add"] = "replace"
    """QA13: 青儿 100 replaces the base 20, or is added to it (120)."""
    wen_qian_four_points: int = 80
    """QA14: four ♠1-2-3 runs (the seed stops at three = 80)."""
    qiong_qiong_hen_needs_no_club_faces: bool = True
    """QA16: 穷穷狠 also requires no ♣J/♣Q/♣K, like 穷狠."""
    quad_takeoff_breaks_qing_er: bool = True
    """QA18: a takeoff of four alike is a set of four, so the hand is not 青儿."""

    def __post_init__(self) -> None:
        for name in (
            "win_threshold",
            "concealed_triplet_seen_points",
            "concealed_kong_unseen_points",
            "wen_qian_four_points",
        ):
            if getattr(self, name) < 0:
                raise OptionError(f"option {name!r} must not be negative")
        if self.stake_form not in STAKE_FORMS:
            raise OptionError(f"option 'stake_form' must be one of {', '.join(STAKE_FORMS)}")

    @property
    def stakes(self) -> tuple[int, int, int]:
        return STAKE_FORMS[self.stake_form]


DEFAULT_OPTIONS = QingerOptions()
