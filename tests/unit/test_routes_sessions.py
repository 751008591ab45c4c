"""Route guards (spec section 6), post-login targets, and league session status and the SVL home list."""

from __future__ import annotations

import datetime as dt

import pytest

from tests.factories import actor_of, add_league_session, make_user, session_statuses
from volley_app import routes
from volley_app.models import LeagueSession, Role, SessionStatus, utcnow
from volley_app.services import sessions
from volley_app.services.errors import Forbidden, Unauthorized
from volley_app.services.permissions import Actor

PLAYER, SVL, ADMIN = "Player", "SVL", "Admin"
ALL = frozenset({PLAYER, SVL, ADMIN})

# --- route guards ------------------------------------------------------------------

GUARD_CASES = [
    ("/dash", ALL),
    ("/dash/", ALL),
    ("/dash/profile", ALL),
    ("/dash/playerinfo", ALL),
    ("/dash/subs", ALL),
    ("/dash/playerleagues", ALL),
    ("/dash/users", ALL),
    ("/dash/users/7", ALL),
    ("/dash/users/new", ALL),
    ("/dash/notes", {PLAYER, ADMIN}),
    ("/dash/notes/", {PLAYER, ADMIN}),
    ("/dash/notes/notifications", {PLAYER, ADMIN}),
    ("/dash/notes/12", {PLAYER, ADMIN}),
    ("/dash/notes/new", {PLAYER, ADMIN}),
    ("/dash/notes/newspecific", {PLAYER, ADMIN}),
    ("/dash/sessions", {SVL, ADMIN}),
    ("/dash/sessions/new", {SVL, ADMIN}),
    ("/dash/sessions/3", {SVL, ADMIN}),
    ("/dash/sessions/leagues", {SVL, ADMIN}),
    ("/dash/newsletterSetup", {ADMIN}),
    ("/dash/emailAll", {ADMIN}),
    ("/dash/SVLHome", {SVL}),
    ("/dash/leagues", ALL),
    ("/dash/leagues/new", ALL),
    ("/dash/leagues/4", ALL),
    ("/dash/leagues/4/LeagueRules", ALL),
    ("/dash/leagues/4/teams", ALL),
    ("/dash/leagues/teams/schedule/9", ALL),
    ("/dash/leagues/teams/checkout", ALL),
    ("/dash/teams", ALL),
    ("/dash/teams/new", ALL),
    ("/dash/teams/5", ALL),
]


@pytest.mark.parametrize(("path", "allowed"), GUARD_CASES)
def test_route_guards(path, allowed):
    assert routes.roles_for(path) == frozenset(allowed)


@pytest.mark.parametrize(("path", "allowed"), GUARD_CASES)
def test_route_guards_ignore_case(path, allowed):
    assert routes.roles_for(path.upper()) == frozenset(allowed)
    assert routes.roles_for(path.lower()) == frozenset(allowed)


@pytest.mark.parametrize(
    ("path", "allowed"),
    [
        ("/dash/notesX", ALL),  # a prefix of a name is not the name
        ("/dash/sessionsfoo", ALL),
        ("/dash/emailAllUsers", ALL),
        ("/dash/SVLHomeX", ALL),
        ("dash/notes", {PLAYER, ADMIN}),
        ("/dash/notes//", {PLAYER, ADMIN}),
    ],
)
def test_route_guard_edges(path, allowed):
    assert routes.roles_for(path) == frozenset(allowed)


def test_every_role_can_enter_a_guarded_route_only_as_the_spec_says():
    expected = {
        PLAYER: {"/dash", "/dash/notes", "/dash/leagues", "/dash/teams"},
        SVL: {"/dash", "/dash/sessions", "/dash/SVLHome", "/dash/leagues", "/dash/teams"},
        ADMIN: {"/dash", "/dash/notes", "/dash/sessions", "/dash/newsletterSetup", "/dash/emailAll",
                "/dash/leagues", "/dash/teams"},
    }  # fmt: skip
    paths = ["/dash", "/dash/notes", "/dash/sessions", "/dash/newsletterSetup", "/dash/emailAll",
             "/dash/SVLHome", "/dash/leagues", "/dash/teams"]  # fmt: skip
    for role, may_enter in expected.items():
        actor = Actor(user_id=1, username="x", roles=(role,))
        assert {p for p in paths if actor.has_any(routes.roles_for(p))} == may_enter, role


