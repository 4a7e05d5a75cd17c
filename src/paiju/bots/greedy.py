"""Each game's greedy bot, by the name its Variant gives (``greedy_bot``): the greedy
player of a game is also the strong bot's fallback and its rollout policy."""

from __future__ import annotations

from paiju.bots.qinger import QingerGreedyBot
from paiju.bots.simple import GreedyBot, TaixingGreedyBot
from paiju.engine.match import Decide

GREEDY_BOTS: dict[str, type[GreedyBot] | type[QingerGreedyBot]] = {
    "greedy": GreedyBot,
    "taixing_greedy": TaixingGreedyBot,
    "qinger_greedy": QingerGreedyBot,
}
"""The greedy bot classes by the name a Variant's ``greedy_bot`` uses."""


def greedy_bot(variant: str, seed: int = 0) -> Decide:
    """The greedy bot of ``variant`` (raises ``UnknownVariantError`` for an unknown one)."""
    from paiju.bots.facts import bot_facts

    return GREEDY_BOTS[bot_facts(variant).greedy_bot](seed)
