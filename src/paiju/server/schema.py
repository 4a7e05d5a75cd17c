"""The protocol's JSON Schemas as committed files (for the web client's generated types)."""

from __future__ import annotations

from typing import Any

from paiju.server import messages as M
from paiju.server import protocol as P

SERVER_SCHEMA_FILE = "web/src/schema/server-messages.json"
CLIENT_SCHEMA_FILE = "web/src/schema/client-messages.json"


def schema_files() -> dict[str, dict[str, Any]]:
    """Repository path → the schema document it must hold."""
    client = P.client_schema()
    client["title"] = "ClientMessage"
    return {
        SERVER_SCHEMA_FILE: {"protocol": P.PROTOCOL_VERSION, **M.server_schema()},
        CLIENT_SCHEMA_FILE: {"protocol": P.PROTOCOL_VERSION, **client},
    }
