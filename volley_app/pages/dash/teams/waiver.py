"""A team's waiver (/dash/teams/{id}/waiver): a member reads their league's waiver and signs its current version."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import checkbox_field, form_messages, record_form, submit_button, text_field
from volley_app.components.layout import column, link_button, section_card
from volley_app.registry import Body, screen
from volley_app.services.core import timefmt
from volley_app.services.teams import waivers
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values
from volley_app.state.teams import TeamScreen

ERROR_ID = "team-waiver-error"
FIELDS = ("typed_name", "birth_date", "adult")


class TeamWaiverState(TeamScreen, FormState, AuthState):
    _fields = FIELDS
    _error_id = ERROR_ID

    league_href: rx.Field[str] = rx.field("")
    text: rx.Field[str] = rx.field("")
    version: rx.Field[int] = rx.field(0)
    full_name: rx.Field[str] = rx.field("")
    signed_line: rx.Field[str] = rx.field("")
    loaded: rx.Field[bool] = rx.field(False)
    notice: rx.Field[str] = rx.field("")

    _zone: str = ""

    def _show_signed(self, found: waivers.Signed | None) -> None:
        self.signed_line = "" if found is None else (
            f"You signed version {found['version']} on {timefmt.date_time(found['signed_at'], self._zone, labelled=True)}."
        )  # fmt: skip

    async def load(self):
        self.notice, self.loaded = "", False
        found = await self._read_record(waivers.team_waiver_screen, team_id=self._team_id())
        if found is None:
            self.team_name = self.league_name = self.league_href = self.text = self.full_name = self.signed_line = ""
            self.version = 0
            return
        w = found.waiver
        self._zone = w["zone"] if w else ""
        self.team_name, self.league_name = found.team_name, found.league_name
        self.league_href = routes.league_path(found.league_id)
        self.text, self.version = (w["text"], w["version"]) if w else ("", 0)
        self.full_name = found.full_name
        self._show_signed(found.signed)
        self.loaded = True

    def _signed(self, found: waivers.Signed) -> None:
        self._show_signed(found)
        self.notice = "Already signed." if found["already"] else "Thank you: your signature is recorded."

    @rx.event
    def sign(self, form_data: dict):
        self.notice = ""
        return self._submit(
            waivers.sign_waiver, done=self._signed, team_id=self._team_id(),
            ip=self.router.session.client_ip or "", user_agent=self.router.headers.user_agent or "",
            submitted=form_values(form_data, FIELDS),
        )  # fmt: skip


def _form() -> rx.Component:
    s = TeamWaiverState
    age = waivers.MINIMUM_AGE
    return record_form(
        s,
        text_field("Your full name", "typed_name", s, required=True, max_length=waivers.TYPED_NAME_MAX,
                   auto_complete="name", hint="Type it as your account has it: " + s.full_name),
        text_field("Date of birth", "birth_date", s, type="date", required=False,
                   hint=f"Or tick the box below instead. Players must be {age} or older."),
        checkbox_field(f"I am {age} or older", "adult"),
        submit_button("Sign", s, width="auto"),
        on_submit=s.sign,
        spacing="3",
    )  # fmt: skip


def _waiver() -> rx.Component:
    s = TeamWaiverState
    return column(
        section_card(
            "Waiver, version " + s.version.to(str),
            rx.text(s.text, white_space="pre-wrap", size="2"),
        ),
        rx.cond(
            s.signed_line != "",
            rx.callout(s.signed_line, icon="circle_check", color_scheme="green"),
            section_card("Sign", _form()),
        ),
    )


@screen(routes.TEAM_WAIVER, "Team Waiver", TeamWaiverState, heading=lambda s: f"Waiver: {s.team_name}")
def team_waiver_page(s: type[TeamWaiverState]) -> Body:
    return (
        form_messages(s, ERROR_ID),
        rx.cond(s.league_href != "", link_button("League: ", s.league_name, href=s.league_href, variant="soft")),
        rx.cond(
            s.loaded,
            rx.cond(s.version > 0, _waiver(),
                    rx.callout("This league has no waiver yet: there is nothing to sign.", icon="info")),
            link_button("Back to Teams", href=routes.TEAMS, variant="soft"),
        ),
    )  # fmt: skip
