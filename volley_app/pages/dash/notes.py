"""Sub requests: the open list (/dash/notes), My Sub Requests (/dash/notes/notifications),
the detail page (/dash/notes/{id}) and the new request forms (/dash/notes/new, /dash/notes/newspecific).
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, field, focus, text_input
from volley_app.components.layout import dash_page, link_button
from volley_app.models import SkillLevel, SubFormat
from volley_app.registry import page
from volley_app.services import sub_requests
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action
from volley_app.state.polling import poll_page

FORM_ERROR_ID = "note-form-error"
OPEN_LIST_SECONDS = 150
NOTIFICATIONS_SECONDS = 15
FIELD_KEYS = ("team", "date", "svl", "court", "skill_level", "format", "text", "recipient")
DETAIL_ERROR_ID = "note-detail-error"

_NATIVE = {
    "width": "100%",
    "height": "2.5rem",
    "padding": "0 0.6rem",
    "border_radius": "var(--radius-3)",
    "border": "1px solid var(--gray-7)",
    "background": "white",
    "font_size": "16px",
}


def as_table_rows(found: list[dict]) -> list[dict[str, str]]:
    """The browser's copy of request rows: strings only, no emails (the service gives none)."""
    return [
        {
            "id": str(r["id"]),
            "href": routes.note_path(r["id"]),
            "requestor": r["requestor"],
            "sub": r["sub"],
            "status": r["status"],
            "team": r["team"],
            "date": r["date_text"],
            "time": r["time_text"],
            "svl": r["svl"],
            "court": r["court"],
        }
        for r in found
    ]


# --- tables ----------------------------------------------------------------------------


def _cell(label: str, value) -> rx.Component:
    return rx.table.cell(value, data_label=label)


def _card(*children: rx.Component) -> rx.Component:
    return rx.card(rx.vstack(*children, spacing="1", width="100%"), width="100%", custom_attrs={"data-testid": "request-item"})


def responsive(table: rx.Component, cards: rx.Component) -> rx.Component:
    """A table on wider screens, a list of cards on a phone (no sideways scrolling for the buttons)."""
    return rx.fragment(rx.tablet_and_desktop(table, width="100%"), rx.mobile_only(cards, width="100%"))


def _open_card(r: rx.Var) -> rx.Component:
    return _card(
        rx.flex(
            rx.text(r["team"], weight="bold"),
            link_button("View", href=r["href"], size="2", variant="soft"),
            justify="between",
            align="center",
            width="100%",
        ),
        rx.text(r["date"], ", ", r["time"], size="2"),
        rx.text(r["svl"], size="2", color_scheme="gray"),
        rx.text("Requestor: ", r["requestor"], size="2", color_scheme="gray"),
    )


def _note_card(r: rx.Var) -> rx.Component:
    return _card(
        rx.flex(
            rx.hstack(rx.text(r["team"], weight="bold"), rx.badge(r["status"], color_scheme=_status_color(r["status"]))),
            link_button("View", href=r["href"], size="2", variant="soft"),
            justify="between",
            align="center",
            width="100%",
        ),
        rx.text(r["date"], size="2"),
        rx.text(r["svl"], rx.cond(r["court"] != "", ", " + r["court"], ""), size="2", color_scheme="gray"),
        rx.text("Requestor: ", r["requestor"], size="2", color_scheme="gray"),
    )


def open_requests_table(rows: rx.Var) -> rx.Component:
    """Requestor, Team, Date, Time, Location, View (spec section 2)."""
    return rx.cond(
        rows.length() > 0,
        responsive(rx.box(
            rx.table.root(
                rx.table.header(
                    rx.table.row(
                        *[rx.table.column_header_cell(h) for h in ("Requestor", "Team", "Date", "Time", "Location", "")]
                    )
                ),
                rx.table.body(
                    rx.foreach(
                        rows,
                        lambda r: rx.table.row(
                            _cell("Requestor", r["requestor"]),
                            _cell("Team", r["team"]),
                            _cell("Date", r["date"]),
                            _cell("Time", r["time"]),
                            _cell("Location", r["svl"]),
                            rx.table.cell(link_button("View", href=r["href"], size="1", variant="soft")),
                            custom_attrs={"data-testid": "request-item"},
                        ),
                    )
                ),
                width="100%",
                variant="surface",
                size="1",
            ),
            overflow_x="auto",
            width="100%",
        ), rx.vstack(rx.foreach(rows, _open_card), spacing="2", width="100%")),
        rx.text("No open sub requests right now.", color_scheme="gray"),
    )


