"""The rule books (``docs/rules/<variant>.md``) served to the browser: ``/rules/<variant>`` as
a page, ``/rules/<variant>.md`` as the text. The lobby, the table and the settlement link
each option and item to its entry by rule-book id (``#ja3``, ``#h1``, ``#t6``: the ids
``/api/variants`` carries), so every entry that names an id gets that anchor.

The page is rendered here from the small part of Markdown the books use (headings,
paragraphs, lists, tables, code, bold, links); every character of the text is escaped
first, so a book can never put markup of its own into the page.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

from fastapi import APIRouter, HTTPException
from fastapi.responses import HTMLResponse, PlainTextResponse

router = APIRouter()

RULE_ID = re.compile(r"(?<![A-Za-z0-9_])([JTQH][AP]?\d{1,2})(?![0-9A-Za-z_])")
"""A rule-book id: a seed item (J3, T6, Q23), an ambiguity (JA3, TA1, QA7), a house-rule
option paiju adds for profiles (JP1) or a 混儿 item (H1, HA3)."""


def rules_dir() -> Path:
    """Where the books are: ``PAIJU_RULES_DIR``, else the repository's ``docs/rules``."""
    env = os.environ.get("PAIJU_RULES_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[3] / "docs" / "rules"


def _inline(text: str) -> str:
    """One line of Markdown to HTML: escaped, then code, bold and links."""
    out: list[str] = []
    # code spans first: nothing inside them is markup
    for k, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if k % 2:
            out.append(f"<code>{html.escape(part[1:-1])}</code>")
            continue
        s = html.escape(part, quote=False)
        s = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", s)
        s = re.sub(r"\[([^\]]+)\]\(([^)\s]+)\)", _link, s)
        out.append(s)
    return "".join(out)


def _link(m: re.Match[str]) -> str:
    # links within the book or to the web; one to a file of the repository (which this
    # server does not serve) stays as its text
    label, target = m.group(1), m.group(2)
    if target.startswith(("http://", "https://", "#")):
        return f'<a href="{target}">{label}</a>'
    return label


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


class _Block:
    def __init__(self, tag: str, inner: str, text: str) -> None:
        self.tag = tag
        self.inner = inner
        self.text = text
        self.ids: list[str] = []


def _blocks(markdown: str) -> list[_Block | str]:
    """The book as blocks that may carry anchors (rows, items, paragraphs) and raw HTML."""
    out: list[_Block | str] = []
    lines = markdown.splitlines()
    i = 0
    para: list[str] = []

    def flush() -> None:
        if para:
            text = " ".join(para)
            out.append(_Block("p", _inline(text), text))
            para.clear()

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            flush()
            i += 1
            continue
        if stripped.startswith("```"):
            flush()
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            out.append("<pre><code>" + html.escape("\n".join(lines[i + 1 : j])) + "</code></pre>")
            i = j + 1
            continue
        heading = re.match(r"(#{1,6})\s+(.*)", stripped)
        if heading:
            flush()
            level = len(heading.group(1))
            out.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
            i += 1
            continue
        if stripped.startswith("|"):
            flush()
            rows: list[list[str]] = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            out.append("<table>")
            body = rows
            if len(rows) > 1 and all(re.fullmatch(r":?-+:?", c) for c in rows[1] if c):
                out.append(
                    "<thead><tr>"
                    + "".join(f"<th>{_inline(c)}</th>" for c in rows[0])
                    + "</tr></thead>"
                )
                body = rows[2:]
            out.append("<tbody>")
            for cells in body:
                inner = "".join(f"<td>{_inline(c)}</td>" for c in cells)
                out.append(_Block("tr", inner, " | ".join(cells)))
            out.append("</tbody></table>")
            continue
        item = re.match(r"([-*]|\d+\.)\s+(.*)", stripped)
        if item:
            flush()
            tag = "ol" if item.group(1)[0].isdigit() else "ul"
            out.append(f"<{tag}>")
            while i < len(lines):
                m = re.match(r"\s*([-*]|\d+\.)\s+(.*)", lines[i])
                if not m:
                    break
                text = m.group(2)
                i += 1
                # continuation lines: indented, not a new item
                while i < len(lines) and lines[i].startswith("  ") and lines[i].strip():
                    if re.match(r"\s*([-*]|\d+\.)\s+", lines[i]):
                        break
                    text += " " + lines[i].strip()
                    i += 1
                out.append(_Block("li", _inline(text), text))
            out.append(f"</{tag}>")
            continue
        para.append(stripped)
        i += 1
    flush()
    return out


def _anchor(blocks: list[_Block | str]) -> None:
    """Each rule id anchors the first entry it heads (a row whose first cell starts with it,
    an item or paragraph that opens with it), else the first entry that names it."""
    entries = [b for b in blocks if isinstance(b, _Block)]
    done: set[str] = set()
    for b in entries:
        head = b.text.lstrip("|*` ")
        m = RULE_ID.match(head)
        if m and m.group(1) not in done:
            done.add(m.group(1))
            b.ids.append(m.group(1).lower())
    for b in entries:
        for m in RULE_ID.finditer(b.text):
            if m.group(1) not in done:
                done.add(m.group(1))
                b.ids.append(m.group(1).lower())


PAGE = """<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>
body {{ font-family: "WenQuanYi Micro Hei", "Noto Sans CJK SC", system-ui, sans-serif;
  margin: 0 auto; max-width: 980px; padding: 8px 14px; line-height: 1.55; color: #1d1d1d;
  background: #f3efe4; }}
table {{ border-collapse: collapse; margin: 8px 0; background: #fff; display: block;
  overflow-x: auto; }}
td, th {{ border: 1px solid #ccc; padding: 3px 6px; vertical-align: top; }}
code {{ background: #0001; padding: 0 3px; border-radius: 3px; }}
pre {{ background: #fff; padding: 8px; overflow-x: auto; }}
:target {{ background: #fff3b0; outline: 2px solid #f5c542; }}
nav a {{ margin-right: 12px; }}
</style></head>
<body><nav><a href="/#/">大厅 · Lobby</a><a href="{name}.md">Markdown</a></nav>
{body}
</body></html>
"""


def render(markdown: str, name: str) -> str:
    """A rule book as a whole HTML page, with an anchor for each rule id."""
    blocks = _blocks(markdown)
    _anchor(blocks)
    parts: list[str] = []
    for b in blocks:
        if isinstance(b, str):
            parts.append(b)
            continue
        ids = b.ids
        attr = f' id="{ids[0]}"' if ids else ""
        extra = "".join(f'<span id="{x}"></span>' for x in ids[1:])
        parts.append(f"<{b.tag}{attr}>{extra}{b.inner}</{b.tag}>")
    first = next((line for line in markdown.splitlines() if line.startswith("# ")), name)
    return PAGE.format(title=html.escape(first.lstrip("# ")), name=name, body="\n".join(parts))


def _book(name: str) -> tuple[str, str]:
    """(variant name, the book's text) for ``name``; 404 naming what is wrong otherwise."""
    from paiju.variants import VARIANTS

    variant = VARIANTS.get(name)
    if variant is None:
        known = ", ".join(sorted(VARIANTS))
        raise HTTPException(404, f"no rule book for {name!r} (known: {known})")
    path = rules_dir() / Path(variant.rule_book).name
    try:
        return variant.name, path.read_text(encoding="utf-8")
    except OSError as exc:
        raise HTTPException(
            404, f"the rule book of {name} is not installed here ({path.name}: {exc.strerror})"
        ) from exc


@router.get("/rules/{name}", response_model=None)
async def rule_book(name: str) -> HTMLResponse | PlainTextResponse:
    """``/rules/jiaxing``: the page; ``/rules/jiaxing.md``: the Markdown text."""
    if name.endswith(".md"):
        _, text = _book(name[:-3])
        return PlainTextResponse(text, media_type="text/markdown; charset=utf-8")
    variant, text = _book(name)
    return HTMLResponse(render(text, variant))
