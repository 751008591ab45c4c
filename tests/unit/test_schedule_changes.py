"""Schedule changes: redrawing unplayed weeks, moving a game, pushing a week; captains told, changes audited."""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import add_teams, count, league_world, login_token, make_user, notified, rows
from tests.harness import call_handler
from volley_app import routes
from volley_app.models import AuditEntry, Game, OutboxMessage, Team
from volley_app.pages.dash.leagues import schedule as schedule_page
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Forbidden, Invalid, Unauthorized
from volley_app.services.mail import notices
from volley_app.services.seasons import games, schedule, scheduling
from volley_app.services.teams import teams


@pytest.fixture
def world(db):
    w = league_world(db)
    ids = add_teams(db, w["lg"], 6)
    for i, tid in enumerate(ids):
        captain = make_user(db, f"cap{i}", email=f"cap{i}@example.com")
        team = db.get(Team, tid)
        team.captain_id = captain.id
        db.add(team)
    db.commit()
    scheduling.generate(db, w["a"], w["lg"].id)
    db.commit()
    w["ids"] = ids
    return w


def _games(db, **where):
    db.expire_all()
    found = rows(db, Game)
    return sorted((g for g in found if all(getattr(g, k) == v for k, v in where.items())), key=lambda g: (g.round, g.match))


def _mail(db, kind):
    return db.exec(select(OutboxMessage).where(OutboxMessage.kind == kind)).all()


def _play(db, game):
    game.team1_game1_score, game.team2_game1_score = 21, 10
    game.team1_game2_score, game.team2_game2_score = 21, 12
    db.add(game)
    db.commit()


def test_redrawing_keeps_played_weeks_and_the_pairing_rule(world):
    db, lg = world["db"], world["lg"]
    for g in _games(db, round=1) + _games(db, round=2):
        _play(db, g)
    kept = [(g.id, g.team1_id, g.team2_id, g.start_at) for g in _games(db) if g.round <= 2]
    new = add_teams(db, lg, 1, prefix="N")[0]
    made = scheduling.regenerate_unplayed(db, lg, world["a"])
    db.commit()
    assert [(g.id, g.team1_id, g.team2_id, g.start_at) for g in _games(db) if g.round <= 2] == kept
    expected = scheduling.pairings(scheduling.playing_team_ids(db, lg.id), lg.number_of_weeks)
    later = _games(db)
    for week in range(3, lg.number_of_weeks + 1):
        assert [(g.team1_id, g.team2_id) for g in later if g.round == week] == expected[week - 1]
    assert made == sum(len(w) for w in expected[2:])
    assert any(new in (g.team1_id, g.team2_id) for g in later if g.round == 3)
    # the same place in the schedule keeps its calendar identity and counts a move
    assert all(g.sequence == 1 for g in later if g.round >= 3 and g.match <= 3)
    told = {m.to_addr for m in _mail(db, "schedule_changed")}
    assert told == {f"cap{i}@example.com" for i in range(6)}
    assert rows(db, AuditEntry, AuditEntry.action == "regenerate")


def test_withdrawing_with_games_removed_redraws_the_others(world):
    db = world["db"]
    gone = world["ids"][0]
    teams.withdraw_team(db, world["a"], gone, remaining="remove")
    db.commit()
    left = _games(db)
    assert left and all(gone not in (g.team1_id, g.team2_id) for g in left)
    assert [(g.team1_id, g.team2_id) for g in left if g.round == 1] == scheduling.pairings(world["ids"][1:], 8)[0]


def test_moving_a_game_emails_both_captains_bumps_its_sequence_and_is_audited(world):
    db, lg = world["db"], world["lg"]
    lg.courts = "Court 1\nCourt 2"
    db.add(lg)
    db.commit()
    game = _games(db, round=1)[0]
    game_id = game.id
    games.move_game(db, world["a"], game_id, start="2030-01-08T20:15", court="court 2")
    db.commit()
    moved = db.get(Game, game_id)
    assert timefmt.input_value(moved.start_at) == "2030-01-08T20:15" and moved.court == "Court 2"
    assert moved.sequence == 1
    told = sorted(m.to_addr for m in _mail(db, "game_moved"))
    caps = sorted(f"cap{world['ids'].index(t)}@example.com" for t in (moved.team1_id, moved.team2_id))
    assert told == caps
    assert "Court 2" in _mail(db, "game_moved")[0].body_text
    assert notified(db, notices.SCHEDULE_CHANGE) == [(c, routes.schedule_path(lg.id)) for c in caps]
    entry = rows(db, AuditEntry, AuditEntry.entity == "game")[-1]
    assert "moved" in entry.summary