def notifications_table(rows: rx.Var) -> rx.Component:
    """Requestor, Status, Team, Date, Location, Court (spec section 2)."""
    return rx.cond(
        rows.length() > 0,
        responsive(rx.box(
            rx.table.root(
                rx.table.header(
                    rx.table.row(
                        *[
                            rx.table.column_header_cell(h)
                            for h in ("Requestor", "Status", "Team", "Date", "Location", "Court", "")
                        ]
                    )
                ),
                rx.table.body(
                    rx.foreach(
                        rows,
                        lambda r: rx.table.row(
                            _cell("Requestor", r["requestor"]),
                            _cell("Status", rx.badge(r["status"], color_scheme=_status_color(r["status"]))),
                            _cell("Team", r["team"]),
                            _cell("Date", r["date"]),
                            _cell("Location", r["svl"]),
                            _cell("Court", r["court"]),
                            rx.table.cell(link_button("View", href=r["href"], size="1", variant="soft")),
                            custom_attrs={"data-testid": "request-item"},
                        ),
                    )
                ),
                width="100%",
                variant="surface",
                size="1",
            ),
            overflow_x="auto",
            width="100%",
        ), rx.vstack(rx.foreach(rows, _note_card), spacing="2", width="100%")),
        rx.text("You have no sub requests right now.", color_scheme="gray"),
    )


def _status_color(status: rx.Var):
    return rx.match(status, ("Accepted", "green"), ("Declined", "red"), "blue")


def page_error(message: rx.Var) -> rx.Component:
    return rx.cond(message != "", rx.text(message, color_scheme="red", role="alert"), rx.fragment())


# --- lists ------------------------------------------------------------------------------


class NotesListState(AuthState):
    open_rows: list[dict[str, str]] = []
    list_error: str = ""
    _poll_beat: float = 0.0

    async def _reload(self) -> None:
        found, failure = await run_action(sub_requests.list_open, actor=await self._actor())
        self.open_rows = as_table_rows(found or [])
        self.list_error = failure.message if failure else ""

    async def load(self):
        await self._reload()
        return NotesListState.poll

    @rx.event(background=True)
    async def poll(self):
        """Refetch the open list every 150 s while the tab stays here (spec section 7)."""
        await poll_page(self, path=routes.NOTES, seconds=OPEN_LIST_SECONDS, reload=self._reload)


class NotificationsState(AuthState):
    note_rows: list[dict[str, str]] = []
    list_error: str = ""
    _poll_beat: float = 0.0

    async def _reload(self) -> None:
        found, failure = await run_action(sub_requests.notifications, actor=await self._actor())
        self.note_rows = as_table_rows(found or [])
        self.list_error = failure.message if failure else ""

    async def load(self):
        await self._reload()
        return NotificationsState.poll

    @rx.event(background=True)
    async def poll(self):
        """Refetch My Sub Requests every 15 s while the tab stays here (spec section 7)."""
        await poll_page(self, path=routes.NOTES_NOTIFICATIONS, seconds=NOTIFICATIONS_SECONDS, reload=self._reload)


def _links() -> rx.Component:
    return rx.flex(
        link_button("Create Sub Request", href=routes.NOTES_NEW, size="2"),
        link_button("All Open Sub Requests", href=routes.NOTES, size="2", variant="soft"),
        link_button("My Sub Requests", href=routes.NOTES_NOTIFICATIONS, size="2", variant="soft"),
        link_button("All Subs", href=routes.DASH_SUBS, size="2", variant="soft"),
        spacing="2",
        wrap="wrap",
    )


