"""``paiju play``: one person against bots in the terminal (Textual, an optional extra).

Nothing here is imported by the core; ``paiju.cli`` imports this package only for
``play``, so the engine stays standard-library only.
"""

from __future__ import annotations

from paiju.tui.session import PlaySession

__all__ = ["PlaySession"]
