"""Team registered (/dash/leagues/teams/success?payment={id}): what was paid and what is still due.

Back from Stripe (``payment_intent`` in the address), the payment is verified on the server first.
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import busy, error_line, form_card
from volley_app.components.layout import column, dash_page
from volley_app.components.registration import league_href, return_to_league, texts
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.teams import registration as svc
from volley_app.state.auth import AuthState, actor_of_token
from volley_app.state.forms import path_arg, run_action

STILL_PROCESSING = "Your payment is still processing. Refresh this page in a moment."
INFO = ("league_id", "league_name", "team_name", "paid", "league_cost", "first_game")


class RegisteredState(AuthState):
    info: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    league_href: rx.Field[str] = rx.field(routes.DASH_LEAGUES)
    cash: rx.Field[bool] = rx.field(False)
    error: rx.Field[str] = rx.field("")

    @rx.event(background=True)  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    async def load(self):
        """Back from Stripe the card service is asked first: that wait holds no lock of the tab."""
        async with self:
            token, payment, from_stripe = self._token(), path_arg(self, "payment"), path_arg(self, "payment_intent")
        actor, back = await actor_of_token(token), None
        if from_stripe:  # back from Stripe: verify on the server before showing anything
            back, _f = await run_action(svc.confirm_stripe_return, actor=actor, payment_id=payment)
        found: svc.Paid | None = None
        failure: DomainError | None = None
        if not back or back["status"] not in ("declined", svc.EXPIRED, "processing"):  # else the return says what now
            found, failure = await run_action(svc.result, actor=actor, payment_id=payment)
        async with self:
            return self._show_result(back, found, failure)

    def _show_result(self, back: svc.Outcome | None, found: svc.Paid | None, failure: DomainError | None):
        if back and back["status"] == "declined":
            return rx.redirect(routes.decline_path(back["league_id"], back["payment_id"]))
        if back and back["status"] == svc.EXPIRED:  # its place was released: the checkout says what now
            return rx.redirect(routes.checkout_path(back["payment_id"]))
        if back and back["status"] == "processing":
            self.info, self.error = {}, STILL_PROCESSING
            return None
        if failure is not None or found is None:
            self.info, self.error = {}, failure.message if failure else ""
            return None
        self.error, self.cash = "", found["cash"]
        self.info = {k: str(v) for k, v in found.items() if k in INFO}
        self.league_href = league_href(found["league_id"])
        return None


@page(routes.TEAMS_SUCCESS, "Team Registered", on_load=RegisteredState.load)
def success_page() -> rx.Component:
    s = RegisteredState
    i = texts(s.info)
    first_game = rx.text.strong(i["first_game"])
    registered = column(
        rx.callout(i["team_name"] + " is registered in " + i["league_name"] + ".", icon="check", color_scheme="green",
                   role="status"),
        rx.text("Paid by card: ", i["paid"]),
        # A cash league's card payment was the fee alone; any other league is paid in full by card.
        rx.cond(
            s.cash,
            rx.text("The league amount of ", i["league_cost"], " is due in cash at the first game, ", first_game, "."),
            rx.text("Nothing more is due. See you at the first game, ", first_game, "."),
        ),
        spacing="3",
    )  # fmt: skip
    return dash_page(
        form_card(
            "Team Registered",
            error_line(s.error),
            rx.cond((s.error == "") & (i.length() == 0), busy("Confirming your payment…"), rx.fragment()),
            rx.cond(i.length() > 0, registered, rx.fragment()),
            return_to_league(s.league_href, variant="soft"),
        )
    )
