"""Who may play the playoffs: the regular-season games with a result a member answered In for, against the league's
minimum, on the team's roster, the league's rosters (and their CSV) and a playoff game's answers."""

from __future__ import annotations

import datetime as dt

import pytest
import sqlalchemy as sa

from tests.factories import (
    actor_of,
    add_game,
    add_league,
    add_league_session,
    add_member,
    add_teams,
    make_user,
    remove_member,
)
from volley_app.models import Game, GameRsvp, GameType, Role, RsvpAnswer, utcnow
from volley_app.services.operations import exports
from volley_app.services.teams import playoff_eligibility, rosters, rsvps

DAY = dt.timedelta(days=1)
WON = {"team1_game1_score": 21, "team2_game1_score": 15, "team1_game2_score": 21, "team2_game2_score": 10}


@pytest.fixture
def world(db):
    """A league needing 2 regular-season games for its playoffs; T1 (captain Cap, players Ann, Bo, Cy) has played
    three games against T2 (two with a result, one without) and has a playoff game coming."""
    svl = make_user(db, "venue", Role.SVL)
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now - 30 * DAY, now + 60 * DAY)
    league = add_league(db, svl, sid, start=now - 21 * DAY, playoff_min_games=2)
    t1, t2 = add_teams(db, league, 2)
    people = {name[:2]: make_user(db, name) for name in ("ann", "bob", "cyd")}
    for user in people.values():
        add_member(db, t1, user)
    games = [add_game(db, league.id, t1, t2, now - (21 - 7 * i) * DAY, **(WON if i < 2 else {})) for i in range(3)]
    playoff = add_game(db, league.id, t1, t2, now + 7 * DAY, type=GameType.TOURNAMENT, round=1, match=1)
    return {"db": db, "league": league, "t1": t1, "t2": t2, "games": games, "playoff": playoff, "people": people,
            "svl": svl, "now": now}  # fmt: skip


def _answer(w, name: str, game: Game, answer: RsvpAnswer | None, team: str = "t1") -> None:
    w["db"].add(GameRsvp(game_id=game.id, team_id=w[team], user_id=w["people"][name].id, answer=answer))
    w["db"].commit()


def _standing(w, name: str) -> playoff_eligibility.Standing | None:
    found = playoff_eligibility.standings(w["db"], w["league"], [w["t1"]])
    return playoff_eligibility.standing_of(found, w["league"], w["t1"], w["people"][name].id)


def test_games_with_a_result_answered_in_count(world):
    g = world["games"]
    _answer(world, "an", g[0], RsvpAnswer.IN)
    _answer(world, "an", g[1], RsvpAnswer.IN)
    _answer(world, "an", g[2], RsvpAnswer.IN)  # no result yet: not counted
    ann = _standing(world, "an")
    assert ann is not None and (ann.played, ann.needed, ann.eligible) == (2, 2, True)
    assert ann.reason == "2 of 2 regular-season games played"


def test_out_maybe_and_unanswered_games_do_not_count(world):
    g = world["games"]
    _answer(world, "bo", g[0], RsvpAnswer.IN)
    _answer(world, "bo", g[1], RsvpAnswer.OUT)
    _answer(world, "cy", g[0], RsvpAnswer.MAYBE)
    _answer(world, "cy", g[1], None)  # reminded, never answered
    bo, cy = _standing(world, "bo"), _standing(world, "cy")
    assert bo is not None and (bo.played, bo.eligible) == (1, False)
    assert bo.reason == "1 of 2 regular-season games played: not eligible for playoffs"
    assert cy is not None and (cy.played, cy.eligible) == (0, False)


def test_playoff_games_and_forfeits_the_team_gave_do_not_count(world):
    db = world["db"]
    playoff = world["playoff"]
    for field, value in WON.items():
        setattr(playoff, field, value)
    db.add(playoff)
    g = world["games"][2]
    g.forfeit_team_id = world["t1"]  # T1 did not show: a result, but not a game its members played
    db.add(g)
    db.commit()
    for game in (playoff, g):
        _answer(world, "an", game, RsvpAnswer.IN)
    ann = _standing(world, "an")
    assert ann is not None and ann.played == 0


def test_no_minimum_means_no_standing(world):
    world["league"].playoff_min_games = None
    assert playoff_eligibility.standings(world["db"], world["league"], [world["t1"]]) is None
    assert _standing(world, "an") is None
    assert all(m["playoff"] == "" and m["playoff_eligible"] for m in
               rosters.roster(world["db"], actor_of(world["svl"]), world["t1"])["members"])


def test_the_roster_and_the_league_rosters_show_each_standing(world):
    db, g = world["db"], world["games"]
    for game in g[:2]:
        _answer(world, "an", game, RsvpAnswer.IN)
    _answer(world, "bo", g[0], RsvpAnswer.IN)
    svl = actor_of(world["svl"])
    by_name = {m["username"]: m for m in rosters.roster(db, svl, world["t1"])["members"]}
    assert by_name["ann"]["playoff"] == "2 of 2 regular-season games played" and by_name["ann"]["playoff_eligible"]
    assert by_name["bob"]["playoff"] == "1 of 2 regular-season games played: not eligible for playoffs"
    assert not by_name["cyd"]["playoff_eligible"]
    page = rosters.league_rosters(db, svl, league_id=world["league"].id)
    rows = {r["username"]: r for r in page.rows}
    assert rows["ann"]["playoff_eligible"] and not rows["bob"]["playoff_eligible"]
    csv = exports.export(db, svl, league_id=world["league"].id, kind="rosters")["data"].decode("utf-8-sig")
    assert csv.splitlines()[0].endswith(",Playoffs")
    assert any("ann" in line and line.endswith("2 of 2 regular-season games played") for line in csv.splitlines())


def test_a_member_who_left_is_off_the_lists_and_back_keeps_their_games(world):
    db, g = world["db"], world["games"]
    for game in g[:2]:
        _answer(world, "an", game, RsvpAnswer.IN)
    remove_member(db, world["t1"], world["people"]["an"].id)
    svl = actor_of(world["svl"])
    assert "ann" not in {m["username"] for m in rosters.roster(db, svl, world["t1"])["members"]}
    add_member(db, world["t1"], world["people"]["an"])
    ann = _standing(world, "an")
    assert ann is not None and ann.eligible  # the games they played for the team stay theirs


def test_one_query_reads_every_team_of_the_league(world, db):
    statements: list[str] = []

    def seen(*args) -> None:
        statements.append(args[2])

    sa.event.listen(db.get_bind(), "before_cursor_execute", seen)
    try:
        playoff_eligibility.standings(db, world["league"], [world["t1"], world["t2"]])
    finally:
        sa.event.remove(db.get_bind(), "before_cursor_execute", seen)
    assert len(statements) == 1


def test_a_playoff_game_marks_the_members_not_eligible(world):
    db, g = world["db"], world["games"]
    for game in g[:2]:
        _answer(world, "an", game, RsvpAnswer.IN)
    page = rsvps.games_page(db, actor_of(world["svl"]), team_id=world["t1"], now=world["now"])
    playoff = next(r for r in page.rows if r["game_id"] == world["playoff"].id)
    names = {c["name"] for c in playoff["cells"]}
    assert "Ann Tester" in names and "Bob Tester (Not eligible)" in names
    regular = next(r for r in page.rows if r["game_id"] == g[0].id)
    assert all("Not eligible" not in c["name"] for c in regular["cells"])
