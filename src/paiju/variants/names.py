"""User-facing names of every variant's scoring items and payment reasons (zh / en).

One lookup for every front end (terminal, server, browser), so an item is called the same
everywhere; the names themselves live in each variant's item table.
"""

from __future__ import annotations

from typing import Any

PAYMENT_REASONS: dict[str, tuple[str, str]] = {
    "zi_mo": ("自摸", "self-drawn win"),
    "fang_pao": ("放炮", "win on a discard"),
    "qiang_gang": ("抢杠", "robbing a kong"),
    "bao_pai": ("包牌", "feeder liability"),
    "gang": ("杠钱", "kong money"),
    "bi_fen": ("比分", "score difference"),
}
"""Payment reasons some ledgers use that are not rows of their variant's item table."""


def item_table(variant: str) -> dict[str, Any]:
    """The variant's item rows by id (each has at least ``zh`` and ``en``)."""
    if variant == "jiaxing":
        from paiju.variants.jiaxing.items import ITEMS

        return dict(ITEMS)
    if variant == "taixing":
        from paiju.variants.taixing.items import BY_ID

        return dict(BY_ID)
    if variant == "qinger":
        from paiju.variants.qinger.items import ITEMS as QINGER_ITEMS

        return dict(QINGER_ITEMS)
    return {}


def item_ids(variant: str) -> list[str]:
    """Every id a ledger or result of ``variant`` may name, sorted."""
    return sorted(set(item_table(variant)) | set(PAYMENT_REASONS))


def item_name(variant: str, item_id: str, lang: str = "zh") -> str:
    """The name of item or payment reason ``item_id`` in ``lang`` (the id if unknown)."""
    row = item_table(variant).get(item_id)
    if row is None:
        pair = PAYMENT_REASONS.get(item_id)
        if pair is None:
            return item_id
        return pair[1] if lang == "en" else pair[0]
    name: str = row.en if lang == "en" else row.zh
    return name
