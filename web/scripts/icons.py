"""Draw the PWA's PNG icons (web/public/icon-192.png, icon-512.png) from icon.svg with
Debian's chromium (Playwright). Run after changing the SVG:

    python web/scripts/icons.py
"""

from pathlib import Path

from playwright.sync_api import sync_playwright

PUBLIC = Path(__file__).resolve().parents[1] / "public"


def main() -> None:
    svg = (PUBLIC / "icon.svg").read_text(encoding="utf-8")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox"]
        )
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = svg.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f'<body style="margin:0;background:transparent">{sized}</body>')
            page.screenshot(path=str(PUBLIC / f"icon-{size}.png"), omit_background=True)
        browser.close()


if __name__ == "__main__":
    main()
