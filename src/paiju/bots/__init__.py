"""Bots: players that see only what their seat may see (``legal_actions`` and the hand's
public state plus their own tiles)."""

from __future__ import annotations

from paiju.bots.levels import make_bot, make_player
from paiju.bots.simple import GreedyBot, RandomBot

__all__ = ["GreedyBot", "RandomBot", "make_bot", "make_player"]
