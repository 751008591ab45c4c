"""Calling Reflex state handlers directly, as any connected browser could: a state tree per tab, its events.

    root = root_state("/dash/notes/12")
    state = substate(root, NoteDetailState)
    events = await call(state.accept)
"""

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
    """The tab's address becomes ``path`` (every state of the tree sees it)."""
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
    """The tree's instance of the state class ``cls``."""
    return root.get_substate(cls.get_full_name().split(".")[1:])


def page_state(cls, path: str, token: str | None = None):
    """``cls``'s instance in a fresh tab at ``path``, logged in with ``token`` (None: nobody)."""
    state = substate(root_state(path), cls)
    if token:
        state.token_trusted = token
    return state


async def drain(gen) -> list:
    return [ev async for ev in gen]


async def call(handler, *args):
    """Run a handler however it is written (plain, coroutine or generator); its events, or what it returned."""
    result = handler(*args)
    if inspect.isasyncgen(result):
        return [ev async for ev in result]
    if inspect.iscoroutine(result):
        return await result
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
