"""Calling Reflex state handlers directly, as any connected browser could: one tab's state tree, its URL, events."""

from __future__ import annotations

import inspect

import reflex as rx
from reflex.event import EventSpec
from reflex.istate.data import ReflexURL, RouterData, SessionData

CLIENT_IP = "203.0.113.7"


def root_state(path: str = "/", client_ip: str = CLIENT_IP) -> rx.State:
    """A fresh state tree for one browser tab, with the router data a page load gives it."""
    root = rx.State(_reflex_internal_init=True)
    navigate(root, path, client_ip)
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
    """The path of the last rx.redirect among the events a handler returned or yielded."""
    if not isinstance(events, list | tuple):
        events = [events]
    target = None
    for ev in events:
        if isinstance(ev, EventSpec):
            args = {name._js_expr: getattr(value, "_var_value", None) for name, value in ev.args}
            if "path" in args and "external" in args:
                target = args["path"]
    return target


async def call_handler(token: str | None, cls, path: str, method: str, *args):
    """Open ``path`` in a fresh tab logged in with ``token`` (None: nobody) and call ``cls.method(*args)``.

    Returns the state and what the handler returned or yielded.
    """
    _root, state = page_state(cls, path, token)
    return state, await call(getattr(state, method), *args)
