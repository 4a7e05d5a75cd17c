"""Jiaxing settlements in words: the items added to each payer's amount (with the floors
and 连杠 doubling), then every payment with its reason (点炮者付, 三家各付, 承包, 旅游,
包牌, 包胡, 杠钱, 全求人反冲, 钓鱼). See :mod:`paiju.variants.explain`."""

from __future__ import annotations

from collections.abc import Sequence

from paiju.components.notation import format_tiles
from paiju.components.tiles import Tile
from paiju.engine.types import MahjongWin, Meld, MeldType, Payment, WinFlag, WinResult, WinType
from paiju.variants.explain import Explanation, PaymentLine, Step, grouped, plus
from paiju.variants.jiaxing.items import ITEMS

VARIANT = "jiaxing"
_TOPS = ("yi_pao_san_xiang", "man_wu_fan", "lian_gang", "feng_ding")


def explain_win(win: MahjongWin, result: WinResult) -> Explanation:
    """The formula of one winner's value and the lines of ``result.payments``."""
    steps: list[Step] = []
    w = win.winner
    counts_as = result.extra.get("counts_as", "discard")
    payer = result.extra.get("payer")
    if counts_as == "discard":
        steps.append(
            Step(
                f"座位{w} 和牌，计为放炮：一家付（座位{payer}）",
                f"seat {w} wins; it counts as a discard win: one seat pays (seat {payer})",
                "J3, JA1",
            )
        )
    else:
        steps.append(
            Step(
                f"座位{w} 和牌，计为自摸：每家付同样的分",
                f"seat {w} wins; it counts as a self-draw: each payer pays the same",
                "J4, JA1",
            )
        )
    items = result.items
    core = [i for i in items if i.id not in _TOPS]
    total = sum(i.value for i in core)
    zh_terms = plus([(i.zh, i.value) for i in core])
    en_terms = plus([(i.en, i.value) for i in core])
    seeds = ", ".join(dict.fromkeys(ITEMS[i.id].rule for i in core))
    who_zh = "点炮者应付" if counts_as == "discard" else "每家应付"
    steps.append(
        Step(f"{who_zh} = {zh_terms} = {total}", f"per payer = {en_terms} = {total}", seeds)
    )
    for item in items:
        if item.id in ("yi_pao_san_xiang", "man_wu_fan"):
            before, total = total, total + item.value
            why_zh = (
                f"一炮三响（同一张牌 {win.discard_winners} 家和）"
                if item.id == "yi_pao_san_xiang"
                else "杠上花、抢杠、海底捞月"
            )
            why_en = (
                f"{win.discard_winners} winners on one discard"
                if item.id == "yi_pao_san_xiang"
                else "a kong bloom, a robbed kong or the last tile"
            )
            steps.append(
                Step(
                    f"{why_zh}不满 {total} 按 {total}：{before} → {total}",
                    f"{why_en}: raised to the floor, {before} → {total}",
                    ITEMS[item.id].rule,
                )
            )
        elif item.id == "lian_gang":
            before, total = total, total + item.value
            factor = total // before if before else 1
            steps.append(
                Step(
                    f"连杠后杠上花：{before} × {factor} = {total}",
                    f"a bloom after a kong chain: {before} × {factor} = {total}",
                    "J29, JA17",
                )
            )
        elif item.id == "feng_ding":
            before, total = total, total + item.value
            steps.append(
                Step(
                    f"封顶 {total}：{before} → {total}",
                    f"capped at {total} (封顶): {before} → {total}",
                    ITEMS[item.id].rule,
                )
            )
    if total != result.per_payer:  # pragma: no cover - the items always add up
        raise AssertionError("Jiaxing items do not add up to the value per payer")
    unit = result.extra.get("di_fen", 1)
    if unit != 1:
        steps.append(
            Step(
                f"底分 {unit}：每分付 {unit}，{total} × {unit} = {total * unit}",
                f"stake unit {unit} (底分): {total} × {unit} = {total * unit} paid",
                "JP2",
            )
        )
    return Explanation(VARIANT, tuple(steps), tuple(payment_lines(win, result.payments, result)))


def payment_lines(
    win: MahjongWin, payments: Sequence[Payment], result: WinResult | None = None
) -> list[PaymentLine]:
    """Plain-words lines for Jiaxing payments (one per payer, payee and reason)."""
    counts_as = result.extra.get("counts_as") if result else None
    value_ids = {i for i, row in ITEMS.items() if row.kind == "value"}
    by_payer: dict[int, int] = {}
    rest: list[Payment] = []
    for p in payments:
        if p.reason in value_ids:
            by_payer[p.payer] = by_payer.get(p.payer, 0) + p.amount
        else:
            rest.append(p)
    out: list[PaymentLine] = []
    for payer, amount in by_payer.items():
        out.append(_value_line(win, payer, amount, counts_as))
    for payer, payee, reason, amount in grouped(rest):
        zh, en, seed = _words(win, reason, payer)
        out.append(PaymentLine(payer, payee, amount, reason, zh, en, seed))
    return out


