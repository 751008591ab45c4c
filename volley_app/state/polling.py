"""Refreshing a page's list on a timer while the tab stays on that page (spec section 7 polling).

Several backend instances may share the state (Redis): a poll runs on the instance
that holds the tab's websocket and writes into the state who runs it (``_poll_owner``:
this process's ``INSTANCE_ID`` and the poll's own id) and when it last beat (wall
clock, comparable across hosts). A poll started where the tab's websocket now is takes
over from a poll of another instance (one that was stopped or killed, or that the
tab left on a reconnect); the poll it replaces sees the new owner and ends. A Redis or
database blip makes a round wait and try again with a growing pause; the poll goes on
once the service is back.

A page that names what it shows (``_live_interest``: a user's requests, one request, the
open list, the rows of a tracked table) does not wait the whole interval: a change it cares about,
committed on any instance (``services.core.live``), starts its next round at once. And while those
notices reach this process, a round of the timer that heard of none costs nothing: it reads nothing,
takes no lock and sends nothing (nothing the page shows is newer than what it shows); the page is still
read again at least every ``REFRESH_SECONDS``, for what changes with the clock alone (a league's stage).

A round reads the database with the state unlocked (Reflex's background-task pattern): under the
lock it only checks that the tab is still on the page and beats; it releases the lock, reads
(``PolledPage._poll_read``), then takes the lock again just to assign what it read. So a slow
query never holds up the tab's own events, nor a Redis lock past its expiry.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeAlias

import redis.exceptions
import reflex as rx
import sqlalchemy.exc

from volley_app.services.core import live
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.settings import get_settings

# A list's page read again by a poll: where the list stood when it was read (bookmark, first row, filters), and the
# read (``state.paging.PagedList._read_again``).
Again: TypeAlias = tuple[tuple[str, int, dict[str, str]], tuple[Page | None, DomainError | None]]

log = logging.getLogger(__name__)

# A poll ends when its tab's websocket goes (told by the socket server, or else checked every CHECK_SECONDS while
# it waits), when the tab leaves the page or logs out, and in any case after MAX_POLL_SECONDS (opening the page again
# starts a new one).
MAX_POLL_SECONDS = 3600
CHECK_SECONDS = 5.0
# After a failed round (Redis or the database unreachable): wait RETRY_FIRST_SECONDS, doubling up to RETRY_MAX_SECONDS.
RETRY_FIRST_SECONDS = 1.0
RETRY_MAX_SECONDS = 30.0
# A page that hears of its changes (see above) is read again on the timer at least this often; between those reads,
# where the tab's moves are not told of, the poll checks at least this often that the tab still shows the page (under
# the state's lock, reading nothing).
REFRESH_SECONDS = 300.0
STILL_HERE_SECONDS = 60.0
# This process: a poll whose owner names another process is not running here.
INSTANCE_ID = uuid.uuid4().hex
# What a round survives: the shared state or the database briefly out of reach.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    sqlalchemy.exc.OperationalError,
    sqlalchemy.exc.InterfaceError,
    ConnectionError,
    TimeoutError,
)


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
    if not token:
        return False
    # The tabs connected here, looked up in place: Reflex's ``token_to_sid`` copies the whole table on each read,
    # and every open page's poll asks every CHECK_SECONDS.
    sockets = getattr(getattr(namespace, "_token_manager", None), "token_to_socket", None)
    return token in (sockets if isinstance(sockets, dict) else namespace.token_to_sid)


# The polls of this process by tab (client token), each with where it reads. The socket server tells of a tab that
# closed (:func:`tab_left`) and each /dash page's guard of the page a tab opened (:func:`tab_opened`): the tab's
# polls that no longer read what it shows wake at once and end. Then a poll need not look at its tab on a timer.
_by_tab: dict[str, dict[live.Watch, Where]] = {}
_signals = False


def signals_on() -> None:
    """Called by the socket server's token manager: closed tabs are told of (:func:`tab_left`)."""
    global _signals
    _signals = True


