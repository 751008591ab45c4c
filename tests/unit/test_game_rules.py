"""The rules a game keeps: a result is complete by its league's rules and is never cleared, a game never plays
where another plays (a court or a team at once), a week shows each game under its own date and a forfeit as
such, and a bracket asks before it is generated early and takes results only once a game has started."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest

from tests.factories import actor_of, add_teams, league_world, login_token, make_user, rows
from tests.harness import call_handler
from volley_app.models import AuditEntry, Game, GameType, Team, User, utcnow
from volley_app.pages.dash.leagues import bracket as bracket_page
from volley_app.pages.dash.leagues import schedule as schedule_page
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Invalid
from volley_app.services.seasons import games, playoffs, results, scheduling, score_reports, scoring

WIN_2_0 = {"team1_game1_score": 21, "team2_game1_score": 15, "team1_game2_score": 21, "team2_game2_score": 17}
ONE_SET = {"team1_game1_score": 21, "team2_game1_score": 15}
SPLIT = {"team1_game1_score": 21, "team2_game1_score": 15, "team1_game2_score": 15, "team2_game2_score": 21}
THREE_SETS = WIN_2_0 | {"team1_game3_score": 15, "team2_game3_score": 10}


@pytest.fixture
def world(db):
    """Six teams with captains (cap0 … cap5) in SVL A's league, its schedule generated (8 weeks, one court)."""
    w = league_world(db)
    # an evening start on the minute, as a form gives it: a week's games stay on one day at any hour the tests run
    w["lg"].start_at = w["lg"].start_at.replace(hour=23, minute=0, second=0, microsecond=0)
    db.add(w["lg"])
    ids = add_teams(db, w["lg"], 6)
    for i, tid in enumerate(ids):
        team = db.get(Team, tid)
        team.captain_id = make_user(db, f"cap{i}", email=f"cap{i}@example.com").id
        db.add(team)
    db.commit()
    scheduling.generate(db, w["a"], w["lg"].id)
    db.commit()
    w["ids"] = ids
    return w


def _games(db, **where) -> list[Game]:
    db.expire_all()
    found = [g for g in rows(db, Game) if all(getattr(g, k) == v for k, v in where.items())]
    return sorted(found, key=lambda g: (g.round, g.match))


def _edit(db, actor, game: Game, **scores):
    blank = {k: "" for pair in scoring.SCORE_FIELDS for k in pair}
    return games.update_game(db, actor, game.id, team1=game.team1_id, team2=game.team2_id,
                                  start=timefmt.input_value(game.start_at), **(blank | scores))  # fmt: skip


def _no_clash(games: list[Game], minutes: int) -> bool:
    """No two games on one court, and no team in two games, less than ``minutes`` apart."""
    real = [g for g in games if g.team2_id is not None]
    for a, b in itertools.combinations(real, 2):
        if abs(a.start_at - b.start_at) >= dt.timedelta(minutes=minutes):
            continue
        if a.court and a.court == b.court:
            return False
        if {a.team1_id, a.team2_id} & {b.team1_id, b.team2_id}:
            return False
    return True


# --- a saved result is complete by the league's rules --------------------------------------------------------


@pytest.mark.parametrize(("scores", "field", "reason"), [
    (ONE_SET, "set2", "a team must win two sets"),
    (SPLIT, "set3", "Sets 1 and 2 are split: enter set 3"),
    ({"team1_game2_score": 21, "team2_game2_score": 10}, "set1", "Enter set 1 before set 2"),
])  # fmt: skip
def test_a_result_that_stops_short_is_refused_with_the_reason(world, scores, field, reason):
    db, lg = world["db"], world["lg"]
    game = _games(db, round=1)[0]
    with pytest.raises(Invalid, match=reason) as refused:
        _edit(db, world["a"], game, **scores)
    assert set(refused.value.errors) == {field}
    db.rollback()
    assert not scoring.played(_games(db, round=1)[0])
    assert all(t["played"] == 0 for t in results.table(db, lg))


def test_a_complete_best_of_three_counts_in_the_standings(world):
    db, lg = world["db"], world["lg"]
    game = _games(db, round=1)[0]
    _edit(db, world["a"], game, **SPLIT, team1_game3_score=15, team2_game3_score=12)
    db.commit()
    played = {t["id"]: t["played"] for t in results.table(db, lg)}
    assert played[game.team1_id] == played[game.team2_id] == 1


