"""Variants: one package per game (options, scoring items, flow hooks)."""
