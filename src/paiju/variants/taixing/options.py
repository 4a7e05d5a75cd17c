"""Taixing house rules: one frozen options object, every field a named seed ambiguity.

Defaults are the ones ``docs/rules/decisions.md`` ships (TA1 and TA8 there, the
recommendations of ``analysis.md`` §3.5 for the rest). Every field is a ``Literal``,
``bool`` or ``int`` so that ``paiju score`` and match headers can set it from JSON.
The rule book ``docs/rules/taixing.md`` lists each field beside its seed item.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paiju.variants.base import OptionError, OptionSpec


@dataclass(frozen=True)
class TaixingOptions:
    """Rule options of 泰兴麻将. Field docstrings name the seed item (T…) or ambiguity (TA…)."""

    # -- scoring: the base formula (TA1, T25, T26) ------------------------------------------
    flower_base: Literal["floor", "plus_one"] = "floor"
    """TA1. ``floor``: per payer = max(F, floor) × fan; ``plus_one``: max(F + 1, floor) × fan,
    reading the worked example "2花 … = 3×6" as one flower added to the count."""

    floor_self_draw: int = 2
    """TA1 / T25 自摸底6花: flowers per payer at least this on a self-draw (2 × 3 payers = 6).
    Reading TA1(d) is ``6``."""

    floor_discard: int = 3
    """TA1 / T25 放炮底3花: the discarder (or robbed seat) pays for at least this many flowers."""

    floor_kong_replacement: int = 3
    """TA1 / T25 杠开算9花: flowers per payer at least this on a 杠开 win (3 × 3 = 9)."""

    # -- flowers (T11, TA2, TA3, TA4) ------------------------------------------------------
    threshold_flowers: Literal["all", "tiles_only"] = "all"
    """TA2. Which flowers count towards the small-hand minimums: ``all`` (flower tiles and
    meld flowers) or ``tiles_only`` (the eight flower tiles only)."""

    min_flowers_self_draw: int = 2
    """小胡 minimum, self-draw (seed: 两花（硬）自摸). Big hands are exempt."""

    min_flowers_discard: int = 3
    """小胡 minimum, discard (seed: 三花起胡). Big hands are exempt."""

    feng_an_ke_flowers: int = 1
    """TA3. Flowers for a concealed 风 triplet held in hand: (a) 1, (b) 2."""

    feng_bu_gang_flowers: int = 2
    """TA3. Flowers for an added kong (补杠) of a 风 tile: (a) 2, (b) 1."""

    dragons_are_feng: bool = True
    """TA4. True: 中发白 count as 风 for meld flowers (风碰, 风杠, 风暗杠…). False: a dragon meld
    scores as a suited one (pong 0, 明杠 1, 暗杠 2); dragons stay honours for 混一色/风一色."""

    # -- winning hands (T6, TA5, TA6, TA12, TA13, TA14) -----------------------------------
    tian_ting: Literal["ready_at_deal", "heavenly"] = "ready_at_deal"
    """TA5. 天听 is (a) ``ready_at_deal``: declared ready right after the deal (flag
    ``ready_at_deal``), or (b) ``heavenly``: the dealer's dealt hand is already complete
    (flag ``heavenly``, dealer only)."""

    tian_ting_seats: Literal["every_seat", "dealer"] = "every_seat"
    """T21/TA5 「莊家摸到牌后直接成牌」: who may declare 天听 (``ready_at_deal``): every
    seat (the dealer with the first discard, the others right after the deal), or the
    ``dealer`` only, as the seed's 莊家 says."""

    gang_kai: Literal["fan_and_floor", "floor_only"] = "fan_and_floor"
    """TA6. (a) ``fan_and_floor``: 杠开 is 8番 and lifts the floor to ``floor_kong_replacement``;
    (b) ``floor_only``: 杠开 adds no fan, only the floor ("算9花")."""

    feng_yi_se_needs_shape: bool = False
    """TA12. False: any all-honour hand wins as 风一色 (seed literal); True: it must also be
    four sets and a pair, or seven pairs."""

    shapes: Literal["any_mix", "seed_abc"] = "any_mix"
    """TA13. ``any_mix``: any four sets (runs or triplets) and a pair; ``seed_abc``: only the
    seed's A (4 runs), B (3 runs + 1 triplet) and C (4 triplets)."""

    qi_dui: bool = True
    """TP4 七对 on/off (T16 lists 七對 3番, so on by default; a rule profile's option):
    off, seven pairs are no winning shape: not a wait, no 胡 offered, shanten without
    them, and ``paiju score`` exits 1 (不成胡牌牌型)."""

    qi_dui_quad: bool = True
    """TA14. Four identical concealed tiles count as two pairs of 七对."""

    da_diao_che_self_draw: bool = True
    """TA14. 大吊车 scores on a self-draw too (False: only when won on a discard)."""

    # -- payment (T24, TA7, TA11, TA15) ----------------------------------------------------
    draw_streak_growth: Literal["compound", "linear"] = "compound"
    """TA7 / T9. Consecutive 荒庄: ``compound`` ×2^n, ``linear`` ×(n + 1)."""

    bao_pai: bool = True
    """T24. 包牌: the seat that fed the winner ``bao_pai_threshold`` sets pays instead."""

    bao_pai_threshold: int = 3
    """TA11. Pongs and exposed kongs (incl. added kongs on a fed pong) from one seat."""

    qiang_gang_payer: Literal["robbed", "all_three"] = "robbed"
    """TA15. 抢杠 is paid by the ``robbed`` seat (as a discarder), or by ``all_three`` as on a
    self-draw."""

    # -- rule profiles (TP…: not seed items; docs/rules/taixing.md §规则方案) -------------
    zi_mo_only: bool = False
    """TP3 只许自摸 (胡牌方式): only self-drawn wins (杠开 and 花胡 included) count; a win
    off a discard or a robbed kong is refused (“只许自摸”). The seed has discard wins
    (放炮底3花, T25)."""

    feng_ding: int = 0
    """TP1 封顶: the per-payer amount (flowers × fan × every doubling) is at most this; a
    feeder paying three shares (包牌) pays each share capped. 0: no cap."""

    di_fen: int = 1
    """TP2 底分: every payment is the amount in 花 times this stake unit (1: a 花 is one
    point)."""

    # -- flow, played by the engine (T1, T3, T5, T7, T9, TA8, TA9, TA10) ---------------
    max_winners_per_discard: int | None = None
    """TA8 / T5 有炮两响. None: every player who can win on a discard wins; an integer caps
    the winners, nearest in turn order after the discarder first."""

    dealer_rotates_on_draw: bool = True
    """TA9 / T7. On 荒庄 the deal passes (True) or the dealer stays (False)."""

    wall_break: Literal["standard", "seed_table"] = "standard"
    """TA10 / T1. ``standard``: count the dice sum from the dealer, break at the smaller die;
    ``seed_table``: the seed's dealer throws 1+4, 2+3, 3+6, 4+5 open the opposite wall."""

    rounds: int = 4
    """T3. Wind rounds in a match (东南西北 = 4); each round lasts until every seat has dealt."""

    hands: int | None = None
    """T3. A match of this many hands instead of ``rounds`` wind rounds (a shorter game, and
    how a record of a match stopped early is written); None: play the wind rounds."""

    max_extra_hands: int = 16
    """T9 「荒莊…且下盤必須要打，而且翻倍」: a match does not end on a drawn hand; it plays
    on, doubling, until a hand is won, at most this many hands past its planned end (so
    that a match of bots stays finite); 0 ends it on schedule."""

    def __post_init__(self) -> None:
        if self.max_extra_hands < 0:
            raise OptionError("option 'max_extra_hands' must be 0 or more")
        if self.hands is not None and self.hands < 1:
            raise OptionError("option 'hands' must be at least 1 (or null)")
        for name in (
            "floor_self_draw",
            "floor_discard",
            "floor_kong_replacement",
            "min_flowers_self_draw",
            "min_flowers_discard",
            "feng_an_ke_flowers",
            "feng_bu_gang_flowers",
        ):
            if getattr(self, name) < 0:
                raise OptionError(f"option {name!r} must be 0 or more")
        if self.feng_ding < 0:
            raise OptionError("option 'feng_ding' must be 0 or more")
        if self.di_fen < 1:
            raise OptionError("option 'di_fen' must be at least 1")
        if self.bao_pai_threshold < 1:
            raise OptionError("option 'bao_pai_threshold' must be 1 or more")
        if self.max_winners_per_discard is not None and not 1 <= self.max_winners_per_discard <= 3:
            raise OptionError("option 'max_winners_per_discard' must be 1…3 or null")
        if not 1 <= self.rounds <= 4:
            raise OptionError("option 'rounds' must be 1…4")