def tab_left(token: str) -> None:
    """The tab ``token`` has no websocket here any more: its polls end."""
    for watch in list(_by_tab.get(token, {})):
        watch.poke()


def tab_opened(token: str, address: str) -> None:
    """The tab ``token`` opened the page at ``address``: its polls that read elsewhere end."""
    for watch, where in list(_by_tab.get(token, {}).items()):
        if not _covers(where, address):
            watch.poke()


def _still_every() -> float:
    """How often a poll that hears of its changes, and reads nothing, checks under the lock that its tab still shows
    its page (and beats): seldom where the tab's moves wake it."""
    return REFRESH_SECONDS if _signals else STILL_HERE_SECONDS


def _covers(where: Where, address: str) -> bool:
    page, within = where[0].rstrip("/"), where[1]
    address = address.rstrip("/")
    return address == page or (within and address.startswith(f"{page}/"))


async def _wait(state, seconds: float, watch: live.Watch | None = None) -> bool | None:
    """Sleep ``seconds``, or until ``watch`` hears of a change or is woken: True when it was, None when the time ran
    out; False as soon as the tab has gone. Where closed tabs are not told of, the tab is looked at every
    ``CHECK_SECONDS`` meanwhile."""
    left = seconds
    while left > 0:
        step = left if _signals else min(CHECK_SECONDS, left)
        if watch is not None:
            if await watch.changed(step):
                return tab_connected(state)  # read again now
        else:
            await asyncio.sleep(step)
        left -= step
        if not tab_connected(state):
            return False
    return None


def _hears_changes(watch: live.Watch) -> bool:
    """Whether a change the page shows would reach this process now (its interest named, and with several
    processes, the Redis subscriber up): then a round of the timer that heard of none need not read."""
    return not watch.interest.empty and (not get_settings().redis_url or live.subscriber_connected())


# A round's read: run with the state unlocked (database work, no assignment), it answers what assigns its result
# under the state lock, or None (nothing to assign). The assignment may answer a further read.
Assign: TypeAlias = Callable[[], "Awaitable[Read | None] | Read | None"]
Read: TypeAlias = Callable[[], Awaitable[Assign | None]]


# The polls running in this process, by owner. A poll cancelled with its page-load chain (the tab reloaded or
# opened its page again) leaves its owner and a fresh beat in the state, but not here.
_running: set[str] = set()


def _runs_here(owner: str) -> bool:
    return owner.split("/", 1)[0] == INSTANCE_ID


def _alive_here(owner: str) -> bool:
    """Whether the poll ``owner`` runs in this process now."""
    return _runs_here(owner) and owner in _running


def _shows(owner: str, path: str) -> bool:
    """Whether the poll ``owner`` reads the address ``path`` (an owner that names none reads the page's only one)."""
    return "@" not in owner or owner.endswith(f"@{path}")


def running(owner: str, beat: float, seconds: float, path: str) -> bool:
    """Whether the poll ``owner`` of a tab's state, which last beat at ``beat``, runs in this process now and reads
    ``path`` every ``seconds``: then starting it again does nothing."""
    return _alive_here(owner) and abs(time.time() - beat) < 2 * max(seconds, _still_every()) and _shows(owner, path)


# Where a poll reads: the page's address, and whether the addresses below it count too.
Where: TypeAlias = tuple[str, bool]