@page(routes.NOTES, "Open Sub Requests", on_load=NotesListState.load)
def notes_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            rx.heading("Open Sub Requests", size="7", as_="h1"),
            _links(),
            page_error(NotesListState.list_error),
            open_requests_table(NotesListState.open_rows),
            spacing="4",
            width="100%",
        )
    )


@page(routes.NOTES_NOTIFICATIONS, "My Sub Requests", on_load=NotificationsState.load)
def notifications_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            rx.heading("My Sub Requests", size="7", as_="h1"),
            _links(),
            page_error(NotificationsState.list_error),
            notifications_table(NotificationsState.note_rows),
            spacing="4",
            width="100%",
        )
    )


# --- the form shared by new, newspecific and the requestor's edit ------------------------


class NoteFormMixin(rx.State, mixin=True):
    team: str = ""
    when: str = ""
    svl: str = ""
    court: str = ""
    skill_level: str = ""
    sub_format: str = ""
    text: str = ""
    form_error: str = ""
    field_errors: dict[str, str] = dict.fromkeys(FIELD_KEYS, "")
    saving: bool = False

    def _reset_form(self) -> None:
        self.team = self.when = self.svl = self.court = self.skill_level = self.sub_format = self.text = ""
        self.form_error, self.field_errors, self.saving = "", dict.fromkeys(FIELD_KEYS, ""), False

    def _edit(self, name: str, value) -> None:
        value = value if isinstance(value, str) else ""
        if value != getattr(self, name):
            setattr(self, name, value[:2000])
            self.form_error = ""
            self.field_errors = dict.fromkeys(FIELD_KEYS, "")

    @rx.event
    def set_team(self, value: str):
        self._edit("team", value)

    @rx.event
    def set_when(self, value: str):
        self._edit("when", value)

    @rx.event
    def set_svl(self, value: str):
        self._edit("svl", value)

    @rx.event
    def set_court(self, value: str):
        self._edit("court", value)

    @rx.event
    def set_skill_level(self, value: str):
        self._edit("skill_level", value)

    @rx.event
    def set_sub_format(self, value: str):
        self._edit("sub_format", value)

    @rx.event
    def set_text(self, value: str):
        self._edit("text", value)

    def _take(self, form_data) -> dict:
        """The submitted values (form_data wins over the debounced copies)."""
        data = form_data if isinstance(form_data, dict) else {}
        for name in ("team", "when", "svl", "court", "skill_level", "sub_format", "text"):
            if isinstance(data.get(name), str):
                setattr(self, name, data[name][:2000])
        return {
            "team": self.team,
            "date": self.when,
            "svl": self.svl,
            "court": self.court,
            "skill_level": self.skill_level,
            "format": self.sub_format,
            "text": self.text,
        }

    def _fail(self, failure) -> None:
        self.saving = False
        self.form_error = failure.message
        errors = getattr(failure, "errors", {}) or {}
        self.field_errors = {k: str(errors.get(k, "")) for k in FIELD_KEYS}

    @rx.var
    def details_filled(self) -> bool:
        return all(v.strip() for v in (self.team, self.when, self.svl, self.skill_level, self.sub_format))


def _select(field_id: str, placeholder: str, options: list[str], value, on_change) -> rx.Component:
    return rx.el.select(
        rx.el.option(placeholder, value="", disabled=True),
        *[rx.el.option(o, value=o) for o in options],
        id=field_id,
        name=field_id,
        value=value,
        on_change=on_change,
        required=True,
        style=_NATIVE,
    )