OPTION_SPECS: dict[str, OptionSpec] = {
    "tian_ting_seats": OptionSpec("谁可报天听", "who may declare 天听", "T21", added=True),
    "max_extra_hands": OptionSpec(
        "荒庄加打最多几局", "most extra hands after drawn ones", "T9", 0, 64, added=True
    ),
    "flower_base": OptionSpec("花数底的计法", "how the flower floor applies", "TA1"),
    "floor_self_draw": OptionSpec("自摸底花（每家）", "self-draw floor per payer", "T25", 0, 100),
    "floor_discard": OptionSpec("放炮底花", "discard floor", "T25", 0, 100),
    "floor_kong_replacement": OptionSpec("杠开底花（每家）", "杠开 floor per payer", "T25", 0, 100),
    "threshold_flowers": OptionSpec("起胡花数算哪些花", "flowers counted for the minimum", "TA2"),
    "min_flowers_self_draw": OptionSpec("自摸起胡花数", "self-draw flower minimum", "T11", 0, 20),
    "min_flowers_discard": OptionSpec("放炮起胡花数", "discard flower minimum", "T11", 0, 20),
    "feng_an_ke_flowers": OptionSpec(
        "风暗刻花数", "flowers of a concealed wind triplet", "TA3", 0, 8
    ),
    "feng_bu_gang_flowers": OptionSpec("风补杠花数", "flowers of an added wind kong", "TA3", 0, 8),
    "dragons_are_feng": OptionSpec("中发白算风", "dragons count as winds", "TA4"),
    "tian_ting": OptionSpec("天听的含义", "what 天听 means", "TA5"),
    "gang_kai": OptionSpec("杠开的计法", "how 杠开 counts", "TA6"),
    "feng_yi_se_needs_shape": OptionSpec("风一色要成牌型", "风一色 needs a shape", "TA12"),
    "shapes": OptionSpec("胡牌牌型", "winning shapes", "TA13"),
    "qi_dui": OptionSpec("七对可胡", "seven pairs win (七对)", "TP4", added=True),
    "qi_dui_quad": OptionSpec("七对可含四张", "four alike in seven pairs", "TA14"),
    "da_diao_che_self_draw": OptionSpec("大吊车可自摸", "大吊车 on a self-draw", "TA14"),
    "draw_streak_growth": OptionSpec("荒庄翻倍方式", "how drawn hands multiply", "TA7"),
    "bao_pai": OptionSpec("包牌", "feeder liability (包牌)", "T24"),
    "bao_pai_threshold": OptionSpec("包牌副数", "sets fed for 包牌", "TA11", 1, 4),
    "qiang_gang_payer": OptionSpec("抢杠谁付", "who pays a robbed kong", "TA15"),
    "zi_mo_only": OptionSpec("只许自摸", "self-drawn wins only", "TP3", added=True),
    "feng_ding": OptionSpec(
        "封顶（每家，0 不封顶）", "win cap per payer (0: none)", "TP1", 0, 10000, added=True
    ),
    "di_fen": OptionSpec("底分（每花几分）", "stake unit per flower", "TP2", 1, 1000, added=True),
    "max_winners_per_discard": OptionSpec(
        "一炮最多几家胡", "most winners on one discard", "TA8", 1, 3
    ),
    "dealer_rotates_on_draw": OptionSpec("荒庄下庄", "deal passes on a drawn hand", "TA9"),
    "wall_break": OptionSpec("开牌方式", "where the wall is broken", "TA10"),
    "rounds": OptionSpec("圈数", "wind rounds in a match", "T3", 1, 4),
    "hands": OptionSpec("局数（不按圈）", "hands in a match (instead of rounds)", "T3", 1, 64),
}
