"""Session, team and waitlist state handlers × {anonymous, player, SVL A, SVL B, admin}.

Any browser can call any handler with any arguments: the wrong caller must be refused and the
database must be exactly as before.
"""

from __future__ import annotations

import datetime as dt

import pytest
from sqlmodel import select

from tests.factories import add_league, add_league_session, count, login_token, make_user, rows
from tests.harness import call_handler, redirect_target
from volley_app import routes
from volley_app.models import AuditEntry, League, LeagueSession, OutboxMessage, Role, StandingAdjustment, Team, utcnow
from volley_app.pages.dash.admin.archive import ArchiveState
from volley_app.pages.dash.admin.audit_log import AuditLogState
from volley_app.pages.dash.sessions.edit import EditSessionState
from volley_app.pages.dash.sessions.leagues import SessionLeaguesState
from volley_app.pages.dash.sessions.list import SessionsState
from volley_app.pages.dash.sessions.new import NewSessionState
from volley_app.pages.dash.teams.edit import TeamEditState
from volley_app.pages.dash.teams.list import TeamsState
from volley_app.pages.dash.teams.waitlist import WaitlistState
from volley_app.services.seasons import results

WHO = ["anon", "player", "svla", "svlb", "admin"]
ALLOWED = {"svla", "admin"}
REFUSED = ("Unauthorized", "No access")


