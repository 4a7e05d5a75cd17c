"""Golden whole-game records: a few full bot matches per game under
``tests/data/<game>/golden/``, exactly as ``paiju simulate --record`` writes them.

``PYTHONPATH=src python scripts/golden.py`` regenerates every file; ``--check`` regenerates
them in memory and exits 1 naming the first file and line that differ. ``tests/test_golden.py``
runs the same check, so any change of play or scoring shows up as a reviewed diff of these
files.
"""

from __future__ import annotations

import argparse
import io
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "tests" / "data"
REGENERATE = "PYTHONPATH=src python scripts/golden.py"


@dataclass(frozen=True)
class Golden:
    game: str
    name: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return DATA / self.game / "golden" / f"{self.name}.jsonl"


GAMES = ("jiaxing", "taixing", "qinger")
MATCHES = [
    *(Golden(game, f"seed{s}", s, {"hands": 3}) for game in GAMES for s in (1, 2, 3)),
    Golden("qinger", "p4-seed1", 1, {"participants": 4, "hands": 3}),
    # 混儿 on (issue 16): the defaults, and the Tianjin stacking with three wild kinds
    Golden("jiaxing", "hun-seed1", 1, {"hun": True, "hands": 3}),
    Golden(
        "jiaxing",
        "hun-tianjin-seed2",
        2,
        {"hun": True, "hun_stacking": "tianjin", "hun_kinds": 3, "hands": 3},
    ),
]


def generate(golden: Golden) -> str:
    """The record text of one match: greedy bots at every seat, as ``paiju simulate
    --record`` plays and writes it."""
    from paiju.engine.record import dump_lines
    from paiju.simulator import GameTask, play_game
    from paiju.variants import find_variant

    flow = find_variant(golden.game)
    seats = flow.seats(flow.parse_options(golden.options))
    task = GameTask(golden.game, dict(golden.options), ("greedy",) * seats, golden.seed, True)
    lines = play_game(task).record
    assert lines is not None
    out = io.StringIO()
    dump_lines(lines, out)
    return out.getvalue()


def first_difference(golden: Golden, text: str | None = None) -> str | None:
    """Where the committed file differs from the regenerated match (None: they agree)."""
    text = generate(golden) if text is None else text
    rel = golden.path.relative_to(ROOT)
    if not golden.path.exists():
        return f"{rel} is missing; regenerate with `{REGENERATE}`"
    want = text.splitlines()
    have = golden.path.read_text(encoding="utf-8").splitlines()
    for number, (a, b) in enumerate(zip(have, want, strict=False), start=1):
        if a != b:
            pairs = enumerate(zip(a, b, strict=False))
            col = next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))
            lo = max(0, col - 60)
            return (
                f"{rel}:{number} differs from the regenerated match (column {col + 1})\n"
                f"  committed:   ...{a[lo : col + 60]}\n  regenerated: ...{b[lo : col + 60]}\n"
                f"review the change, then regenerate with `{REGENERATE}`"
            )
    if len(have) != len(want):
        return (
            f"{rel}:{min(len(have), len(want)) + 1} differs: the committed file has "
            f"{len(have)} lines, the regenerated match {len(want)}; "
            f"review the change, then regenerate with `{REGENERATE}`"
        )
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    for golden in MATCHES:
        text = generate(golden)
        if args.check:
            problem = first_difference(golden, text)
            if problem is not None:
                print(problem, file=sys.stderr)
                return 1
        else:
            golden.path.parent.mkdir(parents=True, exist_ok=True)
            golden.path.write_text(text, encoding="utf-8")
            print(golden.path.relative_to(ROOT))
    if args.check:
        print(f"{len(MATCHES)} golden records agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
