"""Qing'er (青儿) scoring items: stable ids, names in 简体 / seed 繁體 / English, values.

Ids are snake_case pinyin and never change; the values are the seed's (Q10–Q30) or the
inferred cells of QA9, which options may override. Multipliers carry their factor in
``value``; in a result their :class:`~paiju.engine.types.ScoreItem` carries the points the
doubling added, so a player's items always sum to their score.
"""

from __future__ import annotations

from typing import Literal

from paiju.variants.items import ItemRow

ItemKind = Literal["set", "rounding", "bonus", "win", "multiplier"]


_JOKER_JIAN = "见张为鬼 / the 见张 is a joker"

_ROWS = (
    # set points (Q22–Q23), everyone
    ItemRow("peng", "非见牌碰", "非見牌的碰", "Pong, unseen rank", 1, "set", "Q23"),
    ItemRow("jian_pai_peng", "见牌碰", "見牌的碰", "Pong, seen rank", 4, "set", "Q23"),
    ItemRow(
        "an_ke", "非见牌暗刻", "手裡非見牌的3張", "Concealed triplet, unseen rank", 2, "set", "Q23"
    ),
    ItemRow(
        "jian_pai_an_ke",
        "见牌暗刻",
        "見牌手裡3張",
        "Concealed triplet, seen rank",
        8,
        "set",
        "Q23/QA9",
    ),
    ItemRow("ming_du", "非见牌明笃", "非見牌的明篤", "Exposed kong, unseen rank", 4, "set", "Q23"),
    ItemRow(
        "jian_pai_ming_du", "见牌明笃", "見牌明篤", "Exposed kong, seen rank", 16, "set", "Q23"
    ),
    ItemRow(
        "an_du", "非见牌暗笃", "非見牌暗篤", "Concealed kong, unseen rank", 6, "set", "Q23/QA9"
    ),
    ItemRow(
        "jian_pai_an_du", "见牌暗笃", "見牌的暗篤", "Concealed kong, seen rank", 24, "set", "Q23"
    ),
    ItemRow("qi_fei", "非见牌起飞", "非見牌的起飛", "Takeoff, unseen rank", 8, "set", "Q23"),
    ItemRow("jian_pai_qi_fei", "见牌起飞", "見牌的起飛", "Takeoff, seen rank", 32, "set", "Q23"),
    ItemRow(
        "jin_zheng",
        "进整",
        "越10加10",
        "Rounded up to a multiple of 10",
        0,
        "rounding",
        "Q24/QA10",
    ),
    # jokers and the advert card (Q14–Q21, Q25), everyone
    ItemRow("da_gui", "大鬼", "大鬼", "Big joker", 10, "bonus", "Q14/Q20", 20, _JOKER_JIAN),
    ItemRow("xiao_gui", "小鬼", "小鬼", "Small joker", 20, "bonus", "Q14/Q20", 40, _JOKER_JIAN),
    ItemRow(
        "jie_hun",
        "结婚",
        "結婚",
        "Marriage: all three big or both small jokers",
        50,
        "bonus",
        "Q15/Q25/Q20",
        100,
        _JOKER_JIAN,
    ),
    ItemRow(
        "wu_xi",
        "五喜",
        "玩牌過程中抓3張大鬼、2張小鬼",
        "All five jokers collected in play",
        200,
        "bonus",
        "Q16/Q18",
        300,
        _JOKER_JIAN,
    ),
    ItemRow(
        "wu_xi_qi_fei",
        "五喜起飞",
        "5張鬼起飛",
        "Five-joker takeoff",
        400,
        "bonus",
        "Q17/Q19",
        560,
        _JOKER_JIAN,
    ),
    ItemRow("guang_gao", "广告", "廣告", "Advertisement card", 30, "bonus", "Q21", 60, _JOKER_JIAN),
    # ♣ face cards by seat (Q26, QA12), everyone
    ItemRow(
        "mei_hua_k",
        "梅花K",
        "草花K",
        "King of Clubs",
        20,
        "bonus",
        "Q26/QA12",
        10,
        "不是自己座位的牌 / not the holder's seat card",
    ),
    ItemRow(
        "mei_hua_q",
        "梅花Q",
        "草花Q",
        "Queen of Clubs",
        20,
        "bonus",
        "Q26/QA12",
        10,
        "不是自己座位的牌 / not the holder's seat card",
    ),
    ItemRow(
        "mei_hua_j",
        "梅花J",
        "草花J",
        "Jack of Clubs",
        20,
        "bonus",
        "Q26/QA12",
        10,
        "不是自己座位的牌 / not the holder's seat card",
    ),
    # the winner only (Q10–Q13)
    ItemRow("hu_pai", "胡牌底分", "胡牌底分", "Winning base", 20, "win", "Q10"),
    ItemRow("qing_er", "青儿", "青兒", "Qing'er: no pong or kong anywhere", 100, "win", "Q13/QA13"),
    ItemRow("dan_diao", "单调", "單調", "Single wait (on the pair)", 10, "win", "Q11"),
    ItemRow("bian_zhang", "边张", "邊", "Edge wait", 10, "win", "Q11"),
    ItemRow("qian_zhang", "嵌张", "嵌", "Closed wait", 10, "win", "Q11"),
    ItemRow("wen_qian", "文钱", "文錢", "One ♠1-2-3 run", 20, "win", "Q12"),
    ItemRow("liang_wen_qian", "两套文钱", "兩套文錢", "Two ♠1-2-3 runs", 50, "win", "Q12"),
    ItemRow("san_wen_qian", "三套文钱", "三套文錢", "Three ♠1-2-3 runs", 80, "win", "Q12"),
    ItemRow("si_wen_qian", "四套文钱", "四套文錢", "Four ♠1-2-3 runs", 80, "win", "Q12/QA14"),
    # multipliers (Q27–Q30)
    ItemRow("san_hong", "三红", "三紅", "Three reds: J, Q and K as sets", 2, "multiplier", "Q27"),
    ItemRow(
        "qiong_hen",
        "穷狠",
        "窮狠",
        "Poor and fierce: no joker, no ♣ face card",
        2,
        "multiplier",
        "Q28",
    ),
    ItemRow(
        "qiong_qiong_hen",
        "穷穷狠",
        "窮窮狠",
        "Poorest: joker 见张 and no joker held",
        4,
        "multiplier",
        "Q29/QA16",
    ),
    ItemRow("piao_hu", "飘胡", "飄胡", "All sets pongs or triplets", 2, "multiplier", "Q30"),
)

ITEMS: dict[str, ItemRow] = {row.id: row for row in _ROWS}
"""Every Qing'er item by id, in the order results list them."""

ITEM_ORDER: dict[str, int] = {row.id: i for i, row in enumerate(_ROWS)}

PAYMENT_REASON = "bi_fen"
"""Ledger reason of the pairwise settlement (比分, Q9)."""