def test_a_league_that_plays_all_three_sets_needs_all_three(world):
    db, lg = world["db"], world["lg"]
    lg.sets_to_play = scoring.ALL_THREE
    db.add(lg)
    db.commit()
    game = _games(db, round=1)[0]
    assert games.get_game(db, world["a"], game.id)["sets_rule"].endswith("This league plays all 3 sets.")
    with pytest.raises(Invalid, match="plays all 3 sets") as refused:
        _edit(db, world["a"], game, **WIN_2_0)
    assert set(refused.value.errors) == {"set3"}
    db.rollback()
    _edit(db, world["a"], game, **THREE_SETS)  # a third set after 2-0 is part of the match here
    db.commit()
    row = next(t for t in results.table(db, lg) if t["id"] == game.team1_id)
    assert (row["played"], row["wins"], row["sets_won"], row["sets_lost"]) == (1, 1, 3, 0)


def test_the_league_form_saves_the_number_of_sets_and_refuses_others(world):
    from volley_app.services.seasons import leagues

    db, lg = world["db"], world["lg"]
    form = leagues.get_league(db, world["a"], lg.id)
    fields = {"court": "Court 1", "start": timefmt.input_value(lg.start_at, form["zone"]), "number_of_weeks": "8",
              "time_increment": "50", "skill_level": form["skill_level"], "format": form["raw_format"],
              "day": timefmt.local(lg.start_at, form["zone"]).strftime("%A"),
              "max_teams": "8",
              "cost": "300"}  # fmt: skip
    leagues.update_league(db, world["a"], lg.id, **fields, sets_to_play="3")
    db.commit()
    assert leagues.get_league(db, world["a"], lg.id)["sets_to_play"] == "3"
    with pytest.raises(Invalid) as refused:
        leagues.update_league(db, world["a"], lg.id, **fields, sets_to_play="5")
    assert set(refused.value.errors) == {"sets_to_play"}
    db.rollback()
    leagues.update_league(db, world["a"], lg.id, **fields, sets_to_play="")
    db.commit()
    db.expire_all()
    assert rows(db, type(lg))[0].sets_to_play is None


def test_a_captains_report_follows_the_same_rule(world):
    db, lg = world["db"], world["lg"]
    game = _games(db, round=1)[0]
    game.start_at = utcnow() - dt.timedelta(hours=1)
    db.add(game)
    db.commit()
    me = actor_of(db.get(User, db.get(Team, game.team1_id).captain_id))
    with pytest.raises(Invalid, match="a team must win two sets"):
        score_reports.report(db, me, game.id, **ONE_SET)
    db.rollback()
    lg.sets_to_play = scoring.ALL_THREE
    db.add(lg)
    db.commit()
    with pytest.raises(Invalid, match="plays all 3 sets"):
        score_reports.report(db, me, game.id, **WIN_2_0)
    db.rollback()
    assert score_reports.report(db, me, game.id, **THREE_SETS).team1_game3_score == 15


def test_a_result_is_never_cleared_so_a_played_game_is_never_deleted(world):
    db = world["db"]
    game = _games(db, round=1)[0]
    _edit(db, world["a"], game, **WIN_2_0)
    db.commit()
    with pytest.raises(Invalid, match="results are never deleted"):
        _edit(db, world["admin"], game)  # every score blank
    db.rollback()
    with pytest.raises(Invalid, match="never deleted"):
        games.delete_game(db, world["a"], game.id)
    db.rollback()
    kept = _games(db, round=1)[0]
    assert (kept.team1_game1_score, kept.team2_game2_score) == (21, 17)


def test_a_forfeit_stays_when_the_edit_form_is_saved_without_scores_but_not_when_its_team_is_replaced(world):
    db = world["db"]
    game = _games(db, round=1)[0]
    game.forfeit_team_id = game.team2_id
    db.add(game)
    db.commit()
    _edit(db, world["a"], game)  # the same teams, no scores: still a forfeit
    db.commit()
    assert _games(db, round=1)[0].forfeit_team_id == game.team2_id
    other = next(t for t in world["ids"] if t not in (game.team1_id, game.team2_id))
    with pytest.raises(Invalid, match="never deleted"):
        games.update_game(db, world["a"], game.id, team1=game.team1_id, team2=other,
                               start=timefmt.input_value(game.start_at))  # fmt: skip
    db.rollback()
    assert _games(db, round=1)[0].forfeit_team_id == game.team2_id


# --- no two games at once on a court, no team in two games at once --------------------------------------------


