"""One sub request (/dash/notes/{id}): its details, Accept and Decline, and the requestor's edit form."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.calendar import add_to_calendar, webcal
from volley_app.components.forms import error_line, notice_line, select_field
from volley_app.components.layout import button_row, column, dash_page, details, labelled, page_heading, section_card
from volley_app.components.sub_invites import invite_queue_card
from volley_app.components.sub_matching import outcome_panel, suggestions_panel
from volley_app.components.sub_request_form import request_fields
from volley_app.components.sub_requests import status_badge, sub_picker
from volley_app.registry import page
from volley_app.services.accounts import venues
from volley_app.services.core import live
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.seasons import calendar
from volley_app.services.subs import request_changes, request_lists, request_page, request_replies
from volley_app.services.subs.request_lists import SubRequestDetail
from volley_app.services.subs.request_page import RequestPage
from volley_app.state.auth import AuthState
from volley_app.state.files import backend_address
from volley_app.state.forms import failure_text, flag, flags, focus, form_values, path_arg, run_action
from volley_app.state.polling import PolledPage
from volley_app.state.sub_invites import InviteQueueState
from volley_app.state.sub_matching import OutcomeState, SuggestionsState
from volley_app.state.sub_requests import FORM_ERROR_ID, RequestFormState, SubPickerList

DETAIL_ERROR_ID = "sub-request-detail-error"
ACCEPTED = "You accepted this sub request. The requestor has been emailed."
DECLINED = "You declined this sub request. The requestor has been emailed."
WITHDRAWN = "You gave up your place on this sub request. The requestor has been emailed."
UPDATED = "Sub request updated."
REOPENED = "Sub request reopened."
# The lines of the request's details: label and field.
DETAIL_LINES = (
    ("Requestor", "requestor"),
    ("Sub", "sub"),
    ("Status", "status"),
    ("Date", "date"),
    ("Location", "svl"),
    ("Court", "court"),
    ("Team", "team"),
    ("Skill Level", "skill_level"),
    ("Format", "format"),
    ("Needs", "needs"),
    ("Message", "text"),
)


class ShownRequest(TypedDict):
    """The browser's copy of a request: strings only, no emails (the service gives none)."""

    requestor: str
    sub: str
    status: str
    svl: str
    court: str
    team: str
    skill_level: str
    format: str
    text: str
    needs: str
    date: str
    completed: str
    confirm: str


def _shown(found: SubRequestDetail) -> ShownRequest:
    """The browser's copy of a request: strings only, no emails (the service gives none)."""
    return {
        "requestor": found["requestor"], "sub": found["sub"], "status": found["status"], "svl": found["svl"],
        "court": found["court"], "team": found["team"], "skill_level": found["skill_level"],
        "format": found["format"], "text": found["text"], "needs": found["needs"],
        "date": f"{found['date_text']}, {found['time_text']}",
        "completed": "Yes" if found["completed"] else "No",
        "confirm": f"Are you sure you want to delete the sub request for {found['team']} on {found['date_text']}?",
    }  # fmt: skip


class RequestRead(TypedDict):
    """What the page read of the request: the request (None with the ``failure`` that kept it), what was seen of
    it (``SubRequestState._seen``), and with it the first page of subs to reopen it to, the hints of its edit form
    and its calendar feed's path."""

    found: SubRequestDetail | None
    failure: DomainError | None
    seen: str
    choices: NotRequired[tuple[Page | None, DomainError | None]]
    hints: NotRequired[dict[str, Any] | None]
    feed: NotRequired[str | None]


def _editable(found: SubRequestDetail) -> dict[str, str]:
    """The edit form's defaults, by input name."""
    return {
        "team": found["team"], "when": found["local_input"], "svl": found["svl"], "court": found["court"],
        "skill_level": found["skill_level"], "sub_format": found["format"], "text": found["text"],
        "position_needed": found["position_needed"], "gender_needed": found["gender_needed"],
        "min_rating": found["min_rating"], "players_needed": str(found["players_needed"]),
    }  # fmt: skip


