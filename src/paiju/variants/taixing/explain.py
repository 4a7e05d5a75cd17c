"""Taixing settlements in words: 花 F × 番 N × 豹子 × 荒庄 2^k = amount per payer, then who
pays (点炮者付, 三家各付, 被抢杠者付, 包牌). See :mod:`paiju.variants.explain`."""

from __future__ import annotations

from paiju.engine.types import MahjongWin, WinResult
from paiju.variants.explain import Explanation, PaymentLine, Step, grouped, plus
from paiju.variants.taixing.items import BY_ID

VARIANT = "taixing"


def explain_win(win: MahjongWin, result: WinResult) -> Explanation:
    extra = result.extra
    w = win.winner
    flowers: int = extra["flowers"]
    base: int = extra["base"]
    sources: dict[str, int] = extra["flower_sources"]
    steps: list[Step] = []
    if sources:
        zh = plus([(BY_ID[k].zh, v) for k, v in sources.items()])
        en = plus([(BY_ID[k].en, v) for k, v in sources.items()])
        steps.append(Step(f"花 F = {zh} = {flowers}", f"flowers F = {en} = {flowers}", "T11"))
    else:
        steps.append(Step("花 F = 0", "flowers F = 0", "T11"))
    if base == flowers + 1 and not any(i.id == "di_hua" for i in result.items):
        steps.append(Step(f"花 F + 1 = {base}", f"flowers F + 1 = {base}", "TA1"))
    if any(i.id == "di_hua" for i in result.items):
        steps.append(
            Step(
                f"不足底花，按 {base} 花算（自摸底2花每家 / 放炮底3花 / 杠开算3花每家）",
                f"below the floor: counted as {base} flowers (self-draw 2 each, discard 3,"
                " 杠开 3 each)",
                "T25, TA1",
            )
        )
    fans = [i for i in result.items if BY_ID[i.id].kind == "fan"]
    fan = sum(i.value for i in fans)
    steps.append(
        Step(
            f"番 N = {plus([(i.zh, i.value) for i in fans])} = {fan}",
            f"fan N = {plus([(i.en, i.value) for i in fans])} = {fan}",
            ", ".join(dict.fromkeys(BY_ID[i.id].rule for i in fans)),
        )
    )
    zh_terms = [f"花 {base}", f"番 {fan}"]
    en_terms = [f"flowers {base}", f"fan {fan}"]
    seeds = ["T26"]
    for item in result.items:
        if item.id == "bao_zi":
            zh_terms.append(f"豹子 {item.value}")
            en_terms.append(f"leopard {item.value}")
            seeds.append("T10")
        elif item.id == "huang_zhuang":
            k = win.draw_streak
            power = f"2^{k}" if item.value == 2**k else f"({k}+1)"
            zh_terms.append(f"荒庄 {power}={item.value}（连续 {k} 次荒庄）")
            en_terms.append(f"drawn hands {power}={item.value} ({k} in a row)")
            seeds.append("T9, TA7")
    # a discard is paid by one seat: "每家付" there would read as three payments
    each = win.self_drawn or len({p.payer for p in result.payments}) > 1
    who_zh, who_en = ("每家付", "amount per payer") if each else ("一家付", "amount, one payer")
    uncapped: int = extra.get("uncapped", result.per_payer)
    steps.append(
        Step(
            f"座位{w} {who_zh} = {' × '.join(zh_terms)} = {uncapped}",
            f"seat {w}, {who_en} = {' × '.join(en_terms)} = {uncapped}",
            ", ".join(seeds),
        )
    )
    if uncapped != result.per_payer:
        steps.append(
            Step(
                f"封顶 {result.per_payer}：每家最多付 {result.per_payer}",
                f"cap {result.per_payer}: no payer pays more than {result.per_payer}",
                "TP1",
            )
        )
    unit: int = extra.get("di_fen", 1)
    if unit != 1:
        steps.append(
            Step(
                f"底分 {unit}：每花付 {unit} 分，{result.per_payer} × {unit} = "
                f"{result.per_payer * unit}",
                f"stake unit {unit}: {unit} points a 花, {result.per_payer} × {unit} = "
                f"{result.per_payer * unit}",
                "TP2",
            )
        )
    lines = []
    for payer, payee, reason, amount in grouped(result.payments):
        zh, en, seed = _words(reason, amount, result.per_payer * unit)
        lines.append(PaymentLine(payer, payee, amount, reason, zh, en, seed))
    return Explanation(VARIANT, tuple(steps), tuple(lines))


def _words(reason: str, amount: int, per_payer: int) -> tuple[str, str, str]:
    if reason == "zi_mo":
        return "自摸：三家各付", "self-draw: each of the three pays", "T26"
    if reason == "fang_pao":
        return "点炮者付", "the discarder pays", "T26"
    if reason == "qiang_gang":
        return "抢杠：被抢杠者付（算杠冲）", "robbed kong: the robbed seat pays", "T23, TA15"
    if reason == "bao_pai":
        shares = amount // per_payer if per_payer else 0
        return (
            f"包牌：喂了三对者代付 {shares} 份",
            f"包牌: the seat that fed three sets pays {shares} shares",
            "T24, TA11",
        )
    row = BY_ID.get(reason)
    return (row.zh, row.en, row.rule) if row else (reason, reason, "")
