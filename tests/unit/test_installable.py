"""What a phone needs to put the app on its home screen and open it without a connection: the web app manifest, its
icons, the service worker's files and the offline page (all served as they are from assets/)."""

from __future__ import annotations

import json
import re
import struct
from html.parser import HTMLParser
from pathlib import Path

from volley_app import routes
from volley_app.components.layout import SITE_NAME
from volley_app.registry import discover

ASSETS = Path(__file__).resolve().parents[2] / "assets"


def _manifest() -> dict:
    return json.loads((ASSETS / "manifest.webmanifest").read_text())


def _asset(href: str) -> Path:
    assert href.startswith("/"), href
    return ASSETS / href.lstrip("/")


def _png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR", f"{path.name} is not a PNG"
    return struct.unpack(">II", head[16:24])


def test_the_manifest_names_the_app_and_opens_its_home_standalone():
    m = _manifest()
    assert m["name"] == SITE_NAME and 0 < len(m["short_name"]) <= 12  # a home screen shows about 12 characters
    assert m["display"] == "standalone" and m["scope"] == "/"
    assert m["start_url"] == routes.DASH and routes.DASH in {p.route for p in discover()}
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", m["background_color"])


def test_the_icons_are_there_at_the_sizes_they_say_and_one_is_maskable():
    icons = _manifest()["icons"]
    for icon in icons:
        width, height = _png_size(_asset(icon["src"]))
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png", icon
    any_sizes = {i["sizes"] for i in icons if i["purpose"] == "any"}
    assert {"192x192", "512x512"} <= any_sizes
    assert any(i["purpose"] == "maskable" and i["sizes"] == "512x512" for i in icons)
    assert _png_size(ASSETS / "icons" / "apple-touch-icon.png") == (180, 180)


def test_what_the_service_worker_keeps_for_offline_is_all_there():
    source = (ASSETS / "sw.js").read_text()
    listed = re.search(r"SHELL_FILES = \[([^\]]*)\]", source)
    assert listed, "sw.js lists the files it keeps for offline in SHELL_FILES"
    files = re.findall(r'"([^"]+)"', listed.group(1)) + re.findall(r'OFFLINE = "([^"]+)"', source)
    assert "/offline.html" in files
    for href in files:
        assert _asset(href).is_file(), href


class _Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.h1 = ""
        self._in_h1 = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_h1 = self._in_h1 or tag == "h1"

    def handle_endtag(self, tag):
        self._in_h1 = self._in_h1 and tag != "h1"

    def handle_data(self, data):
        if self._in_h1:
            self.h1 += data


def test_the_offline_page_says_so_and_leads_back_with_nothing_the_policy_would_block():
    page = _Page()
    page.feed((ASSETS / "offline.html").read_text())
    tags = dict(page.tags)
    assert tags["html"].get("lang") == "en" and page.h1 == "You are offline"
    assert any(t == "a" and a.get("href") == routes.DASH for t, a in page.tags)
    assert all(t != "script" for t, _a in page.tags)  # inline scripts run only by their hashes: it needs none
    for tag, attrs in page.tags:  # every file it shows is served
        for key in ("src", "href"):
            if tag in ("img", "link") and attrs.get(key, "").startswith("/"):
                assert _asset(attrs[key]).is_file(), attrs[key]
