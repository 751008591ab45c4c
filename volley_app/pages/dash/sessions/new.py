"""A new session (/dash/sessions/new): an SVL's own, or one an admin makes for a chosen SVL."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, form_card, select_field, stacked_form, submit_button
from volley_app.components.layout import dash_page
from volley_app.components.sessions import FIELDS, session_fields
from volley_app.registry import page
from volley_app.services.seasons import sessions as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, run_action

ERROR_ID = "session-error"


class NewSessionState(FormState, AuthState):
    _fields = (*FIELDS, "svl")
    _error_id = ERROR_ID

    svl_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    choose_svl: rx.Field[bool] = rx.field(False)

    async def load(self):
        self._clear_messages()
        found, failure = await run_action(svc.new_session_form, actor=await self._actor())
        self.choose_svl = bool(found and found["choose_svl"])
        self.svl_options = [{"value": str(o["id"]), "label": o["name"]} for o in (found["svls"] if found else [])]
        if failure is not None:
            self.error = failure.message

    @rx.event
    def create(self, form_data: dict):
        data = form_values(form_data, self._fields)
        return self._submit(
            svc.create_session,
            done=lambda row: rx.redirect(routes.session_path(row.id)),
            name=data["name"],
            start=data["start"],
            end=data["end"],
            svl_id=data["svl"],
        )


@page(routes.SESSIONS_NEW, "New Session", on_load=NewSessionState.load)
def new_session_page() -> rx.Component:
    s = NewSessionState
    svl = select_field("SVL", "svl", s.svl_options, s, placeholder="Choose an SVL")
    choose_svl = rx.cond(s.choose_svl, svl, rx.fragment())
    form = stacked_form(choose_svl, *session_fields(s), submit_button("Create Session", s), on_submit=s.create)
    return dash_page(form_card("New Session", error_line(s.error, ERROR_ID), form))
