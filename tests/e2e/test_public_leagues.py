"""The public league pages in Chromium, as a visitor who has no account yet: from the home page to the leagues, a
running league's standings, and through signing up to that league's registration. (axe checks both pages at both
widths in ``test_axe``'s anonymous pass.)"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.e2e.helpers import expect_path, screenshot
from tests.factories import public_league_world
from volley_app import db, routes


def test_a_visitor_finds_a_running_league_and_signs_up_to_register_a_team(page):
    league = db.call(public_league_world)["running"]
    page.goto(routes.HOME)
    page.get_by_role("link", name="Browse Leagues").click()  # the app's router leaves it to the server

    expect_path(page, routes.public_leagues_base)
    expect(page.get_by_role("heading", name="Volleyball leagues", level=1)).to_be_visible()
    screenshot(page, "public-leagues/list")
    page.get_by_role("link", name="Monday B 6s", exact=True).click()

    expect_path(page, routes.public_league_path(league))
    expect(page.get_by_role("heading", name="Monday B 6s", level=1)).to_be_visible()
    standings = page.get_by_role("table", name="Standings of Monday B 6s")
    expect(standings.get_by_role("rowheader")).to_have_text(["Spikers4", "Spikers1", "Spikers2", "Spikers3"])
    expect(page.get_by_role("table", name="Week 1").get_by_role("row", name=re.compile("Spikers1 v Spikers2"))).to_contain_text(
        "21-15, 21-18")
    expect(page.get_by_text("2 of 6 places left").first).to_be_visible()
    screenshot(page, "public-leagues/league")
    page.get_by_role("link", name="Register a team").click()

    registration = routes.new_team_path(league)
    expect(page).to_have_url(re.compile(r"/login/?\?next=" + re.escape(routes.login_with_next(registration).split("=", 1)[1]) + "$"))
    sign_up = page.get_by_role("main").get_by_role("link", name="Sign Up")
    expect(sign_up).to_have_attribute("href", routes.absolute(routes.signup_with_next(registration)))  # the login page
    sign_up.click()

    expect_path(page, routes.SIGNUP)
    page.get_by_label("Username").fill("newcaptain")
    page.get_by_label("Password").fill("pass1234")
    page.get_by_label("Email").fill("new.captain@example.com")
    page.get_by_label("First Name").fill("Nia")
    page.get_by_label("Last Name").fill("Captain")
    page.get_by_label("State").select_option("KY")
    page.get_by_role("button", name="Sign Up").click()

    expect(page).to_have_url(re.compile(re.escape(registration) + "$"))
    expect(page.get_by_role("heading", name="Register a Team")).to_be_visible()
    expect(page.get_by_text("Monday B 6s")).to_be_visible()
    expect(page.get_by_role("button", name="Continue to Checkout")).to_be_visible()
