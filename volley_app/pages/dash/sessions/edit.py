"""One session (/dash/sessions/{id}): its details, links to its leagues, edit and delete."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import button_row, column, dash_page, link_button, page_heading, section_card
from volley_app.components.sessions import FIELDS, record_form, session_fields
from volley_app.registry import page
from volley_app.services import sessions as svc
from volley_app.services import timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action

ERROR_ID = "session-error"


def _to_sessions(_result):
    return rx.redirect(routes.SESSIONS)


class EditSessionState(FormState, AuthState):
    _fields = FIELDS
    _error_id = ERROR_ID

    sid: str = ""
    name: str = ""
    start: str = ""
    end: str = ""
    session_status: str = ""
    svl_name: str = ""
    league_count: int = 0
    leagues_href: str = ""
    new_league_href: str = ""
    denied: bool = False

    def _id(self) -> str:
        return path_arg(self, "session_id")

    async def load(self):
        self._clear_messages()
        self.sid, self.denied = "", False
        found, failure = await run_action(svc.get_session, actor=await self._actor(), session_id=self._id())
        if failure is not None:
            self.name = self.start = self.end = self.session_status = self.svl_name = ""
            self.leagues_href = self.new_league_href = ""
            self.error, self.denied = failure.message, True
            return
        self.sid = str(found["id"])
        self.name, self.session_status, self.svl_name = found["name"], found["status"], found["svl_name"]
        self.start = timefmt.input_value(found["start_at"])
        self.end = timefmt.input_value(found["end_at"])
        self.league_count = len(found["league_ids"])
        self.leagues_href = routes.session_leagues_path(found["id"])
        self.new_league_href = routes.new_league_path(found["id"])
        self._show_record()

    @rx.event
    async def save(self, form_data: dict):
        data = form_values(form_data, self._fields)
        async for ev in self._submit(svc.update_session, done=_to_sessions, session_id=self._id(), **data):
            yield ev

    @rx.event
    async def delete(self):
        async for ev in self._submit(svc.delete_session, done=_to_sessions, session_id=self._id()):
            yield ev


@page(routes.SESSION_EDIT, "Session", on_load=EditSessionState.load)
def edit_session_page() -> rx.Component:
    s = EditSessionState
    back = link_button("Back to Sessions", href=routes.SESSIONS, variant="soft")
    form = record_form(
        s,
        *session_fields(s, s.name, s.start, s.end),
        update="Update Session",
        delete="Delete Session",
        question="Are you sure you want to delete Session: " + s.name + "?",
    )
    session = column(
        page_heading(s.name),
        rx.text(s.svl_name, " · ", rx.badge(s.session_status), color_scheme="gray"),
        button_row(
            link_button("View Leagues", href=s.leagues_href, variant="soft"),
            link_button("Add League", href=s.new_league_href),
            spacing="3",
        ),
        section_card("Edit Session", error_line(s.error, ERROR_ID), form, max_width="32rem"),
    )
    return dash_page(rx.cond(s.denied, column(page_heading("Session"), error_line(s.error), back), session))
