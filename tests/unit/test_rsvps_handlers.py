"""The team's games page and the player home's My Next Games, through their handlers: a member answers (only that
game changes), others read or are refused, and a refused answer changes nothing."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import (
    add_game,
    add_league,
    add_league_session,
    add_member,
    add_teams,
    count,
    login_token,
    make_user,
    rows,
)
from tests.harness import call, page_state
from volley_app import routes
from volley_app.models import GameRsvp, LeagueFormat, MemberRole, Role, SubRequest, Team, utcnow
from volley_app.pages.dash import home
from volley_app.pages.dash.teams import games, settings
from volley_app.services.core import live

D = dt.timedelta(days=1)


@pytest.fixture
def w(db):
    svl = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    make_user(db, "root", Role.ADMIN)
    cap, ann, quinn = make_user(db, "cap"), make_user(db, "ann", gender="Female"), make_user(db, "quinn")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now - 10 * D, now + 80 * D)
    lg = add_league(db, svl, sid, start=now - 7 * D, format=LeagueFormat.DOUBLES)
    t1, t2 = add_teams(db, lg, 2, captain_id=cap.id)
    add_member(db, t1, cap, MemberRole.CAPTAIN)
    add_member(db, t1, ann)
    add_member(db, t2, quinn)
    g1 = add_game(db, lg.id, t1, t2, now + 3 * D, round=2, match=1)
    g2 = add_game(db, lg.id, t1, t2, now + 10 * D, round=3, match=1)
    return {"db": db, "t1": t1, "g1": g1.id, "g2": g2.id, "path": routes.team_games_path(t1),
            "tokens": {n: login_token(db, n) for n in ("svla", "svlb", "root", "cap", "ann", "quinn")}}  # fmt: skip


async def _open(w, who: str):
    _root, state = page_state(games.TeamGamesState, w["path"], w["tokens"][who])
    await call(state.load)
    return state


async def test_a_member_answers_and_only_that_game_changes(w):
    state = await _open(w, "ann")
    assert state.team_name == "T1" and state.viewer["member"] and not state.viewer["read_only"] and state.error == ""
    assert [g["game_id"] for g in state.games] == [w["g1"], w["g2"]]
    other_before = dict(state.games[1])
    await call(state.answer, w["g1"], "Out")
    assert state.answer_error == ""
    assert state.games[0]["mine"] == "Out" and state.games[0]["out_count"] == 1 and state.games[0]["none_count"] == 1
    assert dict(state.games[1]) == other_before
    await call(state.answer, w["g1"], "In")
    assert state.games[0]["in_count"] == 1 and state.games[0]["short"]
    assert count(w["db"], GameRsvp) == 1


@pytest.mark.parametrize("who", ["svla", "root"])
async def test_the_operator_reads_and_cannot_answer(w, who):
    state = await _open(w, who)
    assert state.viewer["read_only"] and not state.viewer["member"] and state.viewer["captain"] and len(state.games) == 2
    await call(state.answer, w["g1"], "In")
    assert state.answer_error and count(w["db"], GameRsvp) == 0


@pytest.mark.parametrize("who", ["quinn", "svlb"])
async def test_others_are_refused_and_change_nothing(w, who):
    state = await _open(w, who)
    assert state.error and state.games == [] and state.team_name == ""
    await call(state.answer, w["g1"], "In")
    assert state.answer_error and count(w["db"], GameRsvp) == 0


async def test_nobody_logged_in_sees_and_answers_nothing(w):
    _root, state = page_state(games.TeamGamesState, w["path"], None)
    await call(state.load)
    await call(state.answer, w["g1"], "In")
    assert state.games == [] and count(w["db"], GameRsvp) == 0


async def test_my_next_games_on_the_home_answer_inline(w):
    _root, state = page_state(home.PlayerHomeState, routes.DASH, w["tokens"]["ann"])
    await call(state.load)
    assert [(g["game_id"], g["mine"]) for g in state.next_games] == [(w["g1"], ""), (w["g2"], "")]
    await call(state.answer, w["g2"], w["t1"], "Maybe")
    assert [(g["game_id"], g["mine"]) for g in state.next_games] == [(w["g1"], ""), (w["g2"], "Maybe")]
    assert [(r.game_id, r.team_id, r.answer.value) for r in rows(w["db"], GameRsvp)] == [(w["g2"], w["t1"], "Maybe")]


async def test_another_player_cannot_answer_for_my_team_from_their_home(w):
    _root, state = page_state(home.PlayerHomeState, routes.DASH, w["tokens"]["quinn"])
    await call(state.load)
    assert [g["team"] for g in state.next_games] == ["T2", "T2"]
    await call(state.answer, w["g1"], w["t1"], "In")
    assert state.answer_error and count(w["db"], GameRsvp) == 0


async def test_the_captain_finds_subs_for_a_short_game_in_one_tap_and_others_cannot(w):
    db = w["db"]
    captain = await _open(w, "cap")
    assert captain.viewer["runs"] and captain.games[0]["short"] and captain.games[0]["lacking"] == 2
    events = await call(captain.find_subs, w["g1"])
    [made] = rows(db, SubRequest)
    assert (made.game_id, made.team_id, made.players_needed) == (w["g1"], w["t1"], 2)
    assert routes.sub_request_path(made.id) in str(events)
    await call(captain.find_subs, w["g1"])  # a second tap: the same request
    assert count(db, SubRequest) == 1
    for who in ("ann", "svla"):
        state = await _open(w, who)
        assert not state.viewer["runs"]
        await call(state.find_subs, w["g2"])
        assert state.answer_error != ""
    assert count(db, SubRequest) == 1


async def test_the_open_page_watches_its_teams_answers_and_a_refused_one_watches_nothing(w):
    assert (await _open(w, "ann"))._live_interest() == live.Interest(team_id=w["t1"])
    assert (await _open(w, "quinn"))._live_interest() is None


async def _settings(w, who: str):
    _root, state = page_state(settings.TeamSettingsState, routes.team_settings_path(w["t1"]), w["tokens"][who])
    await call(state.load)
    return state


def _saved(w) -> tuple[int, int]:
    w["db"].expire_all()
    [team] = rows(w["db"], Team, Team.id == w["t1"])
    return team.rsvp_reminder_days, team.rsvp_deadline_hours


@pytest.mark.parametrize("who", ["cap", "svla"])
async def test_the_captain_or_the_operator_saves_the_settings(w, who):
    state = await _settings(w, who)
    assert state.can_edit and (state.reminder_days, state.deadline_hours) == ("3", "48")
    await call(state.save, {"reminder_days": "20", "deadline_hours": "1"})
    assert set(state.errors) == {"reminder_days", "deadline_hours"} and _saved(w) == (3, 48)
    await call(state.save, {"reminder_days": "0", "deadline_hours": "72"})
    assert state.notice == settings.SAVED and state.reminder_days == "0" and _saved(w) == (0, 72)


@pytest.mark.parametrize("who", ["ann", "quinn", "svlb"])
async def test_a_member_another_team_or_another_operator_saves_nothing(w, who):
    state = await _settings(w, who)
    assert not state.can_edit
    assert (state.reminder_days != "") == (who == "ann")  # a member reads them; the others see nothing
    await call(state.save, {"reminder_days": "1", "deadline_hours": "2"})
    assert state.error and state.notice == "" and _saved(w) == (3, 48)
