"""One team (/dash/teams/{id}): its SVL and admins edit the record (admins also name and paid); its captain reads it."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, form_card, select_field, text_field
from volley_app.components.layout import column, dash_page, link_button
from volley_app.components.sessions import record_form
from volley_app.registry import page
from volley_app.services import teams as svc
from volley_app.services.validation import TEAM_NAME_REQUIRED
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action

ERROR_ID = "team-error"


def _to_teams(_result):
    return rx.redirect(routes.TEAMS)


class TeamEditState(FormState, AuthState):
    _fields = ("team_name", "paid", "wins", "losses")
    _error_id = ERROR_ID

    tid: str = ""
    league_name: str = ""
    league_href: str = ""
    team_name: str = ""
    wins: str = ""
    losses: str = ""
    paid: str = ""
    team_status: str = ""
    can_manage: bool = False
    can_edit_name: bool = False
    denied: bool = False

    def _id(self) -> str:
        return path_arg(self, "team_id")

    async def load(self):
        self._clear_messages()
        found, failure = await run_action(svc.get_team, actor=await self._actor(), team_id=self._id())
        if failure is not None:
            self.tid = self.league_name = self.league_href = self.team_name = ""
            self.wins = self.losses = self.paid = self.team_status = ""
            self.can_manage = self.can_edit_name = False
            self.error, self.denied = failure.message, True
            return
        self.denied = False
        self.tid, self.league_name = str(found["id"]), found["league_name"]
        self.league_href = routes.league_path(found["league_id"])
        self.can_manage, self.can_edit_name = found["can_manage"], found["can_edit_name"]
        self.team_name, self.wins, self.losses = found["team_name"], str(found["wins"]), str(found["losses"])
        self.paid = "true" if found["paid"] else "false"
        self.team_status = "Waitlist" if found["waitlist"] else "Registered"
        self._show_record()

    @rx.event
    async def save(self, form_data: dict):
        data = form_values(form_data, self._fields)
        async for ev in self._submit(svc.update_team, done=_to_teams, team_id=self._id(), **data):
            yield ev
        if self.errors.get("team_name") == TEAM_NAME_REQUIRED:
            yield rx.window_alert(TEAM_NAME_REQUIRED)

    @rx.event
    async def delete(self):
        async for ev in self._submit(svc.delete_team, done=_to_teams, team_id=self._id()):
            yield ev


def _name_and_paid() -> rx.Component:
    s = TeamEditState
    return rx.cond(
        s.can_edit_name,
        rx.fragment(
            text_field("Team Name", "team_name", s, max_length=100, default_value=s.team_name),
            select_field("Paid", "paid", [("true", "Yes"), ("false", "No")], s, default_value=s.paid),
        ),
        rx.fragment(
            rx.heading(s.team_name, size="5", as_="h2"),
            rx.text("Paid: ", rx.cond(s.paid == "true", "Yes", "No")),
        ),
    )


def _edit_form() -> rx.Component:
    s = TeamEditState
    record = rx.grid(
        text_field("Wins", "wins", s, type="number", min=0, max=999, required=True, default_value=s.wins),
        text_field("Losses", "losses", s, type="number", min=0, max=999, required=True, default_value=s.losses),
        columns="2",
        spacing="3",
        width="100%",
    )
    question = "Are you sure you want to delete " + s.team_name + "?"
    return record_form(s, _name_and_paid(), record, update="Update Team", delete="Delete Team", question=question)


@page(routes.TEAM_EDIT, "Team", on_load=TeamEditState.load)
def team_edit_page() -> rx.Component:
    s = TeamEditState
    read_only = column(rx.heading(s.team_name, size="5", as_="h2"), rx.text("Record: ", s.wins, "-", s.losses))
    team = column(
        rx.text("League: ", rx.link(s.league_name, href=s.league_href), " · ", s.team_status),
        rx.cond(s.can_manage, _edit_form(), read_only),
    )
    back = link_button("Back to Teams", href=routes.TEAMS, variant="soft")
    return dash_page(form_card("Team", error_line(s.error, ERROR_ID), rx.cond(s.denied, back, team)))
