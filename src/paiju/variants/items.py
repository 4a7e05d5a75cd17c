"""One row type for every game's item table (计分项): ``variants/<game>/items.py``.

A row is a scoring item or a ledger reason with its stable pinyin id, its names (简体,
the seed's 繁體, English), its value in the table, the unit that value counts in, the
seed item it comes from (``rule``) and the game's own category (``kind``). Results carry
a :class:`~paiju.engine.types.ScoreItem` made from the row; ``/api/variants`` and the
front ends name items from the same rows.

Standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass

from paiju.engine.types import ScoreItem

UNITS = ("points", "fan", "flower", "multiplier", "liability")
"""What a value counts: 分 (Jiaxing, Qing'er, and ledger money), 番 and 花 (Taixing), a
factor, or shares a liable seat pays."""


@dataclass(frozen=True, slots=True)
class ItemRow:
    """One row of an item table.

    ``value`` is the table value (None: the row only names a ledger reason, or the item
    cannot occur the usual way); ``alt_value`` is the value in the situation ``alt_when``
    names: Jiaxing's 自摸 column beside its 放炮 ``value``, Qing'er's joker 见张.
    """

    id: str
    zh: str
    zh_hant: str
    en: str
    value: int | None
    kind: str
    """The game's own category (Jiaxing ``value``/``money``, Taixing ``fan``/``flower``,
    Qing'er ``set``/``bonus``, …): what its scorer and explanation group by."""
    rule: str
    """The seed item(s) of the rule analysis the row comes from (J…, T…, Q…, …A…)."""
    alt_value: int | None = None
    alt_when: str = ""
    unit: str = "points"

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"item {self.id!r}: unknown unit {self.unit!r}")

    @property
    def base(self) -> int:
        """The table value, for a row that has one (a scorer's constant)."""
        if self.value is None:
            raise ValueError(f"item {self.id!r} has no table value")
        return self.value

    def scored(self, value: int | None = None, count: int = 1) -> ScoreItem:
        """The item as it applied to one result, worth ``value`` (default: the table
        value); ``count`` > 1 is shown in the name (两个碰 → 碰 ×2)."""
        if value is None:
            value = self.base
        suffix = _tag(count) if count > 1 else ""
        return ScoreItem(self.id, self.zh + suffix, self.zh_hant + suffix, self.en + suffix, value)

    def multiplier(self, added: int, factor: int) -> ScoreItem:
        """A doubling as a result item: named with its factor, worth the points it added."""
        tag = _tag(factor)
        return ScoreItem(self.id, self.zh + tag, self.zh_hant + tag, self.en + tag, added)

    def name_of(self, scored_name: str, lang: str = "zh") -> str:
        """This row's name in ``lang`` for a result item whose 简体 name (what events and
        records carry) is ``scored_name``: with the same count or factor (碰 ×2 → Pong ×2)."""
        tag = scored_name[len(self.zh) :] if scored_name.startswith(self.zh) else ""
        return (self.en if lang == "en" else self.zh) + tag


def _tag(n: int) -> str:
    """How a count or a factor is written after an item's name, in every language."""
    return f" ×{n}"
