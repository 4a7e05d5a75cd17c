"""Small helpers several server test files share (imported by bare name, as random_games)."""

from __future__ import annotations

from typing import Any


def without_events(state: dict[str, Any]) -> dict[str, Any]:
    """A view without its recent ``events``: two views of the same table compare equal
    though one was sent with the step's events and the other (a snapshot) without."""
    return {k: v for k, v in state.items() if k != "events"}