def _read(found: SubRequestDetail | None, failure: DomainError | None) -> RequestRead:
    """The request as read (None with the ``failure`` that kept it), and what was seen of it."""
    seen = repr(sorted(found.items())) if found is not None and failure is None else ""
    return {"found": found, "failure": failure, "seen": seen}


def _page_read(screen: RequestPage) -> RequestRead:
    """What the page shows of the request, from its page read in one call."""
    got = _read(screen.detail.value, screen.detail.failure)
    found = got["found"]
    if found is None or got["failure"]:
        return got
    if screen.reopen_choices is not None:
        got["choices"] = (screen.reopen_choices.value, screen.reopen_choices.failure)
    if found["can_edit"]:
        got["hints"] = screen.hints
    got["feed"] = screen.feed
    return got


def _may(found: SubRequestDetail | None) -> dict[str, bool]:
    return flags(found, "can_accept", "can_decline", "can_edit", "can_reopen", "can_withdraw")


class SubRequestState(SubPickerList, RequestFormState, PolledPage, AuthState):
    """One request, read again at once when it changes (live updates) and every 150 s otherwise."""

    _poll_path = routes.SUB_REQUEST
    _poll_seconds = 150
    note: rx.Field[ShownRequest | None] = rx.field(None)
    record: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    # what the reader may do to it: can_accept, can_decline, can_edit, can_reopen, can_withdraw
    may: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)
    approval_note: rx.Field[str] = rx.field("")
    load_error: rx.Field[str] = rx.field("")
    action_error: rx.Field[str] = rx.field("")
    notice: rx.Field[str] = rx.field("")
    feed: rx.Field[str] = rx.field("")
    feed_subscribe: rx.Field[str] = rx.field("")
    # What the service said of the request when last read: its panels read again when it changes.
    _seen: str = ""

    def _request_id(self) -> str:
        return path_arg(self, "request_id")

    async def _actor(self) -> Actor | None:
        """The logged-in user, from this state's own (inherited) token: no other state is needed, so a poll can
        ask with the state unlocked."""
        return await AuthState._actor(self)

    async def _read_and_show(self) -> SubRequestDetail | None:
        """The request read again and shown; returns it as read (None when it could not be), for its panels."""
        got = await self._read_request()
        self._show_request(got)
        return got["found"]

    async def _read_detail(self) -> RequestRead:
        """The request as its page shows it (one service call), and what was seen of it."""
        found, failure = await run_action(request_lists.detail, actor=await self._actor(), request_id=self._request_id())
        return _read(found, failure)

    async def _read_request(self, got: RequestRead | None = None) -> RequestRead:
        """What the page shows of the request, read and not shown: the request (``got``, when read already), a
        first page of subs to reopen it to, the time-zone hints of its form, its calendar feed. It assigns nothing
        and needs no other state (a poll reads it with the state unlocked); :meth:`_show_request` shows it."""
        if got is None:
            got = await self._read_detail()
        found = got["found"]
        if found is None or got["failure"]:
            return got
        actor, rid = await self._actor(), self._request_id()
        if found["can_reopen"]:
            got["choices"] = await self._read_first_choices()
        if found["can_edit"]:
            got["hints"], _f = await run_action(venues.time_hints)
        got["feed"], _f = await run_action(calendar.accepted_request_feed, actor=actor, request_id=rid)
        return got

    def _show_request(self, got: RequestRead, *, opening: bool = False) -> None:
        """Show what was read of the request; once the page is open (``opening`` false), a search typed in the
        reopen picker stays as typed, with what it found."""
        found, failure = got["found"], got["failure"]
        if failure or found is None:
            self.note, self.record, self.may = None, {}, _may(None)
            self.approval_note = ""
            self._seen = ""
            self._show_picker(False, None)
            self.load_error = failure.message if failure else ""
            return
        self.load_error = ""
        self.note = _shown(found)
        self.may = _may(found)
        self.approval_note = found["approval_note"]
        self._seen = got["seen"]
        # a page of subs by name to reopen it to
        self._show_picker(found["can_reopen"], got.get("choices"), keep_search=not opening)
        self.record = _editable(found) if found["can_edit"] else {}
        if found["can_edit"]:
            self._show_hints(got["hints"], found["svl"])
        path = got["feed"]
        self.feed = backend_address(path) if path else ""
        self.feed_subscribe = webcal(self.feed) if path else ""
        self._show_record()

    async def load(self):
        """The page opens: the request and its panels read in one call, shown here, in its invite list, its
        suggested subs and its marks."""
        self._clear_messages()
        self.action_error, self.notice = "", ""
        screen, failure = await run_action(request_page.request_page, actor=await self._actor(),
                                           request_id=self._request_id())  # fmt: skip
        got = _page_read(screen) if screen is not None else _read(None, failure)
        self._show_request(got, opening=True)
        queue_choices = screen.queue_choices if screen is not None else None
        await (await self.get_state(InviteQueueState))._open_queue(
            got["found"], (queue_choices.value, queue_choices.failure) if queue_choices is not None else None
        )
        suggestions = screen.suggestions if screen is not None else None
        (await self.get_state(SuggestionsState))._open_read(
            (suggestions.value, suggestions.failure) if suggestions is not None else (None, failure)
        )
        (await self.get_state(OutcomeState))._open_read(screen.outcome if screen is not None else None)
        return type(self).poll

    @rx.event
    async def read_again(self):
        """The request as it is now (after an invite from its suggestions); the invite list being built stays."""
        self._clear_messages()
        self.action_error, self.notice = "", ""
        await self._read_and_show()

    def _live_interest(self) -> live.Interest | None:
        request_id = self._request_id()
        return live.Interest(request_id=int(request_id)) if str(request_id).isdigit() else None

    async def _reload(self) -> None:
        """The request as it is now; the edit form keeps what is typed unless the request's details changed."""
        record, key, seen = self.record, self.form_key, self._seen
        found = await self._read_and_show()
        if self.record == record:
            self.form_key = key
        if self._seen != seen:  # the request changed (places, invites too): its panels follow
            await self._panels(found)

    async def _panels(self, found: SubRequestDetail | None) -> None:
        """The request's panels read it again, its invite list as ``found`` (the invite list being built stays)."""
        await (await self.get_state(SuggestionsState))._refresh()
        await (await self.get_state(OutcomeState))._read()
        await (await self.get_state(InviteQueueState))._refresh_queue(found)

    async def _poll_read(self):
        """A poll round, as :meth:`_reload` with the state unlocked while it reads: the request; when it changed,
        what the page shows of it, then (the lock taken and released again) its panels."""
        seen = self._seen
        read = await self._read_detail()
        if read["seen"] == seen:
            return None  # as it was: nothing to show again
        got = await self._read_request(read)

        async def show():
            if self._seen != seen:  # read again meanwhile (the viewer acted): this read is older
                return None
            record, key = self.record, self.form_key
            self._show_request(got)
            if self.record == record:
                self.form_key = key
            suggestions, outcome, queue = (await self.get_state(SuggestionsState), await self.get_state(OutcomeState),
                                           await self.get_state(InviteQueueState))  # fmt: skip
            return lambda: self._read_panels(got, suggestions, outcome, queue)

        return show

    async def _read_panels(
        self, request: RequestRead, suggestions: SuggestionsState, outcome: OutcomeState, queue: InviteQueueState
    ):
        """The panels' reads, with the state unlocked (``get_state`` gave them under the lock, for reading); the
        invite list's from ``request``, the request as the poll read it. They are shown only while the page still
        shows that request: one read again meanwhile (the viewer invited, say) is newer than these panels."""
        found = (await suggestions._read_again(), await outcome._read_marks(), await queue._read_queue(request["found"]))

        async def show():
            if self._seen != request["seen"]:
                return
            (await self.get_state(SuggestionsState))._show_again(found[0])
            (await self.get_state(OutcomeState))._show_marks(found[1])
            (await self.get_state(InviteQueueState))._show_queue(found[2])

        return show

    async def _act(self, fn, done: str):
        self.action_error, self.notice = "", ""
        _, failure = await run_action(fn, actor=await self._actor(), request_id=self._request_id())
        if failure:
            self.action_error = failure.message
        else:
            self.notice = done
        seen = self._seen
        found = await self._read_and_show()
        if self._seen != seen:
            await self._panels(found)
        if failure and self.load_error:
            # e.g. taken by another sub a moment ago, so no longer visible: say why, not just 'No access'.
            self.load_error = failure.message
        return focus(DETAIL_ERROR_ID) if failure else None

    @rx.event
    async def accept(self):
        return await self._act(request_replies.accept, ACCEPTED)

    @rx.event
    async def decline(self):
        return await self._act(request_replies.decline, DECLINED)

    @rx.event
    async def withdraw(self):
        """Give up the viewer's place ("I can't make it"); the page shows the request as it is now."""
        result = await self._act(request_replies.withdraw, WITHDRAWN)
        if self.notice == WITHDRAWN and self.load_error:  # no longer theirs to see: their own list says so
            return rx.redirect(routes.MY_SUB_REQUESTS)
        return result

    @rx.event
    async def reopen(self, form_data: dict | None = None):
        """Open a declined request again: to anyone, or to the sub chosen."""
        recipient = form_values(form_data, ("recipient",))["recipient"]
        self.action_error, self.notice = "", ""
        _, failure = await run_action(request_changes.reopen, actor=await self._actor(), request_id=self._request_id(),
                                      recipient_id=recipient or None)  # fmt: skip
        if failure:
            self.action_error = failure_text(failure)
            return focus(DETAIL_ERROR_ID)
        self.notice = REOPENED
        await self._read_and_show()
        return SuggestionsState.load

    @rx.event
    async def save(self, form_data: dict | None = None):
        if not self.busy:
            self.notice = ""
        values = self._request_values(form_data)
        async for event in self._submit(request_changes.update, request_id=self._request_id(), **values):
            yield event
        if not (self.busy or self.error or self.errors):
            self.notice = UPDATED
            await self._read_and_show()
            yield SuggestionsState.load

    @rx.event
    async def delete(self):
        _, failure = await run_action(request_changes.delete, actor=await self._actor(), request_id=self._request_id())
        if failure:
            self.action_error = failure.message
            return focus(DETAIL_ERROR_ID)
        self.note, self.record, self.may = None, {}, {**self.may, "can_edit": False}
        return rx.redirect(routes.MY_SUB_REQUESTS)


