"""Accounts in Chromium: signup, logout, login errors, trusted and untrusted devices, guards."""

from __future__ import annotations

import datetime as dt
import json
import re

from playwright.sync_api import expect

from tests.e2e.helpers import PASSWORD, add_open_league, expect_path, log_in, make_user, sent_events
from volley_app import db
from volley_app.models import LeagueSession, Role, utcnow
from volley_app.services.accounts import auth

PHONE = {"width": 390, "height": 844}


def test_newcomer_signs_up_lands_on_dash_and_logs_out(new_page):
    make_user("venue", Role.SVL)
    add_open_league("venue")  # its start, not a fixed date, is what the banner announces
    page = new_page(**PHONE)
    page.goto("/")
    banner = page.get_by_role("region", name="League announcement")
    expect(banner).to_have_text(re.compile(r"^The next league starts [A-Z][a-z]+ \d{1,2}(st|nd|rd|th)\. Signups are open!$"))
    expect(page.get_by_text(f"© {dt.date.today().year}")).to_be_visible()
    page.get_by_role("link", name="Sign Up").first.click()
    expect_path(page, "/new")

    page.get_by_label("Username").fill("NewPlayer")
    expect(page.get_by_label("Username")).to_have_value("newplayer")  # lower-cased as typed
    page.get_by_label("Password").fill("pass1234")
    page.get_by_label("Email").fill("New.Player@Example.com")
    page.get_by_label("First Name").fill("Nora")
    page.get_by_label("Last Name").fill("Player")
    page.get_by_label("State").select_option("KY")
    page.get_by_role("button", name="Sign Up").click()

    expect_path(page, "/dash")
    expect(page.get_by_role("heading", name="Welcome, Nora")).to_be_visible()
    # the home has read its leagues (the cards above the link are filled in: nothing moves under the tap)
    expect(page.get_by_text(re.compile(r"^[1-9]\d* leagues? in all\.$"))).to_be_visible()
    page.get_by_role("link", name="Join a league: leagues open for registration").click()
    expect_path(page, "/dash/playerleagues")
    expect(page.get_by_role("link", name="Monday C 6s")).to_be_visible()
    page.go_back()
    expect(page.get_by_role("heading", name="Welcome, Nora")).to_be_visible()
    nav = page.get_by_role("navigation", name="Main")
    boxes = []
    for label in ("Home", "Teams", "Leagues", "Subs", "Profile", "Logout"):
        item = nav.get_by_role("link", name=label, exact=True).or_(nav.get_by_role("button", name=label))
        expect(item).to_be_visible()
        boxes.append(item.bounding_box())
    expect(nav.get_by_role("link", name="Home")).to_have_attribute("aria-current", "page")
    expect(nav.get_by_role("link", name="Subs")).to_have_attribute("aria-current", "false")
    # tap targets on the phone: at least 44 px tall, none over another
    assert all(b["height"] >= 44 for b in boxes), boxes
    for a, b in zip(boxes, boxes[1:], strict=False):
        assert b["x"] >= a["x"] + a["width"] or b["y"] >= a["y"] + a["height"], (a, b)
    expect(nav.get_by_role("link", name="Sessions")).to_have_count(0)
    footer = page.locator("footer")
    expect(footer).to_contain_text("newplayer")
    expect(footer).to_contain_text("Player")
    expect(footer.get_by_role("link", name="Home")).to_have_count(0)  # no home button on /dash itself

    nav.get_by_role("button", name="Logout").click()
    expect_path(page, "/")
    page.goto("/dash")
    expect_path(page, "/login")


def test_signup_bad_input_keeps_values_and_says_why(page):
    make_user("taken")
    page.goto("/new")
    page.get_by_label("Username").fill("taken")
    page.get_by_label("Password").fill("pass1234")
    page.get_by_label("Email").fill("someone@example.com")
    page.get_by_label("First Name").fill("Sam")
    page.get_by_label("Last Name").fill("Smith")
    page.get_by_label("State").select_option("OH")
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_text("That username is taken")).to_be_visible()
    expect_path(page, "/new")
    expect(page.get_by_label("Email")).to_have_value("someone@example.com")


