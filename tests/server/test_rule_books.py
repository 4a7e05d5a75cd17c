"""The rule books at /rules/<variant>: a page with an anchor for every rule-book id the
lobby, the table and the settlement link to, the Markdown text, and clear refusals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
from fastapi import FastAPI
from fastapi.testclient import TestClient

from paiju.server.rule_books import RULE_ID, render, router
from paiju.variants import VARIANTS


@pytest.fixture
def client() -> TestClient:
    app = FastAPI()
    app.include_router(router)
    return TestClient(app)


def linked_ids(name: str) -> set[str]:
    """Every id /api/variants gives an option or an item of ``name`` (the first of a list)."""
    described = VARIANTS[name].describe()
    out = {o["rule"].lower() for o in described["options"] if o["rule"]}
    for item in described["items"]:
        m = RULE_ID.search(item["seed"] or "")
        assert m, item
        out.add(m.group(1).lower())
    return out


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_every_linked_rule_id_has_its_anchor(client: TestClient, name: str) -> None:
    r = client.get(f"/rules/{name}")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    anchors = re.findall(r'id="([a-z0-9]+)"', r.text)
    assert len(anchors) == len(set(anchors))  # each once
    assert linked_ids(name) <= set(anchors)


def test_an_id_anchors_the_entry_it_heads_not_a_mention_before_it() -> None:
    page = render("See JA3 below.\n\n| item | rule |\n|---|---|\n| JA3 吃 | no chow |\n", "x")
    assert "<p>See JA3 below.</p>" in page
    assert '<tr id="ja3">' in page
    # a paragraph that opens with an id is its entry
    assert '<p id="j9">' in render("J9 and more\n\nagain J9\n", "x")


def test_the_markdown_text_is_served_as_it_is(client: TestClient) -> None:
    r = client.get("/rules/taixing.md")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/markdown")
    assert r.text == (Path(__file__).resolve().parents[2] / "docs/rules/taixing.md").read_text(
        encoding="utf-8"
    )


def test_markup_in_a_book_is_text_on_the_page() -> None:
    page = render("# T\n\n<script>alert(1)</script> **bold** [x](javascript:alert(1))\n", "x")
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert "<strong>bold</strong>" in page and "javascript:" not in page


def test_an_unknown_game_or_a_missing_book_is_a_clear_404(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    r = client.get("/rules/mahjong")
    assert r.status_code == 404 and "no rule book for 'mahjong'" in r.json()["detail"]
    monkeypatch.setenv("PAIJU_RULES_DIR", str(tmp_path))
    r = client.get("/rules/qinger")
    assert r.status_code == 404 and "not installed" in r.json()["detail"]
