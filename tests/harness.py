"""Calling Reflex state handlers directly, as any connected browser could: a tab's state tree, its events."""

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
    """Point every state of the tab at ``path`` (what the router tells them when the page changes)."""
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
    return root.get_substate(cls.get_full_name().split(".")[1:])


async def drain(gen) -> list:
    return [ev async for ev in gen]


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


async def call_as(token: str | None, cls, path: str, method: str, *args):
    """Open ``path`` in a new tab logged in with ``token`` (None: nobody), run one handler of ``cls``.

    Returns the state and the events the handler returned or yielded.
    """
    state = substate(root_state(path), cls)
    if token is not None:
        state.token_trusted = token
    result = getattr(state, method)(*args)
    if inspect.isasyncgen(result):
        events = await drain(result)
    else:
        events = await result if inspect.isawaitable(result) else result
    return state, events
