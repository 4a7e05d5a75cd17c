"""Qing'er settlements in words: for each player set points → round-up to tens → bonuses
→ the winner's items → doublings = score; then each pair's difference × the stake for how
many of the two knocked. See :mod:`paiju.variants.explain`."""

from __future__ import annotations

from collections.abc import Sequence

from paiju.engine.types import ScoreItem
from paiju.variants.explain import Explanation, PaymentLine, Step, plus
from paiju.variants.qinger.items import ITEMS, PAYMENT_REASON
from paiju.variants.qinger.scoring import QingerResult, QingerSituation

VARIANT = "qinger"
_ROLES = (("庄", "dealer"), ("下家", "next"), ("对家", "third"))
_KIND = {row.id: row.kind for row in ITEMS.values()}
_RULE = {row.id: row.rule for row in ITEMS.values()}
"""Each item's kind and seed item, read for every item of every player at each settlement."""


def explain_hand(
    hand: QingerSituation, result: QingerResult, seats: Sequence[int] | None = None
) -> Explanation:
    """``seats[role]`` is the table seat of each scoring role (identity by default)."""
    seat_of = list(seats) if seats is not None else list(range(len(result.scores)))
    steps = [_player_step(hand, result, role, seat_of) for role in range(len(result.scores))]
    lines = []
    for p in result.payments:
        a, b = p.payer, p.payee
        diff = result.scores[b] - result.scores[a]
        knocked = int(hand.players[a].knocked) + int(hand.players[b].knocked)
        stake = hand.stakes[knocked]
        zh_k = ("两家都没敲", "一家敲", "两家都敲")[knocked]
        en_k = ("neither knocked", "one knocked", "both knocked")[knocked]
        zh = f"比分：{result.scores[b]} − {result.scores[a]} = {diff}，× 注 {stake}（{zh_k}）"
        en = (
            f"score difference {result.scores[b]} − {result.scores[a]} = {diff},"
            f" × stake {stake} ({en_k})"
        )
        seeds = "Q9, Q1"
        if p.amount != diff * stake:
            # QP1 封顶: the pair's payment was capped
            zh += f" = {diff * stake}，封顶 {p.amount}"
            en += f" = {diff * stake}, capped at {p.amount}"
            seeds += ", QP1"
        lines.append(PaymentLine(seat_of[a], seat_of[b], p.amount, PAYMENT_REASON, zh, en, seeds))
    if hand.winner is None and not result.payments:
        steps.append(
            Step("摸完无人和：不结算", "stock exhausted, nobody won: no settlement", "QA19")
        )
    return Explanation(VARIANT, tuple(steps), tuple(lines))


def _player_step(
    hand: QingerSituation, result: QingerResult, role: int, seat_of: Sequence[int]
) -> Step:
    items = result.items[role]
    kinds: dict[str, list[ScoreItem]] = {}
    kind_of = _KIND
    for item in items:
        kinds.setdefault(kind_of[item.id], []).append(item)
    zh_role, en_role = _ROLES[(role - hand.dealer) % 3]
    zh = [f"座位{seat_of[role]}（{zh_role}）"]
    en = [f"seat {seat_of[role]} ({en_role})"]
    sets = kinds.get("set", [])
    running = sum([i.value for i in sets])
    if sets:
        zh.append(f"牌型分 {plus([(i.zh, i.value) for i in sets])} = {running}")
        en.append(f"set points {plus([(i.en, i.value) for i in sets])} = {running}")
    else:
        zh.append("牌型分 0")
        en.append("set points 0")
    for item in kinds.get("rounding", []):
        running += item.value
        zh.append(f"进整 → {running}")
        en.append(f"rounded up → {running}")
    for kind, zh_name, en_name in (("bonus", "奖分", "bonuses"), ("win", "和牌", "win items")):
        group = kinds.get(kind, [])
        if group:
            running += sum([i.value for i in group])
            zh.append(f"+ {zh_name} {plus([(i.zh, i.value) for i in group])} = {running}")
            en.append(f"+ {en_name} {plus([(i.en, i.value) for i in group])} = {running}")
    for item in kinds.get("multiplier", []):
        running += item.value
        zh.append(f"{item.zh} → {running}")
        en.append(f"{item.en} → {running}")
    if running != result.scores[role]:  # pragma: no cover - the items always add up
        raise AssertionError("Qing'er items do not add up to the score")
    zh.append(f"得分 {running}")
    en.append(f"score {running}")
    seeds = ", ".join(dict.fromkeys([_RULE[i.id] for i in items])) or "Q22"
    return Step("；".join(zh), "; ".join(en), seeds)
