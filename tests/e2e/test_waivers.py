"""A league's waiver in Chromium: the operator saves it on a desktop, a team member signs it on a phone, the
operator sees the signature."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, add_teams, expect_path, make_user, open_as, screenshot
from volley_app import db
from volley_app.models import Role, Team

PHONE = {"width": 390, "height": 844}
TEXT = "I take part at my own risk.\nI release the league and the venue from any claim."


def _team_id(team_name: str) -> int:
    return db.call(lambda s: s.exec(select(Team.id).where(Team.team_name == team_name)).one())


def test_the_operator_saves_the_waiver_a_member_signs_it_and_the_operator_sees_it(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    make_user("mia", first_name="Mia")
    lid = add_open_league("courtside")
    add_teams(lid, ["Net Ninjas"], captain="mia")  # mia is its captain, so its first member
    team_id = _team_id("Net Ninjas")

    desk = new_page()
    open_as(desk, "courtside", f"/dash/leagues/{lid}")
    desk.get_by_role("link", name="Waiver").click()
    expect_path(desk, f"/dash/leagues/{lid}/waiver")
    expect(desk.get_by_text("No waiver yet")).to_be_visible()
    desk.get_by_label("Waiver text").fill(TEXT)
    desk.get_by_role("button", name="Save").click()
    expect(desk.get_by_text("Saved as version 1.")).to_be_visible()
    expect(desk.get_by_text("Version 1, saved")).to_be_visible()
    expect(desk.get_by_text("No signatures yet.")).to_be_visible()
    screenshot(desk, "waiver-operator-1280")

    phone = new_page(**PHONE)
    open_as(phone, "mia", f"/dash/teams/{team_id}/waiver")
    expect(phone.get_by_role("heading", name="Waiver, version 1")).to_be_visible()
    expect(phone.get_by_text("I release the league and the venue from any claim.")).to_be_visible()
    phone.get_by_label("Your full name").fill("Mia Smith")
    phone.get_by_label("I am 18 or older").check()
    phone.get_by_role("button", name="Sign").click()
    expect(phone.get_by_text('Type your full name as your account has it: "Mia User"')).to_be_visible()
    phone.get_by_label("Your full name").fill("mia user")
    phone.get_by_role("button", name="Sign").click()
    expect(phone.get_by_text("You signed version 1 on")).to_be_visible()
    screenshot(phone, "waiver-member-390")

    desk.reload()
    table = desk.get_by_role("region", name="Table: Name, Team, Typed name …")
    expect(table.get_by_text("Mia User", exact=True)).to_be_visible()
    expect(table.get_by_text("mia user", exact=True)).to_be_visible()
    download = desk.get_by_role("link", name="Download signatures (CSV)")
    expect(download).to_have_attribute("href", re.compile(rf"/api/exports/leagues/{lid}/signatures\.csv\?"))
    screenshot(desk, "waiver-signatures-1280")
