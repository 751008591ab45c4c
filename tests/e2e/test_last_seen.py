"""A player coming back to a /dash page sees it as they last saw it the moment it opens, before the app's JavaScript
has run; the app's own page takes its place once it shows, and a button tapped on the copy in between is tapped on
it. The copy is kept only for the login that saw it, where that login is kept (the tab's storage for a login not
trusted on the device), and goes when the login ends."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import ROOT
from tests.e2e.helpers import log_in, make_user, open_as, screenshot
from tests.factories import login_token
from volley_app import db
from volley_app.components.last_seen import STORAGE_KEY, TAG

PHONE = {"width": 390, "height": 844}
ENTRY = "**/assets/entry.client-*"  # the app's first script: held back, the page is as the browser drew it
AXE = ROOT / ".tools" / "node_modules" / "axe-core" / "axe.min.js"
KEPT = """([store, key, path]) => {
  const kept = JSON.parse(window[store].getItem(key) || 'null');
  return !!kept && kept.pages.some((p) => p.path === path);
}"""
LIVE = "body > [data-is-root-theme]"


def _open_held(page, path: str) -> list:
    """Open ``path`` with the app's first script held back; the held requests (continue one to let the app start)."""
    held: list = []
    page.route(ENTRY, lambda route: held.append(route))
    page.main_frame.goto(path, wait_until="commit")  # the page's own load waits for the held script
    expect(page.locator(LIVE)).to_be_attached()
    return held


def _seen_once(new_page, username: str, first_name: str):
    """A page on the phone of a new player who has seen /dash once, with Trust This Device: its copy kept."""
    make_user(username, first_name=first_name)
    page = new_page(**PHONE)
    open_as(page, username, "/dash")
    expect(page.get_by_role("heading", name=f"Welcome, {first_name}")).to_be_visible()
    page.wait_for_function(KEPT, arg=["localStorage", STORAGE_KEY, "/dash"])
    return page


def test_a_page_seen_before_shows_before_the_app_and_gives_way_to_it(new_page):
    page = _seen_once(new_page, "seenplayer", "Sienna")
    assert page.evaluate("() => sessionStorage.getItem('vb_seen')") is None

    # Back on /dash before the app has started: the copy shows, the app's own page (still waiting) does not.
    held = _open_held(page, "/dash")
    expect(page.locator(TAG)).to_be_attached()
    expect(page.get_by_role("heading", name="Welcome, Sienna")).to_be_visible()
    expect(page.locator(TAG)).to_have_attribute("aria-busy", "true")
    expect(page.locator(LIVE)).to_be_hidden()
    expect(page.locator(TAG).get_by_placeholder(re.compile("Team, location"))).to_be_disabled()  # no typing lost
    page.evaluate(AXE.read_text() + "\n;undefined")
    for width, height in ((1280, 800), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"last-seen/dash-copy-{width}")
        serious = page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
          .filter((v) => ['critical', 'serious'].includes(v.impact)).map((v) => v.id + ': ' + v.nodes[0].target.join(' '))""")
        assert serious == [], width

    # Logout tapped on the copy is tapped on the app's page once that shows: the login ends, and its copies go.
    page.get_by_role("button", name="Logout").click()
    held[0].continue_()
    expect(page).to_have_url(re.compile(r"/$"))
    assert not page.evaluate("() => localStorage.getItem('vb_session')")
    assert page.evaluate("() => localStorage.getItem('vb_seen')") is None
    page.unroute(ENTRY)


def test_the_copy_gives_way_to_the_app_and_its_links_work_before_it(new_page):
    page = _seen_once(new_page, "seenlinks", "Linus")

    held = _open_held(page, "/dash")
    page.get_by_role("link", name="All Subs").click()  # a link on the copy is a link: the browser opens its page
    expect(page).to_have_url(re.compile(r"/dash/subs$"))
    assert len(held) == 2  # the app's script held on both pages: the browser followed the link itself
    page.unroute(ENTRY)

    page.goto("/dash")  # the app starts: its page takes the copy's place
    expect(page.locator(TAG)).to_have_count(0)
    expect(page.locator(LIVE)).to_be_visible()
    expect(page.get_by_role("heading", name="Welcome, Linus")).to_have_count(1)


def test_a_copy_is_only_shown_to_the_login_that_saw_it_and_kept_with_the_tab_when_not_trusted(new_page):
    make_user("seensecond", first_name="Gus")
    page = _seen_once(new_page, "seenfirst", "Faye")

    # Another person's login takes this device's place (in another tab, say) while Faye's page is open: her page is
    # not kept as theirs, they are never shown her copy, and her copy goes.
    gus = db.call(lambda s: login_token(s, "seensecond"))
    page.evaluate("token => localStorage.setItem('vb_session', token)", gus)
    held = _open_held(page, "/dash")
    expect(page.locator(TAG)).to_have_count(0)
    assert page.evaluate("() => localStorage.getItem('vb_seen')") is None
    held[0].continue_()
    expect(page.get_by_role("heading", name="Welcome, Gus")).to_be_visible()
    page.unroute(ENTRY)

    # A login not trusted on this device: its copy is kept with the tab only.
    page.goto("/login")
    log_in(page, "seenfirst", trust=False)
    expect(page.get_by_role("heading", name="Welcome, Faye")).to_be_visible()
    page.wait_for_function(KEPT, arg=["sessionStorage", STORAGE_KEY, "/dash"])
    assert page.evaluate("() => localStorage.getItem('vb_seen')") is None
    kept = page.evaluate("() => sessionStorage.getItem('vb_seen')")
    assert "Welcome, Faye" in kept and "Gus" not in kept

    held = _open_held(page, "/dash")
    expect(page.get_by_role("heading", name="Welcome, Faye")).to_be_visible()
    expect(page.locator(TAG)).to_be_attached()
    held[0].continue_()
    expect(page.locator(TAG)).to_have_count(0)
    expect(page.get_by_role("heading", name="Welcome, Faye")).to_have_count(1)
    page.unroute(ENTRY)
