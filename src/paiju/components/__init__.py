"""Components: tiles, cards, notation and hand analysis (standard library only)."""
