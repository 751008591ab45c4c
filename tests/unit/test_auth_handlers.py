"""Login, signup, logout and the /dash guard: their state handlers called directly, as any browser could.

Every public handler is reachable with any token and any arguments (DESIGN.md,
"Reflex 0.10 facts"), so each case here checks that the wrong caller is
refused, sees nothing, and changes nothing in the database.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json

import pytest
import reflex as rx
import sqlalchemy as sa
from reflex.istate.manager.memory import StateManagerMemory
from reflex.state import StateUpdate
from reflex_base import constants
from reflex_base.event import Event
from reflex_base.event.context import EventContext
from sqlmodel import select

from tests.factories import (
    PASSWORD,
    add_league_session,
    count,
    login_token,
    make_user,
    rows,
)
from tests.harness import CLIENT_IP, drain, navigate, redirect_target, root_state, substate
from volley_app import db as dbmod
from volley_app import registry, routes
from volley_app.models import LoginSession, Role, User
from volley_app.pages.auth.signup import SignupState
from volley_app.pages.dash.profile.my_info import PlayerInfoState
from volley_app.pages.dash.sessions.list import SessionsState
from volley_app.registry import OpenInOneEvent, ReconnectMarker
from volley_app.services.accounts import accounts, auth
from volley_app.settings import get_settings
from volley_app.state.auth import AuthState, NotificationBell, SessionGuard
from volley_app.state.page_load import PageLoad

# --- helpers ---------------------------------------------------------------------


def _open_sessions(db) -> list[tuple[int, dt.datetime | None]]:
    """(id, revoked_at) of every login session, oldest first."""
    return [(s.id, s.revoked_at) for s in rows(db, LoginSession)]


# --- AuthState.logout --------------------------------------------------------------


async def test_logout_revokes_only_this_tabs_session(db):
    bob = make_user(db, "bob")
    make_user(db, "ann")
    this_tab, other_device = login_token(db, "bob"), login_token(db, "bob")
    anns = login_token(db, "ann")
    root = root_state("/dash")
    state = substate(root, AuthState)
    state.token_trusted = this_tab
    state.user_id, state.username = bob.id, "bob"

    target = redirect_target(await state.logout())

    assert target == "/"
    assert state.token_trusted == "" and state.token_tab == ""
    assert (state.user_id, state.username, state.status, state.roles) == (0, "", "", [])
    assert auth.resolve(db, this_tab) is None
    resolved = auth.resolve(db, other_device)
    assert resolved is not None and resolved.user_id == bob.id
    assert auth.resolve(db, anns) is not None
    db.commit()
    assert sum(1 for _id, revoked in _open_sessions(db) if revoked is not None) == 1


async def test_logout_with_someone_elses_token_ends_only_that_token(db):
    make_user(db, "bob")
    make_user(db, "ann")
    bobs = [login_token(db, "bob"), login_token(db, "bob")]
    anns = login_token(db, "ann")
    state = substate(root_state("/dash"), AuthState)
    state.token_tab = anns
    await state.logout()
    assert auth.resolve(db, anns) is None
    assert all(auth.resolve(db, t) is not None for t in bobs)
    db.commit()


async def test_logout_without_a_token_changes_nothing(db):
    make_user(db, "bob")
    token = login_token(db, "bob")
    before = _open_sessions(db)
    state = substate(root_state("/dash"), AuthState)
    target = redirect_target(await state.logout())
    assert target == "/"
    assert _open_sessions(db) == before
    assert auth.resolve(db, token) is not None
    db.commit()


# --- SessionGuard.dash_guard -------------------------------------------------------


async def test_dash_guard_sends_a_visitor_without_a_token_to_login(db):
    root = root_state("/dash/SVLHome")
    state = substate(root, SessionGuard)
    assert redirect_target(await state.dash_guard()) == "/login?next=/dash/SVLHome"
    assert state.user_id == 0 and state.restore_error == ""


@pytest.mark.parametrize(
    ("path", "roles", "audience", "home"),
    [
        ("/dash/sessions/3", (Role.PLAYER,), "venue operators", "/dash"),
        ("/dash/SVLHome", (Role.PLAYER,), "venue operators", "/dash"),
        ("/dash/emailAll", (Role.SVL,), "administrators", "/dash/SVLHome"),
        ("/dash/notes/new", (Role.SVL,), "players", "/dash/SVLHome"),
        ("/dash/SVLHome", (Role.ADMIN,), "venue operators", "/dash/profile"),
    ],
)
async def test_dash_guard_tells_a_logged_in_user_whom_the_page_is_for(db, path, roles, audience, home):
    make_user(db, "pat", *roles)
    root = root_state(path)
    state = substate(root, SessionGuard)
    state.token_trusted = login_token(db, "pat")
    assert redirect_target(await state.dash_guard()) is None  # no trip to the login page and back
    assert (state.refused_for, state.home_path, state.username) == (audience, home, "pat")


async def test_dash_guard_forgets_a_refusal_on_a_page_the_user_may_open(db):
    make_user(db, "pat")
    root = root_state("/dash/sessions")
    state = substate(root, SessionGuard)
    state.token_trusted = login_token(db, "pat")
    await state.dash_guard()
    assert state.refused_for == "venue operators"
    navigate(root, "/dash/subs")
    await state.dash_guard()
    assert state.refused_for == ""


async def test_dash_guard_lets_the_right_role_in_and_shows_who_it_is(db):
    svl = make_user(db, "svla", Role.SVL)
    root = root_state("/dash/SVLHome")
    state = substate(root, SessionGuard)
    state.token_trusted = login_token(db, "svla")
    assert redirect_target(await state.dash_guard()) is None
    assert (state.user_id, state.username, state.status, state.first_name) == (svl.id, "svla", "SVL", "Svla")


async def test_dash_guard_queues_the_pages_loads_after_the_check(db):
    """A /dash page with loads: the session check, then the page's loads, in one event; on a reconnect to the
    address already loaded, its ``resume`` instead. Nobody logged in: to the login page, the loads after it."""
    registry.discover()
    make_user(db, "svla", Role.SVL)
    root = root_state(routes.SESSIONS)
    state = substate(root, SessionGuard)
    state.token_trusted = login_token(db, "svla")
    assert await state.dash_guard(routes.SESSIONS) == [NotificationBell.poll, SessionsState.load]
    assert await ReconnectMarker().preprocess(None, root, _reconnect()) is None  # the websocket came back
    assert await state.dash_guard(routes.SESSIONS) == [NotificationBell.poll, SessionsState.resume]
    assert substate(root, PageLoad)._loaded == routes.SESSIONS
    assert await state.dash_guard("/dash/no-such-page") == NotificationBell.poll  # no loads: the check alone
    state.token_trusted = ""
    navigate(root, routes.SESSIONS)
    follow = await state.dash_guard(routes.SESSIONS)
    assert redirect_target(follow) == f"/login?next={routes.SESSIONS}" and follow[-1] == SessionsState.load


async def test_dash_guard_within_an_event_runs_the_pages_loads_itself_with_one_session_check(db, monkeypatch):
    """As the app runs it (within an event), the guard runs the page's loads itself: what they read is sent with the
    check's changes, what they queue is queued, and the login is asked of the database once for both."""
    svl, root = _svl_on_the_sessions_list(db)
    state = substate(root, SessionGuard)
    asked: list[str] = []
    real_run = dbmod.run

    async def counted(fn, *args, **kwargs):
        if fn in (auth.resolve, auth.resolve_with_unread):
            asked.append(fn.__name__)
        return await real_run(fn, *args, **kwargs)

    monkeypatch.setattr(dbmod, "run", counted)
    tab = _Processor()
    with tab.event():
        follow = await state.dash_guard(routes.SESSIONS)
    assert follow == [NotificationBell.poll]  # the loads ran: only the bell's poll is left to queue
    assert asked == ["resolve_with_unread"]
    assert [r["name"] for r in substate(root, SessionsState).session_rows] == ["Fall Monday"]
    assert any("Fall Monday" in json.dumps(delta, default=str) for delta in tab.sent)  # sent in this event
    assert [e.name.rpartition(".")[2] for e in tab.queued] == ["poll"]  # the list's poll, queued by its load
    assert substate(root, PageLoad)._loaded == routes.SESSIONS

    # A load that fails is shown as any event's failure would be; the check's own work stands.
    async def failing(_self):
        raise RuntimeError("the list could not be read")

    monkeypatch.setattr(SessionsState, "_open_list", failing)
    navigate(root, routes.SESSIONS + "?q=Fall")
    with tab.event():
        follow = await state.dash_guard(routes.SESSIONS)
    assert follow == [NotificationBell.poll] and state.user_id == svl.id
    assert [e.name for e in tab.shown] == ["_call_function"]  # the error's toast


