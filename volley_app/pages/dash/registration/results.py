"""After registering without a card payment: on the waitlist, or the card was declined (?league={id})."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import form_card
from volley_app.components.layout import dash_page
from volley_app.components.registration import league_href, return_to_league
from volley_app.registry import page
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg

DECLINE_LINE_1 = "There was an error processing the payment card"
DECLINE_LINE_2 = "Please confirm card number, expiration date, and CVC and try again"


class LeagueLinkState(AuthState):
    league_href: str = routes.DASH_LEAGUES

    def load(self):
        self.league_href = league_href(path_arg(self, "league"))


@page(routes.TEAMS_WAITLIST_SUCCESS, "Waitlist", on_load=LeagueLinkState.load)
def waitlist_success_page() -> rx.Component:
    return dash_page(
        form_card(
            "You're on the Waitlist",
            rx.callout(
                "Your team has joined the waitlist for this league.", icon="check", color_scheme="green", role="status"
            ),
            rx.text("We will let you know if an opening becomes available."),
            return_to_league(LeagueLinkState.league_href, variant="soft"),
        )
    )


@page(routes.TEAMS_DECLINE, "Payment Failed", on_load=LeagueLinkState.load)
def decline_page() -> rx.Component:
    return dash_page(
        form_card(
            "Payment Failed",
            rx.callout(DECLINE_LINE_1, icon="triangle_alert", color_scheme="red", role="alert"),
            rx.text(DECLINE_LINE_2),
            return_to_league(LeagueLinkState.league_href),
        )
    )
