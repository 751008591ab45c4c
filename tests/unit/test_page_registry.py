"""The page registry and the page states: every route declared once, /dash guarded, no setter a browser could call."""

from __future__ import annotations

from collections.abc import Iterator

import reflex as rx
from reflex.state import BaseState

from volley_app import registry, routes
from volley_app.state.auth import SessionGuard


def _states(cls: type[BaseState] = rx.State) -> Iterator[type[BaseState]]:
    for sub in cls.class_subclasses if hasattr(cls, "class_subclasses") else cls.__subclasses__():
        yield sub
        yield from _states(sub)


def _app_states() -> set[type[BaseState]]:
    registry.discover()
    return {s for s in _states() if s.__module__.startswith("volley_app.")}


def test_every_route_of_the_product_has_exactly_one_page():
    pages = registry.discover()
    declared = [p.route for p in pages]
    assert len(declared) == len(set(declared))
    paths = {v for k, v in vars(routes).items() if k.isupper() and isinstance(v, str) and v.startswith("/")}
    # A path with a dynamic form (/resetPassword/[...]) is served by that form, the home page and the login are
    # drawn by the backend (api.public_pages); the rest each have a page.
    served_dynamically = {routes.RESET_PASSWORD, routes.UNSUBSCRIBE, routes.SIGN_IN, routes.TEAM_JOIN, routes.SHARE_PAY}
    assert paths - served_dynamically - {routes.HOME, routes.LOGIN} == set(declared)
    assert routes.NOT_FOUND in declared  # an unknown address has a page of its own, with a heading


def test_dash_pages_get_the_guard_first_and_public_pages_none():
    for p in registry.discover():
        guarded = p.route == routes.DASH or p.route.startswith(routes.DASH + "/")
        loads = p.load_events
        guards = [e for e in loads if getattr(e, "fn", getattr(getattr(e, "handler", None), "fn", None))
                  is SessionGuard.dash_guard.fn]  # fmt: skip
        assert (bool(loads) and loads[0] in guards) is guarded, p.route
        assert len(guards) == (1 if guarded else 0) and len(loads) <= 1, p.route  # the guard queues the page's loads


def test_titles_name_the_page_and_the_site():
    titles = {p.route: p.title for p in registry.discover()}
    assert titles[routes.SIGNUP] == "Sign Up | Bluegrass Volleyball"
    assert titles[routes.SESSIONS] == "Sessions | Bluegrass Volleyball"


def test_two_pages_cannot_claim_one_route():
    @registry.page("/dash/test-only-route", "One")
    def one() -> rx.Component:
        return rx.fragment()

    try:
        try:
            registry.page("/dash/test-only-route", "Two")(lambda: rx.fragment())
        except ValueError as exc:
            assert "/dash/test-only-route" in str(exc)
        else:
            raise AssertionError("a second page took a declared route")
    finally:
        registry._PAGES.pop("/dash/test-only-route", None)


def test_no_page_state_has_a_setter_a_browser_could_call():
    # Any connected browser may call any public handler; forms are submitted whole instead.
    offenders = sorted(
        f"{s.__module__}.{s.__name__}.{name}"
        for s in _app_states()
        for name, handler in s.event_handlers.items()
        if name.startswith("set_") and handler.fn.__module__.startswith("volley_app.")  # not Reflex's own
    )
    assert offenders == []


def test_a_handler_that_follows_typing_exists_only_where_the_page_changes_as_you_type():
    following = sorted(f"{s.__module__}.{s.__name__}" for s in _app_states() if "edit" in s.event_handlers)
    # The newsletter form shows a live preview of the issue as it is written.
    assert following == ["volley_app.pages.dash.admin.newsletter_setup.NewsletterSetupState"]


def test_path_args_read_dynamic_segments_and_leave_static_routes_alone():
    assert routes.path_args("/dash/leagues/5") == {"league_id": "5"}
    assert routes.path_args("/dash/leagues/5/teams?x=1") == {"league_id": "5"}
    assert routes.path_args("/resetPassword/7/abc") == {"reset_user": "7", "reset_token": "abc"}
    assert routes.path_args("/dash/notes/new") == {}
    assert routes.path_args("/dash/leagues/new") == {}
    assert routes.path_args("/dash/users/new") == {}
    assert routes.path_args("/nowhere/5") == {}


def test_link_builders_make_the_paths_the_pages_are_registered_under():
    assert routes.league_path(3) == "/dash/leagues/3"
    assert routes.schedule_path(3) == "/dash/leagues/teams/schedule?league=3"
    assert routes.invite_path(9) == "/dash/notes/newspecific?sub=9"
    assert routes.reset_password_path(7, "tok") == "/resetPassword/7/tok"
    assert routes.absolute(routes.sub_request_path(12)).endswith("/dash/notes/12")


def test_every_page_builds_its_component_tree():
    """A page that cannot be built fails here, before any browser compiles the app."""
    failures = []
    for p in registry.discover():
        try:
            built = p.component()
        except Exception as exc:  # noqa: BLE001 - report every page that fails, not just the first
            failures.append(f"{p.route}: {exc!r}")
            continue
        assert isinstance(built, rx.Component), p.route
    assert failures == []
