"""After registering without a card payment: on the waitlist, or the card was declined (?league={id}, and
?payment={id}: the way back to the same checkout, its place and team name kept)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import form_card
from volley_app.components.layout import dash_page, link_button
from volley_app.components.registration import league_href, return_to_league
from volley_app.registry import page
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg

DECLINE_LINE_1 = "There was an error processing the payment card"
DECLINE_LINE_2 = "Please confirm card number, expiration date, and CVC and try again"
WAITLISTED = "Your team has joined the waitlist for this league."
OPENING = "We will let you know if an opening becomes available."


class LeagueLinkState(AuthState):
    league_href: rx.Field[str] = rx.field(routes.DASH_LEAGUES)
    retry_href: rx.Field[str] = rx.field("")

    def load(self):
        self.league_href = league_href(path_arg(self, "league"))
        payment = path_arg(self, "payment")
        self.retry_href = routes.checkout_path(payment) if payment.isdigit() else ""


def _result(title: str, callout: rx.Component, line: str, *actions: rx.Component, **link_props) -> rx.Component:
    """The result's title, what happened, what comes next, and the way back to the league."""
    back = return_to_league(LeagueLinkState.league_href, **link_props)
    return dash_page(form_card(title, callout, rx.text(line), *actions, back))


@page(routes.TEAMS_WAITLIST_SUCCESS, "Waitlist", on_load=LeagueLinkState.load)
def waitlist_success_page() -> rx.Component:
    joined = rx.callout(WAITLISTED, icon="check", color_scheme="green", role="status")
    return _result("You're on the Waitlist", joined, OPENING, variant="soft")


@page(routes.TEAMS_DECLINE, "Payment Failed", on_load=LeagueLinkState.load)
def decline_page() -> rx.Component:
    declined = rx.callout(DECLINE_LINE_1, icon="triangle_alert", color_scheme="red", role="alert")
    retry = rx.cond(
        LeagueLinkState.retry_href != "",
        link_button("Try Again", href=LeagueLinkState.retry_href, size="3", width="100%"),
    )
    return _result("Payment Failed", declined, DECLINE_LINE_2, retry, variant="soft")