def _value_line(win: MahjongWin, payer: int, amount: int, counts_as: object) -> PaymentLine:
    w = win.winner
    bloom = win.self_drawn and WinFlag.KONG_REPLACEMENT in win.flags
    if counts_as == "discard" and bloom:
        zh, en, seed = (
            "明杠杠上花：被杠者一家承包",
            "bloom on an exposed kong: its feeder pays",
            "J11",
        )
        reason = "gang_shang_hua_ming"
    elif counts_as == "discard" and win.win_type is WinType.ROBBED_KONG:
        zh, en, seed = (
            "抢杠算放炮：被抢杠者付",
            "robbed kong, as a discard: the robbed seat pays",
            "J13",
        )
        reason = "qiang_gang"
    elif counts_as == "discard":
        zh, en, seed = "点炮者付", "the discarder pays", "J3"
        reason = "fang_pao"
    elif win.win_type is WinType.ROBBED_KONG:
        zh, en = (
            "抢杠算自摸：被抢杠者包三家",
            "robbed kong, as a self-draw: the robbed seat pays all three",
        )
        seed, reason = "J23, JA9", "qiang_gang"
    else:
        zh, en, seed = "自摸：三家各付", "self-draw: each of the three pays", "J4"
        reason = "zi_mo"
    return PaymentLine(payer, w, amount, reason, zh, en, seed)


def _words(win: MahjongWin, reason: str, payer: int) -> tuple[str, str, str]:
    if reason == "feng_hu":
        if win.self_drawn:
            return (
                "包牌：封胡者（喂了三组）替另两家付",
                "包牌: the sealed feeder (fed three sets) pays for the other two",
                "J17, JA16",
            )
        if payer == win.source:
            return (
                "封胡者点炮，付两份（这是第二份）",
                "the sealed feeder discarded: it pays two shares (this is the second)",
                "J17",
            )
        return (
            "旅游：封胡者跟点炮者付同样一份",
            "旅游: the sealed feeder pays a share like the discarder",
            "J17, JA15",
        )
    if reason == "bao_hu":
        return (
            "包胡：给了九张落地者付全部",
            "包胡: the seat that fed three sets pays it all",
            "J21, JA15",
        )
    if reason == "gang":
        return "杠钱（开杠时当场付）", "kong money (paid at the kong)", "J2, J27"
    if reason == "quan_qiu_ren_fan_chong":
        return (
            "全求人反冲：点炮者四组落地、手里只剩一张，另付",
            "全求人反冲: the discarder held four melds and one tile, and pays extra",
            "J30",
        )
    if reason == "diao_yu":
        return (
            "钓鱼：除钓鱼者外每家按钓中和家的每家分 × 钓中张数付",
            "fishing: each seat but the fisher pays the hit winner's value per payer × the hits",
            "J32, JA21",
        )
    row = ITEMS.get(reason)
    return (row.zh, row.en, row.rule) if row else (reason, reason, "")


def explain_fishing(
    fisher: int, tail: Sequence[Tile], hits: Sequence[int], values: dict[int, int]
) -> Step:
    """The 钓鱼 step: which tiles were turned, where they landed, what the hits are worth."""
    shown = " ".join(str(t) for t in tail) or "—"
    landed = ", ".join(str(h) for h in hits) or "—"
    won = {s: hits.count(s) for s in dict.fromkeys(hits) if values.get(s, 0) > 0}
    zh_hit = (
        "；".join(f"座位{s} 和了，每家分 {values[s]} × {n}" for s, n in won.items())
        or "没有钓中和家"
    )
    en_hit = "; ".join(f"seat {s} won, {values[s]} per payer × {n}" for s, n in won.items()) or (
        "no winner hit"
    )
    return Step(
        f"钓鱼：座位{fisher} 从牌尾取 {shown}，逆时针数落在座位 {landed}；{zh_hit}",
        f"fishing: seat {fisher} turns {shown} from the tail, counting lands on seats {landed};"
        f" {en_hit}",
        "J32, JA21",
    )


_KONG_NAMES = {
    MeldType.KONG: ("明杠", "exposed kong", "被杠者付 1", "its feeder pays 1", "J2"),
    MeldType.ADDED_KONG: ("补杠", "added kong", "原先喂碰者付 1", "the pong's feeder pays 1", "J2"),
    MeldType.CONCEALED_KONG: (
        "暗杠",
        "concealed kong",
        "三家各付 1",
        "each of the three pays 1",
        "J27",
    ),
}


def kong_lines(
    konger: int, kongs: Sequence[tuple[Meld, int | None, Sequence[Payment]]]
) -> list[PaymentLine]:
    """One line per payer of each kong's money (from ``scoring.kong_money_by_meld``)."""
    out: list[PaymentLine] = []
    for meld, chain_payer, paid in kongs:
        zh_name, en_name, zh_who, en_who, seed = _KONG_NAMES[meld.type]
        shown = format_tiles([meld.tile] * 4)
        if chain_payer is not None:
            zh_who = "连杠：第一个明杠（补杠）的喂牌者付这一杠的全部杠钱"
            en_who = "连杠 chain: the first exposed kong's feeder pays all of this kong's money"
            seed = "J29, JA18"
        for payer, payee, reason, amount in grouped(paid):
            out.append(
                PaymentLine(
                    payer,
                    payee,
                    amount,
                    reason,
                    f"杠钱 {zh_name} {shown}：{zh_who}",
                    f"kong money, {en_name} {shown}: {en_who}",
                    seed,
                )
            )
    return out