@pytest.mark.parametrize(
    "value",
    [
        "/dash",
        "/dash/leagues",
        "/dash/leagues/4/teams",
        "/dash/notes?filter=open",
        "/dash/sessions/3#top",
    ],
)
def test_safe_next_accepts_paths_inside_the_site(value):
    assert routes.safe_next(value) == value


def test_safe_next_decodes_a_percent_encoded_path():
    assert routes.safe_next("%2Fdash%2Fleagues") == "/dash/leagues"


@pytest.mark.parametrize(
    "value",
    [
        None,
        "",
        "http://evil.example/dash",
        "https://evil.example",
        "HTTPS://evil.example",
        "javascript:alert(1)",
        "data:text/html,hi",
        "//evil.example",
        "//evil.example/dash",
        "///evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "\\/evil.example",
        "/dash\\..\\..\\evil",
        "%2F%2Fevil.example",
        "/%2Fevil.example",
        "%5C%5Cevil.example",
        "/%5Cevil.example",
        "dash/leagues",
        "evil.example",
        "/dash\nLocation: //evil.example",
    ],
)
def test_safe_next_refuses_anything_that_could_leave_the_site(value):
    assert routes.safe_next(value) == routes.DASH
    assert routes.safe_next(value, default="/dash/profile") == "/dash/profile"


@pytest.mark.parametrize(
    "value",
    [
        "/\t/evil.example",  # browsers drop tabs and newlines from URLs: this becomes //evil.example
        "/%09/evil.example",
        "/\r/evil.example",
        "/%0D/evil.example",
        "\t//evil.example",
    ],
)
def test_safe_next_refuses_tabs_and_carriage_returns_that_browsers_strip(value):
    # The WHATWG URL parser removes
    # every ASCII tab and newline (\t, \n, \r) before parsing, so "/\t/evil.example" is read as
    # "//evil.example", another host. rx.redirect hands it to react-router, whose pushState fails
    # for a cross-origin URL and falls back to window.location.assign: an open redirect through
    # /login?next=/%09/evil.example.
    assert routes.safe_next(value) == routes.DASH


def test_login_with_next_round_trips_through_safe_next():
    link = routes.login_with_next("/dash/leagues/4/teams")
    assert link == "/login?next=/dash/leagues/4/teams"
    assert routes.safe_next(link.split("next=", 1)[1]) == "/dash/leagues/4/teams"


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


@pytest.mark.parametrize("now", [START - dt.timedelta(days=1), START, START + TICK, END, END + TICK])
def test_inactive_never_changes(now):
    assert sessions.status_at(_session(SessionStatus.INACTIVE), now) == SessionStatus.INACTIVE


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
    add_league_session(db, a, "A closed", now - 50 * day, now + 50 * day, SessionStatus.INACTIVE)
    add_league_session(db, b, "B own", now + 2 * day, now + 30 * day)
    return a, b


def test_svl_home_lists_own_open_sessions_by_start(db, two_svls):
    a, _b = two_svls
    rows = sessions.svl_home(db, actor_of(a))
    db.commit()
    assert [r["name"] for r in rows] == ["A running", "A started", "A soon", "A later"]
    assert [r["status"] for r in rows] == ["Active", "Active", "Registration", "Registration"]
    assert all(r["svl_name"] == "Svla" for r in rows)
    assert all(r["start_at"].tzinfo is not None and r["end_at"] > r["start_at"] for r in rows)
    assert [r["start_at"] for r in rows] == sorted(r["start_at"] for r in rows)


def test_svl_home_saves_the_status_changes(db, two_svls):
    a, _b = two_svls
    sessions.svl_home(db, actor_of(a))
    db.commit()
    assert session_statuses(db) == {
        "A later": SessionStatus.REGISTRATION,
        "A soon": SessionStatus.REGISTRATION,
        "A started": SessionStatus.ACTIVE,
        "A running": SessionStatus.ACTIVE,
        "A over": SessionStatus.INACTIVE,
        "A closed": SessionStatus.INACTIVE,
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
