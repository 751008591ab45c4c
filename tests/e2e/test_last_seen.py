"""A player coming back to a /dash page sees it as they last saw it the moment it opens, before the app's JavaScript
has run; the app's own page takes its place once it shows, and a button tapped on the copy in between is tapped on
it. The copy is kept only for the login that saw it, where that login is kept (the tab's storage for a login not
trusted on the device), and goes when the login ends. On a device that keeps a login, the home and a league's
standings come drawn by the server for that login (``api/first_paint.py``), the first time too."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.conftest import ROOT
from tests.e2e.helpers import add_game, add_open_league, add_teams, game_answer, log_in, make_user, open_as, screenshot
from tests.factories import login_token
from volley_app import db
from volley_app.api.first_paint import COOKIE
from volley_app.components.last_seen import STORAGE_KEY, TAG
from volley_app.models import Role

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


def _start_app(page, held: list) -> None:
    """Let the app's first script through (a page drawn by the server asks for it only once it has painted)."""
    for _ in range(200):
        if held:
            break
        page.wait_for_timeout(50)
    held[0].continue_()


def _serious(page) -> list[str]:
    """What axe finds critical or serious on the page as it is."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.evaluate(AXE.read_text() + "\n;undefined")
    return page.evaluate("""async () => (await axe.run(document, {resultTypes: ['violations']})).violations
      .filter((v) => ['critical', 'serious'].includes(v.impact)).map((v) => v.id + ': ' + v.nodes[0].target.join(' '))""")


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
    for width, height in ((1280, 800), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"last-seen/dash-copy-{width}")
        assert _serious(page) == [], width

    # Logout tapped on the copy is tapped on the app's page once that shows: the login ends, and its copies go.
    page.get_by_role("button", name="Logout").click()
    _start_app(page, held)
    expect(page).to_have_url(re.compile(r"/$"))
    assert not page.evaluate("() => localStorage.getItem('vb_session')")
    assert page.evaluate("() => localStorage.getItem('vb_seen')") is None
    page.unroute(ENTRY)


def test_the_copy_gives_way_to_the_app_and_its_links_work_before_it(new_page):
    page = _seen_once(new_page, "seenlinks", "Linus")

    held = _open_held(page, "/dash")
    page.get_by_role("link", name="All Subs").click()  # a link on the copy is a link: the browser opens its page
    expect(page).to_have_url(re.compile(r"/dash/subs$"))
    assert held  # the app's script held: the browser followed the link itself
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
    _start_app(page, held)
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
    _start_app(page, held)
    expect(page.locator(TAG)).to_have_count(0)
    expect(page.get_by_role("heading", name="Welcome, Faye")).to_have_count(1)
    page.unroute(ENTRY)


def _captain_with_a_game() -> tuple[int, int]:
    """drawnsvl's league with Dora's team Drawn Aces (she captains it) and Far Side, a game two days ahead: (league,
    game)."""
    make_user("drawnsvl", Role.SVL)
    make_user("drawncap", first_name="Dora")
    league = add_open_league("drawnsvl", fmt="doubles")
    add_teams(league, ["Drawn Aces", "Far Side"], captain="drawncap")
    return league, add_game(league, "Drawn Aces", "Far Side")


def test_a_trusted_device_gets_the_home_and_standings_drawn_by_the_server_before_the_app(new_page):
    league, game = _captain_with_a_game()
    page = new_page(**PHONE)
    page.goto("/login")
    log_in(page, "drawncap")  # Trust This Device: the login page keeps the login in the device's cookie too
    expect(page.get_by_role("heading", name="Welcome, Dora")).to_be_visible()
    expect(page.locator(LIVE).get_by_role("group", name="Your answer")).to_be_visible()  # the app's own page, once
    assert COOKIE in {c["name"] for c in page.context.cookies()}

    # Opened with nothing kept on the device and the app's first script held: the server's copy shows.
    page.evaluate(f"() => localStorage.removeItem('{STORAGE_KEY}')")
    held = _open_held(page, "/dash")
    copy = page.locator(TAG)
    expect(copy.get_by_role("heading", name="Welcome, Dora")).to_be_visible()
    expect(copy).to_have_attribute("aria-busy", "true")
    expect(page.locator(LIVE)).to_be_hidden()
    expect(copy.get_by_role("link", name=re.compile("Drawn Aces v Far Side")).first).to_be_visible()
    for width, height in ((1280, 800), (PHONE["width"], PHONE["height"])):
        page.set_viewport_size({"width": width, "height": height})
        screenshot(page, f"last-seen/dash-drawn-{width}")
        assert _serious(page) == [], width

    # Out tapped on the copy is tapped on the app's page once it shows: her answer is recorded.
    copy.get_by_role("group", name="Your answer").get_by_role("button", name="Out").click()
    _start_app(page, held)
    expect(page.locator(TAG)).to_have_count(0)
    out = page.locator(LIVE).get_by_role("group", name="Your answer").get_by_role("button", name="Out")
    expect(out).to_have_attribute("aria-pressed", "true")
    assert game_answer(game, "drawncap") == "Out"
    expect(page.get_by_role("heading", name="Welcome, Dora")).to_have_count(1)
    page.unroute(ENTRY)

    # A league's standings, the same way.
    held = _open_held(page, f"/dash/leagues/{league}/teams")
    expect(page.locator(TAG).get_by_role("heading", name=re.compile("^Standings: "))).to_be_visible()
    expect(page.locator(TAG).get_by_role("cell", name="Far Side")).to_be_visible()
    screenshot(page, "last-seen/standings-drawn-390")
    assert _serious(page) == []
    _start_app(page, held)
    expect(page.locator(TAG)).to_have_count(0)
    expect(page.get_by_role("heading", name=re.compile("^Standings: "))).to_have_count(1)
    page.unroute(ENTRY)

    # The device's login is another person's now (another tab): her copy is never shown to them.
    make_user("drawnother", first_name="Otto")
    dora = next(c for c in page.context.cookies() if c["name"] == COOKIE)
    page.evaluate("token => localStorage.setItem('vb_session', token)", db.call(lambda s: login_token(s, "drawnother")))
    page.evaluate(f"() => localStorage.removeItem('{STORAGE_KEY}')")
    page.context.add_cookies([dora])  # the page is asked for with her login's cookie still on the device
    held = _open_held(page, "/dash")
    expect(page.locator(TAG)).to_have_count(0)
    expect(page.get_by_text("Welcome, Dora")).to_have_count(0)
    _start_app(page, held)
    expect(page.get_by_role("heading", name="Welcome, Otto")).to_be_visible()
    page.unroute(ENTRY)

    # Logging out takes the login out of the cookie too.
    page.get_by_role("button", name="Logout").click()
    expect(page).to_have_url(re.compile(r"/$"))
    assert COOKIE not in {c["name"] for c in page.context.cookies()}
