"""Permission table for the session and team state handlers × {anonymous, player, SVL A, SVL B, admin}.

Any browser can call any handler with any arguments: the wrong caller must be refused and the
database (and the upload folder) must be exactly as before.
"""

from __future__ import annotations

import datetime as dt
import inspect

import pytest
from sqlmodel import select

from tests.factories import add_league_session, count, login_token, make_user, rows
from tests.unit.test_state_handlers import _root, _sub
from volley_app.models import (
    Day,
    Game,
    League,
    LeagueFormat,
    LeagueSession,
    OutboxMessage,
    Role,
    SkillLevel,
    Team,
    utcnow,
)
from volley_app.pages.dash import sessions, teams
from volley_app.settings import get_settings

WHO = ["anon", "player", "svla", "svlb", "admin"]
ALLOWED = {"svla", "admin"}


@pytest.fixture
def world(db, tmp_path, monkeypatch):
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path))
    get_settings.cache_clear()
    a = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    pat = make_user(db, "player")
    make_user(db, "admin", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, a, "A fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = League(session_id=sid, svl_id=a.id, court="Court 1", start_at=now + dt.timedelta(days=4), number_of_weeks=3,
                time_increment=50, skill_level=SkillLevel.C, format=LeagueFormat.SIXES, day=Day.MONDAY, max_teams=8,
                cost_cents=30000)  # fmt: skip
    db.add(lg)
    db.commit()
    for i in range(4):
        db.add(Team(league_id=lg.id, team_name=f"T{i + 1}", captain_id=pat.id))
    db.add(Team(league_id=lg.id, team_name="Late", captain_id=pat.id, waitlist=True))
    db.commit()
    tokens = {u: login_token(db, u) for u in WHO if u != "anon"}
    yield {"db": db, "sid": sid, "lid": lg.id, "tokens": tokens, "dir": tmp_path}
    get_settings.cache_clear()


def fingerprint(db, upload_dir) -> tuple:
    return (
        [(s.id, s.name, s.start_at, s.end_at) for s in rows(db, LeagueSession)],
        [(lg.id, lg.court, lg.cost_cents, lg.active, lg.schedule_generated, lg.tournament_file) for lg in rows(db, League)],
        [(t.id, t.team_name, t.wins, t.losses, t.paid, t.waitlist) for t in rows(db, Team)],
        [(g.id, g.team1_id, g.team2_id, g.start_at, g.team1_game1_score) for g in rows(db, Game)],
        count(db, OutboxMessage),
        sorted(p.name for p in upload_dir.iterdir()),
    )


async def call(world, who: str, cls, path: str, method: str, *args):
    state = _sub(_root(path), cls)
    if who != "anon":
        state.token_trusted = world["tokens"][who]
    result = getattr(state, method)(*args)
    if inspect.isasyncgen(result):
        events = [ev async for ev in result]
    else:
        events = await result
    return state, events


def _team_id(db, name="T1") -> int:
    return db.exec(select(Team.id).where(Team.team_name == name)).one()


def _cases(world):
    """(name, state class, path, method, args) of every changing handler, on SVL A's things."""
    sid, db = world["sid"], world["db"]
    return {
        "session.save": (sessions.EditSessionState, f"/dash/sessions/{sid}", "save",
                         {"name": "Hacked", "start": "2027-01-01T00:00", "end": "2027-02-01T00:00"}),
        "session.delete": (sessions.EditSessionState, f"/dash/sessions/{sid}", "delete"),
        "team.save": (teams.TeamEditState, f"/dash/teams/{_team_id(db)}", "save",
                      {"team_name": "Hacked", "paid": "true", "wins": "9", "losses": "0"}),
        "team.delete": (teams.TeamEditState, f"/dash/teams/{_team_id(db)}", "delete"),
        "team.promote": (teams.WaitlistState, "/dash/leagues/teams/waitlist", "promote", str(_team_id(db, "Late"))),
    }  # fmt: skip


CASES = ["session.save", "session.delete", "team.save", "team.delete", "team.promote"]


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", CASES)
async def test_changing_handlers_permission_table(world, case, who):
    db = world["db"]
    cls, path, method, *args = _cases(world)[case]
    before = fingerprint(db, world["dir"])
    state, _events = await call(world, who, cls, path, method, *args)
    after = fingerprint(db, world["dir"])
    if who in ALLOWED:
        assert state.error == "", state.error
        assert after != before
    else:
        assert after == before
        assert state.error in ("Unauthorized", "No access")



@pytest.mark.parametrize("who", WHO)
async def test_session_create_permission_table(world, who):
    db = world["db"]
    form = {"name": "New", "start": "2027-03-01T18:00", "end": "2027-05-01T18:00", "svl": ""}
    n = count(db, LeagueSession)
    state, _ev = await call(world, who, sessions.NewSessionState, "/dash/sessions/new", "create", form)
    if who in ("svla", "svlb"):
        assert count(db, LeagueSession) == n + 1 and state.error == ""
    elif who == "admin":  # an admin must choose the SVL
        assert count(db, LeagueSession) == n and state.errors.get("svl")
    else:
        assert count(db, LeagueSession) == n and state.error in ("Unauthorized", "No access")


READS = {
    "session.load": (sessions.EditSessionState, "/dash/sessions/{sid}", "name", "A fall"),
    "team.load": (teams.TeamEditState, "/dash/teams/{tid}", "tid", None),
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", sorted(READS))
async def test_edit_pages_show_nothing_to_others(world, case, who):
    db = world["db"]
    cls, path, attr, _expected = READS[case]
    path = path.format(sid=world["sid"], tid=_team_id(db))
    state, _ev = await call(world, who, cls, path, "load")
    if who in ALLOWED or (case == "team.load" and who == "player"):  # the captain may read its team
        assert getattr(state, attr) != ""
    else:
        assert getattr(state, attr) == "" and state.error in ("Unauthorized", "No access")



@pytest.mark.parametrize("who", WHO)
async def test_sessions_list_by_role(world, who):
    state, _ev = await call(world, who, sessions.SessionsState, "/dash/sessions", "load")
    names = [r["name"] for r in state.session_rows]
    assert names == (["A fall"] if who in ALLOWED else [])
    if who in ("anon", "player"):
        assert state.error in ("Unauthorized", "No access")