def test_moving_a_game_onto_a_taken_court_and_time_is_refused_naming_the_game_there(world):
    db, lg = world["db"], world["lg"]
    first, second = _games(db, round=1)[:2]
    was = second.start_at
    names = {t.id: t.team_name for t in rows(db, Team)}
    with pytest.raises(Invalid) as refused:
        games.move_game(db, world["a"], second.id, start=timefmt.input_value(first.start_at), court="Court 1")
    message = refused.value.errors["start"]
    assert message.startswith("Court 1 is taken then: ") and f"{names[first.team1_id]} v {names[first.team2_id]}" in message
    db.rollback()
    assert _games(db, round=1)[1].start_at == was
    later = first.start_at + dt.timedelta(minutes=lg.time_increment * 3)  # after the week's three games: free
    games.move_game(db, world["a"], second.id, start=timefmt.input_value(later))
    db.commit()
    assert _games(db, round=1)[1].start_at == later


def test_a_team_set_to_play_two_games_at_once_is_refused(world):
    db, lg = world["db"], world["lg"]
    lg.courts = "Court 1\nCourt 2"
    db.add(lg)
    db.commit()
    first = _games(db, round=1)[0]
    later = _games(db, round=2)[0]
    team = first.team1_id
    opponent = later.team1_id if team not in (later.team1_id, later.team2_id) else later.team2_id
    name = db.get(Team, team).team_name
    with pytest.raises(Invalid, match=f"{name} already plays then"):  # the same time, on the other court
        games.update_game(db, world["a"], later.id, team1=team, team2=opponent,
                               start=timefmt.input_value(first.start_at), court="Court 2")  # fmt: skip
    db.rollback()
    with pytest.raises(Invalid, match=f"{name} already plays then"):
        games.add_game(db, world["a"], lg.id, team1=team, team2=opponent,
                            start=timefmt.input_value(first.start_at), court="Court 2")  # fmt: skip
    db.rollback()
    assert len(rows(db, Game)) == 8 * 3


def test_push_a_week_refuses_to_carry_a_clash_along(world):
    db, lg = world["db"], world["lg"]
    a, b = _games(db, round=3)[:2]
    b.start_at = a.start_at  # two games on Court 1 at once (saved before the rule)
    db.add(b)
    db.commit()
    before = [(g.id, g.start_at) for g in _games(db)]
    with pytest.raises(Invalid, match="two games together"):
        scheduling.push_week(db, world["a"], lg.id, week=2)
    db.rollback()
    assert [(g.id, g.start_at) for g in _games(db)] == before


def test_a_redraw_keeps_its_games_clear_of_the_games_that_stayed(world):
    db, lg = world["db"], world["lg"]
    week5_start = _games(db, round=5)[0].start_at
    kept = _games(db, round=2)[0]
    kept.start_at = week5_start  # a week-2 game played late, in week 5's first slot
    kept.team1_game1_score, kept.team2_game1_score, kept.team1_game2_score, kept.team2_game2_score = 21, 10, 21, 12
    db.add(kept)
    db.commit()
    for g in _games(db, round=3):  # weeks up to 3 are played, so weeks 4 on are redrawn
        g.team1_game1_score, g.team2_game1_score, g.team1_game2_score, g.team2_game2_score = 21, 10, 21, 12
        db.add(g)
    db.commit()
    scheduling.redraw(db, world["a"], lg.id)
    db.commit()
    games = _games(db)
    assert next(g for g in games if g.id == kept.id).start_at == week5_start
    assert len([g for g in games if g.round == 5]) == 3
    assert _no_clash(games, lg.time_increment)


# --- the schedule: each game under its own date, a forfeit as such -------------------------------------------


async def test_a_moved_game_shows_under_its_own_date(world):
    db, lg = world["db"], world["lg"]
    game = _games(db, round=6)[0]
    monday, tuesday = game.start_at, game.start_at + dt.timedelta(days=1)
    games.move_game(db, world["a"], game.id, start=timefmt.input_value(tuesday))
    db.commit()
    from volley_app.services.seasons import leagues

    zone = leagues.zone(db, lg)
    monday_label, tuesday_label = timefmt.day(monday, zone), timefmt.day(tuesday, zone)
    state, _ = await call_handler(login_token(db, "pat"), schedule_page.ScheduleState,
                                  f"/dash/leagues/teams/schedule?league={lg.id}", "show_week", "6")  # fmt: skip
    assert state.heading == "Week 6"  # not one day for the whole week
    days = [(r["day"], r["team1"], r["team2"]) for r in state.games]
    assert days[0][0] == monday_label and days[-1][0] == tuesday_label
    assert [d for d, _t1, _t2 in days if d] == [monday_label, tuesday_label]
    assert state.games[-1]["id"] == str(game.id)
    one_day, _ = await call_handler(login_token(db, "pat"), schedule_page.ScheduleState,
                                    f"/dash/leagues/teams/schedule?league={lg.id}", "show_week", "5")  # fmt: skip
    assert one_day.heading.startswith("Week 5 · ") and all(r["day"] == "" for r in one_day.games)


