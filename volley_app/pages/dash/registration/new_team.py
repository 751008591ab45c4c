"""Register a team (/dash/leagues/teams/new?league={id}): to checkout, or onto the waitlist of a full league."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, form_card, stacked_form, submit_button, text_field
from volley_app.components.layout import dash_page
from volley_app.components.registration import league_href, return_to_league, texts
from volley_app.registry import page
from volley_app.services.teams import registration as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action

ERROR_ID = "team-form-error"


class NewTeamState(FormState, AuthState):
    _fields = ("team_name", "waitlist")
    _error_id = ERROR_ID

    league_name: rx.Field[str] = rx.field("")
    league_href: rx.Field[str] = rx.field(routes.DASH_LEAGUES)
    full: rx.Field[bool] = rx.field(False)
    full_message: rx.Field[str] = rx.field(svc.LEAGUE_FULL)
    may_register: rx.Field[bool] = rx.field(False)
    cash: rx.Field[bool] = rx.field(False)
    price: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    loaded: rx.Field[bool] = rx.field(False)

    async def load(self) -> None:
        self._clear_messages()
        self.loaded = False
        league = path_arg(self, "league")
        self.league_href = league_href(league)
        found, failure = await run_action(svc.options, actor=await self._actor(), league_id=league)
        self.loaded = True
        if failure is not None:
            self.may_register, self.league_name, self.error = False, "", failure.message
            return
        assert found is not None  # run_action answers the result or the failure
        self.league_name, self.full, self.cash = found["league_name"], found["full"], found["cash"]
        self.full_message = svc.LEAGUE_FULL
        self.may_register, self.error = found["may_register"], found["refusal"]
        self.price = {"league_cost": found["league_cost"], "fee": found["fee"], "total": found["total"],
                      "players": str(found["players"])}  # fmt: skip

    def _next_step(self, out: svc.NextStep):
        if out["kind"] == "full":  # filled up since the page was loaded: the waitlist, in place
            self.full, self.full_message = True, out["message"]
            return None
        if out["kind"] == "waitlist":
            return rx.redirect(routes.waitlist_success_path(out["league_id"]))
        return rx.redirect(routes.checkout_path(out["payment_id"]))

    @rx.event
    def submit(self, form_data: dict[str, object]):
        data = form_values(form_data, self._fields)
        return self._submit(svc.register, done=self._next_step, league_id=path_arg(self, "league"),
                            team_name=data["team_name"], waitlist=data["waitlist"])  # fmt: skip


def _price() -> rx.Component:
    s = NewTeamState
    price = texts(s.price)
    return rx.cond(
        s.full,
        rx.callout(s.full_message, icon="info", color_scheme="amber", role="status"),
        rx.text(
            "League cost ", price["league_cost"], " plus a fee of ", price["fee"], " ($5 × ", price["players"],
            " players).", size="2", color_scheme="gray",
        ),
    )  # fmt: skip


@page(routes.TEAMS_NEW, "Register a Team", on_load=NewTeamState.load)
def new_team_page() -> rx.Component:
    s = NewTeamState
    form = stacked_form(
        _price(),
        text_field("Team Name", "team_name", s, max_length=100, auto_focus=True),
        rx.cond(s.full, rx.el.input(type="hidden", name="waitlist", value="true"), rx.fragment()),
        submit_button(rx.cond(s.full, "Join Waitlist", "Continue to Checkout"), s),
        on_submit=s.submit,
    )
    return dash_page(
        form_card(
            "Register a Team",
            rx.text(s.league_name, color_scheme="gray"),
            error_line(s.error, ERROR_ID),
            rx.cond(s.may_register, form, rx.fragment()),
            return_to_league(s.league_href, variant="soft"),
        )
    )
