"""League sessions: status over time, the SVL home list, and creating, listing, editing and deleting them."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import (
    actor_of,
    add_league_session,
    count,
    league_world,
    make_user,
    rows,
    session_statuses,
)
from volley_app.models import League, LeagueSession, Role, SessionStatus, utcnow
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Forbidden, Invalid, NotFound, Unauthorized
from volley_app.services.operations import clock_sweep
from volley_app.services.seasons import sessions
from volley_app.services.seasons.sessions import access_session

T0 = dt.datetime(2026, 9, 7, 22, 30, tzinfo=dt.UTC)


@pytest.fixture
def world(db):
    return league_world(db)


# --- status at its exact boundaries -----------------------------------------------


def test_session_status_boundaries(db):
    s = LeagueSession(svl_id=1, name="x", start_at=T0, end_at=T0 + dt.timedelta(days=10))
    assert sessions.status_at(s, T0) == SessionStatus.REGISTRATION
    assert sessions.status_at(s, T0 + dt.timedelta(microseconds=1)) == SessionStatus.ACTIVE
    assert sessions.status_at(s, s.end_at) == SessionStatus.ACTIVE
    assert sessions.status_at(s, s.end_at + dt.timedelta(microseconds=1)) == SessionStatus.INACTIVE
    s.status = SessionStatus.INACTIVE  # once saved, Inactive is never changed again (spec section 4)
    assert sessions.status_at(s, T0 - dt.timedelta(days=1)) == SessionStatus.INACTIVE


# --- session status over time --------------------------------------------------------

START = dt.datetime(2026, 9, 8, 22, 30, tzinfo=dt.UTC)
END = dt.datetime(2026, 11, 10, 23, 59, tzinfo=dt.UTC)
TICK = dt.timedelta(microseconds=1)


def _session(status: SessionStatus = SessionStatus.REGISTRATION) -> LeagueSession:
    return LeagueSession(svl_id=1, name="Fall", status=status, start_at=START, end_at=END)


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (START - dt.timedelta(days=30), SessionStatus.REGISTRATION),
        (START - TICK, SessionStatus.REGISTRATION),
        (START, SessionStatus.REGISTRATION),  # "past the start": not yet at the very instant
        (START + TICK, SessionStatus.ACTIVE),
        (END - TICK, SessionStatus.ACTIVE),
        (END, SessionStatus.ACTIVE),
        (END + TICK, SessionStatus.INACTIVE),
        (END + dt.timedelta(days=365), SessionStatus.INACTIVE),
    ],
)
def test_status_from_registration(now, expected):
    assert sessions.status_at(_session(), now) == expected


@pytest.mark.parametrize(
    ("now", "expected"),
    [
        (START + TICK, SessionStatus.ACTIVE),
        (END, SessionStatus.ACTIVE),
        (END + TICK, SessionStatus.INACTIVE),
    ],
)
def test_status_from_active(now, expected):
    assert sessions.status_at(_session(SessionStatus.ACTIVE), now) == expected


@pytest.mark.parametrize("now", [START - dt.timedelta(days=1), START + TICK, END, END + TICK])
def test_a_saved_inactive_never_changes_whatever_the_dates(now):
    assert sessions.status_at(_session(SessionStatus.INACTIVE), now) == SessionStatus.INACTIVE


def test_moving_the_dates_moves_the_status_back_and_forward_until_inactive(world):
    db, sid = world["db"], world["sid"]
    sessions.update_session(db, world["a"], sid, name="Fall", start="2020-01-01T00:00", end="2099-02-01T00:00")
    db.commit()
    assert rows(db, LeagueSession)[0].status == SessionStatus.ACTIVE
    sessions.update_session(db, world["a"], sid, name="Fall", start="2099-01-01T00:00", end="2099-02-01T00:00")
    db.commit()
    assert rows(db, LeagueSession)[0].status == SessionStatus.REGISTRATION
    sessions.update_session(db, world["a"], sid, name="Fall", start="2020-01-01T00:00", end="2020-02-01T00:00")
    db.commit()
    assert rows(db, LeagueSession)[0].status == SessionStatus.INACTIVE
    assert sessions.list_sessions(db, world["a"]) == []  # SVLs do not see Inactive sessions


def test_an_inactive_session_stays_inactive_when_its_end_moves_later(world):
    db, sid = world["db"], world["sid"]
    sessions.update_session(db, world["a"], sid, name="Fall", start="2020-01-01T00:00", end="2020-02-01T00:00")
    db.commit()
    sessions.update_session(db, world["admin"], sid, name="Fall", start="2020-01-01T00:00", end="2099-02-01T00:00")
    db.commit()
    assert rows(db, LeagueSession)[0].status == SessionStatus.INACTIVE
    assert sessions.list_sessions(db, world["a"]) == []
    assert sessions.current_session_ids(db, world["svla"].id) == []


def test_status_compares_instants_not_wall_clocks():
    eastern = dt.timezone(dt.timedelta(hours=-4))
    assert sessions.status_at(_session(), START.astimezone(eastern)) == SessionStatus.REGISTRATION
    assert sessions.status_at(_session(), (START + TICK).astimezone(eastern)) == SessionStatus.ACTIVE


# --- the SVL home list ---------------------------------------------------------------


@pytest.fixture
def two_svls(db):
    """SVL A with sessions in every state, SVL B with one of its own."""
    a, b = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    now = utcnow()
    day = dt.timedelta(days=1)
    add_league_session(db, a, "A later", now + 40 * day, now + 100 * day)
    add_league_session(db, a, "A soon", now + 5 * day, now + 60 * day)
    add_league_session(db, a, "A started", now - 3 * day, now + 50 * day)  # still Registration in the DB
    add_league_session(db, a, "A running", now - 10 * day, now + 20 * day, SessionStatus.ACTIVE)
    add_league_session(db, a, "A over", now - 100 * day, now - day)  # Registration in the DB, but ended
    add_league_session(db, a, "A ended", now - 50 * day, now + 50 * day, SessionStatus.INACTIVE)  # end moved on later
    add_league_session(db, b, "B own", now + 2 * day, now + 30 * day)
    return a, b


def test_svl_home_lists_own_open_sessions_by_start(db, two_svls):
    a, _b = two_svls
    rows = sessions.svl_home(db, actor_of(a))
    db.commit()
    assert [r["name"] for r in rows] == ["A running", "A started", "A soon", "A later"]  # never an Inactive one
    assert [r["status"] for r in rows] == ["Active", "Active", "Registration", "Registration"]
    assert all(r["svl_name"] == "Svla" for r in rows)
    assert all(r["start_at"].tzinfo is not None and r["end_at"] > r["start_at"] for r in rows)
    assert [r["start_at"] for r in rows] == sorted(r["start_at"] for r in rows)


def test_svl_home_writes_nothing_and_the_sweep_saves_the_statuses_the_dates_reached(db, two_svls):
    a, _b = two_svls
    before = session_statuses(db)
    sessions.svl_home(db, actor_of(a))
    db.commit()
    assert session_statuses(db) == before  # a read shows the status the dates give and saves nothing
    clock_sweep.save_reached(db)
    db.commit()
    assert session_statuses(db) == {
        "A later": SessionStatus.REGISTRATION,
        "A soon": SessionStatus.REGISTRATION,
        "A started": SessionStatus.ACTIVE,
        "A running": SessionStatus.ACTIVE,
        "A over": SessionStatus.INACTIVE,
        "A ended": SessionStatus.INACTIVE,
        "B own": SessionStatus.REGISTRATION,
    }


def test_svl_home_of_another_svl_shows_and_changes_only_its_own(db, two_svls):
    _a, b = two_svls
    before = session_statuses(db)
    rows = sessions.svl_home(db, actor_of(b))
    db.commit()
    assert [r["name"] for r in rows] == ["B own"]
    assert session_statuses(db) == before


def test_svl_home_of_an_svl_with_no_sessions_is_empty(db, two_svls):
    c = make_user(db, "svlc", Role.SVL)
    assert sessions.svl_home(db, actor_of(c)) == []


def test_svl_who_is_also_admin_gets_the_list(db):
    both = make_user(db, "boss", Role.SVL, Role.ADMIN)
    now = utcnow()
    add_league_session(db, both, "Mine", now + dt.timedelta(days=1), now + dt.timedelta(days=9))
    assert [r["name"] for r in sessions.svl_home(db, actor_of(both))] == ["Mine"]


@pytest.mark.parametrize("roles", [(Role.PLAYER,), (Role.ADMIN,), (Role.PLAYER, Role.ADMIN)])
def test_svl_home_refuses_actors_without_the_svl_role(db, two_svls, roles):
    other = make_user(db, "notsvl", *roles)
    before = session_statuses(db)
    with pytest.raises(Forbidden):
        sessions.svl_home(db, actor_of(other))
    db.commit()
    assert session_statuses(db) == before
    assert before["A started"] == SessionStatus.REGISTRATION


def test_svl_home_refuses_an_actor_claiming_another_users_id_without_the_role(db, two_svls):
    a, _b = two_svls
    impostor = Actor(user_id=a.id, username=a.username, roles=("Player",))
    before = session_statuses(db)
    with pytest.raises(Forbidden):
        sessions.svl_home(db, impostor)
    db.commit()
    assert session_statuses(db) == before


def test_svl_home_refuses_nobody(db, two_svls):
    before = session_statuses(db)
    with pytest.raises(Unauthorized):
        sessions.svl_home(db, None)
    db.commit()
    assert session_statuses(db) == before


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
    listed = {s["name"]: s["status"] for s in sessions.list_sessions(db, world["admin"])}
    assert listed == {"A fall": "Registration", "A old": "Inactive", "Other": "Inactive"}  # as the dates say
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


def test_only_admins_choose_the_svl_of_a_new_session(world):
    db = world["db"]
    assert sessions.new_session_form(db, world["a"]) == {"choose_svl": False, "svls": []}
    offered = sessions.new_session_form(db, world["admin"])
    assert offered["choose_svl"] is True
    assert [s["name"] for s in offered["svls"]] == ["Svla Tester", "Svlb Tester"]
    with pytest.raises(Forbidden):
        sessions.new_session_form(db, world["p"])


@pytest.mark.parametrize("chosen", ["", "abc", "-1", "999999", "pat"])
def test_admin_must_choose_an_existing_svl(world, chosen):
    svl_id = str(world["p"].user_id) if chosen == "pat" else chosen
    with pytest.raises(Invalid) as err:
        sessions.create_session(world["db"], world["admin"], name="S", start="2027-03-01T18:00",
                                end="2027-04-01T18:00", svl_id=svl_id)  # fmt: skip
    assert err.value.errors == {"svl": "Choose an SVL"}


@pytest.mark.parametrize("value", ["", "abc", "0", "-3", "1.5", "99999", None, True])
def test_access_session_with_a_bad_or_unknown_id_is_not_found(world, value):
    with pytest.raises(NotFound, match="This session no longer exists"):
        access_session(world["db"], world["admin"], value)


def test_access_session_lets_its_svl_and_admins_in(world):
    db, sid = world["db"], world["sid"]
    assert access_session(db, world["a"], str(sid)).id == sid
    assert access_session(db, world["admin"], sid).id == sid
    with pytest.raises(Forbidden):
        access_session(db, world["b"], sid)
    with pytest.raises(Forbidden):
        access_session(db, world["p"], sid)
    with pytest.raises(Unauthorized):
        access_session(db, None, sid)