@pytest.fixture
def world(db):
    a = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    pat = make_user(db, "player")
    make_user(db, "admin", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, a, "A fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, a, sid, start=now + dt.timedelta(days=4), weeks=3)
    assert lg.id is not None
    for i in range(4):
        db.add(Team(league_id=lg.id, team_name=f"T{i + 1}", captain_id=pat.id))
    db.add(Team(league_id=lg.id, team_name="Late", captain_id=pat.id, waitlist=True))
    db.commit()
    tokens = {u: login_token(db, u) for u in WHO if u != "anon"}
    return {"db": db, "sid": sid, "lid": lg.id, "tokens": tokens, "svla": a}


async def call(world, who: str, cls, path: str, method: str, *args):
    return await call_handler(world["tokens"].get(who), cls, path, method, *args)


def fingerprint(db) -> tuple:
    return (
        [(s.id, s.name, s.start_at, s.end_at) for s in rows(db, LeagueSession)],
        [(lg.id, lg.court) for lg in rows(db, League)],
        [(t.id, t.team_name, t.withdrawn_at, t.paid, t.waitlist) for t in rows(db, Team)],
        count(db, StandingAdjustment),
        count(db, AuditEntry),
        count(db, OutboxMessage),
    )


def _team_id(db, name="T1") -> int:
    return db.exec(select(Team.id).where(Team.team_name == name)).one()


def _cases(world):
    """(state class, path, method, args) of every changing handler, on SVL A's things."""
    sid, db = world["sid"], world["db"]
    return {
        "session.save": (EditSessionState, f"/dash/sessions/{sid}", "save",
                         {"name": "Hacked", "start": "2027-01-01T00:00", "end": "2027-02-01T00:00"}),
        "session.delete": (EditSessionState, f"/dash/sessions/{sid}", "delete"),
        "team.save": (TeamEditState, f"/dash/teams/{_team_id(db)}", "save",
                      {"team_name": "Hacked", "paid": "true", "wins": "9", "losses": "0", "reason": "Hacked"}),
        "team.delete": (TeamEditState, f"/dash/teams/{_team_id(db)}", "delete"),
        "team.withdraw": (TeamEditState, f"/dash/teams/{_team_id(db)}", "withdraw", "forfeit"),
        "team.promote": (WaitlistState, "/dash/leagues/teams/waitlist", "promote", str(_team_id(db, "Late"))),
    }  # fmt: skip


CASES = ["session.save", "session.delete", "team.save", "team.delete", "team.withdraw", "team.promote"]


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", CASES)
async def test_changing_handlers_permission_table(world, case, who):
    db = world["db"]
    cls, path, method, *args = _cases(world)[case]
    before = fingerprint(db)
    state, _events = await call(world, who, cls, path, method, *args)
    after = fingerprint(db)
    if who in ALLOWED:
        assert state.error == "", state.error
        assert after != before
    else:
        assert after == before
        assert state.error in REFUSED


@pytest.mark.parametrize("who", WHO)
async def test_session_create_permission_table(world, who):
    db = world["db"]
    form = {"name": "New", "start": "2027-03-01T18:00", "end": "2027-05-01T18:00", "svl": ""}
    n = count(db, LeagueSession)
    state, events = await call(world, who, NewSessionState, "/dash/sessions/new", "create", form)
    if who in ("svla", "svlb"):
        assert count(db, LeagueSession) == n + 1 and state.error == ""
        new_id = max(s.id for s in rows(db, LeagueSession))
        assert redirect_target(events) == routes.session_path(new_id)
    elif who == "admin":  # an admin must choose the SVL
        assert count(db, LeagueSession) == n and state.errors.get("svl")
        assert state.error == ""
    else:
        assert count(db, LeagueSession) == n and state.error in REFUSED


@pytest.mark.parametrize("who", WHO)
async def test_new_session_offers_the_svl_choice_only_to_admins(world, who):
    state, _ev = await call(world, who, NewSessionState, "/dash/sessions/new", "load")
    assert state.choose_svl is (who == "admin")
    assert [o["label"] for o in state.svl_options] == (["Svla Tester", "Svlb Tester"] if who == "admin" else [])
    if who in ("anon", "player"):
        assert state.error in REFUSED


async def test_admin_creates_a_session_for_the_chosen_svl(world):
    form = {"name": "Chosen", "start": "2027-03-01T18:00", "end": "2027-05-01T18:00", "svl": str(world["svla"].id)}
    state, events = await call(world, "admin", NewSessionState, "/dash/sessions/new", "create", form)
    (made,) = rows(world["db"], LeagueSession, LeagueSession.name == "Chosen")
    assert made.svl_id == world["svla"].id and state.error == ""
    assert redirect_target(events) == routes.session_path(made.id)


async def test_session_fields_show_their_messages_and_nothing_changes(world):
    db = world["db"]
    before = fingerprint(db)
    form = {"name": "", "start": "2027-03-01T18:00", "end": "2027-02-01T18:00"}
    state, events = await call(world, "svla", EditSessionState, f"/dash/sessions/{world['sid']}", "save", form)
    assert state.errors == {"name": "Name is required"}
    assert state.error == "" and redirect_target(events) is None
    assert fingerprint(db) == before


READS = {
    "session.load": (EditSessionState, "/dash/sessions/{sid}", "session"),
    "team.load": (TeamEditState, "/dash/teams/{tid}", "team"),
}


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("case", sorted(READS))
async def test_edit_pages_show_nothing_to_others(world, case, who):
    db = world["db"]
    cls, path, attr = READS[case]
    path = path.format(sid=world["sid"], tid=_team_id(db))
    state, _ev = await call(world, who, cls, path, "load")
    if who in ALLOWED or (case == "team.load" and who == "player"):  # the captain may read its team
        assert getattr(state, attr) != {}
    else:
        assert getattr(state, attr) == {} and state.error in REFUSED


async def test_session_page_links_to_its_leagues(world):
    sid = world["sid"]
    state, _ev = await call(world, "svla", EditSessionState, f"/dash/sessions/{sid}", "load")
    shown = state.session
    assert (shown["name"], shown["league_count"], state.form_key > 0) == ("A fall", "1", True)
    assert shown["leagues_href"] == routes.session_leagues_path(sid)
    assert shown["new_league_href"] == routes.new_league_path(sid)


@pytest.mark.parametrize("who", WHO)
async def test_session_leagues_by_role(world, who):
    sid = world["sid"]
    state, _ev = await call(world, who, SessionLeaguesState, f"/dash/sessions/leagues?session={sid}", "load")
    if who in ALLOWED:
        assert [r["name"] for r in state.league_rows] == ["Monday C 6s"] and state.session_name == "A fall"
        assert state.session_href == routes.session_path(sid)
    else:
        assert state.league_rows == [] and state.sid == "" and state.error in REFUSED


@pytest.mark.parametrize("who", WHO)
async def test_sessions_list_by_role(world, who):
    state, _ev = await call(world, who, SessionsState, "/dash/sessions", "load")
    names = [r["name"] for r in state.session_rows]
    assert names == (["A fall"] if who in ALLOWED else [])
    if who in ("anon", "player"):
        assert state.error in REFUSED


async def test_sessions_list_starts_its_poll_when_it_opens(world):
    state, event = await call(world, "svla", SessionsState, "/dash/sessions", "load")
    assert event.fn.__qualname__ == SessionsState.poll.fn.__qualname__
    assert state.loaded and state.error == ""


@pytest.mark.parametrize("who", WHO)
async def test_teams_list_by_role_and_league(world, who):
    lid = world["lid"]
    state, _ev = await call(world, who, TeamsState, f"/dash/teams?league={lid}", "load")
    names = [r["team_name"] for r in state.team_rows]
    if who in ALLOWED or who == "player":  # the player captains them all
        assert names == ["T1", "T2", "T3", "T4", "Late"]
    else:
        assert names == []
    state, _ev = await call(world, "admin", TeamsState, f"/dash/teams?league={lid + 1}", "load")
    assert state.team_rows == [] and state.error == ""


@pytest.mark.parametrize("who", WHO)
async def test_waitlist_offers_promote_to_the_leagues_svl_and_admins(world, who):
    state, _ev = await call(world, who, WaitlistState, routes.waitlist_path(world["lid"]), "load")
    promote = [(r["team_name"], r["can_promote"]) for r in state.team_rows]
    if who in ALLOWED:
        assert promote == [("Late", "yes")]
    elif who == "player":
        assert promote == [("Late", "")]
    else:
        assert promote == []


async def test_promote_shows_a_notice_and_refreshes_the_list(world):
    tid = str(_team_id(world["db"], "Late"))
    state, _ev = await call(world, "svla", WaitlistState, routes.WAITLIST, "promote", tid)
    assert state.notice.startswith("Late has been offered a place: the captain has been emailed a link to pay by ")
    assert [(r["team_name"], r["can_promote"], r["offered_until"] != "") for r in state.team_rows] == [("Late", "", True)]
    assert count(world["db"], OutboxMessage) == 1


async def test_team_edit_requires_a_name_with_an_alert(world):
    db = world["db"]
    before = fingerprint(db)
    path = f"/dash/teams/{_team_id(db)}"
    form = {"team_name": " ", "paid": "true", "wins": "1", "losses": "0"}
    state, events = await call(world, "admin", TeamEditState, path, "save", form)
    assert state.errors == {"team_name": "team name required"} and state.error == ""
    assert any("alert" in str(ev) for ev in events) and redirect_target(events) is None
    assert fingerprint(db) == before


async def test_team_edit_by_its_svl_changes_the_record_only(world):
    db = world["db"]
    tid = _team_id(db)
    state, _ev = await call(world, "svla", TeamEditState, f"/dash/teams/{tid}", "load")
    assert (state.team["team_name"], state.team["wins"], state.team["paid"], state.may["can_manage"], state.may["can_edit_name"]) == (
        "T1", "0", "false", True, False,
    )  # fmt: skip
    form = {"team_name": "Ignored", "paid": "true", "wins": "3", "losses": "2", "reason": "Week 1 played on paper"}
    _s, events = await call(world, "svla", TeamEditState, f"/dash/teams/{tid}", "save", form)
    assert redirect_target(events) == routes.TEAMS
    (team,) = rows(db, Team, Team.id == tid)
    rec = results.record_of(db, team)
    assert (team.team_name, team.paid, rec.wins, rec.losses) == ("T1", False, 3, 2)


# --- archived things come back only through an admin ---------------------------------------------


@pytest.mark.parametrize("who", WHO)
async def test_only_an_admin_restores_an_archived_session(world, who):
    db = world["db"]
    await call(world, "svla", EditSessionState, f"/dash/sessions/{world['sid']}", "delete")
    (archived,) = rows(db, LeagueSession)
    assert archived.archived_at is not None
    before = fingerprint(db)
    state, _events = await call(world, who, EditSessionState, f"/dash/sessions/{world['sid']}", "restore")
    db.expire_all()
    if who == "admin":
        assert state.error == "" and rows(db, LeagueSession)[0].archived_at is None
    else:
        assert fingerprint(db) == before and rows(db, LeagueSession)[0].archived_at is not None
        assert state.error in (*REFUSED, "This session no longer exists")


@pytest.mark.parametrize("who", WHO)
async def test_archive_and_audit_screens_are_for_admins(world, who):
    db = world["db"]
    await call(world, "svla", EditSessionState, f"/dash/sessions/{world['sid']}", "delete")
    shown, _e = await call(world, who, ArchiveState, "/dash/archive", "load")
    log, _e = await call(world, who, AuditLogState, "/dash/auditLog", "load")
    before = fingerprint(db)
    state, _e = await call(world, who, ArchiveState, "/dash/archive", "restore", "session", str(world["sid"]))
    if who == "admin":
        assert sorted(r["name"] for r in shown.archived_rows) == ["A fall", "Monday C 6s"] and shown.error == ""
        assert [e["action"] for e in log.entries] == ["archive"] and log.entries[0]["actor"] == "svla"
        assert state.notice == "A fall restored." and fingerprint(db) != before
    else:
        assert shown.archived_rows == [] and shown.error in REFUSED
        assert log.entries == [] and log.error in REFUSED
        assert fingerprint(db) == before and state.error in REFUSED
