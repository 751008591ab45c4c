"""Whether a page's own loads run: on an opening of the page, not when the tab's websocket comes back.

A page's own loads run when the page is opened (a first load, a browser reload, a
navigation) and not when the tab's websocket comes back (a network blip, a proxy
timeout, the instance holding the socket stopped or killed): Reflex sends the
page's hydrate again then, and the loads would empty the form being typed. On such
a reconnect the page's states ``resume`` instead (a polled list starts its poll
where the tab now is). Reflex's first hydrate of a document carries the hashes of
the compiled state the document holds; a reconnect's does not: the registry's
``ReconnectMarker`` notes which it was in :class:`PageLoad`, which decides.

A /dash page's session check decides in the same event (``SessionGuard.dash_guard``), and runs the loads there
too (:func:`run_here`); a page outside /dash has :meth:`PageLoad.open` as its on_load.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import reflex as rx

from volley_app.state import redis_state
from volley_app.state.outage import backend_exception_handler

try:  # Reflex's own way of running a handler within an event: its state changes sent, what it queues queued
    from reflex_base.event.context import EventContext
    from reflex_base.event.processor.base_state_processor import chain_updates, process_event
except ImportError:  # another Reflex: each load is an event of its own, as it was queued
    EventContext = None  # type: ignore[assignment,misc]
# Written against the pinned Reflex (as the state managers are); under another, each load is queued as an event.
IN_EVENT = EventContext is not None and redis_state.fits()

# By route: the page's loads, and what runs instead of them on a reconnect of the same tab (the registry declares them).
_OPENINGS: dict[str, tuple[tuple[Any, ...], tuple[Any, ...]]] = {}


def declare(route: str, loads: Sequence[Any], resumes: Sequence[Any]) -> None:
    _OPENINGS[route] = (tuple(loads), tuple(resumes))


def declares(route: object) -> bool:
    """Whether ``route`` is a page with loads of its own."""
    return isinstance(route, str) and route in _OPENINGS


def address(state: rx.State) -> str:
    """The address the tab shows: path and query."""
    url = state.router.url
    return f"{url.path}?{url.query}" if getattr(url, "query", "") else str(url.path)


class PageLoad(rx.State):
    """Which address this tab last loaded, and where its websocket last came back."""

    _loaded: str = ""
    _reconnected_at: str = ""
    # Set by each hydrate (the registry's ``ReconnectMarker``), spent by the page-open event after it: that event finds
    # a tab not marked hydrated because the hydrate unmarked it, not because its state is new.
    _hydrated_now: bool = False

    def _opening(self, route: object) -> list[Any]:
        """What runs as the page at ``route`` opens: its loads, or on a reconnect to the address already loaded its
        ``resume`` events; nothing for a route with no loads."""
        if not declares(route):
            return []
        loads, resumes = _OPENINGS[route]  # type: ignore[index]
        here = address(self)
        reconnected_here, self._reconnected_at = self._reconnected_at == here, ""
        if reconnected_here and here == self._loaded:
            return list(resumes)
        self._loaded = here
        return list(loads)

    @rx.event
    def open(self, route: str):
        """The page's loads on an opening; its ``resume`` events on a reconnect to the address already loaded."""
        return self._opening(route) or None


async def run_here(state: rx.State, loads: Sequence[Any]) -> list[Any]:
    """Run a page's ``loads`` within the event under way (the /dash guard's), each as Reflex would run it as an event
    of its own (what it changes is sent, what it queues is queued, what it raises is shown as Reflex shows it), but
    without taking the tab's lock and reading its state again for each. Returns what could not run here, to be queued
    as before: a background load (it takes the lock itself when it needs to), and every load outside an event (a
    handler called directly).
    """
    if not IN_EVENT or not loads:
        return list(loads)
    try:
        EventContext.get()
    except LookupError:
        return list(loads)
    root = state._get_root_state()
    queued: list[Any] = []
    for handler in loads:
        if getattr(handler, "is_background", True) or getattr(handler, "state", None) is None:
            queued.append(handler)
            continue
        try:
            target = await state.get_state(handler.state)
            await process_event(handler=handler, payload={}, state=target, root_state=root)
        except Exception as failure:  # noqa: BLE001 - one load's failure is shown; the page's other loads still run
            await chain_updates(backend_exception_handler(failure), handler_name=handler.fn.__qualname__)
    return queued
