"""AuthState: who is logged in in this browser tab, as the server sees it.

The browser keeps only an opaque session token: in localStorage when the
device is trusted (survives a restart), else in sessionStorage (this tab
only). Every event that needs the user resolves the token against the
database again, so a logout or an expiry anywhere takes effect at once (a
/dash page's loads, run in its guard's event, use the guard's answer).
"""

from __future__ import annotations

import contextvars
import json
import logging
from typing import Any

import reflex as rx
from reflex.event import EventSpec

from volley_app import db, routes
from volley_app.services.accounts import auth
from volley_app.services.accounts.auth import LoginResult
from volley_app.services.core import live
from volley_app.services.core.actors import Actor, display_status
from volley_app.services.mail import notices
from volley_app.settings import get_settings
from volley_app.state import page_load, polling
from volley_app.state.page_load import PageLoad
from volley_app.state.polling import Assign, poll_page, running

log = logging.getLogger(__name__)


# The login the event under way resolved as it began: a /dash page's loads, run in the guard's event
# (``SessionGuard.dash_guard``), ask for the user again and get the answer of a moment before.
_resolved: contextvars.ContextVar[tuple[str, Actor] | None] = contextvars.ContextVar("resolved_login", default=None)


async def actor_of_token(token: str) -> Actor | None:
    """The user a session token belongs to right now, or None (a background event reads the token under the tab's
    lock and asks the database without it)."""
    if not token:
        return None
    known = _resolved.get()
    if known is not None and known[0] == token:
        return known[1]
    return await db.run(auth.resolve, token)


def leave_for(address: str, *, replace: bool = False) -> EventSpec:
    """Off to a page the backend draws (the home page, the login): the browser loads it (the app's router has no
    such page). ``replace``: this page leaves the history, as a redirect does."""
    how = "replace" if replace else "assign"
    return rx.call_script(f"window.location.{how}({json.dumps(routes.backend_page(address))})")


class AuthState(rx.State):
    # Client storage: the only copy of the token outside the server.
    # (Reflex knows a client-stored var by its default: each is given as the default, not made by a factory.)
    token_trusted: rx.Field[str] = rx.field(rx.LocalStorage("", name=auth.BROWSER_TOKEN))
    token_tab: rx.Field[str] = rx.field(rx.SessionStorage("", name=auth.BROWSER_TAB_TOKEN))
    # The Trust This Device preference: "" (unset), "true" or "false".
    persist: rx.Field[str] = rx.field(rx.LocalStorage("", name=auth.BROWSER_TRUST))
    # This browser's device token, set at a successful login: a known device is held by no failed-login ceiling.
    device: rx.Field[str] = rx.field(rx.Cookie("", name=auth.BROWSER_DEVICE, max_age=auth.DEVICE_DAYS * 86400, same_site="strict",
                                               secure=get_settings().public_url.lower().startswith("https://")))  # fmt: skip

    # What the page may show about the logged-in user.
    user_id: rx.Field[int] = rx.field(0)
    username: rx.Field[str] = rx.field("")
    first_name: rx.Field[str] = rx.field("")
    roles: rx.Field[list[str]] = rx.field(default_factory=list)
    restore_error: rx.Field[str] = rx.field("")
    # Set when the logged-in user's roles may not open this page: who the page is for, in words.
    refused_for: rx.Field[str] = rx.field("")

    @rx.var
    def status(self) -> str:
        """The display status (Admin over SVL over Player), from the roles; '' when nobody is logged in."""
        return display_status(self.roles) if self.roles else ""

    @rx.var
    def logged_in(self) -> bool:
        return self.user_id > 0

    @rx.var
    def home_path(self) -> str:
        """The user's own home (the way out of a page that is not for them)."""
        return routes.home_for(self.roles)

    @rx.var
    def is_svl_view(self) -> bool:
        """The SVL navigation shows when the display status is SVL."""
        return self.status == "SVL"

    def _token(self) -> str:
        return self.token_trusted or self.token_tab

    async def _actor(self) -> Actor | None:
        """The user this tab's token belongs to right now, or None."""
        return await actor_of_token(self._token())

    def _client(self) -> str:
        return self.router.session.client_ip or "unknown"

    def _show_user(self, actor: Actor | None) -> None:
        if actor is None:
            self.user_id, self.username, self.first_name, self.roles = 0, "", "", []
            return
        self.user_id = actor.user_id
        self.username = actor.username
        self.roles = list(actor.roles)
        self.first_name = actor.first_name

    def _apply_login(self, result: LoginResult) -> None:
        """Keep a fresh session token where the trust choice says."""
        if result.trusted:
            self.token_trusted, self.token_tab = result.token, ""
        else:
            self.token_trusted, self.token_tab = "", result.token
        self.persist = "true" if result.trusted else "false"
        if result.device:
            self.device = result.device
        self.restore_error = ""
        self._show_user(result.actor)

    async def _clear_private(self) -> None:
        """Forget every private value this tab's states hold."""
        for substate_cls in AuthState.get_substates():
            sub = await self.get_state(substate_cls)
            sub.reset()
        self.token_trusted = ""
        self.token_tab = ""
        self._show_user(None)

    @rx.event
    async def forget(self):
        """Forget what this tab's states hold about the login it had (sent by ``SessionGuard`` when it no longer
        holds). Runs here, where one read brings every page's state, rather than in the guard, which would read
        them one by one; any tab may send it, and it only empties that tab's own states."""
        await self._clear_private()

    async def logout(self):
        token = self._token()
        if token:
            await db.run(auth.logout, token)
        await self._clear_private()
        self.restore_error = ""
        return leave_for(routes.HOME)


