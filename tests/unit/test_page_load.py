"""Opening a page loads it; a reconnect of the same tab does not (what was typed stays), it only resumes polls."""

from __future__ import annotations

import reflex as rx
from reflex_base import constants
from reflex_base.event import Event

from tests.harness import drain, navigate, root_state, substate
from volley_app import registry, routes
from volley_app.pages.auth.signup import SignupState
from volley_app.pages.dash.sessions.list import SessionsState
from volley_app.registry import ReconnectMarker
from volley_app.state.page_load import PageLoad


def _hydrate(*, first: bool) -> Event:
    payload = {constants.CompileVars.PAYLOAD_HASHES: ["abc", "def"]} if first else {}
    return Event(name=f"{rx.State.get_full_name()}.{constants.CompileVars.HYDRATE_AND_LOAD}", payload=payload)


async def _connect(root, *, first: bool) -> None:
    assert await ReconnectMarker().preprocess(None, root, _hydrate(first=first)) is None


def _tab(path: str):
    registry.discover()
    root = root_state(path)
    return root, substate(root, PageLoad)


def test_every_page_with_loads_opens_them_through_the_gate():
    """A /dash page's guard queues them (one event for the check and the gate), any other page ``PageLoad.open``."""
    for p in registry.discover():
        if p.on_load:
            spec = p.load_events[-1]
            assert spec.handler.fn.__name__ == ("dash_guard" if p.guarded else "open"), p.route
            assert [value._var_value for _, value in spec.args] == [p.route], p.route
        else:
            assert all(getattr(e, "args", ()) == () for e in p.load_events), p.route


async def test_a_first_load_and_a_browser_reload_run_the_page_loads():
    root, gate = _tab(routes.SESSIONS)
    await _connect(root, first=True)
    assert gate.open(routes.SESSIONS) == [SessionsState.load]
    await _connect(root, first=True)  # the browser reloads the page: a new document
    assert gate.open(routes.SESSIONS) == [SessionsState.load]


async def test_a_reconnect_to_the_loaded_address_only_resumes_the_poll():
    root, gate = _tab(routes.SESSIONS)
    await _connect(root, first=True)
    gate.open(routes.SESSIONS)
    await _connect(root, first=False)  # the websocket came back (another instance, a blip)
    assert gate.open(routes.SESSIONS) == [SessionsState.resume]
    # the flag is spent: the next opening (a click on the same link) loads again
    assert gate.open(routes.SESSIONS) == [SessionsState.load]


async def test_a_reconnect_keeps_a_form_as_typed():
    root, gate = _tab(routes.SIGNUP)
    signup = substate(root, SignupState)
    await _connect(root, first=True)
    assert gate.open(routes.SIGNUP) == [SignupState.load]
    await drain(signup.load())
    key = signup.form_key
    await _connect(root, first=False)
    assert gate.open(routes.SIGNUP) is None  # nothing runs: the form is not drawn again, its fields keep their text
    assert signup.form_key == key


async def test_navigation_loads_and_a_reconnect_elsewhere_loads():
    root, gate = _tab(routes.SESSIONS)
    await _connect(root, first=True)
    gate.open(routes.SESSIONS)
    navigate(root, routes.DASH_SUBS)  # a navigation: no hydrate, the loads run
    [load] = gate.open(routes.DASH_SUBS)
    assert load.fn.__name__ == "load"
    await _connect(root, first=False)
    navigate(root, routes.SESSIONS)  # reconnected at an address this tab has not loaded last
    assert gate.open(routes.SESSIONS) == [SessionsState.load]


async def test_the_gate_ignores_what_is_not_a_page():
    root, gate = _tab(routes.SESSIONS)
    assert gate.open("/no/such/page") is None
    assert gate.open(123) is None


async def test_a_reconnect_on_a_page_without_loads_does_not_spare_the_next_page_its_loads():
    root, gate = _tab(routes.SESSIONS)
    await _connect(root, first=True)
    gate.open(routes.SESSIONS)
    navigate(root, "/aboutUs")  # a page with nothing to load
    await _connect(root, first=False)  # the websocket comes back there
    navigate(root, routes.SESSIONS)  # back to the list: its rows are fetched again
    assert gate.open(routes.SESSIONS) == [SessionsState.load]

