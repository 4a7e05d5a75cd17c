"""The Jiaxing scoring item table: stable ids, names and the seed's values (J1–J32).

Values are in the one unit of JA1 (分 = 张 = 番). ``discard`` is what the single payer
pays when the win counts as 放炮; ``self_draw`` is what each of the three pays when it
counts as 自摸. ``None`` means the item cannot occur that way. Items of kind ``value``
make up a hand's worth; ``liability`` entries only name ledger reasons (who pays is
shifted, the worth is not); ``money`` entries are payments outside the hand value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from paiju.variants.base import ScoreItem


@dataclass(frozen=True, slots=True)
class ItemDef:
    id: str
    zh: str
    zh_hant: str
    en: str
    discard: int | None
    self_draw: int | None
    seed: str
    """The seed items (J…) the entry comes from."""
    kind: Literal["value", "liability", "money"] = "value"

    def scored(self, value: int) -> ScoreItem:
        return ScoreItem(self.id, self.zh, self.zh_hant, self.en, value)


_TABLE: tuple[ItemDef, ...] = (
    ItemDef("fang_pao", "放炮", "放炮", "win on a discard (plain hand)", 2, None, "J3"),
    ItemDef("zi_mo", "自摸", "自摸", "self-drawn win (plain hand)", None, 3, "J4"),
    ItemDef("men_qing", "门清", "門清", "concealed hand (self-draw only)", None, 4, "J5, J27"),
    ItemDef("qing_yi_se", "清一色", "清一色", "one suit, no honours", 9, 6, "J6"),
    ItemDef("peng_peng_hu", "碰碰胡", "碰碰胡", "all pongs and kongs", 9, 6, "J7"),
    ItemDef("qi_xiao_dui", "七小对", "七小對", "seven pairs", 12, 8, "J8"),
    ItemDef("da_qi_dui", "大七对", "大七對", "seven pairs with four alike", 24, 16, "J9"),
    ItemDef("quan_qiu_ren", "全求人", "全求人", "four melds, won on a discard", 18, None, "J10"),
    ItemDef(
        "gang_shang_hua_ming",
        "明杠杠上花",
        "明槓槓上花",
        "bloom on an exposed kong's replacement",
        18,
        None,
        "J11",
    ),
    ItemDef(
        "gang_shang_hua_an",
        "暗杠杠上花",
        "暗槓槓上花",
        "bloom on a concealed kong's replacement",
        None,
        9,
        "J11",
    ),
    ItemDef(
        "gang_shang_pao", "杠上炮", "槓上炮", "win on a konger's next discard", 9, None, "J12, J28"
    ),
    ItemDef("qiang_gang", "抢杠", "搶槓", "robbing an added kong", 9, 9, "J13, J23"),
    ItemDef("hai_di_lao_yue", "海底捞月", "海底撈月", "self-draw on the last tile", None, 6, "J14"),
    ItemDef("hai_di_pao", "海底炮", "海底炮", "win on the last discard", 9, None, "J15"),
    ItemDef("tian_hu", "天胡", "天胡", "heavenly hand (dealer's deal)", None, 6, "J16, J24"),
    ItemDef("di_hu", "地胡", "地胡", "earthly hand (first draw)", None, 8, "J26"),
    ItemDef("ren_hu", "人胡", "人胡", "human hand (dealer's first discard)", 8, None, "J25"),
    ItemDef("ting_pai", "听牌", "聽牌", "declared ready (报听)", 1, 1, "J22"),
    # 混儿 fans (option hun, rule book "混儿": H6/H7); under hun_stacking 'tianjin' each
    # doubling is listed at what it adds
    ItemDef(
        "zhuo_wu_er", "捉伍儿", "捉伍兒", "catching the five: 5万 closes 4-5-6万", 3, 3, "J0, H6"
    ),
    ItemDef("long", "龙", "龍", "dragon: 123, 456, 789 of one suit", 4, 4, "J0, H6"),
    ItemDef(
        "ti_liu", "提溜", "提溜", "Tianjin base: no catching-the-five, no dragon", 1, 1, "J0, HA1"
    ),
    ItemDef(
        "ben_hun_er_long",
        "本混儿龙",
        "本混兒龍",
        "the dragon is in the wild tiles' suit (×2 of 龙)",
        4,
        4,
        "J0, H6",
    ),
    ItemDef("mei_hun_er", "没混儿", "沒混兒", "no wild tile held", 2, 2, "J0, H6"),
    ItemDef(
        "hun_er_diao",
        "混儿吊",
        "混兒吊",
        "wild wait: the rest of the block is wilds",
        2,
        2,
        "J0, H6",
    ),
    ItemDef(
        "gang_kai", "杠开", "槓開", "win on a kong replacement (wild-tile fan)", 2, 2, "J0, H6"
    ),
    ItemDef(
        "yi_pao_san_xiang",
        "一炮三响",
        "一炮三響",
        "several winners on one discard: floor of 5",
        5,
        None,
        "J18",
    ),
    ItemDef("man_wu_fan", "不满5番按5番", "不滿5番按5番", "floor of 5", 5, 5, "J19, J20, J23"),
    ItemDef(
        "lian_gang", "连杠", "連槓", "bloom after a kong chain: ×2 per kong", None, None, "J29"
    ),
    ItemDef(
        "feng_hu",
        "封胡",
        "封胡",
        "sealed feeder shares the win",
        None,
        None,
        "J17, J31",
        "liability",
    ),
    ItemDef(
        "bao_hu",
        "包胡",
        "包胡",
        "feeder of three sets pays the win",
        None,
        None,
        "J21",
        "liability",
    ),
    ItemDef("gang", "杠钱", "槓錢", "kong money", 1, 1, "J2, J27, J29", "money"),
    ItemDef(
        "quan_qiu_ren_fan_chong",
        "全求人反冲",
        "全球人反衝",
        "a 全求人 hand that deals in pays extra",
        9,
        None,
        "J30",
        "money",
    ),
    ItemDef("diao_yu", "钓鱼", "釣魚", "fishing", None, None, "J32", "money"),
    ItemDef("jin_gang", "金杠", "金槓", "kong of four wild tiles", None, None, "J0, HA15", "money"),
)

ITEMS: dict[str, ItemDef] = {item.id: item for item in _TABLE}
"""Every Jiaxing item by id, in rule-book order."""

HUN_IDS = (
    "hun_er_diao",
    "mei_hun_er",
    "zhuo_wu_er",
    "long",
    "ben_hun_er_long",
    "gang_kai",
)
"""The six 混儿 fans the seed names (H6); ``ti_liu`` is only Tianjin stacking's base."""

PATTERN_IDS = frozenset({"qing_yi_se", "peng_peng_hu", "qi_xiao_dui", "da_qi_dui", "quan_qiu_ren"})
"""Hand patterns: the part that 杠上炮 doubles under ``gang_shang_pao='double'``."""


def item(item_id: str, value: int) -> ScoreItem:
    """The scored item ``item_id`` worth ``value``."""
    return ITEMS[item_id].scored(value)
