"""A league's roster and sub rules: set on the league form, checked against the format and the weeks, kept when a
change leaves them out, audited, shown on the league home and the rules page; only the league's operators set them."""

from __future__ import annotations

import pytest
from sqlmodel import select

from tests.api.world import snapshot
from tests.factories import add_member, add_teams, league_world, login_token, make_user
from tests.harness import call_handler
from volley_app.models import AuditEntry, League
from volley_app.pages.dash.leagues import rules as rules_page
from volley_app.pages.dash.leagues.home import state as home
from volley_app.services.core.errors import Forbidden, Invalid, Unauthorized
from volley_app.services.seasons import leagues

FORM = {
    "court": "Court 4", "start": "2027-03-01T18:30", "number_of_weeks": "8", "time_increment": "45",
    "skill_level": "C", "format": "6s", "day": "Monday", "max_teams": "8", "cost": "300",
}  # fmt: skip
RULES = {
    "roster_min": "7", "roster_max": "10", "teams_per_player": "2", "women_on_court": "2",
    "subs_from_other_teams": "false", "sub_levels_below": "1", "sub_levels_above": "0", "playoff_min_games": "3",
    "playoff_subs_approved": "true",
}  # fmt: skip
BLANK = dict.fromkeys(("roster_min", "roster_max", "teams_per_player", "women_on_court", "sub_levels_below",
                       "sub_levels_above", "playoff_min_games"), "")  # fmt: skip


@pytest.fixture
def world(db):
    return league_world(db)


def _rules_of(row: League) -> dict:
    return {k: getattr(row, k) for k in leagues.RULE_FIELDS}


def test_a_new_league_keeps_the_rules_it_is_given(world):
    db = world["db"]
    row = leagues.create_league(db, world["a"], session_id=world["sid"], **FORM, **RULES)
    db.commit()
    assert _rules_of(row) == {
        "roster_min": 7, "roster_max": 10, "teams_per_player": 2, "women_on_court": 2, "subs_from_other_teams": False,
        "sub_levels_below": 1, "sub_levels_above": 0, "playoff_min_games": 3, "playoff_subs_approved": True,
    }  # fmt: skip
    assert leagues.roster_size(row) == (7, 10)


def test_blank_rules_are_the_format_defaults_and_no_rule(world):
    db = world["db"]
    row = leagues.create_league(db, world["a"], session_id=world["sid"], **FORM, **BLANK,
                                subs_from_other_teams="true", playoff_subs_approved="false")  # fmt: skip
    assert _rules_of(row) == leagues.DEFAULT_RULES
    assert leagues.roster_size(row) == (6, 12)
    assert leagues.rules_in_words(row) == [
        "Rosters: 6–12 players", "A player may be on one team in this league",
        "Subs may be rostered on another of the league's teams", "Subs of any rating",
    ]
    plain = leagues.create_league(db, world["a"], session_id=world["sid"], **FORM)  # a form without the rules
    assert _rules_of(plain) == leagues.DEFAULT_RULES


@pytest.mark.parametrize(("fields", "field", "words"), [
    ({"roster_min": "10", "roster_max": "8"}, "roster_min", "Roster minimum (10) is above the maximum (8)"),
    ({"roster_min": "14"}, "roster_min", "above the most a 6s roster holds (12)"),
    ({"roster_max": "5"}, "roster_max", "at least the 6 players a 6s team has on court"),
    ({"format": "doubles", "women_on_court": "3"}, "women_on_court", "at most 2: Doubles puts 2 players on court"),
    ({"women_on_court": "7"}, "women_on_court", "between 0 and 6"),
    ({"playoff_min_games": "9"}, "playoff_min_games", "at most the league's 8 weeks"),
    ({"sub_levels_below": "4"}, "sub_levels_below", "between 0 and 3"),
    ({"teams_per_player": "0"}, "teams_per_player", "between 1 and 10"),
    ({"roster_min": "six"}, "roster_min", "whole number"),
    ({"subs_from_other_teams": "maybe"}, "subs_from_other_teams", "choose Yes or No"),
])  # fmt: skip
def test_rules_that_cannot_hold_are_refused_at_their_field(world, fields, field, words):
    db = world["db"]
    with pytest.raises(Invalid) as caught:
        leagues.create_league(db, world["a"], session_id=world["sid"], **(FORM | fields))
    assert words in caught.value.errors[field]
    db.rollback()
    assert len(db.exec(select(League)).all()) == 1  # the world's league alone: nothing half written


