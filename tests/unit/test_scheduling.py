"""Scheduling: the round-robin generator, game times, scores within volleyball's caps, and standings."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import add_teams, count, league_world, rows
from volley_app.models import Game, League, Team
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.seasons import games, results, schedule, scheduling, scoring


@pytest.fixture
def world(db):
    return league_world(db)


# --- the generator against hand-worked schedules ---------------------------------------


def test_two_teams_meet_every_week():
    assert scheduling.pairings([1, 2], 3) == [[(1, 2)], [(1, 2)], [(1, 2)]]


def test_four_teams_play_each_other_once_in_three_weeks():
    assert scheduling.pairings([1, 2, 3, 4], 3) == [
        [(1, 4), (2, 3)],
        [(1, 3), (4, 2)],
        [(1, 2), (3, 4)],
    ]


def test_five_teams_have_a_bye_each_week_and_meet_once_in_five_weeks():
    weeks = scheduling.pairings([1, 2, 3, 4, 5], 5)
    assert weeks == [
        [(1, 5), (2, 4), (3, None)],
        [(2, 1), (3, 5), (4, None)],
        [(3, 2), (4, 1), (5, None)],
        [(4, 3), (5, 2), (1, None)],
        [(5, 4), (1, 3), (2, None)],
    ]
    pairs = [frozenset(p) for w in weeks for p in w if p[1] is not None]
    assert len(pairs) == len(set(pairs)) == 10


def test_six_teams_over_more_weeks_than_rounds_repeat_the_cycle():
    weeks = scheduling.pairings([1, 2, 3, 4, 5, 6], 8)
    assert weeks[0] == [(1, 6), (2, 5), (3, 4)]
    assert weeks[1] == [(1, 5), (6, 4), (2, 3)]
    first_cycle = [frozenset(p) for w in weeks[:5] for p in w]
    assert len(set(first_cycle)) == 15  # every pair once in 5 weeks
    assert weeks[5:] == weeks[:3]


def test_generate_saves_games_with_times_types_rounds_and_byes(world):
    db, lg = world["db"], world["lg"]
    ids = add_teams(db, lg, 5)
    add_teams(db, lg, 1, prefix="W", waitlist=True)  # waitlisted teams are left out
    made = scheduling.generate(db, world["a"], lg.id)
    db.commit()
    assert made == 8 * 3
    games = rows(db, Game)
    first = [g for g in games if g.round == 1]
    assert [(g.team1_id, g.team2_id, g.match) for g in first] == [(ids[0], ids[4], 1), (ids[1], ids[3], 2), (ids[2], None, 3)]
    assert [g.start_at for g in first] == [lg.start_at + dt.timedelta(minutes=50 * i) for i in range(3)]
    week2 = [g for g in games if g.round == 2]
    assert week2[0].start_at == lg.start_at + dt.timedelta(days=7)
    assert all(g.type.value == "League" for g in games)
    saved = rows(db, League)[0]
    assert saved.schedule_generated and saved.active
    with pytest.raises(Invalid, match="already been generated"):
        scheduling.generate(db, world["a"], lg.id)


def test_weeks_keep_the_venue_wall_clock_across_dst():
    start = dt.datetime(2026, 10, 26, 22, 30, tzinfo=dt.UTC)  # Monday 6:30 PM in New York (EDT)
    after_dst = scheduling.slot(start, 1, 0, 50)  # Nov 2 is EST
    assert after_dst == dt.datetime(2026, 11, 2, 23, 30, tzinfo=dt.UTC)
    assert scheduling.slot(start, 1, 2, 50) == after_dst + dt.timedelta(minutes=100)


def test_week_numbers_count_venue_days_from_the_start():
    start = dt.datetime(2026, 10, 26, 22, 30, tzinfo=dt.UTC)  # Mon 6:30 PM EDT
    assert schedule.week_of(start, start) == 1
    assert schedule.week_of(start, start + dt.timedelta(minutes=100)) == 1
    assert schedule.week_of(start, scheduling.slot(start, 1, 0, 50)) == 2  # across the DST change
    assert schedule.week_of(start, scheduling.slot(start, 7, 2, 50)) == 8


@pytest.mark.parametrize("n", [0, 1])
def test_generate_with_fewer_than_two_teams_says_so(world, n):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, n)
    with pytest.raises(Invalid, match="at least 2 teams"):
        scheduling.generate(db, world["a"], lg.id)
    db.rollback()
    assert count(db, Game) == 0 and not rows(db, League)[0].schedule_generated


@pytest.mark.parametrize("who", ["b", "p"])
def test_generate_by_another_svl_or_a_player_is_refused(world, who):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 4)
    with pytest.raises(Forbidden):
        scheduling.generate(db, world[who], lg.id)
    db.rollback()
    assert count(db, Game) == 0


# --- scores and standings ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "i"), [(21, 19, 0), (21, 0, 1), (22, 20, 0), (23, 21, 0), (23, 22, 1), (15, 13, 2), (17, 16, 2)]
)
def test_final_set_scores_within_the_caps(a, b, i):
    scoring.check_set(a, b, i)
    scoring.check_set(b, a, i)


@pytest.mark.parametrize(("a", "b", "i"), [(21, 20, 0), (24, 22, 0), (20, 18, 0), (16, 13, 2), (18, 16, 2), (15, 14, 2)])
def test_unfinished_or_capped_out_scores_are_refused(a, b, i):
    with pytest.raises(Invalid):
        scoring.check_set(a, b, i)


def _scores(s1, s2, s3=("", "")):
    return {"team1_game1_score": s1[0], "team2_game1_score": s1[1], "team1_game2_score": s2[0],
            "team2_game2_score": s2[1], "team1_game3_score": s3[0], "team2_game3_score": s3[1]}  # fmt: skip


def test_standings_follow_entered_scores_and_corrections(world):
    db, lg = world["db"], world["lg"]
    ids = add_teams(db, lg, 4)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    g = db.exec(select(Game).where(Game.round == 1, Game.match == 1)).one()  # T1 v T4
    start = "2027-01-01T19:00"
    games.update_game(db, world["a"], g.id, team1=g.team1_id, team2=g.team2_id, start=start,
                           **_scores((21, 15), (19, 21), (15, 10)))  # fmt: skip
    db.commit()
    table = results.standings(db, world["p"], lg.id)["teams"]
    assert (table[0]["team_name"], table[0]["wins"], table[0]["losses"]) == ("T1", 1, 0)
    t4 = next(t for t in table if t["team_name"] == "T4")
    assert (t4["losses"], t4["sets_won"], t4["sets_lost"], t4["points_for"], t4["points_against"]) == (1, 1, 2, 46, 55)
    # A correction moves the win over instead of counting twice.
    games.update_game(db, world["admin"], g.id, team1=g.team1_id, team2=g.team2_id, start=start,
                           **_scores((15, 21), (19, 21)))  # fmt: skip
    db.commit()
    recs = results.records(db, ids)
    rec = {t.team_name: (recs[t.id].wins, recs[t.id].losses) for t in rows(db, Team)}
    assert rec["T1"] == (0, 1) and rec["T4"] == (1, 0)
    assert ids


def test_score_rules_on_edit(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 2)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    g = rows(db, Game)[0]
    kw = {"team1": g.team1_id, "team2": g.team2_id, "start": "2027-01-01T19:00"}
    for bad in (_scores(("x", 3), ("", "")), _scores((21, 10), ("", 5)), _scores((21, 10), (21, 5), (15, 3)),
                _scores((25, 10), ("", ""))):  # fmt: skip
        with pytest.raises(Invalid):
            games.update_game(db, world["a"], g.id, **kw, **bad)
    with pytest.raises(Invalid, match="Team 1 is required"):
        games.update_game(db, world["a"], g.id, **(kw | {"team1": ""}), **_scores(("", ""), ("", "")))
    with pytest.raises(Forbidden):
        games.update_game(db, world["b"], g.id, **kw, **_scores((21, 10), (21, 5)))
    db.rollback()
    assert rows(db, Game)[0].team1_game1_score is None


# --- who may open a game, and the admins' stored games view -------------------------------


def test_games_open_only_for_those_who_manage_their_league(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 2)
    scheduling.generate(db, world["a"], lg.id)
    db.commit()
    g = rows(db, Game)[0]
    assert games.get_game(db, world["admin"], g.id)["league_id"] == lg.id
    assert [t["name"] for t in games.get_game(db, world["a"], str(g.id))["teams"]] == ["T1", "T2"]
    for who in ("b", "p"):
        with pytest.raises(Forbidden):
            games.get_game(db, world[who], g.id)
    with pytest.raises(Unauthorized):
        games.get_game(db, None, g.id)
    for bad in ("", "x", "0", "-1", str(g.id + 999), True, None):
        with pytest.raises(NotFound, match="This game no longer exists"):
            games.get_game(db, world["a"], bad)


def test_stored_games_are_for_admins_only(world):
    db, lg = world["db"], world["lg"]
    add_teams(db, lg, 3)
    made = scheduling.generate(db, world["a"], lg.id)
    db.commit()
    listed = schedule.stored_games(db, world["admin"])
    assert [x["name"] for x in listed["leagues"]] == ["Monday C 6s"] and listed["games"] == []
    found = schedule.stored_games(db, world["admin"], str(lg.id))
    assert found["league"]["name"] == "Monday C 6s" and len(found["games"]) == made
    assert {g["round"] for g in found["games"]} == set(range(1, lg.number_of_weeks + 1))
    for who in ("a", "b", "p"):
        with pytest.raises(Forbidden):
            schedule.stored_games(db, world[who], lg.id)
    with pytest.raises(Unauthorized):
        schedule.stored_games(db, None)
