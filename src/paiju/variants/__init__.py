"""Variants: one package per game, and the registry that says which games exist.

:data:`VARIANTS` is the only list of games; every front end (CLI, calculator, records,
bots, arena, simulator, terminal, server, web) reads a game's facts from its
:class:`~paiju.variants.variant.Variant`.
"""

from __future__ import annotations

from paiju.variants.jiaxing.variant import JIAXING
from paiju.variants.qinger.variant import QINGER
from paiju.variants.taixing.variant import TAIXING
from paiju.variants.variant import Variant

VARIANTS: dict[str, Variant] = {v.name: v for v in (JIAXING, TAIXING, QINGER)}


class UnknownVariantError(ValueError):
    """A variant name that is not in :data:`VARIANTS`."""

    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")


def find_variant(name: object) -> Variant:
    """The variant called ``name``; :class:`UnknownVariantError` names the known ones."""
    variant = VARIANTS.get(name) if isinstance(name, str) else None
    if variant is None:
        raise UnknownVariantError(name)
    return variant


__all__ = ["VARIANTS", "UnknownVariantError", "Variant", "find_variant"]
