"""End-to-end fixtures: the real server (uvicorn, in a thread, on an ephemeral loopback port,
SQLite in a temporary directory) serving the built client, and Debian's chromium driven by
Playwright. Nothing here downloads a browser: ``scripts/e2e-setup.sh`` installs chromium
and builds web/dist; without them these tests are skipped with the reason.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")
playwright_sync = pytest.importorskip("playwright.sync_api")

from paiju.server.load import UvicornThread  # noqa: E402  (after the server extra is known)

ROOT = Path(__file__).resolve().parents[2]
DIST = Path(os.environ.get("PAIJU_STATIC_DIR") or ROOT / "web" / "dist")
CHROMIUM = os.environ.get("PAIJU_CHROMIUM", "/usr/bin/chromium")
OUTPUT = Path(__file__).resolve().parent / "output"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not Path(CHROMIUM).exists():
    pytest.skip(
        f"no chromium at {CHROMIUM} (scripts/e2e-setup.sh installs it)", allow_module_level=True
    )
if not (DIST / "index.html").exists():
    pytest.skip(f"no built client in {DIST} (run `make web`)", allow_module_level=True)


class ServerThread(UvicornThread):
    """uvicorn serving ``app`` from a thread, on a loopback port known before it starts."""

    def __init__(self, app: Any) -> None:
        import uvicorn

        super().__init__(
            uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on")),
            start_timeout=20.0,
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    from paiju.server.app import create_app
    from paiju.server.room import ServerConfig

    db = tmp_path_factory.mktemp("e2e-db") / "paiju.db"
    config = ServerConfig(
        # bots answer claim windows at once: their own turns are what a watcher can follow
        bot_delay=0.1,
        next_hand_delay=60.0,  # the tests deal the next hand with 准备
        rejoin_grace=30.0,
        create_burst=100.0,
        # every page comes from 127.0.0.1, and the limits count per address
        message_rate=500.0,
        message_burst=1000.0,
        lookup_rate=50.0,
        lookup_burst=200.0,
        seed=20261129,
    )
    app = create_app(f"sqlite+aiosqlite:///{db}", config, static_dir=str(DIST))
    with ServerThread(app) as running:
        yield running


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_sync.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def output_dir(request: pytest.FixtureRequest) -> Path:
    """Where this test's screenshots go (tests/e2e/output/<test name>/, git-ignored)."""
    name = request.node.name.replace("[", "-").replace("]", "").replace("/", "-")
    out = OUTPUT / name
    out.mkdir(parents=True, exist_ok=True)
    return out
