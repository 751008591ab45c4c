"""Operators' forms in Chromium: a league says how many sets its matches have, and a venue is told what a new
time zone moves before it changes it."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, make_user, open_as, screenshot, start_weekday
from volley_app import db, routes
from volley_app.models import League, Role, User

PHONE = {"width": 390, "height": 844}


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"rules/{name}")


def test_a_league_plays_all_three_sets_when_its_operator_says_so(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    lid = add_open_league("courtside")
    weekday = start_weekday(lid)
    for width, choice in ((1280, "3"), (PHONE["width"], "")):
        page = new_page(width=width, height=900)
        open_as(page, "courtside", routes.league_path(lid))
        sets = page.get_by_label("Sets per Match")
        expect(sets).to_have_value("3" if choice == "" else "")
        page.get_by_label("Day").select_option(weekday)  # the helper's league starts on another day than it says
        sets.select_option(choice)
        sets.scroll_into_view_if_needed()
        _shot(page, f"league-sets-{width}")
        page.get_by_role("button", name="Update League").click()
        expect(page).to_have_url(re.compile(r"/dash/leagues$"))  # saved: back to the leagues
        assert db.call(lambda s, c=choice: s.get(League, lid).sets_to_play == (int(c) if c else None))


def test_a_venue_is_told_what_a_new_time_zone_moves_before_it_changes(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    add_open_league("courtside")  # a session and a league still to come
    uid = db.call(lambda s: s.exec(select(User.id).where(User.username == "courtside")).one())
    for width in (1280, PHONE["width"]):
        page = new_page(width=width, height=900)
        open_as(page, "courtside", routes.user_path(uid))
        zone = page.get_by_label("Time Zone")
        expect(zone).to_have_value(re.compile(r"America/"))
        target = "America/Denver" if width == 1280 else "America/Chicago"
        zone.select_option(target)
        page.get_by_role("button", name="Save").click()
        question = page.get_by_role("alert").filter(has_text="Changing the time zone from")
        expect(question).to_contain_text("the start of 1 league")
        _shot(page, f"zone-question-{width}")
        assert db.call(lambda s: s.get(User, uid).time_zone) != target
        page.get_by_label("Yes, change the time zone: move these times").check()
        page.get_by_role("button", name="Save").click()
        expect(page).not_to_have_url(re.compile(rf"/dash/users/{uid}$"))
        assert db.call(lambda s, t=target: s.get(User, uid).time_zone == t)
