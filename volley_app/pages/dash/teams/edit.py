"""One team (/dash/teams/{id}): its SVL and admins correct the record (admins also name and paid), withdraw or
delete it; its captain reads it."""

from __future__ import annotations

import reflex as rx
from reflex.event import EventSpec
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import (
    confirm_delete,
    error_line,
    form_card,
    record_form,
    select_field,
    submit_button,
    text_field,
)
from volley_app.components.layout import button_row, column, dash_page, link_button
from volley_app.registry import page
from volley_app.services.core.validation import TEAM_NAME_REQUIRED
from volley_app.services.teams import teams as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg

ERROR_ID = "team-error"


def _to_teams(_result: object) -> EventSpec:
    return rx.redirect(routes.TEAMS)


def _shown(found: svc.TeamDetail) -> dict[str, str]:
    """The team as the page shows it and its form's defaults."""
    return {
        "id": str(found["id"]),
        "league_name": found["league_name"],
        "league_href": routes.league_path(found["league_id"]),
        "team_name": found["team_name"],
        "wins": str(found["wins"]),
        "losses": str(found["losses"]),
        "paid": "true" if found["paid"] else "false",
        "status": "Withdrawn" if found["withdrawn"] else "Waitlist" if found["waitlist"] else "Registered",
        "adjustment": f" (includes an adjustment of {found['adjustment']})" if found["adjustment"] else "",
        "history": found["history"],
    }


class TeamEditState(FormState, AuthState):
    _fields = ("team_name", "paid", "wins", "losses", "reason")
    _error_id = ERROR_ID

    team: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    can_manage: rx.Field[bool] = rx.field(False)
    can_edit_name: rx.Field[bool] = rx.field(False)
    can_delete: rx.Field[bool] = rx.field(False)
    denied: rx.Field[bool] = rx.field(False)

    def _id(self) -> str:
        return path_arg(self, "team_id")

    async def load(self) -> None:
        found: svc.TeamDetail | None = await self._read_record(svc.get_team, team_id=self._id())
        self.team, self.denied = ({}, True) if found is None else (_shown(found), False)
        self.can_manage = bool(found and found["can_manage"])
        self.can_edit_name = bool(found and found["can_edit_name"])
        self.can_delete = bool(found and found["can_delete"])

    @rx.event
    async def save(self, form_data: dict[str, object]):
        data = form_values(form_data, self._fields)
        submit = self._submit(svc.update_team, done=_to_teams, team_id=self._id(), team_name=data["team_name"],
                              paid=data["paid"], wins=data["wins"], losses=data["losses"], reason=data["reason"])  # fmt: skip
        async for event in submit:
            yield event
        if self.errors.get("team_name") == TEAM_NAME_REQUIRED:
            yield rx.window_alert(TEAM_NAME_REQUIRED)

    @rx.event
    def delete(self):
        return self._submit(svc.delete_team, done=_to_teams, team_id=self._id())

    @rx.event
    def withdraw(self, remaining: str):
        return self._submit(svc.withdraw_team, done=_to_teams, team_id=self._id(), remaining=remaining)


def _team() -> ObjectVar[dict[str, str]]:
    """The team's texts, by name."""
    return TeamEditState.team.to(ObjectVar, dict[str, str])


def _name_and_paid() -> rx.Component:
    s = TeamEditState
    t = _team()
    return rx.cond(
        s.can_edit_name,
        rx.fragment(
            text_field("Team Name", "team_name", s, max_length=100, default_value=t["team_name"]),
            select_field("Paid", "paid", [("true", "Yes"), ("false", "No")], s, default_value=t["paid"]),
        ),
        rx.fragment(
            rx.heading(t["team_name"], size="5", as_="h2"),
            rx.text("Paid: ", rx.cond(t["paid"] == "true", "Yes", "No")),
        ),
    )


def _edit_form() -> rx.Component:
    s = TeamEditState
    t = _team()
    record = rx.grid(
        text_field("Wins", "wins", s, type="number", min=0, max=999, required=True, default_value=t["wins"]),
        text_field("Losses", "losses", s, type="number", min=0, max=999, required=True, default_value=t["losses"]),
        columns="2",
        spacing="3",
        width="100%",
    )
    reason = text_field("Reason for a record change", "reason", s, max_length=300,
                        hint="Needed when you change wins or losses: it shows in the standings.")  # fmt: skip
    return record_form(s, _name_and_paid(), record, reason, _actions())


def _actions() -> rx.Component:
    s = TeamEditState
    t = _team()
    forfeit, remove = s.withdraw(svc.FORFEIT), s.withdraw(svc.REMOVE)  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    withdraw = confirm_delete(
        "Withdraw Team",
        "Withdraw " + t["team_name"] + " from the league? Its played games and payments are kept. "
        "What happens to its remaining games?",
        choices=(("Forfeit remaining games", forfeit), ("Remove remaining games", remove)),
    )
    delete = confirm_delete(
        "Delete Team", "Are you sure you want to delete " + t["team_name"] + "? It has no payments or results.", s.delete
    )
    return button_row(
        submit_button("Update Team", s, size="2", width="auto"), withdraw, rx.cond(s.can_delete, delete, rx.fragment()),
        spacing="3",
    )  # fmt: skip


@page(routes.TEAM_EDIT, "Team", on_load=TeamEditState.load)
def team_edit_page() -> rx.Component:
    s = TeamEditState
    t = _team()
    read_only = column(
        rx.heading(t["team_name"], size="5", as_="h2"), rx.text("Record: ", t["wins"], "-", t["losses"], t["adjustment"])
    )
    team = column(
        rx.text("League: ", rx.link(t["league_name"], href=t["league_href"]), " · ", t["status"]),
        rx.cond(s.can_manage, _edit_form(), read_only),
    )
    back = link_button("Back to Teams", href=routes.TEAMS, variant="soft")
    return dash_page(form_card("Team", error_line(s.error, ERROR_ID), rx.cond(s.denied, back, team)))