def note_fields(state) -> list[rx.Component]:
    """Team, date, location, court, skill, format, message: labelled, each with its error."""
    err = state.field_errors
    return [
        field("Team", text_input("team", value=state.team, on_change=state.set_team, required=True, max_length=100),
              field_id="team", error=err["team"]),
        field("Date and Time", text_input("when", type="datetime-local", value=state.when, on_change=state.set_when,
                                          required=True), field_id="when", error=err["date"],
              hint="Venue time (Lexington, KY)"),
        field("Location", text_input("svl", value=state.svl, on_change=state.set_svl, required=True, max_length=200,
                                     placeholder="Lexington Sportsplex"), field_id="svl", error=err["svl"]),
        field("Court", text_input("court", value=state.court, on_change=state.set_court, max_length=50),
              field_id="court", error=err["court"], hint="Optional"),
        field("Skill Level", _select("skill_level", "Choose a skill level", SkillLevel.values(), state.skill_level,
                                     state.set_skill_level), field_id="skill_level", error=err["skill_level"]),
        field("Format", _select("sub_format", "Choose a format", SubFormat.values(), state.sub_format,
                                state.set_sub_format), field_id="sub_format", error=err["format"]),
        field("Message", rx.text_area(id="text", name="text", value=state.text, on_change=state.set_text,
                                      max_length=2000, width="100%", rows="3"),
              field_id="text", error=err["text"], hint="Optional"),
    ]  # fmt: skip


# --- new requests --------------------------------------------------------------------------


class NewNoteState(NoteFormMixin, AuthState):
    targeted: bool = False
    recipient: str = ""
    sub_options: list[dict[str, str]] = []

    async def load(self):
        self._reset_form()
        path = self.router.url.path or ""
        self.targeted = path.rstrip("/").endswith("newspecific")
        self.recipient, self.sub_options = "", []
        if self.targeted:
            found, failure = await run_action(sub_requests.list_subs, actor=await self._actor())
            if failure:
                self.form_error = failure.message
                return
            me = self.user_id
            self.sub_options = [
                {"id": str(s["id"]), "label": f"{s['first_name']} {s['last_name']}".strip()}
                for s in found or []
                if s["id"] != me
            ]
            wanted = str(self.router.url.query_parameters.get("sub", ""))
            if any(o["id"] == wanted for o in self.sub_options):
                self.recipient = wanted

    @rx.event
    def set_recipient(self, value: str):
        self._edit("recipient", value)

    @rx.var
    def can_submit(self) -> bool:
        return self.details_filled and (not self.targeted or self.recipient != "") and not self.saving

    async def submit(self, form_data: dict | None = None):
        if self.saving:
            return
        values = self._take(form_data)
        data = form_data if isinstance(form_data, dict) else {}
        if self.targeted:
            if isinstance(data.get("recipient"), str):
                self.recipient = data["recipient"]
            values["recipient_id"] = self.recipient or "missing"
        self.saving, self.form_error, self.field_errors = True, "", dict.fromkeys(FIELD_KEYS, "")
        yield
        new_id, failure = await run_action(sub_requests.create, actor=await self._actor(), **values)
        if failure:
            self._fail(failure)
            yield focus(FORM_ERROR_ID)
            return
        self._reset_form()
        yield rx.redirect(routes.note_path(new_id))


