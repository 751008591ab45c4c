"""The schedule in Chromium: a game moved to another day of its week shows under its own date, a forfeit shows
as such, and moving a game onto a court and time another game has is refused with that game named."""

from __future__ import annotations

import datetime as dt

from playwright.sync_api import Page, expect
from sqlmodel import select

from tests.e2e.helpers import add_open_league, add_teams, make_user, open_as, screenshot
from volley_app import db, routes
from volley_app.models import Game, GameType, League, Role, Team

PHONE = {"width": 390, "height": 844}


def _shot(page: Page, name: str) -> None:
    screenshot(page, f"schedule/{name}")


def _week_two(league_id: int) -> dict[str, int]:
    """Week 2: Net Ninjas v Block Party (Monday, first slot), Dig Deep forfeited to Set to Kill (Monday, second
    slot), and Net Ninjas v Dig Deep moved from another week to the Tuesday."""

    def _add(session):
        lg = session.get(League, league_id)
        lg.schedule_generated = True
        session.add(lg)
        ids = {t.team_name: t.id for t in session.exec(select(Team).where(Team.league_id == league_id)).all()}
        monday = lg.start_at + dt.timedelta(days=7)
        games = {
            "first": Game(league_id=league_id, team1_id=ids["Net Ninjas"], team2_id=ids["Block Party"], round=2,
                          match=1, start_at=monday, court="Court 1", type=GameType.LEAGUE),
            "forfeit": Game(league_id=league_id, team1_id=ids["Set to Kill"], team2_id=ids["Dig Deep"], round=2,
                            match=2, start_at=monday + dt.timedelta(minutes=50), court="Court 1",
                            forfeit_team_id=ids["Dig Deep"], type=GameType.LEAGUE),
            "moved": Game(league_id=league_id, team1_id=ids["Net Ninjas"], team2_id=ids["Dig Deep"], round=1,
                          match=1, start_at=monday + dt.timedelta(days=1, hours=1, minutes=30), court="Court 1",
                          type=GameType.LEAGUE),
        }  # fmt: skip
        session.add_all(games.values())
        session.flush()
        return {k: g.id for k, g in games.items()}

    return db.call(_add)


def test_a_week_shows_each_game_under_its_own_date_and_a_forfeit_as_such(new_page):
    make_user("courtside", Role.SVL, first_name="Courtside")
    lid = add_open_league("courtside")
    add_teams(lid, ["Net Ninjas", "Block Party", "Dig Deep", "Set to Kill"])
    games = _week_two(lid)
    from volley_app.services.core import timefmt
    from volley_app.services.seasons import leagues

    zone = db.call(lambda s: leagues.zone(s, s.get(League, lid)))
    first_start = db.call(lambda s: s.get(Game, games["first"]).start_at)
    moved_start = db.call(lambda s: s.get(Game, games["moved"]).start_at)
    for width, name in ((1280, "week-days-1280"), (PHONE["width"], "week-days-390")):
        page = new_page(width=width, height=900)
        open_as(page, "courtside", f"/dash/leagues/teams/schedule?league={lid}")
        page.get_by_label("Week", exact=True).select_option("2")
        expect(page.get_by_role("heading", name="Week 2", exact=True)).to_be_visible()
        days = page.get_by_role("heading", level=3)
        expect(days).to_have_count(2)
        expect(days.nth(0)).to_have_text(timefmt.day(first_start, zone))
        expect(days.nth(1)).to_have_text(timefmt.day(moved_start, zone))
        expect(page.get_by_role("row").filter(has_text="Set to Kill")).to_contain_text("Dig Deep forfeited")
        _shot(page, name)

    page.goto(routes.game_path(games["moved"]))
    expect(page.get_by_role("heading", name="Edit Game")).to_be_visible()
    when = page.get_by_label("Date and Time")
    expect(when).not_to_have_value("")
    when.fill(timefmt.input_value(first_start, zone))
    page.get_by_role("button", name="Update Game").click()
    expect(page.get_by_text("Court 1 is taken then: Net Ninjas v Block Party plays there at").first).to_be_visible()
    _shot(page, "clash-390")
    assert db.call(lambda s: s.get(Game, games["moved"]).start_at) != first_start
