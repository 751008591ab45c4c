"""The public leagues a visitor reads without logging in: which are listed, their places, a running league's
standings and schedule by team name, and nothing else (no league hidden, ended or archived, no person)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.factories import public_league_world
from volley_app.models import League, Team, utcnow
from volley_app.services.core.errors import NotFound
from volley_app.services.operations import public_leagues


@pytest.fixture
def world(db):
    return public_league_world(db)


def test_only_leagues_open_or_running_are_listed_soonest_first(db, world):
    page = public_leagues.public_leagues(db)
    assert [lg["id"] for lg in page.rows] == [world["running"], world["open"]]
    assert page.total == 2
    running, open_ = page.rows
    assert (running["stage"], open_["stage"]) == ("Active", "Registration")
    assert open_["venue"] == "Sandbox Courts" and open_["name"] == "Monday C 6s"
    assert (open_["day"], open_["format"], open_["skill_level"]) == ("Monday", "6s", "C")
    assert open_["time"].endswith(" ET") and open_["price"] == "$330 a team"  # $300 and $5 for each of six players


def test_places_left_count_playing_and_waiting_teams(db, world):
    by_id = {lg["id"]: lg for lg in public_leagues.public_leagues(db).rows}
    assert (by_id[world["open"]]["places"], by_id[world["open"]]["places_left"]) == (8, 5)
    assert by_id[world["open"]]["registration_open"] is True
    assert (by_id[world["running"]]["places_left"], by_id[world["running"]]["registration_open"]) == (2, True)


def test_registration_closes_at_the_deadline_or_else_at_the_start(db, world):
    db.get(League, world["running"]).registration_deadline = None
    db.commit()
    running = public_leagues.public_league(db, world["running"]).league
    assert (running["registration_open"], running["places_left"]) == (False, 2)


def test_the_list_is_read_a_page_at_a_time(db, world):
    first = public_leagues.public_leagues(db, size=1)
    assert [lg["id"] for lg in first.rows] == [world["running"]] and first.next
    second = public_leagues.public_leagues(db, size=1, bookmark=first.next)
    assert [lg["id"] for lg in second.rows] == [world["open"]] and not second.next


def test_a_running_league_shows_its_standings_and_schedule_by_team_name(db, world):
    page = public_leagues.public_league(db, world["running"])
    assert page.running
    assert [s["rank"] for s in page.standings] == [1, 2, 3, 4]
    assert {(s["team"], s["wins"], s["losses"]) for s in page.standings[:2]} == {("Spikers1", 1, 0), ("Spikers4", 1, 0)}
    assert {(s["team"], s["wins"], s["losses"]) for s in page.standings[2:]} == {("Spikers2", 0, 1), ("Spikers3", 0, 1)}
    assert [w["week"] for w in page.weeks] == [1, 2]
    first = page.weeks[0]["games"]
    assert [(g["home"], g["away"], g["sets"], g["court"]) for g in first] == [
        ("Spikers1", "Spikers2", "21-15, 21-18", "Court 1"), ("Spikers3", "Spikers4", "10-21, 12-21", "Court 2")]
    assert page.weeks[1]["games"][0]["sets"] == ""


def test_a_league_in_registration_has_no_standings_or_schedule(db, world):
    page = public_leagues.public_league(db, world["open"])
    assert (page.running, page.standings, page.weeks) == (False, [], [])
    assert page.league["places_left"] == 5


def test_nothing_about_a_person_is_in_what_a_visitor_reads(db, world):
    said = repr([dataclasses.asdict(public_leagues.public_league(db, world[k])) for k in ("open", "running")])
    said += repr(public_leagues.public_leagues(db).rows)
    assert "@" not in said and "Casey" not in said and "casey" not in said
    assert "Waiting1" not in said  # a waitlisted team is no team of the league yet


@pytest.mark.parametrize("which", ["draft", "ended", "archived", "past session", "archived session", "archived venue"])
def test_a_league_a_visitor_may_not_see_does_not_exist_for_them(db, world, which):
    with pytest.raises(NotFound):
        public_leagues.public_league(db, world["hidden"][which])


@pytest.mark.parametrize("league_id", ["999999", "abc", "", "-1", "1.5"])
def test_an_id_that_names_no_league_is_not_found(db, world, league_id):
    with pytest.raises(NotFound):
        public_leagues.public_league(db, league_id)


def test_a_withdrawn_team_frees_its_place_and_stays_in_the_standings(db, world):
    db.get(Team, world["teams"][3]).withdrawn_at = utcnow()
    db.commit()
    page = public_leagues.public_league(db, world["running"])
    assert page.league["places_left"] == 3
    assert [s["withdrawn"] for s in page.standings if s["team"] == "Spikers4"] == [True]