async def poll_page(
    state,
    *,
    path: str,
    seconds: float,
    reload: Read,
    beat_attr: str = "_poll_beat",
    owner_attr: str = "_poll_owner",
    interest: Callable[[], live.Interest | None] | None = None,
    within: bool = False,
) -> None:
    """Read the page again every ``seconds`` while the tab is connected and shows ``path`` (``within``: or any
    address below it, as the header's bell does on every /dash page).

    Meant for the body of a background event. At most one poll runs per tab and
    page state: a second call on the instance running the poll (any browser may
    send the event) returns at once while that poll beats; a call on another
    instance (the tab's websocket moved there) takes over, and so does a call after
    this instance's poll was cancelled (a reload cancels the page's load chain).

    Args:
        state: the background event's state proxy.
        path: the page's route; the poll stops once the tab is elsewhere or logged out. For a route with
            a dynamic segment, the address the tab shows when the poll starts (a poll started for another
            record of the same page takes over).
        seconds: the interval.
        reload: the round's read: called with the state unlocked, it does the database work and answers what
            assigns the result (called inside ``async with state``), or None (:data:`Read`).
        beat_attr: a backend float var of the state holding the last heartbeat (seconds since the epoch).
        owner_attr: a backend str var of the state naming the poll that runs ("instance/poll").
        interest: what the page shows, read under the state lock before each wait; a change it
            names ends the wait at once.
    """
    async with state:
        if "[" in path:  # a page with an id in its address: the poll follows the one the tab shows
            path = state.router.url.path or path
        me = f"{INSTANCE_ID}/{uuid.uuid4().hex}@{path}"
        beat, owner = getattr(state, beat_attr), getattr(state, owner_attr)
        if running(owner, beat, seconds, path):
            return
        if not _covers((path, within), state.router.url.path or ""):
            return  # the tab went on to another page before this poll started
        _running.discard(owner)  # one of this process that is taken over ends at its next wake
        setattr(state, owner_attr, me)
        setattr(state, beat_attr, time.time())
        wants = (interest() if interest else None) or live.Interest()
        token = getattr(getattr(state.router, "session", None), "client_token", "")
        _running.add(me)
    try:
        with live.watch(wants) as watch:
            _by_tab.setdefault(token, {})[watch] = (path, within)
            try:
                await _rounds(state, me, (path, within), seconds, reload, beat_attr, owner_attr, interest, watch)
            finally:
                polls = _by_tab.get(token, {})
                polls.pop(watch, None)
                if not polls:
                    _by_tab.pop(token, None)
    finally:
        _running.discard(me)


async def _rounds(state, me: str, path: Where, seconds: float, reload: Read, beat_attr: str, owner_attr: str,
                  interest: Callable[[], live.Interest | None] | None, watch: live.Watch) -> None:  # fmt: skip
    ends = time.monotonic() + MAX_POLL_SECONDS
    pause = 0.0  # after a failed round
    rounds = max(1, round(MAX_POLL_SECONDS / seconds))
    # The first round reads, whether or not it heard of a change: one made between the page's own read and this
    # poll's start was told to nobody.
    read_at, checked_at = -math.inf, time.monotonic()
    while rounds > 0:
        heard = await _wait(state, pause or seconds, watch)
        if heard is False or me not in _running:
            break
        now = time.monotonic()
        if heard is None and not pause and _hears_changes(watch) and now - read_at < REFRESH_SECONDS:
            rounds -= 1  # nothing the page shows changed: nothing to read, nothing to send
            if now - checked_at >= _still_every():
                checked_at = now
                try:
                    async with state:
                        if not _still_here(state, me, path, owner_attr):
                            break
                        setattr(state, beat_attr, time.time())
                except TRANSIENT_ERRORS:
                    pass  # the next round tries again
            continue
        read_at = checked_at = now
        try:
            async with state:
                if not _still_here(state, me, path, owner_attr):
                    break
                setattr(state, beat_attr, time.time())
            if not await _read_and_assign(state, me, path, owner_attr, reload, interest, watch):
                break
        except TRANSIENT_ERRORS as exc:
            if time.monotonic() > ends:
                break  # an outage as long as a whole poll: opening the page again starts a new one
            pause = min(max(2 * pause, RETRY_FIRST_SECONDS), RETRY_MAX_SECONDS)
            log.warning("Poll of %s: %s; trying again in %.1f s", path[0], type(exc).__name__, pause)
            continue
        if pause:
            log.info("Poll of %s resumed", path[0])
        pause = 0.0
        rounds -= 1
    # Not running from here on: a poll started for the tab meanwhile (its page opened again while this one waits
    # for the lock below) takes over instead of trusting this one.
    _running.discard(me)
    try:
        async with state:
            if getattr(state, owner_attr) == me:
                setattr(state, beat_attr, 0.0)
                setattr(state, owner_attr, "")
    except TRANSIENT_ERRORS:
        pass  # the beat goes stale by itself