class _App:
    """What the page-open middleware asks of the app: the load events of the page at an address."""

    def get_load_events(self, path: str) -> list:
        return next((p.load_events for p in registry.discover() if p.route == path), [])


async def test_a_dash_page_opens_in_reflexs_page_open_event(db):
    """A tab goes to a /dash page (from another page, or a document's load after its hydrate): the guard and the
    page's loads run in the page-open event, the "hydrated" mark is sent once they are done, and Reflex queues nothing
    more for it. Where this could differ from Reflex's own way (a tab whose opening is under way or whose state is new,
    a page whose loads are not the guard), Reflex's way runs."""
    svl, root = _svl_on_the_sessions_list(db)
    tab = _Processor()
    opening = Event(name=registry._ON_LOAD_INTERNAL, payload={})
    with tab.event():
        update = await OpenInOneEvent().preprocess(_App(), root, opening)
    assert update == StateUpdate()  # done: Reflex runs nothing more for this event
    assert [r["name"] for r in substate(root, SessionsState).session_rows] == ["Fall Monday"]
    assert substate(root, SessionGuard).user_id == svl.id
    assert root.is_hydrated and tab.sent[-1][root.get_full_name()]["is_hydrated_rx_state_"] is True
    assert sorted(e.name.rpartition(".")[2] for e in tab.queued) == ["poll", "poll"]  # the bell's and the list's

    with tab.event():
        root.is_hydrated = False  # the document's hydrate unmarked it (a first load, a reload): this way too
        await ReconnectMarker().preprocess(None, root, _reconnect())
        assert await OpenInOneEvent().preprocess(_App(), root, opening) == StateUpdate() and root.is_hydrated
        root.is_hydrated = False  # an opening under way, or a state Reflex has just made
        assert await OpenInOneEvent().preprocess(_App(), root, opening) is None
        root.is_hydrated = True
        navigate(root, routes.SIGNUP)  # a page outside /dash
        assert await OpenInOneEvent().preprocess(_App(), root, opening) is None
        navigate(root, routes.SESSIONS)
        other = Event(name=f"{SessionsState.get_full_name()}.next_page", payload={})
        assert await OpenInOneEvent().preprocess(_App(), root, other) is None


