"""A season day to day in Chromium: a second court and a redraw, a player's calendar feed, a message to captains."""

from __future__ import annotations

import datetime as dt

import httpx
from icalendar import Calendar
from playwright.sync_api import expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, add_teams, expect_path, make_user, open_as
from volley_app import db
from volley_app.models import Game, League, Role
from volley_app.services.core.actors import Actor
from volley_app.services.seasons import scheduling

PHONE = {"width": 390, "height": 844}


def _generate(lid: int) -> None:
    def run(s):
        league = s.get(League, lid)
        scheduling.generate(s, Actor(user_id=league.svl_id, username="x", roles=(Role.SVL.value,)), lid)

    db.call(run)


def _day_of_start(lid: int) -> None:
    """The helper's league starts in 10 days on whatever weekday that is: its day follows, so its form saves."""
    from volley_app.models import Day
    from volley_app.services.core import timefmt

    def run(s):
        league = s.get(League, lid)
        league.day = Day(timefmt.local(league.start_at).strftime("%A"))
        s.add(league)

    db.call(run)


def _courts(lid: int) -> set[str | None]:
    return set(db.call(lambda s: s.exec(select(Game.court).where(Game.league_id == lid)).all()))


def test_an_operator_adds_a_second_court_and_redraws_the_schedule(new_page, mailbox):
    make_user("gymrat", Role.SVL, first_name="Gym")
    make_user("pia", first_name="Pia")
    lid = add_open_league("gymrat")
    _day_of_start(lid)
    add_teams(lid, ["Net Ninjas", "Block Party", "Dig Deep", "Set to Kill"], captain="pia")
    _generate(lid)
    assert _courts(lid) == {"Court 1"}
    page = new_page()
    open_as(page, "gymrat", f"/dash/leagues/{lid}")
    page.get_by_label("More Courts (optional)").fill("Court 2")
    page.get_by_role("button", name="Update League").click()
    expect_path(page, "/dash/leagues")
    page.goto(f"/dash/leagues/{lid}")
    page.get_by_role("button", name="Redraw Unplayed Weeks").click()
    expect(page.get_by_text("Unplayed weeks redrawn: 12 games.")).to_be_visible()
    assert _courts(lid) == {"Court 1", "Court 2"}
    page.get_by_role("link", name="Schedule", exact=True).click()
    week = page.get_by_role("row")
    expect(week.filter(has_text="Court 2")).to_have_count(1)
    expect(week.filter(has_text="Court 1")).to_have_count(1)
    told = mailbox.wait_for(1, timeout=15)
    assert told[0]["To"] == "pia@example.com" and "New schedule" in told[0]["Subject"]


def test_a_player_subscribes_to_their_feed_and_sees_their_next_game(new_page):
    make_user("gymrat", Role.SVL, first_name="Gym")
    make_user("pia", first_name="Pia")
    lid = add_open_league("gymrat")
    add_teams(lid, ["Net Ninjas"], captain="pia")
    add_teams(lid, ["Block Party", "Dig Deep"])
    _generate(lid)
    page = new_page(**PHONE)
    open_as(page, "pia", "/dash/playerinfo")
    expect(page.get_by_role("definition").filter(has_text="pia").first).to_be_visible()  # read: the login is known
    page.get_by_role("button", name="Turn on my calendar feed").click()
    address = page.locator("#calendar-feed-url")
    expect(address).to_contain_text("/api/calendar/")
    expect(page.get_by_role("link", name="Add to calendar")).to_have_attribute("href", address.inner_text().replace("http://", "webcal://"))
    got = httpx.get(address.inner_text(), timeout=30)  # as a calendar app would: no login
    assert got.status_code == 200 and got.headers["content-type"].startswith("text/calendar")
    events = sorted(Calendar.from_ical(got.content).walk("VEVENT"), key=lambda e: e.start)
    upcoming = [e for e in events if e.start > dt.datetime.now(dt.UTC)]
    assert upcoming and str(upcoming[0]["SUMMARY"]).startswith("Net Ninjas")
    assert upcoming[0]["DTSTART"].params["TZID"] == "America/New_York"
    page.get_by_role("button", name="Turn off").click()
    expect(page.get_by_text("Your calendar feed is off")).to_be_visible()
    assert httpx.get(got.url, timeout=30).status_code == 404


def test_a_league_message_reaches_the_captains(new_page, mailbox):
    make_user("gymrat", Role.SVL, first_name="Gym")
    make_user("pia", first_name="Pia")
    make_user("sam", first_name="Sam")
    lid = add_open_league("gymrat")
    add_teams(lid, ["Net Ninjas"], captain="pia")
    add_teams(lid, ["Block Party"], captain="sam")
    page = new_page()
    open_as(page, "gymrat", f"/dash/leagues/{lid}")
    page.get_by_role("link", name="Email Players").click()
    expect_path(page, f"/dash/leagues/{lid}/message")
    expect(page.get_by_label("Team").locator("option")).to_have_count(3)  # loaded: every captain, or one team's
    page.get_by_label("Subject").fill("Gym closed Monday")
    page.get_by_label("Message").fill("No games this Monday; the season moves a week.")
    page.get_by_role("button", name="Preview").click()
    expect(page.get_by_text("This email goes to 2 people")).to_be_visible()
    page.get_by_role("button", name="Send to 2 people").click()
    expect(page.get_by_text("Queued to 2 people.")).to_be_visible()
    msgs = mailbox.wait_for(2, timeout=30)
    assert sorted(m["To"] for m in msgs) == ["pia@example.com", "sam@example.com"]
    assert all(m["Subject"] == "Monday C 6s: Gym closed Monday" for m in msgs)
    assert all("the season moves a week" in m.get_body(("plain",)).get_content() for m in msgs)
