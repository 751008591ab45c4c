"""The person's notifications (/dash/notifications), live; and how each kind reaches them (My Info: every kind's
email, and a sub's choice of emails about sub requests, which is two of those kinds: saving one shows in the other)."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx

from volley_app import routes
from volley_app.services.core import live
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.mail import mail_lists, notices
from volley_app.services.mail.notices import NotificationRow, PreferenceRow
from volley_app.state.auth import AuthState, NotificationBell
from volley_app.state.forms import FormState, failure_text, focus, form_values, run_action
from volley_app.state.paging import PolledList

LIST_ERROR_ID = "notifications-error"
PREFS_ERROR_ID = "notification-preferences-error"
ALL_READ = "Every notification is marked read."


class ShownNotification(TypedDict):
    """A notification as the list shows it: strings and a flag."""

    id: str
    title: str
    text: str
    href: str
    when: str
    unread: bool


def _shown(r: NotificationRow) -> ShownNotification:
    return {"id": str(r["id"]), "title": r["title"], "text": r["text"], "href": r["link"] or routes.NOTIFICATIONS,
            "when": r["when"], "unread": r["unread"]}  # fmt: skip


class NotificationListState(PolledList, AuthState):
    """The person's notifications, newest first, a page at a time; read again at once when one is made or read."""

    rows: rx.Field[list[ShownNotification]] = rx.field(default_factory=list)
    error: rx.Field[str] = rx.field("")
    notice: rx.Field[str] = rx.field("")
    loaded: rx.Field[bool] = rx.field(False)
    unread: rx.Field[int] = rx.field(0)
    busy: rx.Field[bool] = rx.field(False)

    _poll_path = routes.NOTIFICATIONS
    _poll_seconds = 60.0
    _filter_names = ()

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(notices.notifications_page, bookmark)

    def _show(self, rows: list[NotificationRow], failure: DomainError | None) -> None:
        self.rows = [_shown(r) for r in rows]
        self.error = failure.message if failure else ""
        self.loaded = True

    def _show_page(self, found: tuple[Page | None, DomainError | None], first: int) -> None:
        super()._show_page(found, first)
        page = found[0]
        self.unread = int(page.extra.get("unread", 0)) if page is not None else 0

    def _live_interest(self) -> live.Interest:
        return live.Interest(notices_of=self.user_id or None)

    async def load(self):
        self.notice = ""
        return await super().load()

    async def _tell_bell(self) -> None:
        bell = await self.get_state(NotificationBell)
        bell.unread = self.unread

    @rx.event
    async def mark_all_read(self):
        """Mark every notification of the person read (a second click while the first runs does nothing)."""
        if self.busy:
            return
        self.busy, self.notice = True, ""
        yield
        _marked, failure = await run_action(notices.mark_all_read, actor=await self._actor())
        self.busy = False
        if failure is not None:
            self.error = failure.message
            return
        await self._refresh()
        await self._tell_bell()
        self.notice = ALL_READ

    @rx.event
    async def open_one(self, notification_id: str):
        """Follow a notification's link: mark it read (the person's own only), then go to its page."""
        link, failure = await run_action(notices.mark_read, actor=await self._actor(), notification_id=notification_id)
        if failure is not None:
            self.error = failure.message
            return None
        return rx.redirect(link or routes.NOTIFICATIONS)


PREFS_SAVED = "Saved: how each kind of notification reaches you."
NOTIFY_SAVED = "Saved: what the sub requests email you."
PUSH_PREFIX = "push-"  # a push box's name: the kind's after it
NOTIFY_ERROR_ID = "sub-notify-error"


class NotificationPrefsState(FormState, AuthState):
    """My Info's Notifications form: for each kind, whether it is emailed. My Info's read fills it."""

    email_on: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)
    push_on: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)
    prefs_notice: rx.Field[str] = rx.field("")
    _fields = tuple(notices.KINDS) + tuple(PUSH_PREFIX + kind for kind in notices.KINDS)
    _error_id = PREFS_ERROR_ID

    def _show_prefs(self, rows: list[PreferenceRow] | None, failure: DomainError | None) -> None:
        """Show the preferences as My Info read them (``notices.preferences``), or none when refused."""
        self._clear_messages()
        self.prefs_notice = ""
        self.email_on = {r["kind"]: bool(r["email"]) for r in rows or []}
        self.push_on = {r["kind"]: bool(r["push"]) for r in rows or []}
        self.error = failure.message if failure else ""
        self._show_record()

    def _show_kinds(self, email_on: dict[str, bool]) -> None:
        """Some kinds saved elsewhere on the page (the sub's choice): the boxes drawn again with them."""
        self.email_on, self.prefs_notice = {**self.email_on, **email_on}, ""
        self._show_record()

    def _saved(self, rows: list[PreferenceRow], sub: SubNotifyState):
        self.email_on = {r["kind"]: bool(r["email"]) for r in rows}
        self.push_on = {r["kind"]: bool(r["push"]) for r in rows}
        self.prefs_notice = PREFS_SAVED
        self._show_record()
        sub._show_setting(mail_lists.setting_from(self.email_on))

    @rx.event
    async def save_prefs(self, form_data: dict | None = None):
        """The boxes as ticked: a ticked box emails (or pushes) its kind, an unticked one does not."""
        self.prefs_notice = ""
        ticked = form_values(form_data, self._fields)
        email = {kind: ticked[kind] for kind in notices.KINDS}
        pushed = {kind: ticked[PUSH_PREFIX + kind] for kind in notices.KINDS}
        sub = await self.get_state(SubNotifyState)
        return self._submit(notices.save_preferences, submitted={"email": email, "push": pushed},
                            done=lambda rows: self._saved(rows, sub))  # fmt: skip


class SubNotifyState(AuthState):
    """A sub's choice of emails about sub requests (My Info)."""

    notify: rx.Field[str] = rx.field("")
    notify_choices: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    is_sub: rx.Field[bool] = rx.field(False)
    notify_error: rx.Field[str] = rx.field("")
    notify_notice: rx.Field[str] = rx.field("")

    def _show_on_open(self, found: dict[str, object] | None, failure: DomainError | None) -> None:
        """Show the setting as My Info read it (``mail_lists.notification_setting``), or none when refused."""
        self.notify_error, self.notify_notice = "", ""
        if failure or not found:
            self.is_sub, self.notify, self.notify_choices = False, "", []
            return
        self.is_sub, self.notify = bool(found["is_sub"]), str(found["value"])
        choices = found["choices"]
        self.notify_choices = [dict(c) for c in choices] if isinstance(choices, list) else []

    def _show_setting(self, setting: str) -> None:
        """The setting as saved by the Notifications form (the select drawn again with it)."""
        if self.is_sub:
            self.notify, self.notify_notice = setting, ""

    @rx.event
    async def save_notify(self, form_data: dict | None = None):
        value = form_values(form_data, ("sub_notify",))["sub_notify"]
        self.notify_error, self.notify_notice = "", ""
        saved, failure = await run_action(mail_lists.set_notification, actor=await self._actor(), value=value)
        if failure:
            self.notify_error = failure_text(failure)
            return focus(NOTIFY_ERROR_ID)
        self.notify, self.notify_notice = str(saved), NOTIFY_SAVED
        prefs = await self.get_state(NotificationPrefsState)
        prefs._show_kinds(mail_lists.kinds_of(str(saved)))
        return None
