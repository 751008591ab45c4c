"""One session (/dash/sessions/{id}): its details, links to its leagues, edit and delete."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, record_form, update_delete
from volley_app.components.layout import button_row, column, dash_page, link_button, page_heading, section_card
from volley_app.components.sessions import FIELDS, session_fields
from volley_app.registry import page
from volley_app.services.core import timefmt
from volley_app.services.seasons import sessions as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg

ERROR_ID = "session-error"


def _to_sessions(_result):
    return rx.redirect(routes.SESSIONS)


def _shown(found: svc.SessionDetail) -> dict[str, str]:
    """The session as the page shows it and its form's defaults (venue time)."""
    return {
        "name": found["name"],
        "status": found["status"],
        "svl_name": found["svl_name"],
        "start": timefmt.input_value(found["start_at"], found["zone"]),
        "end": timefmt.input_value(found["end_at"], found["zone"]),
        "league_count": str(len(found["league_ids"])),
        "leagues_href": routes.session_leagues_path(found["id"]),
        "new_league_href": routes.new_league_path(found["id"]),
        "delete_question": found["delete_question"],
    }


class EditSessionState(FormState, AuthState):
    _fields = FIELDS
    _error_id = ERROR_ID

    session: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    archived: rx.Field[bool] = rx.field(False)
    denied: rx.Field[bool] = rx.field(False)

    def _id(self) -> str:
        return path_arg(self, "session_id")

    async def load(self):
        found = await self._read_record(svc.get_session, session_id=self._id())
        self.session, self.denied = ({}, True) if found is None else (_shown(found), False)
        self.archived = bool(found and found["archived"])

    @rx.event
    def save(self, form_data: dict):
        data = form_values(form_data, self._fields)
        return self._submit(svc.update_session, done=_to_sessions, as_actor=True, session_id=self._id(), submitted=data)

    @rx.event
    def delete(self):
        return self._submit(svc.delete_session, done=_to_sessions, session_id=self._id())

    @rx.event
    def restore(self):
        return self._submit(svc.restore_session, done=_to_sessions, session_id=self._id())


@page(routes.SESSION_EDIT, "Session", on_load=EditSessionState.load)
def edit_session_page() -> rx.Component:
    s = EditSessionState
    back = link_button("Back to Sessions", href=routes.SESSIONS, variant="soft")
    r = s.session.to(dict[str, str])
    form = record_form(
        s,
        *session_fields(s, r["name"], r["start"], r["end"]),
        update_delete(s, "Update Session", "Delete Session", r["delete_question"]),
    )
    restore = column(
        rx.text("This session is archived with its leagues: no list shows them. Everything in them is kept."),
        rx.button("Restore Session", on_click=s.restore, width="fit-content"),
    )
    session = column(
        page_heading(r["name"]),
        rx.text(r["svl_name"], " · ", rx.badge(r["status"]), color_scheme="gray"),
        button_row(
            link_button("View Leagues", href=r["leagues_href"], variant="soft"),
            link_button("Add League", href=r["new_league_href"]),
            spacing="3",
        ),
        rx.cond(
            s.archived,
            section_card("Archived", error_line(s.error, ERROR_ID), restore, max_width="32rem"),
            section_card("Edit Session", error_line(s.error, ERROR_ID), form, max_width="32rem"),
        ),
    )
    return dash_page(rx.cond(s.denied, column(page_heading("Session"), error_line(s.error), back), session))
