"""Every string the terminal game shows, in 简体中文 (the default) and English.

One table, looked up by key: ``text("wall", "en", n=83)``. A key missing from either
language is a bug caught by the tests, not a silent fallback.
"""

from __future__ import annotations

from typing import Any

from paiju.variants import find_variant

LANGS = ("zh", "en")

_TABLE: dict[str, tuple[str, str]] = {
    # variants
    "variant.jiaxing": ("嘉兴麻将", "Jiaxing mahjong"),
    "variant.taixing": ("泰兴麻将", "Taixing mahjong"),
    "variant.qinger": ("青儿", "Qing'er"),
    # seats, seen from the person
    "seat.me": ("我", "You"),
    "seat.next": ("下家", "Right"),
    "seat.across": ("对家", "Across"),
    "seat.prev": ("上家", "Left"),
    "wind.0": ("东", "E"),
    "wind.1": ("南", "S"),
    "wind.2": ("西", "W"),
    "wind.3": ("北", "N"),
    "round": ("{wind}风圈 第{n}局", "{wind} round, hand {n}"),
    "hand_no": ("第{n}局", "hand {n}"),
    "dealer": ("庄", "dealer"),
    "dealer_is": ("庄家：{who}", "Dealer: {who}"),
    "repeat": ("连庄 {n}", "dealer repeat {n}"),
    "wall": ("牌墙剩 {n} 张", "{n} tiles left"),
    "hun_indicator": ("翻混 {tile}，混儿：{wilds}", "indicator {tile}, wild: {wilds}"),
    "stock": ("牌堆剩 {n} 张", "{n} cards in the stock"),
    "turn": ("轮到：{who}", "To play: {who}"),
    "seed": ("种子 {seed}", "seed {seed}"),
    # panels
    "discards": ("牌河", "Discards"),
    "melds": ("副露", "Melds"),
    "flowers": ("花", "Flowers"),
    "ready": ("听", "ready"),
    "knocked": ("敲", "knocked"),
    "sits_out": ("歇", "sits out"),
    "takeoff": ("起飞", "Take-off"),
    "indicator": ("见张", "Indicator"),
    "concealed": ("手牌 {n} 张", "{n} in hand"),
    "hand": ("手牌", "Hand"),
    "drawn": ("摸", "drew"),
    "log": ("牌局", "Table"),
    "none": ("无", "none"),
    # Qing'er calls a kong 笃
    "qinger.meld.kong": ("明笃", "kong"),
    "qinger.meld.added_kong": ("明笃", "added kong"),
    "qinger.meld.concealed_kong": ("暗笃", "concealed kong"),
    "qinger.act.kong": ("笃", "Kong"),
    "qinger.act.concealed_kong": ("暗笃", "Concealed kong"),
    "qinger.act.added_kong": ("加笃", "Added kong"),
    # meld kinds
    "meld.pong": ("碰", "pong"),
    "meld.kong": ("明杠", "kong"),
    "meld.added_kong": ("补杠", "added kong"),
    "meld.concealed_kong": ("暗杠", "concealed kong"),
    # actions (buttons and log)
    "act.discard": ("打出", "discards"),
    "act.pong": ("碰", "Pong"),
    "act.kong": ("杠", "Kong"),
    "act.concealed_kong": ("暗杠", "Concealed kong"),
    "act.added_kong": ("补杠", "Added kong"),
    "act.hu": ("胡", "Win"),
    "act.zimo": ("自摸", "Self-draw win"),
    "act.pass": ("过", "Pass"),
    "act.ting": ("听", "Declare ready"),
    "act.chi": ("吃", "Chow"),
    "act.knock": ("敲", "Knock"),
    "act.qifei": ("起飞", "Take off"),
    "act.wuxi": ("五喜起飞", "Five-joker take-off"),
    "key.space": ("空格", "space"),
    "key.enter": ("回车", "Enter"),
    # prompts
    "prompt.discard": (
        "请出牌：按牌下的键、点击牌，或 ←→ 选牌后回车",
        "Your turn: press the key under a tile, click it, or ←→ then Enter",
    ),
    "prompt.claim": ("{who}打出 {tile}，要吗？", "{who} discarded {tile}. Claim it?"),
    "prompt.rob": ("{who}补杠 {tile}，抢杠胡吗？", "{who} adds a kong of {tile}. Rob it?"),
    "prompt.declare": ("你的牌已听，报天听吗？", "Your hand is ready. Declare 天听?"),
    "prompt.ting_mode": ("报听：选一张打出", "Declare ready: choose the discard"),
    "prompt.choose": ("选择：", "Choose:"),
    "prompt.wait": ("等待 {who}……", "Waiting for {who}…"),
    "prompt.illegal": ("现在不能这样做", "Not allowed now"),
    "hint.ready": ("听：", "Waiting on:"),
    "sealed": ("封胡", "sealed"),
    "fisher": ("{who}钓鱼", "{who} fishes"),
    "hint.waits": ("打这张听：", "Discard it to wait on:"),
    "prompt.quit": (
        "再按一次 q 退出（这一局不计）",
        "Press q again to quit (this hand is dropped)",
    ),
    "prompt.pace": ("机器人停顿 {s} 秒", "Bots pause {s} s"),
    "prompt.knock": ("敲不敲？", "Knock?"),
    "prompt.takeoff": ("起飞吗？", "Take off?"),
    "cancel": ("取消", "cancel"),
    "prompt.help": ("q 退出 · ? 帮助", "q quit · ? help"),
    # log lines
    "log.draw": ("{who}摸牌", "{who} draws"),
    "log.draw_own": ("{who}摸到 {tile}", "{who} draw {tile}"),
    "log.discard": ("{who}打出 {tile}", "{who} discards {tile}"),
    "log.pong": ("{who}碰 {tile}", "{who} pongs {tile}"),
    "log.kong": ("{who}杠 {tile}", "{who} kongs {tile}"),
    "log.added_kong": ("{who}补杠 {tile}", "{who} adds a kong of {tile}"),
    "log.concealed_kong": ("{who}暗杠", "{who} makes a concealed kong"),
    "log.concealed_kong_own": ("{who}暗杠 {tile}", "{who} make a concealed kong of {tile}"),
    "log.flower": ("{who}补花 {tile}", "{who} sets aside flower {tile}"),
    "log.ready": ("{who}报听", "{who} declares ready"),
    "log.knock": ("{who}敲了", "{who} knocks"),
    "log.no_knock": ("{who}不敲", "{who} passes"),
    "log.hun_indicator": ("翻混 {tile}，混儿：{wilds}", "Indicator {tile}, wild: {wilds}"),
    "log.indicator": ("见张 {tile}（见牌：{ranks}）", "Indicator {tile} (seen ranks: {ranks})"),
    "log.redeal": ("没人敲，重新发牌", "Nobody knocked: redeal"),
    "log.takeoff": ("{who}起飞 {tile}", "{who} takes off {tile}"),
    "log.win": ("{who}胡了！", "{who} won!"),
    "log.exhausted": ("荒庄：牌摸完了，没人胡", "Exhaustive draw: the wall ran out"),
    "log.payment": (
        "{payer} → {payee} {amount} 分（{reason}）",
        "{payer} → {payee} {amount} ({reason})",
    ),
    "log.dice": ("{who}掷骰 {dice}", "{who} rolls {dice}"),
    "log.saved": ("记录已保存：{path}", "Record saved: {path}"),
    # settlement
    "result.title": ("第 {n} 局结算", "Hand {n}: result"),
    "result.win": ("{who}胡 {tile}", "{who} won on {tile}"),
    "result.self_draw": ("自摸", "self-drawn"),
    "result.discard": ("{who}放炮", "discarded by {who}"),
    "result.robbed_kong": ("抢{who}的杠", "robbed from {who}'s kong"),
    "result.exhausted": ("荒庄（流局）", "Exhaustive draw"),
    "result.hand": ("胡牌", "Winning hand"),
    "result.items": ("计分", "Scoring"),
    "result.item_value": ("{value} 分", "{value}"),
    "unit.fan": ("{value} 番", "{value} fan"),
    "unit.flower": ("{value} 花", "{value} flowers"),
    "unit.multiplier": ("×{value}", "×{value}"),
    "unit.liability": ("{value} 份", "{value} shares"),
    "result.per_payer": ("每家付 {value} 分", "{value} per payer"),
    "result.value": ("牌值 {value} 分", "hand value {value}"),
    "result.total": ("合计 {value} 分", "total {value}"),
    "result.payments": ("付款", "Payments"),
    "result.no_payments": ("无人付款", "nobody pays"),
    "result.explanation": ("怎么算的", "How it was settled"),
    "result.fish": (
        "{who}钓鱼：{tiles}（钓中赢家 {hits} 张）",
        "{who} fish: {tiles} ({hits} on a winner)",
    ),
    "result.net": ("本局", "This hand"),
    "result.ledger": ("总账", "Match ledger"),
    "result.hand_col": ("局", "Hand"),
    "result.totals": ("合计", "Total"),
    "result.next": ("回车 下一局 · q 退出", "Enter next hand · q quit"),
    "result.match_over": ("整场结束 · q 退出", "Match over · q quit"),
    "result.winner": ("赢家：{who}", "Winner: {who}"),
    "result.invalid": ("不成和：{reason}", "Not a win: {reason}"),
    "help.title": ("操作说明", "Keys"),
    "help.body": (
        "出牌：按牌下方的键（1–9、0、a–d），或点击牌；也可用 ←→ 选牌、回车打出。\n"
        "碰 p · 杠 k（暗杠、补杠也是 k）· 胡 h（含自摸）· 过 空格 · 听 t · 吃 c\n"
        "有几种杠或吃可选时，再按对应数字选择。\n"
        "机器人出牌有短暂停顿；+ / - 调整快慢。\n"
        "q 退出（已打完的局会保存记录）· ? 显示或关闭本说明",
        "Discard: press the key under a tile (1–9, 0, a–d) or click it; or ←→ and Enter.\n"
        "Pong p · Kong k (concealed and added kongs too) · Win h (self-draw too) · Pass space\n"
        "Declare ready t · Chow c. When several kongs or chows are possible, pick by number.\n"
        "Bots pause briefly before they play; + / - change the pace.\n"
        "q quits (finished hands are saved to the record) · ? toggles this help",
    ),
}


