"""Jiaxing 嘉兴麻将 rule options: one named field per cheap ambiguity (JA…, J…).

Every default is the reading fixed by ``decisions.md`` (or ``analysis.md`` where that page
is silent). ``docs/rules/jiaxing.md`` lists each field with its seed item. The engine reads
the flow fields (claims, multiple winners, fishing, match length); the scorer reads the
rest.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Literal

from paiju.variants.base import OptionError, OptionSpec


@dataclass(frozen=True)
class JiaxingOptions:
    # -- flow (the engine) ------------------------------------------------------------
    chi: bool = False
    """JA3: allow 吃 (a run from the left-hand player). Off: only 碰 and 杠 may claim.
    Scoring has no chow meld type, so a chow hand cannot reach the scorer yet."""

    max_winners_per_discard: int | None = None
    """JA19: how many players may win on one discard (None: everyone who can, 一炮多响)."""

    hai_di: Literal["last_tile", "last_round"] = "last_tile"
    """JA12: which wins are 海底: only on the wall's last tile, or anywhere in the last
    go-round. The engine sets the ``last_tile`` flag accordingly; scoring only sees it."""

    fishing: bool = True
    """J32: 钓鱼 after a hand that follows a self-drawn win."""

    fishing_tiles: int = 3
    """J32/JA21: how many tiles from the wall's tail are counted when fishing."""

    hands: int | None = None
    """JA22: play this many hands; None means play ``rounds`` wind rounds."""

    rounds: int = 4
    """JA22: wind rounds in a match (东南西北 = 4, the analysis default; one round = every
    seat has dealt, dealer repeats included), used when ``hands`` is None."""

    dealer_stays_on_draw: bool = True
    """JA22: the dealer keeps the deal after a 荒庄 (as well as after their own win)."""

    # -- hand value (the scorer) --------------------------------------------------------
    base: Literal["when_no_pattern", "always"] = "when_no_pattern"
    """JA4: the plain base (放炮 2 / 自摸 3) counts only when no other item applies, or is
    always added on top of the patterns."""

    men_qing: Literal["add", "replace_base"] = "add"
    """JA5: 门清 adds 4 each in every hand, or (replace_base) it is a base of 4 that
    replaces the plain 3: alone it is 4, next to patterns it adds only 1."""

    quan_qiu_ren: Literal["flat", "with_peng_peng_hu"] = "flat"
    """JA6: 全求人 is a flat 18 (碰碰胡 does not stack, 清一色 does), or 18 + 碰碰胡 9."""

    qi_xiao_dui: bool = True
    """JP4 七小对 on/off (J8/J9; a rule profile's option): seven pairs win, as 七小对 (J8)
    or 大七对 (J9). Off: no seven-pairs hand is complete, in play (waits, shanten, 自摸 and
    claims) and in ``paiju score`` (exit 1, 未成牌); a hand that also reads as four sets
    and a pair still wins that way."""

    quad_in_seven_pairs: Literal["da_qi_dui", "qi_xiao_dui", "not_allowed"] = "da_qi_dui"
    """JA7: four alike held in a seven-pairs hand (never konged) make it 大七对; or they
    count as two plain pairs (七小对); or they cannot form pairs at all."""

    gang_shang_pao: Literal["add", "double"] = "add"
    """JA8: 杠上炮 adds 9 to the patterns (J12), or doubles them with 9 for a plain hand
    (J28 杠冲 "累积×2")."""

    qiang_gang: Literal["discard", "self_draw"] = "discard"
    """JA9: 抢杠 is 9 counted as 放炮, paid by the robbed seat (J13); or it counts as a
    self-draw (杠开, 9 each with self-draw patterns) whose three shares the robbed seat
    pays alone (J23)."""

    tian_hu_value: int = 6
    """JA10: 天胡 per payer (J16 says 6 each; J24 says 8)."""

    di_hu_value: int = 8
    """JA10/J26: 地胡 per payer."""

    ren_hu_value: int = 8
    """JA10/J25: 人胡, paid by the dealer who discarded."""

    hai_di_lao_yue_value: int = 6
    """JA13: 海底捞月 per payer (6; the 'total' reading is 2)."""

    floor: int = 5
    """JA11/J18–J20/J23: per-payer floor for 一炮多响, 杠上花, 海底捞月 and 抢杠
    ("不满5番按5番"); 0 turns the floors off."""

    floor_winners: int = 3
    """J18 一炮三響: the floor of 5 lifts every winner of a discard that at least this many
    won (3, the seed's 三響); 2 extends it to 一炮双响."""

    ting_declaration: bool = False
    """JA20/J22: 报听: a player may declare ready; a declared winner gets +1 (flag
    ``declared_ready``)."""

    # -- liabilities --------------------------------------------------------------------
    feng_hu: bool = True
    """J17/J31: 封胡: a seat that fed one opponent ``feng_hu_threshold`` sets may not win
    this hand, and shares that opponent's win."""

    feng_hu_threshold: int = 3
    """JA14: sets (碰, 明杠, 补杠 once; never 暗杠) fed to one opponent that seal the feeder."""

    feng_hu_other_discard: Literal["lv_you", "bao_hu"] = "lv_you"
    """JA15: a third seat discards to the winner: both the discarder and the sealed feeder
    pay a share (旅游, J17); or the feeder pays it instead of the discarder (包胡, J21)."""

    feng_hu_self_draw: Literal["feeder_pays_all", "feeder_pays_extra"] = "feeder_pays_all"
    """JA16: the winner self-draws: the sealed feeder alone pays three shares (包牌); or all
    three pay and the feeder pays one more share."""

    lian_gang: bool = True
    """J29/JA18: 连杠 liabilities: from the first exposed kong of a chain, its feeder pays
    every later kong's money and the bloom; off: each kong settles on its own."""

    lian_gang_doubling: Literal["per_extra_kong", "per_kong"] = "per_extra_kong"
    """JA17: a bloom after a chain of N kongs is worth ×2^(N−1) (fits the worked example),
    or ×2^N (the literal "连杠几次乘几次2")."""

    quan_qiu_ren_fan_chong: int = 9
    """J30: what a seat holding 全求人 (four melds, one tile) pays extra when it discards
    into a win; 0 turns 反冲 off."""

    # -- 混儿 wild tiles (docs/rules/jiaxing.md, "混儿"; off by default) ----------------
    hun: bool = False
    """H1: the 混儿 rule set: an indicator is turned up after the deal, its kind and the
    next are wild, and the six seed fans 混儿吊, 没混儿, 捉伍儿, 龙, 杠开 and 本混儿龙 join
    the game. Every other ``hun_*`` option (and ``mei_hun_er`` … ``jin_gang``) only acts
    when this is on."""

    hun_kinds: Literal[1, 2, 3] = 2
    """HA3: wild kinds: the indicator's kind alone (1), it and the next (2), or it and the
    next two (3, 刮大风)."""

    hun_indicator_out: bool = True
    """HA4: the turned-up tile is set aside, out of play (so at most three copies of its
    kind remain); off, it stays the next replacement tile."""

    hun_stacking: Literal["add", "tianjin"] = "add"
    """HA1/H7: the fans add (the seed's numbers as flat values), or Tianjin's way: 捉伍儿
    and 龙 add (提溜 1 without either), each of 混儿吊, 没混儿, 本混儿龙 and 杠开 doubles."""

    hun_base: Literal["keep", "drop"] = "keep"
    """HA2/H8: the fans come on top of the plain base (放炮 2 / 自摸 3), or they count as
    patterns that replace it."""

    hun_self_draw_only: bool = False
    """HA5: only self-drawn wins (杠开 included), as in Tianjin; off: discard wins stay."""

    hun_qi_hu: Literal[0, 2, 3] = 0
    """HA6 起和: no minimum (0); the fans must be worth 2 (2); or worth 3, or hold 没混儿
    or 杠开 (3)."""

    hun_er_diao_set: bool = True
    """HA7: 双混儿吊 (the winning tile plus two 混儿 as a set) counts as 混儿吊."""

    mei_hun_er: Literal["none_held", "none_wild"] = "none_held"
    """HA8: 没混儿 means holding no 混儿, or no 混儿 standing in for another face."""

    zhuo_wu_er_hun: Literal["allowed", "natural"] = "allowed"
    """HA9: 捉伍儿's 4万, 5万 and 6万 may be 混儿, or must all be natural."""

    ben_hun_er_long: Literal["suit", "own_face"] = "suit"
    """HA10: 本混儿龙 is a 龙 in the 混儿's suit; or, besides, each 混儿 in it keeps its
    own face."""

    gang_kai: bool = True
    """HA11: 杠开 (2) counts beside J11 杠上花."""

    hun_in_patterns: Literal["as_wild", "face"] = "as_wild"
    """HA12/H9: a 混儿 counts as the face it stands for in 清一色 and 大七对, or as its
    printed face."""

    hun_in_seven_pairs: bool = True
    """HA13: a 混儿 may pair any tile in 七小对/大七对; off: it keeps its own face there."""

    hun_discard: Literal["forbidden", "dead_hand"] = "forbidden"
    """HA14: a 混儿 may not be discarded; or it may, and the discarder's hand is dead
    (小相公: no win this hand, kongs still allowed). A discarded 混儿 is never claimed."""

    feng_ding: int = 0
    """JP1 封顶 (a rule profile's option, not a seed item): the cap on the per-payer value V,
    applied after every floor and the 连杠 doubling (item ``feng_ding`` takes off the
    rest); a seat that pays for others (承包, 包牌) pays each share capped; 0: no cap.
    Kong money is apart; 钓鱼 counts the capped value."""
    zi_mo_only: bool = False
    """JP3 只许自摸 (胡牌方式; a rule profile's option, not a seed item): only self-drawn
    wins (杠上花 included) count; a win off a discard or a robbed kong is refused
    (“只许自摸”). 混儿's own ``hun_self_draw_only`` says the same for 混儿 hands only."""
    di_fen: int = 1
    """JP2 底分 (a rule profile's option, not a seed item): the stake unit. Every payment
    (the hand, kong money, 全求人反冲, 钓鱼) is its value in points times ``di_fen``; the
    items keep their point values. 1: points are paid as they are."""
    jin_gang: int = 0
    """HA15 金杠: 0 forbids a kong of 混儿; n > 0 allows a concealed kong of four alike
    混儿, for which each other seat pays n kong money (those tiles are no longer wild)."""

    def __post_init__(self) -> None:
        non_negative = (
            "tian_hu_value",
            "di_hu_value",
            "ren_hu_value",
            "hai_di_lao_yue_value",
            "floor",
            "quan_qiu_ren_fan_chong",
            "fishing_tiles",
            "jin_gang",
            "feng_ding",
        )
        for name in non_negative:
            if getattr(self, name) < 0:
                raise OptionError(f"option {name!r} must not be negative")
        if self.di_fen < 1:
            raise OptionError("option 'di_fen' must be at least 1")
        if self.feng_hu_threshold < 1:
            raise OptionError("option 'feng_hu_threshold' must be at least 1")
        if self.rounds < 1:
            raise OptionError("option 'rounds' must be at least 1")
        if not 2 <= self.floor_winners <= 3:
            raise OptionError("option 'floor_winners' must be 2 or 3")
        for name in ("hands", "max_winners_per_discard"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise OptionError(f"option {name!r} must be at least 1 (or null)")


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in fields(JiaxingOptions))


