"""Installable and lean (issue 14 item 8) in Debian's chromium: the manifest and its icons,
the service worker that keeps the client so the page opens with the network gone, and the
hashed assets sent compressed with immutable caching."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from test_e2e_browser import PHONE, new_page

ServerThread = Any


def test_manifest_icons_service_worker_and_offline_start(
    server: ServerThread, browser: Any, output_dir: Path
) -> None:
    page = new_page(browser, PHONE)
    assets: list[dict[str, str]] = []
    page.on(
        "response",
        lambda r: assets.append({"url": r.url, **r.all_headers()}) if "/assets/" in r.url else None,
    )
    page.goto(server.url + "/#/")
    page.get_by_test_id("variant-jiaxing").wait_for()
    # the manifest the page links, with PNG icons of the sizes installers ask for
    href = page.evaluate("() => document.querySelector('link[rel=manifest]').href")
    manifest = page.request.get(href).json()
    assert manifest["display"] == "standalone" and manifest["lang"] == "zh-CN"
    assert manifest["name"].startswith("牌局")
    sizes = {i["sizes"] for i in manifest["icons"] if i["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        got = page.request.get(f"{server.url}/{icon['src']}")
        assert got.ok and got.headers["content-type"].startswith(icon["type"]), icon
    # hashed assets: compressed, and cached for good (their names change with their content)
    js = [a for a in assets if a["url"].endswith(".js")]
    assert js, assets
    for a in js:
        assert a.get("content-encoding") in ("gzip", "br"), a
        assert "immutable" in a.get("cache-control", ""), a
    # the service worker takes the page over and keeps the client
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => !!navigator.serviceWorker.controller")
    page.get_by_test_id("variant-jiaxing").wait_for()
    # with the network gone the client still opens, and says in the page what failed
    page.context.set_offline(True)
    try:
        page.reload()
        page.locator(".brand").wait_for()
        assert page.locator(".brand").inner_text() == "牌局"
        error = page.get_by_test_id("lobby-error")
        error.wait_for()
        assert "连不上服务器" in error.inner_text(), error.inner_text()
        page.screenshot(path=str(output_dir / "offline.png"))
    finally:
        page.context.set_offline(False)
    page.context.close()
