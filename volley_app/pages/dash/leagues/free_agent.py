"""Registering alone into a league as a free agent (/dash/leagues/{id}/free-agent): what the player plays, their
availability, the league's waiver to sign, then the checkout of the league's free-agent fee."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import (
    area_field,
    checkbox_field,
    record_form,
    select_field,
    submit_button,
    text_field,
)
from volley_app.components.layout import button_row, column, link_button, section_card
from volley_app.models.enums import Gender, Position, Rating
from volley_app.registry import Body, record
from volley_app.services.teams import free_agents as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg

ERROR_ID = "free-agent-error"
FIELDS = ("position", "hitter", "passer", "setter", "gender", "availability", "typed_name", "adult")
POSITIONS = [(p.value, p.value) for p in Position]
RATINGS = [("", "Not rated"), *((r.value, r.value) for r in Rating)]
GENDERS = [("", "Not said"), *((g.value, g.value) for g in Gender)]


class FreeAgentState(FormState, AuthState):
    _fields = FIELDS
    _error_id = ERROR_ID

    found: rx.Field[dict[str, str]] = rx.field(default_factory=dict)

    async def load(self) -> None:
        found = await self._read_record(svc.form, league_id=path_arg(self, "league_id"))
        self.found = {k: str(v) for k, v in found.items()} if found else {}
        if found:
            self.found["league_href"] = routes.league_path(found["league_id"])

    @rx.event
    def register(self, form_data: dict[str, object]):
        return self._submit(svc.register, done=lambda out: rx.redirect(routes.checkout_path(out["payment_id"])),
                            league_id=path_arg(self, "league_id"), submitted=form_values(form_data, FIELDS))  # fmt: skip


def _form() -> rx.Component:
    s = FreeAgentState
    f = s.found.to(dict[str, str])
    return record_form(
        s,
        select_field("Position", "position", POSITIONS, s, default_value=f["position"]),
        rx.grid(
            select_field("Hitter rating", "hitter", RATINGS, s, default_value=f["hitter"], required=False),
            select_field("Passer rating", "passer", RATINGS, s, default_value=f["passer"], required=False),
            select_field("Setter rating", "setter", RATINGS, s, default_value=f["setter"], required=False),
            columns={"initial": "1", "sm": "3"}, spacing="3", width="100%",
        ),
        select_field("Gender", "gender", GENDERS, s, default_value=f["gender"], required=False),
        area_field("Availability (optional)", "availability", s, rows="2", max_length=300,
                   hint="The nights you can play, for the operator placing you."),
        rx.cond(f["waiver"], column(
            rx.heading("Waiver", size="3", as_="h2"),
            rx.text(f["waiver"], size="2", white_space="pre-wrap"),
            text_field("Your full name", "typed_name", s, required=True, hint="As your account has it: " + f["name"]),
            checkbox_field("I am 18 or older", "adult"),
            spacing="2",
        )),
        submit_button("Continue to payment (" + f["fee"] + ")", s, width="auto"),
        on_submit=s.register,
    )  # fmt: skip


@record(routes.FREE_AGENT, "Free agent", FreeAgentState, ERROR_ID, name="league_name", shown="league_id", notices=False)
def free_agent_page(s: type[FreeAgentState], f: ObjectVar[dict[str, str]]) -> Body:
    return (
        rx.cond(
            f["refusal"],
            rx.callout(f["refusal"], icon="info"),
            rx.cond(
                f["agent_status"] == "waiting",
                rx.callout("You are registered and paid: the league's operator places you on a team.", icon="info"),
                section_card("Register as a free agent", column(
                    rx.text("Register alone for " + f["fee"] + ": the league's operator places you on a team, "
                            "and you are refunded if you are not placed by the league's start.", size="2"),
                    _form(),
                ), max_width="40rem"),
            ),
        ),
        button_row(link_button("Back to the league", href=f["league_href"], variant="soft", size="2")),
    )  # fmt: skip
