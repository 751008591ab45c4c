"""Operator services: sessions and teams."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, add_league_session, count, make_user, rows
from volley_app.models import (
    Day,
    League,
    LeagueFormat,
    LeagueSession,
    OutboxMessage,
    Role,
    SessionStatus,
    SkillLevel,
    Team,
    utcnow,
)
from volley_app.services import sessions, teams
from volley_app.services.errors import Forbidden, Invalid, NotFound, Unauthorized

T0 = dt.datetime(2026, 9, 7, 22, 30, tzinfo=dt.UTC)


def add_league(db, svl, session_id, *, start=T0, weeks=8, increment=50, **kw) -> League:
    row = League(
        session_id=session_id, svl_id=svl.id, court="Court 1", start_at=start, number_of_weeks=weeks,
        time_increment=increment, skill_level=SkillLevel.C, format=LeagueFormat.SIXES, day=Day.MONDAY,
        max_teams=8, cost_cents=30000, **kw,
    )  # fmt: skip
    db.add(row)
    db.commit()
    return row


def add_teams(db, league, n, prefix="T", **kw) -> list[int]:
    ids = []
    for i in range(n):
        t = Team(league_id=league.id, team_name=f"{prefix}{i + 1}", **kw)
        db.add(t)
        db.commit()
        ids.append(t.id)
    return ids


@pytest.fixture
def world(db):
    a, b = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    p, adm = make_user(db, "pat"), make_user(db, "root", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, a, "A fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, a, sid, start=now + dt.timedelta(days=4))
    return {"db": db, "a": actor_of(a), "b": actor_of(b), "p": actor_of(p), "admin": actor_of(adm), "sid": sid,
            "lg": lg, "svla": a}  # fmt: skip


# --- session status at its exact boundaries -----------------------------------------------


def test_session_status_boundaries(db):
    s = LeagueSession(svl_id=1, name="x", start_at=T0, end_at=T0 + dt.timedelta(days=10))
    assert sessions.status_at(s, T0) == SessionStatus.REGISTRATION
    assert sessions.status_at(s, T0 + dt.timedelta(microseconds=1)) == SessionStatus.ACTIVE
    assert sessions.status_at(s, s.end_at) == SessionStatus.ACTIVE
    assert sessions.status_at(s, s.end_at + dt.timedelta(microseconds=1)) == SessionStatus.INACTIVE
    s.status = SessionStatus.INACTIVE
    assert sessions.status_at(s, T0 - dt.timedelta(days=1)) == SessionStatus.INACTIVE


# --- sessions -------------------------------------------------------------------------


def test_svl_creates_a_session_in_registration(world):
    db = world["db"]
    row = sessions.create_session(db, world["b"], name=" Spring ", start="2027-03-01T18:00", end="2027-05-01T22:00")
    db.commit()
    assert (row.name, row.status, row.svl_id) == ("Spring", SessionStatus.REGISTRATION, world["b"].user_id)
    assert row.start_at == dt.datetime(2027, 3, 1, 23, 0, tzinfo=dt.UTC)  # 18:00 in New York


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"name": "", "start": "2027-03-01T18:00", "end": "2027-05-01T18:00"}, "name"),
        ({"name": "S", "start": "", "end": "2027-05-01T18:00"}, "start"),
        ({"name": "S", "start": "2027-03-01T18:00", "end": "nonsense"}, "end"),
        ({"name": "S", "start": "2027-03-01T18:00", "end": "2027-03-01T18:00"}, "end"),
    ],
)
def test_session_fields_are_checked(world, fields, field):
    with pytest.raises(Invalid) as err:
        sessions.create_session(world["db"], world["a"], **fields)
    assert field in err.value.errors


def test_admin_creates_for_a_chosen_svl_and_players_cannot(world):
    db = world["db"]
    row = sessions.create_session(db, world["admin"], name="S", start="2027-03-01T18:00", end="2027-04-01T18:00",
                                  svl_id=str(world["b"].user_id))  # fmt: skip
    assert row.svl_id == world["b"].user_id
    with pytest.raises(Forbidden):
        sessions.create_session(db, world["p"], name="S", start="2027-03-01T18:00", end="2027-04-01T18:00")
    with pytest.raises(Unauthorized):
        sessions.create_session(db, None, name="S", start="2027-03-01T18:00", end="2027-04-01T18:00")


def test_svls_list_their_own_non_inactive_sessions_admins_all(world):
    db = world["db"]
    past = utcnow() - dt.timedelta(days=100)
    add_league_session(db, make_user(db, "othersvl", Role.SVL), "Other", past, past + dt.timedelta(days=5))
    add_league_session(db, world["svla"], "A old", past, past + dt.timedelta(days=5))
    assert [s["name"] for s in sessions.list_sessions(db, world["a"])] == ["A fall"]
    db.commit()
    assert {s.name: s.status for s in rows(db, LeagueSession)}["A old"] == SessionStatus.INACTIVE
    assert sorted(s["name"] for s in sessions.list_sessions(db, world["admin"])) == ["A fall", "A old", "Other"]
    with pytest.raises(Forbidden):
        sessions.list_sessions(db, world["p"])


@pytest.mark.parametrize("who", ["b", "p"])
def test_others_cannot_edit_or_delete_a_session(world, who):
    db, sid = world["db"], world["sid"]
    with pytest.raises(Forbidden, match="No access"):
        sessions.update_session(db, world[who], sid, name="Hacked", start="2027-01-01T00:00", end="2027-02-01T00:00")
    with pytest.raises(Forbidden, match="No access"):
        sessions.delete_session(db, world[who], sid)
    db.rollback()
    assert [s.name for s in rows(db, LeagueSession)] == ["A fall"]


def test_owner_and_admin_edit_and_delete(world):
    db, sid = world["db"], world["sid"]
    sessions.update_session(db, world["a"], sid, name="Renamed", start="2027-01-01T00:00", end="2027-02-01T00:00")
    db.commit()
    assert rows(db, LeagueSession)[0].name == "Renamed"
    assert sessions.delete_session(db, world["admin"], sid) == "Renamed"
    db.commit()
    assert count(db, LeagueSession) == 0 and count(db, League) == 0
    with pytest.raises(NotFound):
        sessions.get_session(db, world["admin"], sid)


# --- teams ----------------------------------------------------------------------------


def test_only_admins_edit_name_and_paid_svl_edits_record(world):
    db, lg = world["db"], world["lg"]
    (tid,) = add_teams(db, lg, 1)
    teams.update_team(db, world["a"], tid, team_name="Renamed", paid="true", wins="3", losses="1")
    db.commit()
    t = rows(db, Team)[0]
    assert (t.team_name, t.paid, t.wins, t.losses) == ("T1", False, 3, 1)
    with pytest.raises(Invalid, match="team name required"):
        teams.update_team(db, world["admin"], tid, team_name=" ", paid="true", wins="3", losses="1")
    teams.update_team(db, world["admin"], tid, team_name="Renamed", paid="true", wins="3", losses="1")
    db.commit()
    t = rows(db, Team)[0]
    assert (t.team_name, t.paid) == ("Renamed", True)


@pytest.mark.parametrize("who", ["b", "p"])
def test_others_cannot_edit_delete_or_promote_a_team(world, who):
    db, lg = world["db"], world["lg"]
    (tid,) = add_teams(db, lg, 1, waitlist=True)
    for call in (
        lambda: teams.update_team(db, world[who], tid, team_name="x", wins="9", losses="9"),
        lambda: teams.delete_team(db, world[who], tid),
        lambda: teams.promote(db, world[who], tid),
    ):
        with pytest.raises(Forbidden):
            call()
    db.rollback()
    t = rows(db, Team)[0]
    assert (t.team_name, t.wins, t.waitlist) == ("T1", 0, True)
    assert count(db, OutboxMessage) == 0


def test_promote_takes_a_team_off_the_waitlist_and_emails_the_captain(world):
    db, lg = world["db"], world["lg"]
    t = Team(league_id=lg.id, team_name="Late", waitlist=True, wins=2, losses=1, captain_id=world["p"].user_id)
    db.add(t)
    db.commit()
    assert [x["team_name"] for x in teams.list_teams(db, world["a"], waitlist=True)] == ["Late"]
    teams.promote(db, world["a"], t.id)
    db.commit()
    t = rows(db, Team)[0]
    assert (t.waitlist, t.paid, t.wins, t.losses) == (False, True, 0, 0)
    (msg,) = rows(db, OutboxMessage)
    assert msg.to_addr == "pat@example.com" and "Late" in msg.subject
