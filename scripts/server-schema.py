#!/usr/bin/env python3
"""Write the JSON Schemas of the websocket protocol for the web client's generated types:
web/src/schema/server-messages.json (server → client) and client-messages.json (client →
server), the same documents ``GET /api/schema`` serves.

    scripts/server-schema.py          # rewrite both files
    scripts/server-schema.py --check  # exit 1 if a committed file is stale
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from paiju.server.schema import schema_files  # noqa: E402


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for relative, document in schema_files().items():
        path = ROOT / relative
        text = json.dumps(document, ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        if check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(relative)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for relative in stale:
        print(f"{relative} is stale: run scripts/server-schema.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