OPTION_SPECS: dict[str, OptionSpec] = {
    "hun": OptionSpec("混儿", "wild tiles (混儿)", "H1", added=True),
    "hun_kinds": OptionSpec("混儿种数", "wild kinds", "HA3", added=True),
    "hun_indicator_out": OptionSpec(
        "翻出的牌不再使用", "the indicator leaves play", "HA4", added=True
    ),
    "hun_stacking": OptionSpec("混儿番的叠加", "how the wild fans stack", "HA1", added=True),
    "hun_base": OptionSpec("混儿番与底分", "wild fans and the plain base", "HA2", added=True),
    "hun_self_draw_only": OptionSpec("混儿只许自摸", "self-drawn wins only", "HA5", added=True),
    "hun_qi_hu": OptionSpec("混儿起和", "smallest wild win", "HA6", added=True),
    "hun_er_diao_set": OptionSpec(
        "双混儿吊算混儿吊", "two wilds with the winning tile", "HA7", added=True
    ),
    "mei_hun_er": OptionSpec("没混儿的含义", "what 没混儿 means", "HA8", added=True),
    "zhuo_wu_er_hun": OptionSpec("捉伍儿可用混儿", "捉伍儿 with a wild", "HA9", added=True),
    "ben_hun_er_long": OptionSpec("本混儿龙的含义", "what 本混儿龙 means", "HA10", added=True),
    "gang_kai": OptionSpec("杠开番", "the 杠开 fan", "H5", added=True),
    "hun_in_patterns": OptionSpec(
        "混儿在清一色、大七对中", "wilds in patterns", "HA12", added=True
    ),
    "hun_in_seven_pairs": OptionSpec("混儿可配七对", "wilds in seven pairs", "HA13", added=True),
    "hun_discard": OptionSpec("打出混儿", "discarding a wild", "HA14", added=True),
    "jin_gang": OptionSpec("金杠", "four wilds (金杠)", "HA15", 0, 100, added=True),
    "floor_winners": OptionSpec(
        "一炮几响起按5番", "winners on a discard for the floor", "J18", 2, 3, added=True
    ),
    "chi": OptionSpec("允许吃", "allow chow", "JA3"),
    "max_winners_per_discard": OptionSpec(
        "一炮最多几家胡", "most winners on one discard", "JA19", 1, 3
    ),
    "hai_di": OptionSpec("海底的范围", "what counts as 海底", "JA12"),
    "fishing": OptionSpec("钓鱼", "fishing after a self-drawn win", "J32"),
    "fishing_tiles": OptionSpec("钓鱼张数", "tiles counted when fishing", "JA21", 0, 8),
    "hands": OptionSpec("局数（不按圈）", "hands in a match (instead of rounds)", "JA22", 1, 64),
    "rounds": OptionSpec("圈数", "wind rounds in a match", "JA22", 1, 16),
    "dealer_stays_on_draw": OptionSpec("荒庄连庄", "dealer keeps the deal on a drawn hand", "JA22"),
    "base": OptionSpec("底分的计法", "when the plain base counts", "JA4"),
    "men_qing": OptionSpec("门清的计法", "how 门清 counts", "JA5"),
    "quan_qiu_ren": OptionSpec("全求人与碰碰胡", "全求人 and 碰碰胡", "JA6"),
    "qi_xiao_dui": OptionSpec("七小对（七对可胡）", "seven pairs win (七小对)", "JP4", added=True),
    "quad_in_seven_pairs": OptionSpec("七对中的四张", "four alike in seven pairs", "JA7"),
    "gang_shang_pao": OptionSpec("杠上炮的计法", "how 杠上炮 counts", "JA8"),
    "qiang_gang": OptionSpec("抢杠的计法", "how robbing a kong counts", "JA9"),
    "tian_hu_value": OptionSpec("天胡每家", "天胡 per payer", "JA10", 0, 1000),
    "di_hu_value": OptionSpec("地胡每家", "地胡 per payer", "JA10", 0, 1000),
    "ren_hu_value": OptionSpec("人胡", "人胡", "JA10", 0, 1000),
    "hai_di_lao_yue_value": OptionSpec("海底捞月每家", "海底捞月 per payer", "JA13", 0, 1000),
    "floor": OptionSpec("不满5番按5番", "per-payer floor", "JA11", 0, 1000),
    "zi_mo_only": OptionSpec("只许自摸", "self-drawn wins only", "JP3", added=True),
    "di_fen": OptionSpec("底分（每分几注）", "stake unit per point", "JP2", 1, 1000, added=True),
    "feng_ding": OptionSpec(
        "封顶（0 不封顶）", "win cap per payer (0: none)", "JP1", 0, 1000, added=True
    ),
    "ting_declaration": OptionSpec("报听", "declaring ready", "JA20"),
    "feng_hu": OptionSpec("封胡", "sealed by feeding (封胡)", "J17"),
    "feng_hu_threshold": OptionSpec("封胡的副数", "sets fed that seal the feeder", "JA14", 1, 4),
    "feng_hu_other_discard": OptionSpec("封胡时别家放炮", "封胡: a third seat discards", "JA15"),
    "feng_hu_self_draw": OptionSpec("封胡时自摸", "封胡: the winner self-draws", "JA16"),
    "lian_gang": OptionSpec("连杠包牌", "kong-chain liability (连杠)", "J29"),
    "lian_gang_doubling": OptionSpec("连杠翻倍", "kong-chain doubling", "JA17"),
    "quan_qiu_ren_fan_chong": OptionSpec(
        "全求人反冲", "全求人 discarder's extra payment", "J30", 0, 1000
    ),
}
