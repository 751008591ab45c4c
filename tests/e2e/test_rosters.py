"""Rosters in Chromium on a phone: a captain invites a person without an account by email; the invitation's link
opens the join page, the person signs up with the address filled in and lands on the team page as a member."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, add_teams, expect_path, log_in, make_user, open_as, screenshot
from volley_app import db, routes
from volley_app.models import OutboxMessage, Role, Team

WIDTH = 390


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"rosters/{name}-{WIDTH}")


def _invitation_path(email: str) -> str:
    body = db.call(lambda s: s.exec(select(OutboxMessage.body_text).where(OutboxMessage.to_addr == email)).one())
    found = re.search(re.escape(routes.TEAM_JOIN) + r"/\S+", body)
    assert found, body
    return found.group(0)


def test_a_captain_invites_by_email_and_the_invited_person_signs_up_and_joins(new_page):
    make_user("svlr", Role.SVL)
    make_user("capn", first_name="Casey")
    lid = add_open_league("svlr")
    add_teams(lid, ["Aces"], captain="capn")
    tid = db.call(lambda s: s.exec(select(Team.id).where(Team.team_name == "Aces")).one())

    captain = new_page(WIDTH, 844)
    log_in(captain, "capn")
    expect_path(captain, "/dash")
    captain.get_by_role("navigation", name="Main").get_by_role("link", name="Teams").click()
    expect_path(captain, routes.TEAMS)
    captain.get_by_role("link", name="Aces").first.click()
    expect_path(captain, routes.team_path(tid))
    expect(captain.get_by_role("heading", name="Roster")).to_be_visible()
    expect(captain.get_by_test_id("roster-member")).to_have_count(1)
    captain.get_by_label("Invite by email or username").fill("newbie@example.com")
    captain.get_by_role("button", name="Send invitation").click()
    expect(captain.get_by_text("Invitation sent to newbie@example.com")).to_be_visible()
    expect(captain.get_by_text(re.compile(r"^newbie@example\.com · sent"))).to_be_visible()
    assert captain.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    _shot(captain, "invited")

    visitor = new_page(WIDTH, 844)
    visitor.goto(_invitation_path("newbie@example.com"))
    expect(visitor.get_by_role("heading", name="Aces")).to_be_visible()
    expect(visitor.get_by_text("Casey User invites you to join the team.")).to_be_visible()
    _shot(visitor, "join-page")
    visitor.get_by_role("link", name="Sign up and join").click()
    expect_path(visitor, routes.SIGNUP)
    expect(visitor.get_by_label("Email")).to_have_value("newbie@example.com")
    visitor.get_by_label("Username").fill("newbie")
    visitor.get_by_label("Password").fill("pass1234")
    visitor.get_by_label("First Name").fill("Nina")
    visitor.get_by_label("Last Name").fill("Newbie")
    visitor.get_by_label("State").select_option("KY")
    visitor.get_by_role("button", name="Sign Up and Join the Team").click()
    expect_path(visitor, routes.team_path(tid))
    members = visitor.get_by_test_id("roster-member")
    expect(members).to_have_count(2)
    expect(members.filter(has_text="Nina Newbie")).to_contain_text("Player")
    expect(visitor.get_by_role("button", name="Leave team")).to_be_visible()
    assert visitor.evaluate("() => document.documentElement.scrollWidth") <= WIDTH
    _shot(visitor, "joined")

    captain.reload()
    expect(captain.get_by_test_id("roster-member")).to_have_count(2)
    expect(captain.get_by_text(re.compile(r"^newbie@example\.com · sent"))).to_have_count(0)


def test_the_operator_finds_a_player_on_the_league_rosters(new_page):
    make_user("svlq", Role.SVL)
    make_user("capq", first_name="Quincy")
    lid = add_open_league("svlq")
    add_teams(lid, ["Blocks"], captain="capq")

    page = new_page(1280, 800)
    open_as(page, "svlq", routes.league_path(lid))
    page.get_by_role("link", name="Every team's roster").click()
    expect_path(page, routes.league_rosters_path(lid))
    expect(page.get_by_role("cell", name="Quincy User")).to_be_visible()
    page.get_by_placeholder("Name, username or team").fill("nobody here")
    page.get_by_role("button", name="Search").first.click()
    expect(page.get_by_text("No players found on the league's teams.")).to_be_visible()
    _shot(page, "league-rosters")
