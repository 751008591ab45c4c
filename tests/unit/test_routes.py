"""Route guards (spec section 6) and post-login targets."""

from __future__ import annotations

import pytest

from volley_app import routes
from volley_app.services.core.actors import Actor

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
    ("/dash/users", {ADMIN}),  # the list of every account, and Create New SVL: admins
    ("/dash/users/", {ADMIN}),
    ("/dash/users/7", ALL),  # everyone edits their own info there
    ("/dash/users/new", {ADMIN}),
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