def test_a_change_keeps_the_rules_it_leaves_out_and_the_audit_names_those_changed(world):
    db, lg = world["db"], world["lg"]
    leagues.update_league(db, world["a"], lg.id, **FORM, **RULES)
    db.commit()
    leagues.update_league(db, world["a"], lg.id, **FORM, women_on_court="3", roster_max="")
    db.commit()
    row = db.get(League, lg.id)
    assert (row.women_on_court, row.roster_max, row.roster_min, row.sub_levels_below) == (3, None, 7, 1)
    last = db.exec(select(AuditEntry).where(AuditEntry.entity == "league").order_by(AuditEntry.id.desc())).first()
    assert last.summary.endswith("changed: roster_max, women_on_court")
    assert last.before == {"roster_max": 10, "women_on_court": 2} and last.after == {"roster_max": None, "women_on_court": 3}


def test_a_new_format_is_checked_against_the_rules_already_set(world):
    db, lg = world["db"], world["lg"]
    leagues.update_league(db, world["a"], lg.id, **FORM, women_on_court="4")
    db.commit()
    with pytest.raises(Invalid) as caught:
        leagues.update_league(db, world["a"], lg.id, **(FORM | {"format": "doubles"}))
    assert "Doubles puts 2 players on court" in caught.value.errors["women_on_court"]
    db.rollback()
    assert db.get(League, lg.id).format.value == "6s"
    leagues.update_league(db, world["a"], lg.id, **(FORM | {"format": "quads"}))  # four women fit a Quads court
    db.commit()
    assert db.get(League, lg.id).women_on_court == 4


def test_a_roster_maximum_below_a_current_roster_is_refused(world):
    db, lg = world["db"], world["lg"]
    (team_id,) = add_teams(db, lg, 1, prefix="Aces")
    for i in range(7):
        add_member(db, team_id, make_user(db, f"member{i}"))
    with pytest.raises(Invalid) as caught:
        leagues.update_league(db, world["a"], lg.id, **FORM, roster_max="6")
    assert caught.value.errors == {"roster_max": "Roster maximum (6) is below Aces1's 7 members"}
    db.rollback()
    assert db.get(League, lg.id).roster_max is None
    leagues.update_league(db, world["a"], lg.id, **FORM, roster_max="7")  # room for all of them
    db.commit()
    assert db.get(League, lg.id).roster_max == 7


@pytest.mark.parametrize(("who", "error"), [("b", Forbidden), ("p", Forbidden), (None, Unauthorized)])
def test_only_the_leagues_operators_set_its_rules(world, who, error):
    db, lg = world["db"], world["lg"]
    before = snapshot(db)
    with pytest.raises(error):
        leagues.update_league(db, world[who] if who else None, lg.id, **FORM, **RULES)
    db.rollback()
    assert snapshot(db) == before


def test_the_league_detail_and_the_rules_say_what_applies(world):
    db, lg = world["db"], world["lg"]
    leagues.update_league(db, world["admin"], lg.id, **FORM, **RULES)
    db.commit()
    detail = leagues.get_league(db, world["p"], lg.id)
    assert detail["roster_min"] == 7 and detail["subs_from_other_teams"] is False and detail["playoff_min_games"] == 3
    assert detail["rules"] == [
        "Rosters: 7–10 players", "A player may be on up to 2 teams in this league", "At least 2 women on court",
        "Subs may not be rostered on another of the league's teams", "Subs rated at most one level below and not above C",
        "Playoffs: a rostered player needs 3 regular-season games played",
        "Playoffs: a sub plays only with the operator's approval",
    ]
    assert leagues.league_rules(db, world["p"], lg.id) == {"name": "Monday C 6s", "rules": detail["rules"]}


async def test_the_league_home_form_saves_the_rules_for_its_operator_only(world):
    db, lg = world["db"], world["lg"]
    path = f"/dash/leagues/{lg.id}"
    form = FORM | RULES | {"active": "true", "offer_hold_hours": "48"}
    other, own = login_token(db, "svlb"), login_token(db, "svla")
    before = snapshot(db)
    state, _events = await call_handler(other, home.LeagueHomeState, path, "save", form)
    db.expire_all()
    assert snapshot(db) == before and state.error
    await call_handler(own, home.LeagueHomeState, path, "save", form)
    db.expire_all()
    assert db.get(League, lg.id).roster_min == 7
    state, _events = await call_handler(own, home.LeagueHomeState, path, "load")
    assert state.form["roster_min"] == "7" and state.form["subs_from_other_teams"] == "false"
    assert state.form["sub_levels_above"] == "0" and "At least 2 women on court" in state.info["rules"]


async def test_the_rules_page_lists_the_leagues_rules(world):
    db, lg = world["db"], world["lg"]
    state, _events = await call_handler(login_token(db, "pat"), rules_page.LeagueRulesState,
                                        f"/dash/leagues/{lg.id}/LeagueRules", "load")  # fmt: skip
    assert state.league_name == "Monday C 6s" and state.league_rules[0] == "Rosters: 6–12 players"