async def test_a_page_open_whose_guard_fails_still_marks_the_tab_hydrated(db, monkeypatch):
    """The failure goes on to the app's handler of failed events; the tab is not left waiting for its page."""
    _svl, root = _svl_on_the_sessions_list(db)

    async def failing(_self):
        raise RuntimeError("the database is out of reach")

    monkeypatch.setattr(SessionGuard, "_guard", failing)
    with _Processor().event(), pytest.raises(RuntimeError):
        await OpenInOneEvent().preprocess(_App(), root, Event(name=registry._ON_LOAD_INTERNAL, payload={}))
    assert root.is_hydrated


def _svl_on_the_sessions_list(db):
    """An operator with one coming session, logged in in a tab at the sessions list: (the operator, the tab's root)."""
    registry.discover()
    svl = make_user(db, "svla", Role.SVL)
    starts = dt.datetime.now(dt.UTC) + dt.timedelta(days=7)
    add_league_session(db, svl, "Fall Monday", starts, starts + dt.timedelta(weeks=8))
    root = root_state(routes.SESSIONS)
    substate(root, SessionGuard).token_trusted = login_token(db, "svla")
    return svl, root


class _Processor:
    """What the app's event processor sets up around a handler, keeping what the handler sent: its updates, the
    events it queued, and those for the browser."""

    def __init__(self) -> None:
        self.sent: list[dict] = []
        self.queued: list[Event] = []
        self.shown: list[Event] = []

    async def _emit(self, _token, delta) -> None:
        self.sent.append(delta)

    async def _enqueue(self, _token, *events) -> None:
        self.queued.extend(events)

    async def _show(self, _token, *events) -> None:
        self.shown.extend(events)

    def event(self) -> EventContext:
        return EventContext(token="tab-token", state_manager=StateManagerMemory(), enqueue_impl=self._enqueue,  # type: ignore[arg-type]
                            emit_delta_impl=self._emit, emit_event_impl=self._show)  # fmt: skip


def _reconnect() -> Event:
    return Event(name=f"{rx.State.get_full_name()}.{constants.CompileVars.HYDRATE_AND_LOAD}", payload={})


