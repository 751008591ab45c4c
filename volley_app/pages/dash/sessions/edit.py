"""One session (/dash/sessions/{id}): its details, links to its leagues, edit and delete."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import confirm_delete, error_line, page_heading, submit_button
from volley_app.components.layout import dash_page, link_button
from volley_app.components.sessions import FIELDS, session_fields
from volley_app.registry import page
from volley_app.services import sessions as svc
from volley_app.services import timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action

ERROR_ID = "session-error"


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
        async for ev in self._submit(
            svc.update_session, done=lambda _row: rx.redirect(routes.SESSIONS), session_id=self._id(), **data
        ):
            yield ev

    @rx.event
    async def delete(self):
        _name, failure = await run_action(svc.delete_session, actor=await self._actor(), session_id=self._id())
        if failure is not None:
            self.error = failure.message
            return None
        return rx.redirect(routes.SESSIONS)


def _edit_card() -> rx.Component:
    s = EditSessionState
    return rx.card(
        rx.vstack(
            rx.heading("Edit Session", size="4", as_="h2"),
            error_line(s.error, ERROR_ID),
            rx.form(
                rx.vstack(
                    *session_fields(s, s.name, s.start, s.end),
                    rx.flex(
                        submit_button("Update Session", s, size="2", width="auto"),
                        confirm_delete(
                            "Delete Session", "Are you sure you want to delete Session: " + s.name + "?", s.delete
                        ),
                        spacing="3",
                        wrap="wrap",
                    ),
                    spacing="4",
                    width="100%",
                ),
                on_submit=s.save,
                key=s.form_key,
                width="100%",
            ),
            spacing="3",
            width="100%",
        ),
        width="100%",
        max_width="32rem",
    )


@page(routes.SESSION_EDIT, "Session", on_load=EditSessionState.load)
def edit_session_page() -> rx.Component:
    s = EditSessionState
    return dash_page(
        rx.cond(
            s.denied,
            rx.vstack(
                page_heading("Session"),
                error_line(s.error),
                link_button("Back to Sessions", href=routes.SESSIONS, variant="soft"),
            ),
            rx.vstack(
                page_heading(s.name),
                rx.text(s.svl_name, " · ", rx.badge(s.session_status), color_scheme="gray"),
                rx.flex(
                    link_button("View Leagues", href=s.leagues_href, variant="soft"),
                    link_button("Add League", href=s.new_league_href),
                    spacing="3",
                    wrap="wrap",
                ),
                _edit_card(),
                spacing="4",
                width="100%",
            ),
        )
    )