def _note() -> ObjectVar[ShownRequest]:
    """The request shown, field by field."""
    return SubRequestState.note  # type: ignore[return-value]  # reflex's Field stubs read a TypedDict field as an array


def _details() -> rx.Component:
    n = _note()

    def value(k: str) -> rx.Component | rx.Var:
        if k == "status":
            return status_badge(n[k])
        if k == "text":  # the message as written, its line breaks kept
            return rx.text(n[k], white_space="pre-wrap")
        return n[k]

    lines = [labelled(label, value(k)) for label, k in DETAIL_LINES]
    return rx.card(details(*lines), width="100%")


def _ask_first(trigger: rx.Component, title: str, question, keep: rx.Component, act: rx.Component) -> rx.Component:
    """``trigger`` opens the question ``title``; ``keep`` (or Escape) closes it, ``act`` does what it asks about."""
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(trigger),
        rx.alert_dialog.content(
            rx.alert_dialog.title(title),
            rx.alert_dialog.description(question),
            button_row(rx.alert_dialog.cancel(keep), rx.alert_dialog.action(act), spacing="3", justify="end",
                       margin_top="1rem"),  # fmt: skip
        ),
    )


def _delete_dialog() -> rx.Component:
    """The Delete Sub Request button, which asks first (it opens the question; Escape or Cancel closes it)."""
    s = SubRequestState
    return _ask_first(
        rx.button("Delete Sub Request", type="button", size="3", color_scheme="red", variant="soft"),
        "Delete Sub Request",
        _note()["confirm"],
        rx.button("Cancel", variant="soft", color_scheme="gray"),
        rx.button("Delete", color_scheme="red", on_click=s.delete),
    )