async def test_dash_guard_with_an_expired_login_says_so_and_forgets_the_token(db):
    bob = make_user(db, "bob")
    token = login_token(db, "bob")
    auth.revoke_all_sessions(db, db.exec(select(User.id)).one())
    db.commit()
    root = root_state("/dash")
    state = substate(root, SessionGuard)
    state.token_trusted = token
    state.user_id = bob.id
    info = substate(root, PlayerInfoState)
    info.info = {"email": "bob@example.com"}
    events = await state.dash_guard()
    assert redirect_target(events) is None
    assert state.restore_error == "Your login has expired."
    assert state.token_trusted == "" and state.user_id == 0
    # The pages' states under AuthState forget what they held, in the event the guard sends next.
    assert events == [AuthState.forget]
    await substate(root, AuthState).forget()
    assert info.info == {}
    assert state.restore_error == "Your login has expired."
    # The tab opens a /dash page again (a reload): it still says so rather than sending to the login page.
    assert redirect_target(await state.dash_guard()) is None
    assert state.restore_error == "Your login has expired."


async def test_dash_guard_of_a_tab_that_never_logged_in_forgets_nothing(db):
    root = root_state("/dash/profile")
    state = substate(root, SessionGuard)
    events = await state.dash_guard()
    assert AuthState.forget not in events
    assert redirect_target(events) == "/login?next=/dash/profile"


# --- forms that log in: failures give the form back ---------------------------------------


def _database_down(*_args, **_kwargs):
    raise sa.exc.OperationalError("SELECT 1", {}, ConnectionError("database is down"))


async def test_an_unexpected_signup_failure_gives_the_form_back(db, monkeypatch):
    # Any failure that is not a DomainError (database down, a timeout) must still end the spinner.
    monkeypatch.setattr(accounts, "signup", _database_down)
    root = root_state("/new")
    signup = substate(root, SignupState)
    with contextlib.suppress(Exception):
        await drain(signup.signup(GOOD_SIGNUP))
    assert substate(root, AuthState).token_trusted == ""
    assert signup.busy is False, "the signup spinner stays up for good after an unexpected error"


async def test_fixing_a_field_clears_its_message_and_the_forms():
    signup = substate(root_state("/new"), SignupState)
    signup.errors, signup.error = {"username": "That username is taken", "email": "Enter a valid email address"}, "x"
    signup.fixed("username")
    assert signup.errors == {"email": "Enter a valid email address"} and signup.error == ""


async def test_fixed_with_junk_changes_no_other_message():
    signup = substate(root_state("/new"), SignupState)
    signup.errors = {"email": "Enter a valid email address"}
    for junk in (None, 5, ["email"], {"email": 1}, "nope"):
        signup.fixed(junk)
    assert signup.errors == {"email": "Enter a valid email address"}


# --- SignupState.signup --------------------------------------------------------------

GOOD_SIGNUP = {
    "username": "NewPlayer",
    "password": "pass1",
    "email": "New.Player@Example.com",
    "first_name": "New",
    "last_name": "Player",
    "region": "KY",
}


async def _signup(form, persist: str = "", path: str = "/new"):
    root = root_state(path)
    signup = substate(root, SignupState)
    auth_state = substate(root, AuthState)
    auth_state.persist = persist
    events = await drain(signup.signup(form))
    return signup, auth_state, events


async def test_signup_with_bad_input_reports_every_field_and_creates_nobody(db):
    signup, auth_state, events = await _signup(
        {"username": "x", "password": "a b", "email": "nope", "first_name": "", "last_name": "", "region": "ZZ"}
    )
    assert set(signup.errors) == {"username", "password", "email", "first_name", "last_name", "region"}
    assert signup.error == ""
    assert signup.busy is False
    assert "a b" not in repr(signup.dict())
    assert redirect_target(events) is None
    assert auth_state.token_trusted == "" and auth_state.token_tab == ""
    assert count(db, User) == 0 and count(db, LoginSession) == 0


@pytest.mark.parametrize("form", ["junk", None, ["a"], {}])
async def test_signup_with_junk_arguments_creates_nobody(db, form):
    signup, auth_state, _events = await _signup(form)
    assert signup.errors and signup.error == ""  # each message once, under its field
    assert auth_state.token_trusted == ""
    assert count(db, User) == 0


