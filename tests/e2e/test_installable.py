"""The app on a phone's home screen: the manifest a browser installs it from, the service worker that takes over
once the first page has loaded, and the page it opens without a connection (instead of the browser's error)."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.e2e.helpers import make_user, open_as, screenshot
from tests.e2e.test_axe import _axe_and_targets

PHONE = {"width": 390, "height": 844}
_WORKER_READY = "() => navigator.serviceWorker.ready.then((r) => r.active && r.active.state)"


def test_the_app_installs_and_without_a_connection_says_so_then_comes_back(new_page):
    make_user("olga")
    page = new_page(**PHONE, service_worker=True)
    open_as(page, "olga", "/dash")
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()
    manifest = page.locator("link[rel=manifest]").get_attribute("href")
    answer = page.request.get(manifest)
    assert answer.ok and answer.json()["start_url"] == "/dash"
    for icon in answer.json()["icons"]:
        assert page.request.get(icon["src"]).ok, icon["src"]
    assert page.wait_for_function(_WORKER_READY, timeout=15_000).json_value() in ("activating", "activated")

    page.context.set_offline(True)
    page.goto("/dash/leagues")
    expect(page.get_by_role("heading", name="You are offline", level=1)).to_be_visible()
    screenshot(page, "offline-390")
    assert _axe_and_targets(page, "offline page", PHONE["width"]) == []
    page.get_by_role("link", name="Try again").click()  # still offline: the same page, not the browser's error
    expect(page.get_by_role("heading", name="You are offline", level=1)).to_be_visible()

    page.context.set_offline(False)
    page.get_by_role("link", name="Try again").click()
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()  # back, still logged in
