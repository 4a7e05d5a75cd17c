"""Qing'er (青儿) rule options: one field per cheap alternative reading (QA1–QA20).

Defaults follow the project's decisions (``docs/rules/decisions.md``); the rule book
``docs/rules/qinger.md`` maps every field to its seed item.
Fields are literal strings, booleans or integers so that
:func:`paiju.variants.base.options_from_mapping` can read them from JSON.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paiju.variants.base import OptionError, OptionSpec

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

    # -- rule profiles (QP…: not seed items; docs/rules/qinger.md §规则方案) -------------------
    zi_mo_only: bool = False
    """QP3 只许自摸 (胡牌方式): only a win on one's own draw counts; no 胡 is offered on a
    discard, and the calculator refuses a ``discard`` win (“只许自摸”). The seed has
    discard wins (Q7, QA20)."""

    feng_ding: int = 0
    """QP1 封顶: what one player pays another in a hand (the pair's score difference × its
    stake, Q9) is at most this; 0: no cap. The scores themselves are not capped."""

    # -- match length (the seed does not say how long a match is) ---------------------------
    hands: int | None = 6
    """Hands in a match; None: play ``rounds`` dealer rounds instead. With the default of
    an exhausted stock keeping the deal, a match counted in rounds can last as long as
    nobody wins, so a match is a number of hands by default."""
    rounds: int = 1
    """Dealer rounds (every seat at the table has dealt, repeats included) when ``hands``
    is None."""

    def __post_init__(self) -> None:
        for name in (
            "win_threshold",
            "concealed_triplet_seen_points",
            "concealed_kong_unseen_points",
            "wen_qian_four_points",
            "feng_ding",
        ):
            if getattr(self, name) < 0:
                raise OptionError(f"option {name!r} must not be negative")
        if self.hands is not None and self.hands < 1:
            raise OptionError("option 'hands' must be at least 1")
        if self.rounds < 1:
            raise OptionError("option 'rounds' must be at least 1")
        if self.stake_form not in STAKE_FORMS:
            raise OptionError(f"option 'stake_form' must be one of {', '.join(STAKE_FORMS)}")

    @property
    def stakes(self) -> tuple[int, int, int]:
        return STAKE_FORMS[self.stake_form]


DEFAULT_OPTIONS = QingerOptions()


OPTION_SPECS: dict[str, OptionSpec] = {
    "takeoff_face_quads_by_rank": OptionSpec(
        "花牌按点数起飞", "face quads take off by rank", "QA6", added=True
    ),
    "stake_form": OptionSpec("注码", "stake form", "Q1"),
    "zi_mo_only": OptionSpec("只许自摸", "self-drawn wins only", "QP3", added=True),
    "feng_ding": OptionSpec(
        "封顶（每对每局，0 不封顶）",
        "cap per pair and hand (0: none)",
        "QP1",
        0,
        100000,
        added=True,
    ),
    "participants": OptionSpec(
        "人数（4人时轮空一家）", "people at the table (4: one sits out)", "QA1"
    ),
    "deal_order": OptionSpec("发牌方向", "deal direction", "QA2"),
    "redeal_if_nobody_knocks": OptionSpec("无人敲则重发", "redeal when nobody knocks", "QA4"),
    "advert_is_flower": OptionSpec(
        "广告当花补", "the advert card is replaced like a joker", "QA11"
    ),
    "takeoff_at_deal": OptionSpec("起飞", "takeoff at the deal", "Q6"),
    "one_winner_per_discard": OptionSpec(
        "一炮只一家胡", "one winner per discard", "QA20", added=True
    ),
    "exhausted_stock_settles": OptionSpec("流局也结算", "an exhausted stock still settles", "QA19"),
    "dealer_stays_on_win": OptionSpec("庄家胡牌连庄", "dealer keeps the deal on a win", "Q2"),
    "dealer_stays_on_exhausted_stock": OptionSpec(
        "流局连庄", "dealer keeps the deal when the stock runs out", "Q2"
    ),
    "win_threshold": OptionSpec("起胡分", "win threshold", "QA7", 0, 1000),
    "win_threshold_strict": OptionSpec("须大于起胡分", "must exceed the threshold", "QA7"),
    "win_threshold_basis": OptionSpec("起胡分比什么", "what the threshold compares", "QA7"),
    "concealed_triplet_seen_points": OptionSpec(
        "见牌手里3张的分", "points of a concealed triplet of the 见牌", "QA9", 0, 1000
    ),
    "concealed_kong_unseen_points": OptionSpec(
        "非见牌暗笃的分", "points of a concealed kong not of the 见牌", "QA9", 0, 1000
    ),
    "rounding_scope": OptionSpec("越10加10的范围", "what rounds up to tens", "QA10"),
    "advert_indicator_as_joker": OptionSpec(
        "广告见张当鬼", "an advert 见张 counts as a joker", "QA8"
    ),
    "club_face_bonus": OptionSpec("梅花花牌加分", "which club face is worth 20", "QA12"),
    "qing_er_base": OptionSpec("青儿底分", "how 青儿 100 combines with the base", "QA13"),
    "wen_qian_four_points": OptionSpec(
        "四个文钱的分", "points of four ♠1-2-3 runs", "QA14", 0, 1000
    ),
    "qiong_qiong_hen_needs_no_club_faces": OptionSpec(
        "穷穷狠不能有梅花花牌", "穷穷狠 needs no club faces", "QA16"
    ),
    "quad_takeoff_breaks_qing_er": OptionSpec(
        "四张起飞破青儿", "a quad takeoff breaks 青儿", "QA18"
    ),
    "hands": OptionSpec("局数", "hands in a match", "Q2", 1, 64),
    "rounds": OptionSpec("轮数（不按局）", "dealer rounds (when hands is null)", "Q2", 1, 16),
}