def _still_here(state, me: str, path: Where, owner_attr: str) -> bool:
    """Under the lock: this poll still owns the tab's poll, and the tab still shows ``path`` (or, ``within``, an
    address below it) to a logged-in user."""
    if getattr(state, owner_attr) != me:
        return False  # another poll took over
    return _covers(path, state.router.url.path or "") and bool(state.logged_in)


async def _read_and_assign(state, me: str, path: Where, owner_attr: str, read: Read,
                           interest: Callable[[], live.Interest | None] | None, watch: live.Watch) -> bool:  # fmt: skip
    """One round's reads, each with the state unlocked, and their assignments, each under the lock; False when the
    tab left the page (or another poll took over) meanwhile: what was read is dropped."""
    step: Read | None = read
    while step is not None:
        assign = await step()
        async with state:
            if not _still_here(state, me, path, owner_attr):
                return False
            follow: Any = assign() if assign is not None else None
            if inspect.isawaitable(follow):
                follow = await follow
            if interest is not None:
                watch.interest = interest() or live.Interest()
        step = follow
    return True


class PolledPage(rx.State, mixin=True):
    """A page whose rows are fetched again every ``_poll_seconds`` while the tab stays on ``_poll_path``.

    A subclass writes ``async def _reload(self)`` (fetch and assign what the page shows) and names its page
    and interval; its ``load`` (the page's on_load) fetches once and starts the one poll of the tab; its
    ``resume`` (run by the registry instead of ``load`` when the tab's websocket comes back) starts the
    poll again where the tab now is. The poll reads through ``_poll_read`` (a list's page by default), with
    the state unlocked.
    """

    _poll_beat: float = 0.0
    _poll_owner: str = ""
    _poll_path: str = ""
    _poll_seconds: float = 60.0

    if TYPE_CHECKING:  # what a page's state brings (see the class's description)

        async def _reload(self) -> None: ...

        async def _read_again(self) -> Again: ...

        def _show_again(self, again: Again) -> None: ...

    # The tables whose rows the page shows (``live.track``): a change to one reads the page again at once.
    _live_tables: ClassVar[frozenset[str]] = frozenset()

    def _live_interest(self) -> live.Interest | None:
        """What the page shows, for live updates: by default, its tables' rows; None: the timer only."""
        return live.Interest(tables=self._live_tables) if self._live_tables else None

    async def load(self):
        await self._reload()
        return type(self).poll

    async def _poll_read(self) -> Assign | None:
        """A poll round's read, run with the state unlocked: database work only, no assignment and no other
        state (``get_state`` needs the lock). It answers what assigns the result under the lock (:data:`Read`).

        By default the page shown of a list (``state.paging.PagedList``), read again; a page that shows more
        writes its own.
        """
        again = await self._read_again()
        return lambda: self._show_again(again)

    @rx.event
    def resume(self):
        """On a reconnect of the tab (perhaps to another instance): the rows stay as they are; the poll goes on here."""
        return type(self).poll

    @rx.event(background=True)  # type: ignore[operator]  # mypy reads Reflex's rx.event as its namespace class
    async def poll(self):
        """Fetch the page's rows again on the timer while the tab stays on the page."""
        await poll_page(self, path=self._poll_path, seconds=self._poll_seconds, reload=self._poll_read,
                        interest=self._live_interest)  # fmt: skip