async def test_signup_with_a_taken_username_creates_nobody(db):
    make_user(db, "newplayer")
    signup, auth_state, _events = await _signup(GOOD_SIGNUP)
    assert set(signup.errors) == {"username"}
    assert auth_state.token_trusted == ""
    assert count(db, User) == 1


async def test_signup_creates_the_player_and_logs_it_in(db):
    signup, auth_state, events = await _signup(GOOD_SIGNUP)
    assert redirect_target(events) == "/dash"
    [user] = rows(db, User)
    assert (user.username, user.email, user.roles) == ("newplayer", "new.player@example.com", ["Player"])
    assert auth_state.token_trusted and auth_state.token_tab == ""
    resolved = auth.resolve(db, auth_state.token_trusted)
    assert resolved is not None and resolved.user_id == user.id
    assert (auth_state.user_id, auth_state.username, auth_state.status) == (user.id, "newplayer", "Player")
    # The password never lives in the tab's state.
    assert "pass1" not in repr(signup.dict()) and signup.errors == {}
    db.commit()


@pytest.mark.parametrize(
    ("query", "target"),
    [
        ("?next=%2Fdash%2Fleagues%2Fteams%2Fnew%3Fleague%3D4", "/dash/leagues/teams/new?league=4"),
        ("?next=//evil.example", "/dash"),
        ("?next=/dash/sessions", "/dash"),  # not a player's page
    ],
)
async def test_signup_goes_on_where_next_says_inside_the_site(db, query, target):
    _signup_state, _auth, events = await _signup(GOOD_SIGNUP, path=f"/new{query}")
    assert redirect_target(events) == target
    db.commit()


async def test_signup_sends_a_login_on_with_the_same_next():
    registration = "/dash/leagues/teams/new?league=4"
    signup = substate(root_state(routes.signup_with_next(registration)), SignupState)
    await drain(signup.load())
    assert signup.login_href == routes.backend_page(routes.login_with_next(registration))
    bare = substate(root_state(routes.SIGNUP), SignupState)
    await drain(bare.load())
    assert bare.login_href == routes.backend_page(routes.LOGIN)


async def test_signup_on_an_untrusted_device_keeps_the_token_for_the_tab(db):
    _signup_state, auth_state, _events = await _signup(GOOD_SIGNUP, persist="false")
    assert auth_state.token_trusted == "" and auth_state.token_tab
    assert auth.resolve(db, auth_state.token_tab) is not None
    db.commit()


# --- the account's ceiling: a sign-in link, not a wait; known devices; the link's page ------------------


def _spray_account(db, username: str = "bob") -> None:
    for i in range(get_settings().login_max_failures_per_account):
        with contextlib.suppress(auth.Unauthorized):
            auth.login(db, username=username, password="wrong", client=f"10.2.0.{i}")
        db.rollback()


def _sign_in_path(db) -> str:
    import re

    from volley_app.models import OutboxMessage

    db.expire_all()
    [mail] = [m for m in rows(db, OutboxMessage) if m.kind == "sign_in_link"]
    found = re.search(r"/signIn/\d+/[^\s/]+", mail.body_text)
    assert found is not None
    return found.group(0)


async def test_the_emailed_link_signs_in_once_on_its_page(db):
    from volley_app.pages.auth.sign_in import SignInState

    bob = make_user(db, "bob")
    _spray_account(db)
    with contextlib.suppress(auth.SignInLinkSent):
        auth.login(db, username="bob", password=PASSWORD, client=CLIENT_IP)
    db.commit()
    path = _sign_in_path(db)

    root = root_state(path)
    page = substate(root, SignInState)
    events = await drain(page.use_link())
    auth_state = substate(root, AuthState)
    assert redirect_target(events) == "/dash"
    assert auth_state.user_id == bob.id and auth_state.device
    resolved = auth.resolve(db, auth_state.token_trusted)
    assert resolved is not None and resolved.user_id == bob.id
    # The same link again, in another tab: refused, nobody signed in.
    again = root_state(path)
    page = substate(again, SignInState)
    events = await drain(page.use_link())
    assert page.status == "invalid" and page.link_error == auth.INVALID_SIGN_IN_LINK
    assert substate(again, AuthState).user_id == 0 and redirect_target(events) is None


def test_the_tokens_the_trust_choice_and_the_device_are_kept_by_the_browser():
    # Reflex keeps a var in the browser only when it knows it as client storage (by its default).
    kept = ("token_trusted", "token_tab", "persist", "device")
    assert [name for name in kept if AuthState._is_client_storage(name)] == list(kept)