def _edit_form() -> rx.Component:
    s = SubRequestState
    return section_card(
        "Edit Sub Request",
        error_line(s.error, FORM_ERROR_ID),
        rx.form(
            column(
                *request_fields(s, s.record),
                button_row(
                    rx.button("Update Sub Request", type="submit", size="3", disabled=s.busy),
                    _delete_dialog(),
                    spacing="3",
                ),  # fmt: skip
                spacing="3",
            ),
            key=s.form_key,
            on_submit=s.save,
            width="100%",
            method="post",
        ),
    )


def _reopen_form() -> rx.Component:
    s = SubRequestState
    return section_card(
        "Reopen Sub Request",
        rx.text("The sub declined. Open the request to anyone again, or invite another sub.", size="2"),
        sub_picker(s),
        rx.form(
            column(
                select_field("Who may take it", "recipient", s.sub_options, placeholder="Anyone", required=False),
                rx.button("Reopen Sub Request", type="submit", size="3"),
                spacing="3",
            ),
            on_submit=s.reopen,
            width="100%",
            method="post",
        ),
    )


def _withdraw_dialog() -> rx.Component:
    """The "I can't make it" button, which asks first (it opens the question; Escape or Keep My Place closes it)."""
    return _ask_first(
        rx.button("I can't make it", color_scheme="red", variant="soft", size="3", min_height="44px"),
        "Give Up Your Place",
        "Your place goes to the next sub, and the requestor is emailed. Within a day of the game this "
        "counts on your sub record as a late withdrawal.",
        rx.button("Keep My Place", variant="soft", color_scheme="gray", size="3", min_height="44px"),
        rx.button("Give Up My Place", color_scheme="red", size="3", min_height="44px", on_click=SubRequestState.withdraw),
    )