def test_a_court_the_league_does_not_have_is_refused_by_the_field(world):
    db = world["db"]
    gid = _games(db, round=1)[0].id
    with pytest.raises(Invalid) as caught:
        games.move_game(db, world["a"], gid, start="2030-01-08T20:15", court="Court 7")
    assert "court" in caught.value.errors
    db.rollback()
    assert db.get(Game, gid).sequence == 0


@pytest.mark.parametrize(("who", "error"), [("b", Forbidden), ("p", Forbidden), (None, Unauthorized)])
def test_others_cannot_move_or_push(world, who, error):
    db = world["db"]
    actor = world[who] if who else None
    before = [(g.id, g.start_at, g.court, g.sequence) for g in _games(db)]
    with pytest.raises(error):
        games.move_game(db, actor, _games(db)[0].id, start="2030-01-08T20:15")
    with pytest.raises(error):
        scheduling.push_week(db, actor, world["lg"].id, week=2)
    db.rollback()
    assert [(g.id, g.start_at, g.court, g.sequence) for g in _games(db)] == before
    assert count(db, OutboxMessage) == 0


def test_a_pushed_week_keeps_the_wall_clock_across_dst(db):
    w = league_world(db)
    lg = w["lg"]
    lg.start_at = dt.datetime(2026, 10, 19, 22, 30, tzinfo=dt.UTC)  # Monday 6:30 PM EDT; Nov 1 ends DST
    db.add(lg)
    db.commit()
    add_teams(db, lg, 4)
    scheduling.generate(db, w["a"], lg.id)
    db.commit()
    moved = scheduling.push_week(db, w["a"], lg.id, week=2)
    db.commit()
    games = sorted(rows(db, Game), key=lambda g: (g.start_at, g.match))
    assert moved == 7 * 2
    week1 = [g for g in games if g.round == 1]
    assert all(g.sequence == 0 for g in week1)
    week2 = [g for g in games if g.round == 2]
    assert [timefmt.local(g.start_at).strftime("%Y-%m-%d %H:%M") for g in week2] == ["2026-11-02 18:30", "2026-11-02 19:20"]
    assert all(g.sequence == 1 for g in games if g.round >= 2)
    assert schedule.week_of(lg.start_at, week2[0].start_at) == 3


def test_push_refuses_when_later_weeks_were_played(world):
    db = world["db"]
    _play(db, _games(db, round=3)[0])
    with pytest.raises(Invalid, match="played"):
        scheduling.push_week(db, world["a"], world["lg"].id, week=2)


def test_the_schedule_pages_a_week_or_a_team(world):
    db, lg = world["db"], world["lg"]
    view = schedule.schedule_view(db, world["p"], lg.id, week=3)
    assert view["weeks"] == list(range(1, 9)) and view["week"] == 3
    assert len(view["games"]) == 3 and {g["week"] for g in view["games"]} == {3}
    tid = world["ids"][2]
    view = schedule.schedule_view(db, world["p"], lg.id, team=tid)
    assert view["team"] == tid and len(view["games"]) == 8
    assert all(tid in (g["team1_id"], g["team2_id"]) for g in view["games"])
    first = schedule.schedule_view(db, world["p"], lg.id, week="nonsense")
    assert first["week"] == 1  # the season has not started: the next games are week 1


@pytest.mark.parametrize("who", ["anon", "pat", "svlb", "svla", "root"])
async def test_push_week_handler_permission(world, who):
    db, lg = world["db"], world["lg"]
    token = None if who == "anon" else login_token(db, who)
    path = f"/dash/leagues/teams/schedule?league={lg.id}"
    before = [(g.id, g.start_at) for g in _games(db)]
    state, _ev = await call_handler(token, schedule_page.ScheduleState, path, "push_week", "1")
    after = [(g.id, g.start_at) for g in _games(db)]
    if who in ("svla", "root"):
        assert after != before and "moved a week later" in state.notice
    else:
        assert after == before and state.error


def test_an_operator_redraws_after_adding_a_court(world):
    db, lg = world["db"], world["lg"]
    lg.courts = "Court 1\nCourt 2"
    db.add(lg)
    db.commit()
    made = scheduling.redraw(db, world["a"], lg.id)
    db.commit()
    week1 = _games(db, round=1)
    assert made == 8 * 3 and [g.court for g in week1] == ["Court 1", "Court 2", "Court 1"]
    assert week1[0].start_at == week1[1].start_at
    for who in ("b", "p"):
        with pytest.raises(Forbidden):
            scheduling.redraw(db, world[who], lg.id)
