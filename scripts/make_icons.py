"""Draws the app's home-screen icons (assets/icons/) from assets/logo.svg in Chromium: run again when the logo changes.

    .venv/bin/python scripts/make_icons.py

"any" icons are the logo on a clear ground; the maskable one is the logo inside the middle 60% of a full orange
square, so a phone's round or squircle mask never cuts the ball.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
LOGO = (ROOT / "assets" / "logo.svg").read_text()
OUT = ROOT / "assets" / "icons"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
ICONS = {  # name: (size, ground, logo's share of the side)
    "icon-192.png": (192, "transparent", 1.0),
    "icon-512.png": (512, "transparent", 1.0),
    "maskable-512.png": (512, "#f76b15", 0.6),
    "apple-touch-icon.png": (180, "#ffffff", 0.86),
}


def main() -> None:
    OUT.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for name, (size, ground, share) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            logo = int(size * share)
            page.set_content(
                f"<html><body style='margin:0;background:{ground};display:grid;place-items:center;"
                f"width:{size}px;height:{size}px'><div style='width:{logo}px;height:{logo}px'>{LOGO}</div></body></html>"
            )
            page.add_style_tag(content="svg{width:100%;height:100%;display:block}")
            page.screenshot(path=str(OUT / name), omit_background=ground == "transparent")
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