def test_typing_into_the_signup_form_sends_nothing_to_the_server(page):
    sent = sent_events(page)
    page.goto("/new")
    expect(page.get_by_role("button", name="Sign Up")).to_be_enabled()
    page.wait_for_timeout(1000)  # the page's own load events are done
    before = len(sent)
    page.get_by_label("Username").press_sequentially("NewPlayer", delay=20)
    page.get_by_label("Password").press_sequentially("pass1234", delay=20)
    page.get_by_label("Email").press_sequentially("new.player@example.com", delay=20)
    page.get_by_label("First Name").press_sequentially("Nora", delay=20)
    page.get_by_label("Last Name").press_sequentially("Player", delay=20)
    page.get_by_label("State").select_option("KY")
    page.wait_for_timeout(500)
    assert sent[before:] == [], f"typing sent {len(sent) - before} events to the server"
    expect(page.get_by_label("Username")).to_have_value("newplayer")  # lower-cased in the browser
    # The submit is one event; a refused field then clears its message as soon as it is edited.
    make_user("newplayer")
    page.get_by_role("button", name="Sign Up").click()
    expect(page.get_by_text("That username is taken")).to_be_visible()
    page.get_by_label("Username").press_sequentially("2")
    expect(page.get_by_text("That username is taken")).to_have_count(0)
    expect(page.get_by_label("Email")).to_have_value("new.player@example.com")


def test_failed_login_then_login_and_trusted_reload(new_page):
    make_user("pat")
    page = new_page()
    page.goto("/login")
    expect(page).to_have_title("Login")
    expect(page.get_by_label("Username")).to_be_focused()
    expect(page.get_by_label("Trust This Device")).to_be_checked()

    log_in(page, "pat", "wrong-password")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("Unauthorized")
    expect(alert).to_have_attribute("aria-live", "assertive")
    expect(alert).to_be_focused()
    page.get_by_label("Password").fill("x")  # editing a field clears the message
    expect(alert).not_to_contain_text("Unauthorized")

    log_in(page, "PAT", PASSWORD)
    expect_path(page, "/dash")
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()
    expect(page).not_to_have_title("Login")

    page.reload()
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()
    # A trusted device stays logged in in a new tab of the same browser.
    other = page.context.new_page()
    other.goto("/dash")
    expect(other.get_by_role("heading", name="Welcome, Test")).to_be_visible()


def test_untrusted_login_does_not_survive_a_new_browser(new_page):
    make_user("quinn")
    page = new_page()
    log_in(page, "quinn", trust=False)
    expect_path(page, "/dash")
    page.reload()
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()  # same tab: still in

    fresh = new_page()
    fresh.goto("/dash")
    expect_path(fresh, "/login")


def test_revoked_persisted_login_shows_the_way_back(page):
    make_user("rita")
    log_in(page, "rita")
    expect_path(page, "/dash")
    # Revoked before or after /dash's own check ran: either way the tab says so after the reload.
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()
    token = page.evaluate("localStorage.getItem('vb_session')")
    assert token, "a trusted login keeps its token in localStorage"
    assert db.call(auth.logout, token)  # e.g. logged out elsewhere
    page.reload()
    expect(page.get_by_text("Your login has expired.")).to_be_visible()
    page.get_by_role("link", name="Please login again").click()
    expect_path(page, "/login")


def test_player_on_an_svl_page_is_told_whom_it_is_for_and_led_home(new_page):
    make_user("player1")
    make_user("venue", Role.SVL, first_name="Venue")
    page = new_page()
    log_in(page, "player1")
    expect_path(page, "/dash")
    page.goto("/dash/SVLHome")
    expect(page.get_by_role("heading", name="This page is for venue operators", level=1)).to_be_visible()
    expect_path(page, "/dash/SVLHome")  # no trip to the login page, which would only come back here
    expect(page.get_by_text("My Sessions")).to_have_count(0)
    page.get_by_role("link", name="Go to my home page").click()
    expect_path(page, "/dash")
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()

    # Logged out, the same address asks for a login and remembers where the visitor was going.
    page.get_by_role("button", name="Logout").click()
    expect_path(page, "/")
    page.goto("/dash/SVLHome")
    expect_path(page, "/login")
    assert "next=/dash/SVLHome" in page.url
    # The player logs in there: the page is not for them, so they land on their own home.
    log_in(page, "player1")
    expect_path(page, "/dash")
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()
    page.get_by_role("button", name="Logout").click()
    expect_path(page, "/")

    # The SVL logs in from that address and is taken back where the visitor was going.
    page.goto("/dash/SVLHome")
    expect_path(page, "/login")
    log_in(page, "venue")
    expect_path(page, "/dash/SVLHome")
    expect(page.get_by_role("heading", name="My Sessions")).to_be_visible()
    nav = page.get_by_role("navigation", name="Main")
    expect(nav.get_by_role("link", name="Sessions")).to_be_visible()
    expect(nav.get_by_role("link", name="Home")).to_have_attribute("aria-current", "page")
    expect(nav.get_by_role("link", name="Subs")).to_have_count(0)
    expect(page.locator("footer")).to_contain_text("SVL")


