"""Refreshing a page's list on a timer while the tab stays on that page (spec section 7 polling)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import reflex as rx

# A poll ends when its tab's websocket goes (checked every CHECK_SECONDS while it waits), when the
# tab leaves the page or logs out, and in any case after MAX_POLL_SECONDS (opening the page again starts
# a new one).
MAX_POLL_SECONDS = 3600
CHECK_SECONDS = 2.0


def tab_connected(state) -> bool:
    """Whether the tab behind ``state`` still has its websocket to this server.

    True where no socket server runs (handlers called directly, as the tests do).
    """
    try:
        from reflex_base.registry import RegistrationContext

        namespace = RegistrationContext.get().app.event_namespace
    except Exception:  # noqa: BLE001 - no running app in this process
        return True
    if namespace is None:
        return True
    token = getattr(getattr(state.router, "session", None), "client_token", "")
    return bool(token) and token in namespace.token_to_sid


async def _wait(state, seconds: float) -> bool:
    """Sleep ``seconds`` in short steps; False as soon as the tab has gone."""
    left = seconds
    while left > 0:
        step = min(CHECK_SECONDS, left)
        await asyncio.sleep(step)
        left -= step
        if not tab_connected(state):
            return False
    return True


async def poll_page(
    state,
    *,
    path: str,
    seconds: float,
    reload: Callable[[], Awaitable[None]],
    beat_attr: str = "_poll_beat",
) -> None:
    """Call ``reload`` every ``seconds`` under the state lock while the tab is connected and shows ``path``.

    Meant for the body of a background event. At most one poll runs per tab and
    page state: a second call (any browser may send the event) returns at once
    while the first is alive, judged by the heartbeat it writes each round.

    Args:
        state: the background event's state proxy.
        path: the page's route; the poll stops once the tab is elsewhere or logged out.
        seconds: the interval.
        reload: the state's own reload method (called inside ``async with state``).
        beat_attr: a backend float var of the state holding the last heartbeat.
    """
    async with state:
        if time.monotonic() - getattr(state, beat_attr) < 2 * seconds:
            return
        setattr(state, beat_attr, time.monotonic())
    for _ in range(max(1, round(MAX_POLL_SECONDS / seconds))):
        if not await _wait(state, seconds):
            break
        async with state:
            if (state.router.url.path or "").rstrip("/") != path.rstrip("/") or not state.logged_in:
                setattr(state, beat_attr, 0.0)
                return
            setattr(state, beat_attr, time.monotonic())
            await reload()
    async with state:
        setattr(state, beat_attr, 0.0)


class PolledPage(rx.State, mixin=True):
    """A page whose rows are fetched again every ``_poll_seconds`` while the tab stays on ``_poll_path``.

    A subclass writes ``async def _reload(self)`` (fetch and assign what the page shows) and names its page
    and interval; its ``load`` (the page's on_load) fetches once and starts the one poll of the tab.
    """

    _poll_beat: float = 0.0
    _poll_path: str = ""
    _poll_seconds: float = 60.0

    async def load(self):
        await self._reload()
        return type(self).poll

    @rx.event(background=True)
    async def poll(self):
        """Fetch the page's rows again on the timer while the tab stays on the page."""
        await poll_page(self, path=self._poll_path, seconds=self._poll_seconds, reload=self._reload)
