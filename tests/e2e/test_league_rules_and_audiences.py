"""An operator in Chromium: sets a league's roster and sub rules on the league home's form and finds them kept (and
on the rules page); emails every player on the league's rosters and a player who is no captain gets it."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import (
    add_open_league,
    add_teams,
    expect_path,
    make_user,
    open_as,
    screenshot,
    start_weekday,
)
from volley_app import db, routes
from volley_app.models import Role, Team, TeamMember, User

PHONE = {"width": 390, "height": 844}


def test_an_operator_sets_the_roster_and_sub_rules_and_finds_them_kept(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    lid = add_open_league("courtside")
    page = new_page(width=1280, height=900)
    open_as(page, "courtside", routes.league_path(lid))
    rules = page.get_by_role("group", name="Rosters and subs")
    expect(rules.get_by_label("Roster Minimum")).to_have_value("")
    page.get_by_label("Day").select_option(start_weekday(lid))  # the helper's league starts on another day than it says
    rules.get_by_label("Roster Minimum").fill("13")
    page.get_by_role("button", name="Update League").click()
    expect(rules.get_by_text("Roster minimum (13) is above the most a 6s roster holds (12)")).to_be_visible()
    rules.get_by_label("Roster Minimum").fill("7")
    rules.get_by_label("Roster Maximum").fill("10")
    rules.get_by_label("Women on Court").fill("2")
    rules.get_by_label("Subs from Other Teams").select_option("No")
    rules.get_by_label("Sub Levels Below").fill("1")
    rules.get_by_label("Playoff Minimum Games").fill("3")
    page.get_by_role("button", name="Update League").click()
    expect(page).to_have_url(re.compile(r"/dash/leagues$"))  # saved: back to the leagues
    page.goto(routes.league_path(lid))
    for label, value in (("Roster Minimum", "7"), ("Roster Maximum", "10"), ("Women on Court", "2"),
                         ("Subs from Other Teams", "false"), ("Sub Levels Below", "1"), ("Sub Levels Above", ""),
                         ("Playoff Minimum Games", "3"), ("Teams per Player", "1")):  # fmt: skip
        expect(rules.get_by_label(label)).to_have_value(value)
    expect(page.get_by_text("Rosters: 7–10 players")).to_be_visible()
    screenshot(page, "rules/league-rules-form-1280")
    phone = new_page(**PHONE)
    open_as(phone, "courtside", routes.league_rules_path(lid))
    expect(phone.get_by_role("heading", name=re.compile(r"^This League: \w+day C 6s$"))).to_be_visible()
    expect(phone.get_by_text("At least 2 women on court")).to_be_visible()
    expect(phone.get_by_text("Subs rated at most one level below C")).to_be_visible()
    screenshot(phone, "rules/league-rules-page-390")
    phone.goto(routes.league_path(lid))
    expect(phone.get_by_label("Roster Maximum")).to_have_value("10")
    phone.get_by_label("Roster Maximum").scroll_into_view_if_needed()
    screenshot(phone, "rules/league-rules-form-390", full_page=False)


def _join(team_name: str, username: str) -> None:
    """Put ``username`` on the team's roster as a player."""

    def add(s):
        team_id = s.exec(select(Team.id).where(Team.team_name == team_name)).one()
        user_id = s.exec(select(User.id).where(User.username == username)).one()
        s.add(TeamMember(team_id=team_id, user_id=user_id))

    db.call(add)


def test_an_operator_emails_every_rostered_player(new_page, mailbox):
    make_user("gymrat", Role.SVL, first_name="Gym")
    for name in ("pia", "sam", "lou"):
        make_user(name, first_name=name.title())
    lid = add_open_league("gymrat")
    add_teams(lid, ["Net Ninjas"], captain="pia")
    add_teams(lid, ["Block Party"], captain="sam")
    _join("Net Ninjas", "lou")
    _join("Block Party", "lou")  # on two teams: one email
    for width, height in ((1280, 900), (PHONE["width"], PHONE["height"])):
        page = new_page(width=width, height=height)
        open_as(page, "gymrat", routes.league_path(lid))
        page.get_by_role("link", name="Email Players").click()
        expect_path(page, routes.league_message_path(lid))
        expect(page.get_by_label("Team").locator("option")).to_have_count(3)  # loaded
        page.get_by_label("Send to").select_option("All players on the league's rosters")
        expect(page.get_by_label("Team")).to_have_count(0)  # every team's roster: no team to choose
        page.get_by_label("Subject").fill(f"Pizza night {width}")
        page.get_by_label("Message").fill("Pizza after the games this Monday.")
        screenshot(page, f"rules/league-message-players-{width}")
        page.get_by_role("button", name="Preview").click()
        expect(page.get_by_text("This email goes to 3 people: every player on the league's rosters.")).to_be_visible()
        screenshot(page, f"rules/league-message-preview-{width}")
        if width != 1280:
            page.get_by_role("button", name="Edit").click()
            expect(page.get_by_label("Send to")).to_have_value("players")
            continue
        page.get_by_role("button", name="Send to 3 people").click()
        expect(page.get_by_text("Queued to 3 people.")).to_be_visible()
        msgs = mailbox.wait_for(3, timeout=30)
        assert sorted(m["To"] for m in msgs) == ["lou@example.com", "pia@example.com", "sam@example.com"]
        assert all("Pizza after the games" in m.get_body(("plain",)).get_content() for m in msgs)