class SessionGuard(AuthState):
    """The session check every /dash page runs when it opens (``dash_guard``), in a state with no substates.

    Where the tabs' state lives in Redis, an event reads from there the state it
    runs on, its parents and all its substates: a handler on ``AuthState`` itself
    would read (and create) the state of every page, as every page's state derives
    from it. Here the check reads three: the root, ``AuthState`` (whose vars it sets;
    they live there) and this one, then the header's bell and, for a page with loads,
    ``PageLoad``. When the tab's login no longer holds, it hands the forgetting of the
    pages' states to ``AuthState.forget``.
    """

    async def dash_guard(self, route: str = ""):
        """on_load of every /dash page: restore the session, then apply the route's role guard; then the page's own
        loads, for the page declared at ``route`` (``state.page_load``), queued from here rather than by an event of
        their own.

        Nobody logged in: to the login page, which comes back here. Logged in with a role the page
        is not for: the page shows who it is for and a link home instead of its content.
        """
        checked, actor = await self._guard()
        opening = (await self.get_state(PageLoad))._opening(route) if page_load.declares(route) else []
        if not opening:
            return checked
        if actor is not None:  # the loads run here, with the login just resolved
            known = _resolved.set((self._token(), actor))
            try:
                opening = await page_load.run_here(self, opening)
            finally:
                _resolved.reset(known)
        queued = [*(checked if isinstance(checked, list) else [checked] if checked is not None else []), *opening]
        return queued or None

    async def _guard(self) -> tuple[Any, Actor | None]:
        """The session and role check of :meth:`dash_guard`: what it queues (or None), and who is logged in."""
        path = self.router.url.path or routes.DASH
        polling.tab_opened(self.router.session.client_token, path)  # the tab's polls of another page end
        token = self._token()
        actor, unread = await db.run(auth.resolve_with_unread, token) if token else (None, 0)
        bell = await self.get_state(NotificationBell)
        bell.unread = unread
        self.refused_for = ""
        if actor is None:
            # A tab that had a login: its pages' states forget what they hold (``AuthState.forget``, next).
            forget = [AuthState.forget] if token or self.user_id else []
            self.token_trusted, self.token_tab = "", ""
            self._show_user(None)
            if token or self.restore_error == auth.SESSION_EXPIRED:
                # A persisted login that no longer holds: say so, with the way back (also when this tab
                # already forgot its token on an earlier page, until it logs in again).
                self.restore_error = auth.SESSION_EXPIRED
                return forget or None, None
            self.restore_error = ""
            return [*forget, leave_for(routes.login_with_next(path), replace=True)], None
        self.restore_error = ""
        self._show_user(actor)
        if not routes.may_open(actor.roles, path):
            # Logged in, but not as someone this page is for: say so, with the way home.
            self.refused_for = routes.audience(path)
        if bell._poll_user == actor.user_id and running(bell._poll_owner, bell._poll_beat, BELL_SECONDS, routes.DASH):
            return None, actor  # the bell's poll, started on an earlier page of this login, goes on here
        bell._poll_user = actor.user_id
        return NotificationBell.poll, actor


class NotificationBell(AuthState):
    """The bell in the header of every /dash page: how many of the person's notifications are unread.

    ``SessionGuard.dash_guard`` reads the count with the login as each page opens and starts :meth:`poll` (unless
    it runs already for that login), which reads it again at once when a notification of the person's is made or
    read (``live.notices_changed``), and on a timer, while the tab stays on /dash pages.
    """

    unread: rx.Field[int] = rx.field(0)
    _poll_beat: float = 0.0
    _poll_owner: str = ""
    _poll_user: int = 0  # whose count the poll keeps

    @rx.var
    def unread_text(self) -> str:
        """The count the bell shows: nothing for none, "99+" past the cap."""
        return notices.count_text(self.unread)

    @rx.var
    def bell_label(self) -> str:
        """The bell's accessible name: "Notifications, 3 unread", or "Notifications"."""
        text = notices.count_text(self.unread)
        return f"Notifications, {text} unread" if text else "Notifications"

    def _interest(self) -> live.Interest:
        return live.Interest(notices_of=self.user_id or None)

    async def _read_count(self) -> Assign | None:
        """A round's read, with the tab unlocked: the count as the tab's login reads it now."""
        _actor, unread = await db.run(auth.resolve_with_unread, self._token())

        def show() -> None:
            self.unread = unread

        return show

    async def _reload(self) -> None:
        """Read the count again and show it."""
        show = await self._read_count()
        if show is not None:
            show()

    @rx.event(background=True)  # type: ignore[operator]  # mypy reads Reflex's rx.event as its namespace class
    async def poll(self):
        """Keep the count while the tab stays on /dash pages, logged in."""
        await poll_page(self, path=routes.DASH, within=True, seconds=BELL_SECONDS, reload=self._read_count,
                        interest=self._interest)  # fmt: skip


# The bell reads its count again this often when no notice came (the live notices' fallback).
BELL_SECONDS = 60.0
