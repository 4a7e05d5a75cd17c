"""What the bots need to know of a game: its Variant says it (levels, default, search,
which greedy bot plays it)."""

from __future__ import annotations

from paiju.variants import Variant, find_variant


def bot_facts(variant: str) -> Variant:
    """The variant called ``variant``; ValueError names the known ones."""
    return find_variant(variant)