@page(routes.NOTES_NEW, "Create Sub Request", on_load=NewNoteState.load)
@page(routes.NOTES_NEW_SPECIFIC, "Invite a Sub", on_load=NewNoteState.load)
def new_note_page() -> rx.Component:
    s = NewNoteState
    return dash_page(
        rx.center(
            rx.card(
                rx.vstack(
                    rx.heading(rx.cond(s.targeted, "Invite a Sub", "Create Sub Request"), size="7", as_="h1"),
                    rx.text(
                        rx.cond(s.targeted, "Ask one sub to play; they get an email.",
                                "Open to anyone: every player sees it on their home page."),
                        color_scheme="gray",
                    ),  # fmt: skip
                    error_line(s.form_error, FORM_ERROR_ID),
                    rx.form(
                        rx.vstack(
                            rx.cond(
                                s.targeted,
                                field(
                                    "Sub",
                                    rx.el.select(
                                        rx.el.option("Choose a sub", value="", disabled=True),
                                        rx.foreach(s.sub_options, lambda o: rx.el.option(o["label"], value=o["id"])),
                                        id="recipient",
                                        name="recipient",
                                        value=s.recipient,
                                        on_change=s.set_recipient,
                                        required=True,
                                        style=_NATIVE,
                                    ),
                                    field_id="recipient",
                                    error=s.field_errors["recipient"],
                                ),
                                rx.fragment(),
                            ),
                            *note_fields(s),
                            rx.button(
                                rx.cond(s.saving, rx.spinner(size="2"), rx.fragment()),
                                rx.cond(s.targeted, "Send Invite", "Create Sub Request"),
                                type="submit",
                                size="3",
                                width="100%",
                                disabled=~s.can_submit,
                            ),
                            spacing="3",
                            width="100%",
                        ),
                        on_submit=s.submit,
                        width="100%",
                    ),
                    spacing="4",
                    width="100%",
                ),
                width="100%",
                max_width="34rem",
                size="3",
            ),
            width="100%",
        )
    )


# --- detail -------------------------------------------------------------------------------------


class NoteDetailState(NoteFormMixin, AuthState):
    note: dict[str, str] = {}
    can_accept: bool = False
    can_decline: bool = False
    can_edit: bool = False
    load_error: str = ""
    action_error: str = ""
    notice: str = ""
    confirm_open: bool = False

    def _note_id(self) -> str:
        return path_arg(self, "note_id")

    async def _refresh(self) -> None:
        found, failure = await run_action(sub_requests.detail, actor=await self._actor(), request_id=self._note_id())
        if failure:
            self.note, self.can_accept, self.can_decline, self.can_edit = {}, False, False, False
            self.load_error = failure.message
            return
        self.load_error = ""
        self.note = {
            "requestor": found["requestor"],
            "sub": found["sub"],
            "status": found["status"],
            "date": f"{found['date_text']}, {found['time_text']}",
            "svl": found["svl"],
            "court": found["court"],
            "team": found["team"],
            "skill_level": found["skill_level"],
            "format": found["format"],
            "text": found["text"],
            "completed": "Yes" if found["completed"] else "No",
            "confirm": f"Are you sure you want to delete the sub request for {found['team']} on {found['date_text']}?",
        }
        self.can_accept, self.can_decline, self.can_edit = found["can_accept"], found["can_decline"], found["can_edit"]
        if self.can_edit:
            self.team, self.when, self.svl, self.court = found["team"], found["local_input"], found["svl"], found["court"]
            self.skill_level, self.sub_format, self.text = found["skill_level"], found["format"], found["text"]

    async def load(self):
        self._reset_form()
        self.action_error, self.notice, self.confirm_open = "", "", False
        await self._refresh()

    async def _act(self, fn, done: str):
        self.action_error, self.notice = "", ""
        _, failure = await run_action(fn, actor=await self._actor(), request_id=self._note_id())
        if failure:
            self.action_error = failure.message
        else:
            self.notice = done
        await self._refresh()
        if failure and self.load_error:
            # e.g. taken by another sub a moment ago, so no longer visible: say why, not just 'No access'.
            self.load_error = failure.message
        return focus(DETAIL_ERROR_ID) if failure else None

    async def accept(self):
        return await self._act(sub_requests.accept, "You accepted this sub request. The requestor has been emailed.")

    async def decline(self):
        return await self._act(sub_requests.decline, "You declined this sub request. The requestor has been emailed.")

    async def save(self, form_data: dict | None = None):
        if self.saving:
            return
        values = self._take(form_data)
        self.saving, self.form_error, self.field_errors = True, "", dict.fromkeys(FIELD_KEYS, "")
        self.notice = ""
        yield
        _, failure = await run_action(sub_requests.update, actor=await self._actor(), request_id=self._note_id(), **values)
        if failure:
            self._fail(failure)
            yield focus(FORM_ERROR_ID)
            return
        self.saving = False
        self.notice = "Sub request updated."
        await self._refresh()

    @rx.event
    def ask_delete(self):
        self.confirm_open = True

    @rx.event
    def cancel_delete(self):
        self.confirm_open = False

    async def delete(self):
        self.confirm_open = False
        _, failure = await run_action(sub_requests.delete, actor=await self._actor(), request_id=self._note_id())
        if failure:
            self.action_error = failure.message
            return focus(DETAIL_ERROR_ID)
        self.note, self.can_edit = {}, False
        return rx.redirect(routes.NOTES_NOTIFICATIONS)


