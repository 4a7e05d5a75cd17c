"""The Taixing item table: fan (番), flower sources (花), multipliers and liability.

Ids are stable snake_case pinyin and never change; names are 简体 (the UI default), the
seed's 繁體 term, and an English gloss. ``value`` is the table value: fan for a ``fan``
item, flowers for a ``flower`` item, the factor for a ``multiplier``. A scored item may
carry a different value (the flower total, the streak factor, shares paid).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from paiju.variants.items import ItemRow

ItemKind = Literal["fan", "flower", "floor", "cap", "multiplier", "liability"]


_ROWS: tuple[ItemRow, ...] = (
    # fan: 小胡 stands alone; big-hand fan add up (T26 example: 清一色 3 + 对对胡 3 = 6)
    ItemRow("xiao_hu", "小胡", "小胡", "small hand", 1, "fan", "T12"),
    ItemRow("hun_yi_se", "混一色", "混一色", "one suit with honours", 2, "fan", "T13"),
    ItemRow("yi_tiao_long", "一条龙", "一條龍", "full straight 1–9", 3, "fan", "T14"),
    ItemRow("dui_dui_hu", "对对胡", "對對胡", "all triplets", 3, "fan", "T15"),
    ItemRow("qi_dui", "七对", "七對", "seven pairs", 3, "fan", "T16"),
    ItemRow("qing_yi_se", "清一色", "清一色", "pure one suit", 3, "fan", "T17"),
    ItemRow("da_diao_che", "大吊车", "大吊車", "all melded, single wait", 3, "fan", "T18"),
    ItemRow("feng_yi_se", "风一色", "風一色", "all honours", 8, "fan", "T19"),
    ItemRow("hua_hu", "花胡", "花胡", "all eight flowers", 8, "fan", "T20"),
    ItemRow("tian_ting", "天听", "天聽", "ready from the deal", 8, "fan", "T21"),
    ItemRow("gang_kai", "杠开", "杠開", "win on a kong replacement", 8, "fan", "T22"),
    ItemRow("qiang_gang", "抢杠", "搶杠", "robbing a kong", 8, "fan", "T23"),
    # flowers (T11); ``hua`` is the scored total F, the others are its sources
    ItemRow("hua", "花", "花", "flowers (total)", 1, "flower", "T11"),
    ItemRow("hua_pai", "花牌", "花牌", "flower tile", 1, "flower", "T11"),
    ItemRow("feng_peng", "风碰", "風碰", "pong of honours", 1, "flower", "T11"),
    ItemRow("ming_gang", "明杠", "明杠", "exposed kong", 1, "flower", "T11"),
    ItemRow("an_gang", "暗杠", "暗杠", "concealed kong", 2, "flower", "T11"),
    ItemRow("feng_gang", "风杠", "風杠", "exposed kong of honours", 2, "flower", "T11"),
    ItemRow("feng_an_gang", "风暗杠", "風暗杠", "concealed kong of honours", 3, "flower", "T11"),
    ItemRow("feng_bu_gang", "风补杠", "風補杠", "added kong of honours", 2, "flower", "TA3"),
    ItemRow("feng_an_ke", "风暗刻", "風暗刻", "concealed triplet of honours", 1, "flower", "TA3"),
    # the floor that lifted F (T25): value = flowers per payer after the floor
    ItemRow("di_hua", "底花", "底花", "minimum flowers", 3, "floor", "T25"),
    # multipliers (T27): value = the factor applied
    ItemRow(
        "huang_zhuang", "荒庄翻倍", "荒莊翻倍", "doubling after drawn hands", 2, "multiplier", "T9"
    ),
    ItemRow("bao_zi", "豹子", "豹子", "leopard dice (double)", 2, "multiplier", "T10"),
    # the cap (TP1, option feng_ding): value = the amount per payer (in 花) after it
    ItemRow("feng_ding", "封顶", "封頂", "win cap per payer", None, "cap", "TP1"),
    # liability (T24): value = shares the feeder pays
    ItemRow("bao_pai", "包牌", "包牌", "feeder liability", 1, "liability", "T24"),
)

ITEMS: tuple[ItemRow, ...] = tuple(
    # a floor is counted in flowers, as the flowers it stands in for; the cap in the 花
    # of the amount per payer (T26 "3×6 = 18花")
    replace(row, unit="flower" if row.kind in ("floor", "cap") else row.kind)
    for row in _ROWS
)

BY_ID: dict[str, ItemRow] = {item.id: item for item in ITEMS}

FAN_ORDER: tuple[str, ...] = tuple(i.id for i in ITEMS if i.kind == "fan")
"""Fan items in table order: the order they are listed in a result."""
