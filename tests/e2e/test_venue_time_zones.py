"""Venue time zones in Chromium: a Chicago venue's games read "6:30 PM CT", whatever the browser's own zone."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import expect_path, log_in, screenshot
from volley_app import db, demo, routes
from volley_app.models import League, User

PHONE = {"width": 390, "height": 844}


def _seed() -> int:
    """The demo data; returns the id of the Chicago venue's league."""

    def build(s) -> int:
        demo.seed(s)
        venue = s.exec(select(User).where(User.username == "windycity")).one()
        return s.exec(select(League.id).where(League.svl_id == venue.id)).one()

    return db.call(build)


def _context_page(browser, app_url, *, width: int, height: int, zone: str):
    """A page in a browser whose own clock is in ``zone`` (a traveller): it must not shift a game time."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, base_url=app_url, timezone_id=zone)
    ctx.set_default_timeout(15_000)
    return ctx, ctx.new_page()


def test_a_chicago_operator_sees_its_games_in_central_time(browser, app_url, db):
    league_id = _seed()
    for size, zone in (({"width": 1280, "height": 800}, "Asia/Tokyo"), (PHONE, "America/Los_Angeles")):
        ctx, page = _context_page(browser, app_url, zone=zone, **size)
        try:
            log_in(page, "windycity", demo.DEMO_PASSWORD)
            expect(page).not_to_have_url(re.compile(r"/login"))
            page.goto(routes.schedule_path(league_id))
            expect(page.get_by_role("heading", name=re.compile(r"^Week \d+ · "))).to_be_visible()
            page.get_by_label("Week", exact=True).select_option("1")
            expect(page.get_by_role("heading", name=re.compile(r"^Week 1 · Tue, "))).to_be_visible()
            cells = page.get_by_role("cell").filter(has_text=re.compile(r"^\d+:\d\d [AP]M [A-Z]+T"))
            expect(cells.first).to_be_visible()
            times = {t.split("\n")[0] for t in cells.all_inner_texts()}  # the operator's cells also hold "Edit"
            assert times == {"6:30 PM CT"}  # two matches side by side, on two courts
            expect(page.get_by_role("cell", name="Court B", exact=True).first).to_be_visible()
            expect(page.get_by_text("Times are the venue's: CT (America/Chicago)", exact=True)).to_be_visible()
            expect(page.get_by_role("link", name="Add to calendar")).to_be_visible()
            page.get_by_role("button", name="Next week").click()
            expect(page.get_by_role("heading", name=re.compile(r"^Week 2 · Tue, "))).to_be_visible()
            page.get_by_role("button", name="Previous week").click()
            expect(page.get_by_role("heading", name=re.compile(r"^Week 1 · Tue, "))).to_be_visible()
            screenshot(page, f"venue-zone-schedule-{size['width']}")

            page.goto(routes.league_path(league_id))
            expect(page.get_by_text(re.compile(r"^Tue \w+ \d+, \d{4} 6:30 PM CT$")).first).to_be_visible()  # starts, closes
            expect(page.get_by_text("America/Chicago (CT)", exact=True)).to_be_visible()
            screenshot(page, f"venue-zone-league-{size['width']}")

            page.goto(routes.user_path(db_user_id("windycity")))
            expect(page.get_by_label("Time Zone")).to_have_value("America/Chicago")
            screenshot(page, f"venue-zone-edit-info-{size['width']}")
        finally:
            ctx.close()


def test_a_player_sees_a_request_at_the_chicago_venue_in_central_time(browser, app_url, db):
    _seed()
    ctx, page = _context_page(browser, app_url, zone="Europe/Berlin", **PHONE)
    try:
        log_in(page, "alice", demo.DEMO_PASSWORD)
        expect_path(page, "/dash")
        card = page.get_by_test_id("request-item").filter(visible=True).filter(has_text="Lake Effect")
        expect(card).to_contain_text("6:30 PM CT")
        lex = page.get_by_test_id("request-item").filter(visible=True).filter(has_text="Block Party").first
        expect(lex).to_contain_text("8:10 PM ET")
        screenshot(page, "venue-zone-requests-390")
    finally:
        ctx.close()


def db_user_id(username: str) -> int:
    return db.call(lambda s: s.exec(select(User.id).where(User.username == username)).one())