def test_visitor_is_sent_to_login_and_back_to_origin(new_page):
    svl_id = db.call(lambda s: _svl_with_session(s))
    assert svl_id
    page = new_page(**PHONE)
    page.goto("/dash/SVLHome")
    expect_path(page, "/login")
    log_in(page, "venue2")
    expect_path(page, "/dash/SVLHome")
    expect(page.get_by_role("cell", name="Winter League Night")).to_be_visible()
    expect(page.get_by_text("Active")).to_be_visible()  # its start has passed: Active, as its dates say


def _svl_with_session(session) -> int:
    from volley_app.services.accounts.accounts import create_user

    user = create_user(
        session, username="venue2", password=PASSWORD, email="venue2@example.com", first_name="Venue",
        last_name="Two", region="KY", roles=[Role.SVL],
    )  # fmt: skip
    now = utcnow()
    row = LeagueSession(svl_id=user.id, name="Winter League Night", start_at=now - dt.timedelta(days=1),
                        end_at=now + dt.timedelta(days=60))  # fmt: skip
    session.add(row)
    session.flush()
    return row.id


def test_the_running_app_delivers_its_outbox_to_smtp(page, mailbox):
    """The mail sender runs inside the app: a queued message reaches the SMTP server by itself."""
    from volley_app.services.mail import mail

    page.goto("/")  # the app is up
    db.call(mail.queue, to="someone@example.com", subject="Hello from the outbox", body_text="Body text", kind="test")
    [msg] = mailbox.wait_for(1, timeout=15)
    assert msg["To"] == "someone@example.com"
    assert msg["Subject"] == "Hello from the outbox"


def test_the_login_works_from_the_moment_it_shows_with_a_spinner_while_it_runs(new_page):
    make_user("early")
    page = new_page()
    scripts = []  # the login page has no script of its own to wait for: the form is the page as sent
    page.on("request", lambda r: scripts.append(r.url) if r.resource_type == "script" else None)
    type(page).goto(page, "/login", wait_until="commit")
    page.get_by_label("Username").fill("Early")
    expect(page.get_by_label("Username")).to_have_value("early")  # lower-cased as typed
    page.get_by_label("Password").fill(PASSWORD)
    assert scripts == []
    # The form is held here for a look at it while it is sent: the spinner replaces it.
    page.evaluate("document.querySelector('#login form').addEventListener('submit', (e) => e.preventDefault())")
    page.get_by_role("button", name="Login").click()
    expect(page.get_by_role("status").filter(has_text="Logging in…")).to_be_visible()
    expect(page.get_by_role("button", name="Login")).to_be_hidden()
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.evaluate("document.querySelector('#login form').submit()")
    expect_path(page, "/dash")
    expect(page.get_by_role("heading", name="Welcome, Test")).to_be_visible()
    assert [u for u in posts if "/login" in u] and len([u for u in posts if "/login" in u]) == 1


def test_a_login_handed_over_in_the_address_is_kept_where_the_app_reads_it(page):
    """Where the backend listens on an origin of its own (the dev server), the app's pages carry LOGIN_HANDOVER: the
    login page's answer sends the login in the address's fragment, and the page keeps it and takes it out."""
    from volley_app.volley_app import LOGIN_HANDOVER

    page.goto("/offline.html")
    login = json.dumps({"token": "tok-trusted", "trusted": True})
    page.evaluate("h => history.replaceState(null, '', '/dash#vb_login=' + encodeURIComponent(h))", login)
    page.evaluate(LOGIN_HANDOVER)
    assert page.evaluate("[localStorage.getItem('vb_session'), localStorage.getItem('vb_persist'), location.hash]") == [
        "tok-trusted", "true", ""]
    page.evaluate("h => history.replaceState(null, '', '/dash#vb_login=' + encodeURIComponent(h))",
                  json.dumps({"token": "tok-tab", "trusted": False}))
    page.evaluate(LOGIN_HANDOVER)
    assert page.evaluate("[localStorage.getItem('vb_session'), sessionStorage.getItem('vb_session_tab'), "
                         "localStorage.getItem('vb_persist')]") == [None, "tok-tab", "false"]
    page.evaluate("history.replaceState(null, '', '/dash#vb_login=not-json')")
    page.evaluate(LOGIN_HANDOVER)  # junk in the address changes nothing
    assert page.evaluate("[sessionStorage.getItem('vb_session_tab'), location.hash]") == ["tok-tab", ""]