def _actions() -> rx.Component:
    s = SubRequestState
    return rx.fragment(
        rx.cond(s.approval_note != "", rx.callout(s.approval_note, icon="info", size="1", color_scheme="blue"),
                rx.fragment()),  # fmt: skip
        button_row(
            rx.cond(flag(s.may, "can_accept"), rx.button("Accept", on_click=s.accept, color_scheme="green", size="3")),
            rx.cond(flag(s.may, "can_decline"), rx.button("Decline", on_click=s.decline, color_scheme="red", variant="soft", size="3")),
            rx.cond(flag(s.may, "can_withdraw"), _withdraw_dialog()),
            spacing="3",
        ),
    )


@page(routes.SUB_REQUEST, "Sub Request", on_load=SubRequestState.load)
def note_detail_page() -> rx.Component:
    s = SubRequestState
    request = column(
        _details(),
        error_line(s.action_error, DETAIL_ERROR_ID),
        notice_line(s.notice),
        _actions(),
        add_to_calendar(s.feed_subscribe, s.feed),
        outcome_panel(),
        suggestions_panel(after_invite=SubRequestState.read_again),
        invite_queue_card(),
        rx.cond(flag(s.may, "can_reopen"), _reopen_form(), rx.fragment()),
        rx.cond(flag(s.may, "can_edit"), _edit_form(), rx.fragment()),
    )
    failed = rx.callout(s.load_error, icon="triangle_alert", color_scheme="red", role="alert")
    shown = rx.cond(s.load_error != "", failed, request)
    return dash_page(column(page_heading("Sub Request"), shown, max_width="40rem"))