def _detail_line(label: str, value) -> rx.Component:
    return rx.data_list.item(rx.data_list.label(label), rx.data_list.value(value))


@page(routes.NOTE_DETAIL, "Sub Request", on_load=NoteDetailState.load)
def note_detail_page() -> rx.Component:
    s = NoteDetailState
    n = s.note
    return dash_page(
        rx.vstack(
            rx.heading("Sub Request", size="7", as_="h1"),
            rx.cond(
                s.load_error != "",
                rx.callout(s.load_error, icon="triangle_alert", color_scheme="red", role="alert"),
                rx.vstack(
                    rx.card(
                        rx.data_list.root(
                            _detail_line("Requestor", n["requestor"]),
                            _detail_line("Sub", n["sub"]),
                            _detail_line("Status", rx.badge(n["status"], color_scheme=_status_color(n["status"]))),
                            _detail_line("Date", n["date"]),
                            _detail_line("Location", n["svl"]),
                            _detail_line("Court", n["court"]),
                            _detail_line("Team", n["team"]),
                            _detail_line("Skill Level", n["skill_level"]),
                            _detail_line("Format", n["format"]),
                            _detail_line("Message", n["text"]),
                            orientation={"initial": "vertical", "sm": "horizontal"},
                        ),
                        width="100%",
                    ),
                    error_line(s.action_error, DETAIL_ERROR_ID),
                    rx.cond(
                        s.notice != "",
                        rx.callout(s.notice, icon="check", color_scheme="green", role="status"),
                        rx.fragment(),
                    ),
                    rx.flex(
                        rx.cond(s.can_accept, rx.button("Accept", on_click=s.accept, color_scheme="green", size="3")),
                        rx.cond(s.can_decline, rx.button("Decline", on_click=s.decline, color_scheme="red",
                                                          variant="soft", size="3")),
                        spacing="3",
                    ),  # fmt: skip
                    rx.cond(s.can_edit, _edit_form(), rx.fragment()),
                    spacing="4",
                    width="100%",
                ),
            ),
            spacing="4",
            width="100%",
            max_width="40rem",
        )
    )


def _edit_form() -> rx.Component:
    s = NoteDetailState
    return rx.card(
        rx.vstack(
            rx.heading("Edit Sub Request", size="5", as_="h2"),
            error_line(s.form_error, FORM_ERROR_ID),
            rx.form(
                rx.vstack(
                    *note_fields(s),
                    rx.flex(
                        rx.button("Update Sub Request", type="submit", size="3", disabled=s.saving),
                        rx.button("Delete Sub Request", type="button", size="3", color_scheme="red", variant="soft",
                                  on_click=s.ask_delete),
                        spacing="3",
                        wrap="wrap",
                    ),  # fmt: skip
                    spacing="3",
                    width="100%",
                ),
                on_submit=s.save,
                width="100%",
            ),
            rx.alert_dialog.root(
                rx.alert_dialog.content(
                    rx.alert_dialog.title("Delete Sub Request"),
                    rx.alert_dialog.description(s.note["confirm"]),
                    rx.flex(
                        rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray",
                                                         on_click=s.cancel_delete)),
                        rx.alert_dialog.action(rx.button("Delete", color_scheme="red", on_click=s.delete)),
                        spacing="3",
                        justify="end",
                        margin_top="1rem",
                    ),  # fmt: skip
                ),
                open=s.confirm_open,
            ),
            spacing="3",
            width="100%",
        ),
        width="100%",
    )
