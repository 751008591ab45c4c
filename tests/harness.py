"""Calling Reflex state handlers directly, as any connected browser could: one tab's state tree, its URL, events."""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import re
from collections.abc import AsyncIterator

import reflex as rx
from reflex.event import EventSpec
from reflex.istate.data import ReflexURL, RouterData, SessionData
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.proxy import StateProxy
from reflex_base.event.context import EventContext

CLIENT_IP = "203.0.113.7"


def root_state(path: str = "/", client_ip: str = CLIENT_IP) -> rx.State:
    """A fresh state tree for one browser tab, with the router data a page load gives it, its page opened (its
    loads have run or were sent before what the test sends)."""
    root = rx.State(_reflex_internal_init=True)
    navigate(root, path, client_ip)
    root.is_hydrated = True
    return root


def navigate(root: rx.State, path: str, client_ip: str = CLIENT_IP) -> None:
    """The tab opens ``path``: every state in the tree sees the new address."""
    data = RouterData(
        session=SessionData(client_token="tab-token", client_ip=client_ip, session_id="sid"),
        url=ReflexURL(f"http://app.test{path}"),
    )

    def walk(state):
        state.router = data
        for sub in state.substates.values():
            walk(sub)

    walk(root)


def substate(root: rx.State, cls):
    """The tab's instance of the state class ``cls``."""
    return root.get_substate(cls.get_full_name().split(".")[1:])


def page_state(cls, path: str, token: str | None = None):
    """(root, state) for a tab at ``path`` logged in with ``token`` (None: nobody logged in)."""
    root = root_state(path)
    state = substate(root, cls)
    if token:
        state.token_trusted = token
    return root, state


async def drain(result) -> list:
    """Every event a handler sent: it may yield them, or return a generator of them (``return self._submit(...)``)."""
    if inspect.iscoroutine(result):
        result = await result
    if inspect.isasyncgen(result):
        return [ev async for ev in result]
    return [] if result is None else [result]


async def call(handler, *args):
    """Run a handler whichever kind it is (plain, coroutine, generator, or returning a generator).

    Returns the events it sent as a list when it yields or returns a generator, else what it returned.
    """
    result = handler(*args)
    if inspect.iscoroutine(result):
        result = await result
    if inspect.isasyncgen(result):
        return [ev async for ev in result]
    return result


def redirect_target(events) -> str | None:
    """The path of the last rx.redirect among the events a handler returned or yielded, or of the last page the
    browser is sent to load itself (``state.auth.leave_for``)."""
    if not isinstance(events, list | tuple):
        events = [events]
    target = None
    for ev in events:
        if isinstance(ev, EventSpec):
            args = {name._js_expr: getattr(value, "_var_value", None) for name, value in ev.args}
            if "path" in args and "external" in args:
                target = args["path"]
            script = args.get("javascript_code")
            left = re.fullmatch(r'window\.location\.(?:assign|replace)\((".*")\)', script or "")
            if left:
                target = json.loads(left.group(1))
    return target


@contextlib.asynccontextmanager
async def as_background(root: rx.State, state) -> AsyncIterator[tuple[StateProxy, StateManagerMemory]]:
    """``state`` (of the tab ``root``) as a background event gets it: a StateProxy whose ``async with`` takes the
    tab's lock. Yields the proxy and the tab's state manager (its locks tell whether the tab is locked)."""
    manager = StateManagerMemory()
    manager.states["tab-token"] = root
    root.router_data = {"pathname": state.router.url.path}  # a tab that has loaded its page

    async def emit(_token, _delta):
        pass

    with EventContext(token="tab-token", state_manager=manager, enqueue_impl=None, emit_delta_impl=emit):  # type: ignore[arg-type]
        yield StateProxy(state), manager


async def call_handler(token: str | None, cls, path: str, method: str, *args):
    """Open ``path`` in a fresh tab logged in with ``token`` (None: nobody) and call ``cls.method(*args)``,
    as Reflex runs it (a background event gets a StateProxy).

    Returns the state and what the handler returned or yielded.
    """
    root, state = page_state(cls, path, token)
    handler = cls.event_handlers.get(method)
    if handler is None or not handler.is_background:
        return state, await call(getattr(state, method), *args)
    async with as_background(root, state) as (proxy, _manager):
        return state, await call(functools.partial(handler.fn, proxy), *args)
