"""A member answers Out for a game on the team's games page on a phone and the count changes; the reminder email's
Out link records another member's answer without logging in."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import (
    add_game,
    add_open_league,
    add_teams,
    expect_path,
    game_answer,
    make_user,
    open_as,
    screenshot,
    wait_for_watchers,
)
from volley_app import db
from volley_app.models import MemberRole, Role, Team, TeamMember, User
from volley_app.services.teams import rsvps

PHONE = {"width": 390, "height": 844}
LIVE_MS = 2000  # well under the games page's poll (300 s): only a live update shows it this soon


def _world() -> tuple[int, int]:
    """svl's league with T1 (captain cap, members ann and bob) and T2, one game two days ahead; (team, game)."""
    make_user("rsvpsvl", Role.SVL)
    for name in ("cap", "ann", "bob"):
        make_user(name, first_name=name.title())
    league = add_open_league("rsvpsvl", fmt="doubles")
    add_teams(league, ["T1", "T2"], captain="cap")

    def arrange(session):
        t1 = session.exec(select(Team.id).where(Team.league_id == league, Team.team_name == "T1")).one()
        users = {u.username: u.id for u in session.exec(select(User)).all()}
        for name in ("ann", "bob"):  # the captain is its team's first member already
            session.add(TeamMember(team_id=t1, user_id=users[name], role=MemberRole.PLAYER))
        return t1

    t1 = db.call(arrange)
    return t1, add_game(league, "T1", "T2")


def _signed_in(page: Page, username: str, path: str) -> Page:
    """``page`` logged in as ``username``, on ``path``."""
    open_as(page, username, path)
    return page


def test_a_member_answers_out_on_a_phone_and_a_reminder_link_answers_without_login(new_page, mailbox):
    team, game = _world()

    ann = _signed_in(new_page(**PHONE), "ann", f"/dash/teams/{team}/games")
    card = ann.get_by_test_id("team-game").first
    expect(card).to_contain_text("v T2")
    counts = card.get_by_test_id("rsvp-counts")
    expect(counts).to_contain_text("Out 0")
    expect(card).to_contain_text("Short")
    card.get_by_role("button", name="Out", exact=True).click()
    expect(counts).to_contain_text("Out 1")
    expect(counts).to_contain_text("No answer 2")
    expect(card.get_by_role("button", name="Out", exact=True)).to_have_attribute("aria-pressed", "true")
    assert game_answer(game, "ann") == "Out"
    assert ann.evaluate("document.documentElement.scrollWidth") <= 390  # nothing runs off a phone's screen
    screenshot(ann, "team-games-390")

    rsvps.send_reminders()  # the app's own sweep may have sent them first: each member gets one either way
    mails = mailbox.wait_for(2)
    assert sorted(m["To"] for m in mails) == ["bob@example.com", "cap@example.com"]  # ann answered: not reminded
    [bobs] = [m for m in mails if m["To"] == "bob@example.com"]
    link = re.search(r"I'm out: (\S+)", bobs.get_body(("plain",)).get_content()).group(1)

    bob = new_page(**PHONE)  # no login: the link is the answer
    bob.set_content(bobs.get_body(("html",)).get_content())
    bob.get_by_role("link", name="I'm out", exact=True).click()
    expect(bob.get_by_role("heading", name="T1 v T2")).to_be_visible()
    assert game_answer(game, "bob") is None  # opening changes nothing
    bob.get_by_role("button", name="I'm out").click()
    expect(bob.get_by_role("heading", name="You answered Out")).to_be_visible()
    assert game_answer(game, "bob") == "Out"
    assert "/api/rsvp-answers/" in link
    screenshot(bob, "rsvp-link-390")

    ann.reload()
    expect(ann.get_by_test_id("team-game").first.get_by_test_id("rsvp-counts")).to_contain_text("Out 2")


def test_a_members_answer_shows_on_the_captains_open_page_without_a_reload(new_page):
    team, game = _world()
    captain = _signed_in(new_page(), "cap", f"/dash/teams/{team}/games")
    counts = captain.get_by_test_id("team-game").first.get_by_test_id("rsvp-counts")
    expect(counts).to_contain_text("Out 0")
    captain.evaluate("window.stillOpen = true")  # gone if the page loads again

    member = _signed_in(new_page(**PHONE), "ann", f"/dash/teams/{team}/games")
    card = member.get_by_test_id("team-game").first
    expect(card.get_by_test_id("rsvp-counts")).to_contain_text("Out 0")
    wait_for_watchers(2)  # both pages wait for the team's answers
    card.get_by_role("button", name="Out", exact=True).click()
    expect(card.get_by_test_id("rsvp-counts")).to_contain_text("Out 1")

    expect(counts).to_contain_text("Out 1", timeout=LIVE_MS)
    expect(counts).to_contain_text("No answer 2")
    expect(captain.get_by_test_id("team-game").first).to_contain_text("Ann User: Out")
    assert captain.evaluate("window.stillOpen") is True
    assert game_answer(game, "ann") == "Out"


def test_the_captain_sets_when_reminders_go_and_a_member_reads_it(new_page):
    team, _game = _world()
    captain = _signed_in(new_page(), "cap", f"/dash/teams/{team}")
    captain.get_by_role("link", name="Team settings").click()
    expect_path(captain, f"/dash/teams/{team}/settings")
    days = captain.get_by_label("Reminder days before a game")
    expect(days).to_have_value("3")
    days.fill("20")
    captain.get_by_label("Answer deadline in hours before a game").fill("24")
    captain.evaluate("document.querySelector('form').noValidate = true")  # the server's own message
    captain.get_by_role("button", name="Save settings").click()
    expect(captain.get_by_text("Reminder days before a game must be between 0 and 14")).to_be_visible()
    days.fill("1")
    captain.get_by_role("button", name="Save settings").click()
    expect(captain.get_by_text("Settings saved.")).to_be_visible()
    screenshot(captain, "team-settings-1280")

    def saved(session):
        row = session.get(Team, team)
        return row.rsvp_reminder_days, row.rsvp_deadline_hours

    assert db.call(saved) == (1, 24)

    member = _signed_in(new_page(**PHONE), "ann", f"/dash/teams/{team}")
    expect(member.get_by_role("link", name="Games and answers")).to_be_visible()
    expect(member.get_by_role("link", name="Team settings")).to_have_count(0)
    member.goto(f"/dash/teams/{team}/settings")
    expect(member.get_by_text("Answer deadline in hours before a game")).to_be_visible()
    expect(member.get_by_role("button", name="Save settings")).to_have_count(0)
    assert member.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(member, "team-settings-390")
