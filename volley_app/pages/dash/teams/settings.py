"""A team's settings (/dash/teams/{id}/settings): when members who have not answered for a game get a reminder,
and when a team still short for a game is told. The captain, co-captains and the league's operator change them;
the other members read them."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import form_card, form_messages, record_form, submit_button, text_field
from volley_app.components.layout import button_row, column, dash_page, details, labelled, link_button
from volley_app.registry import page
from volley_app.services.teams import team_settings as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values
from volley_app.state.teams import TeamScreen

ERROR_ID = "team-settings-error"
FIELDS = ("reminder_days", "deadline_hours")
SAVED = "Settings saved."


class TeamSettingsState(TeamScreen, FormState, AuthState):
    _fields = FIELDS
    _error_id = ERROR_ID

    team_href: rx.Field[str] = rx.field("")
    reminder_days: rx.Field[str] = rx.field("")
    deadline_hours: rx.Field[str] = rx.field("")
    can_edit: rx.Field[bool] = rx.field(False)
    loaded: rx.Field[bool] = rx.field(False)
    notice: rx.Field[str] = rx.field("")

    def _shown(self, found: svc.TeamSettings | None) -> None:
        self.loaded = found is not None
        self.team_name = found["team_name"] if found else ""
        self.league_name = found["league_name"] if found else ""
        self.team_href = routes.team_path(found["team_id"]) if found else ""
        self.reminder_days = str(found["reminder_days"]) if found else ""
        self.deadline_hours = str(found["deadline_hours"]) if found else ""
        self.can_edit = bool(found and found["can_edit"])

    async def load(self) -> None:
        self.notice = ""
        self._shown(await self._read_record(svc.team_settings, team_id=self._team_id()))

    def _saved(self, found: svc.TeamSettings) -> None:
        self._shown(found)
        self._show_record()
        self.notice = SAVED

    @rx.event
    def save(self, form_data: dict[str, object]):
        self.notice = ""
        return self._submit(svc.update_settings, done=self._saved, team_id=self._team_id(),
                            submitted=form_values(form_data, FIELDS))  # fmt: skip


def _form() -> rx.Component:
    s = TeamSettingsState
    low, high = svc.REMINDER_DAYS
    first, last = svc.DEADLINE_HOURS
    return record_form(
        s,
        text_field(svc.REMINDER_LABEL, "reminder_days", s, type="number", min=low, max=high, required=True,
                   default_value=s.reminder_days,
                   hint=f"Members who have not answered get one email this many days before a game ({low} to {high}; "
                        "0: no reminder)."),
        text_field(svc.DEADLINE_LABEL, "deadline_hours", s, type="number", min=first, max=last, required=True,
                   default_value=s.deadline_hours,
                   hint=f"If too few are In this many hours before a game, the captain and co-captains are told and "
                        f"offered subs ({first} to {last})."),
        submit_button("Save settings", s, width="auto"),
    )  # fmt: skip


def _read_only() -> rx.Component:
    s = TeamSettingsState
    return column(
        details(
            labelled(svc.REMINDER_LABEL, rx.cond(s.reminder_days == "0", "No reminder", s.reminder_days)),
            labelled(svc.DEADLINE_LABEL, s.deadline_hours),
        ),
        rx.text("The team's captain and co-captains change these.", size="2", color_scheme="gray"),
        spacing="3",
    )


@page(routes.TEAM_SETTINGS, "Team Settings", on_load=TeamSettingsState.load)
def team_settings_page() -> rx.Component:
    s = TeamSettingsState
    return dash_page(form_card(
        rx.cond(s.team_name != "", "Settings: " + s.team_name, "Team settings"),
        form_messages(s, ERROR_ID),
        rx.cond(s.loaded, column(
            rx.text(s.league_name, size="2", color_scheme="gray"),
            rx.cond(s.can_edit, _form(), _read_only()),
            spacing="3",
        )),
        button_row(rx.cond(s.team_href != "", link_button("Back to the team", href=s.team_href, variant="soft", size="2"),
                           link_button("Back to Teams", href=routes.TEAMS, variant="soft", size="2"))),
        max_width="32rem",
    ))  # fmt: skip