def text(key: str, lang: str = "zh", **values: Any) -> str:
    """The string ``key`` in ``lang`` with ``values`` filled in."""
    try:
        pair = _TABLE[key]
    except KeyError:
        raise KeyError(f"no UI string {key!r}") from None
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r} (known: {', '.join(LANGS)})")
    template = pair[1] if lang == "en" else pair[0]
    return template.format(**values) if values else template


def all_keys() -> list[str]:
    return list(_TABLE)


def has_text(key: str) -> bool:
    return key in _TABLE


def item_name(variant: str, item_id: str, lang: str = "zh") -> str:
    """The name of scoring item or payment reason ``item_id`` of ``variant`` in ``lang``
    (the id itself when the variant's table does not know it)."""
    return find_variant(variant).item_name(item_id, lang)


def scored_item_name(variant: str, item: dict[str, Any], lang: str = "zh") -> str:
    """A scored item of a ``score`` event in ``lang``, with its count (Pong ×2)."""
    return find_variant(variant).scored_item_name(item, lang)


def item_value(variant: str, item_id: str, value: int, lang: str = "zh") -> str:
    """A scored item's value with its unit: Taixing counts fan, flowers and factors,
    the other games points (分)."""
    unit = find_variant(variant).item_unit(item_id)
    if unit == "points":
        return text("result.item_value", lang, value=value)
    return text(f"unit.{unit}", lang, value=value)
