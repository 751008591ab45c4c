"""A player's first visit on a new phone: once the person starts on the login form, the page has the browser fetch the
app's first files at the lowest priority, and the page the login goes on to (``/dash``) takes them from the browser's
cache instead of the network."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from tests.e2e.helpers import expect_path
from volley_app import db
from volley_app.api.first_paint import TAG

PHONE = {"width": 390, "height": 844}
# The build's module that tells the pages where the backend is: this tier's server writes each process's own backend
# into it and sends it to be checked each time (tests/e2e/conftest.py), where make run and nginx keep it for good.
REWRITTEN = "/assets/reflex-env-"


class Network:
    """What the browser's network layer says of a page's requests (Chrome's DevTools protocol): each request's
    address, priority, whether it finished, and whether its answer came from the browser's cache."""

    def __init__(self, page):
        self.urls: dict[str, str] = {}
        self.priority: dict[str, str] = {}
        self.finished: set[str] = set()
        self.cached: set[str] = set()
        self.from_network: set[str] = set()
        session = page.context.new_cdp_session(page)
        session.on("Network.requestWillBeSent", self._sent)
        session.on("Network.requestServedFromCache", lambda e: self.cached.add(e["requestId"]))
        session.on("Network.responseReceived", self._received)
        session.on("Network.loadingFinished", lambda e: self.finished.add(e["requestId"]))
        session.send("Network.enable")

    def _sent(self, event) -> None:
        self.urls[event["requestId"]] = event["request"]["url"]
        self.priority.setdefault(event["requestId"], event["request"].get("initialPriority", ""))

    def _received(self, event) -> None:
        answer = event["response"]
        if answer.get("fromDiskCache") or answer.get("fromPrefetchCache"):
            self.cached.add(event["requestId"])
        else:
            self.from_network.add(event["requestId"])

    def forget(self) -> None:
        """From now on, only the requests still to come."""
        self.urls, self.priority, self.finished, self.cached, self.from_network = {}, {}, set(), set(), set()

    def requested(self, url: str) -> list[str]:
        return [i for i, u in list(self.urls.items()) if u == url]

    def finished_all(self, urls: list[str]) -> bool:
        return all(any(i in self.finished for i in self.requested(u)) for u in urls)

    def from_cache(self, url: str) -> bool:
        ids = self.requested(url)
        return bool(ids) and all(i in self.cached and i not in self.from_network for i in ids)


def test_the_login_page_warms_the_apps_files_and_dash_takes_them_from_the_cache(new_page, app_url):
    from volley_app.demo import DEMO_PASSWORD, seed

    db.call(seed)
    page = new_page(**PHONE)
    network = Network(page)
    page.goto("/login")
    expect(page.get_by_label("Username")).to_be_focused()

    origin = app_url.rstrip("/")
    ahead = (page.locator("form").get_attribute("data-ahead") or "").split()
    assert any("/entry.client-" in h for h in ahead) and any(h.endswith(".css") for h in ahead), ahead
    assert all(h.startswith("/assets/") for h in ahead), ahead  # the build's hashed files, on this origin
    urls = [origin + h for h in ahead]
    page.wait_for_timeout(1000)
    assert not [u for u in urls if network.requested(u)]  # a visit that never starts on the form fetches none

    page.get_by_label("Username").press_sequentially("ali")  # the person starts typing
    deadline = time.monotonic() + 30
    while not network.finished_all(urls):  # fetched while the person types
        assert time.monotonic() < deadline, [u for u in urls if not network.finished_all([u])]
        page.wait_for_timeout(100)
    # At the lowest priority: nothing the page itself needs waits behind them.
    assert {network.priority[i] for u in urls for i in network.requested(u)} == {"VeryLow"}

    network.forget()
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Login").click()
    expect_path(page, "/dash")
    expect(page.get_by_role("heading", name="Welcome, Alice")).to_be_visible()
    expect(page.locator(TAG)).to_have_count(0)  # the app's own page, not the copy the server drew before it

    asked = [u for u in urls if network.requested(u)]
    entry = next(u for u in urls if "/entry.client-" in u)
    assert entry in asked and any(u.endswith(".css") for u in asked), asked
    missed = [u for u in asked if not network.from_cache(u) and REWRITTEN not in u]
    assert missed == [], f"asked for again over the network: {missed}"
    assert network.from_cache(entry)
