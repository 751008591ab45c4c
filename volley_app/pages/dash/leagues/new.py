"""A new league (/dash/leagues/new?session={id}): an SVL's current session, or any current one for admins."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import record_form, select_field, submit_button
from volley_app.components.league_form import LEAGUE_FIELDS, league_fields
from volley_app.components.leagues import operator_form_screen
from volley_app.registry import page
from volley_app.services.seasons import leagues as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action

ERROR_ID = "new-league-error"


class NewLeagueState(FormState, AuthState):
    _fields = ("session", *LEAGUE_FIELDS)
    _error_id = ERROR_ID

    session_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    chosen_session: rx.Field[str] = rx.field("")
    show_cash: rx.Field[bool] = rx.field(False)
    denied: rx.Field[bool] = rx.field(False)

    async def load(self):
        self._clear_messages()
        found, failure = await run_action(svc.new_league_form, actor=await self._actor())
        self.denied = failure is not None
        self.error = failure.message if failure else ""
        found = found or {"sessions": [], "show_cash": False}
        self.show_cash = found["show_cash"]
        self.session_options = [
            {"value": str(s["id"]), "label": f"{s['name']} ({s['svl_name']})"} for s in found["sessions"]
        ]
        wanted = path_arg(self, "session")
        self.chosen_session = wanted if any(o["value"] == wanted for o in self.session_options) else ""
        self._show_record()

    @rx.event
    def create(self, form_data: dict):
        data = form_values(form_data, self._fields)
        session_id = data.pop("session")
        return self._submit(
            svc.create_league, done=lambda row: rx.redirect(routes.league_path(row.id)), as_actor=True,
            session_id=session_id, submitted=data,
        )  # fmt: skip


@page(routes.LEAGUES_NEW, "New League", on_load=NewLeagueState.load)
def new_league_page() -> rx.Component:
    s = NewLeagueState
    return operator_form_screen(
        "New League",
        s,
        ERROR_ID,
        record_form(
            s,
            select_field("Session", "session", s.session_options, s, placeholder="Choose a session",
                         default_value=s.chosen_session),
            *league_fields(s, {}, show_cash=s.show_cash, show_active=False),
            submit_button("Create League", s),
            on_submit=s.create,
        ),
    )  # fmt: skip