async def test_a_forfeit_shows_in_the_schedule(world):
    db, lg = world["db"], world["lg"]
    game = _games(db, round=1)[0]
    game.forfeit_team_id = game.team2_id
    db.add(game)
    db.commit()
    state, _ = await call_handler(login_token(db, "pat"), schedule_page.ScheduleState,
                                  f"/dash/leagues/teams/schedule?league={lg.id}", "show_week", "1")  # fmt: skip
    row = next(r for r in state.games if r["id"] == str(game.id))
    assert row["sets"] == f"{db.get(Team, game.team2_id).team_name} forfeited"
    table = {t["id"]: t for t in results.table(db, lg)}
    assert table[game.team1_id]["forfeit_wins"] == 1


# --- brackets: asked before generating early, results once a game has started ----------------------------------


def test_a_bracket_is_generated_early_only_when_the_operator_confirms(world):
    db, lg = world["db"], world["lg"]
    found = playoffs.bracket(db, world["a"], lg.id)
    assert found["early_question"].startswith("24 regular-season games have no result yet.")
    assert playoffs.bracket(db, world["p"], lg.id)["early_question"] == ""  # only the operator is asked
    with pytest.raises(Invalid, match="no result yet"):
        playoffs.generate(db, world["a"], lg.id)
    db.rollback()
    assert not [g for g in rows(db, Game) if g.type == GameType.TOURNAMENT]
    assert playoffs.generate(db, world["a"], lg.id, early=True) == 5
    db.commit()


def test_a_bracket_after_every_regular_game_has_a_result_is_generated_without_asking(world):
    db, lg = world["db"], world["lg"]
    for g in _games(db):
        if g.team2_id is not None:
            g.team1_game1_score, g.team2_game1_score, g.team1_game2_score, g.team2_game2_score = 21, 10, 21, 12
            db.add(g)
    db.commit()
    assert playoffs.bracket(db, world["a"], lg.id)["early_question"] == ""
    assert playoffs.generate(db, world["a"], lg.id) == 5


@pytest.mark.parametrize(("who", "allowed"), [("pat", False), ("svlb", False), ("svla", True)])
async def test_the_bracket_page_generates_early_only_for_the_operator_who_confirms(world, who, allowed):
    db, lg = world["db"], world["lg"]
    path = f"/dash/leagues/{lg.id}/bracket"
    token = login_token(db, who)
    asked, _ = await call_handler(token, bracket_page.BracketState, path, "generate", False)
    assert asked.error and not [g for g in rows(db, Game) if g.type == GameType.TOURNAMENT]
    if allowed:
        assert "no result yet" in asked.error
    state, _ = await call_handler(token, bracket_page.BracketState, path, "generate", True)
    made = [g for g in rows(db, Game) if g.type == GameType.TOURNAMENT]
    assert bool(made) == allowed and bool(state.error) != allowed


def test_playoff_results_wait_until_the_game_has_started(world):
    db, lg = world["db"], world["lg"]
    playoffs.generate(db, world["a"], lg.id, early=True)
    db.commit()
    semi = next(g for g in _games(db) if g.type == GameType.TOURNAMENT and g.team2_id is not None)
    assert semi.start_at > utcnow()
    audits = len(rows(db, AuditEntry))
    for attempt in (
        lambda: playoffs.record_result(db, world["a"], semi.id, **WIN_2_0),
        lambda: playoffs.record_forfeit(db, world["a"], semi.id, team=semi.team1_id),
        lambda: score_reports.settle(db, world["admin"], semi.id, **WIN_2_0),
    ):
        with pytest.raises(Invalid, match="has not started yet"):
            attempt()
        db.rollback()
    assert not scoring.played(db.get(Game, semi.id)) and len(rows(db, AuditEntry)) == audits
    semi.start_at = utcnow() - dt.timedelta(minutes=5)
    db.add(semi)
    db.commit()
    with pytest.raises(Forbidden):
        playoffs.record_result(db, world["p"], semi.id, **WIN_2_0)
    db.rollback()
    playoffs.record_result(db, world["a"], semi.id, **WIN_2_0)
    db.commit()
    assert scoring.result(db.get(Game, semi.id)) == 1
