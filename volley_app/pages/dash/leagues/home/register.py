"""The league home's Registration card: Register a Team, or the waitlist when the league is full (players)."""

from __future__ import annotations

import reflex as rx

from volley_app.components.layout import link_button
from volley_app.services import registration

from .state import LeagueHomeState


def register_card() -> rx.Component:
    s = LeagueHomeState
    return rx.cond(
        s.may_register,
        rx.card(
            rx.vstack(
                rx.heading("Registration", size="4", as_="h2"),
                rx.cond(
                    s.league_full,
                    rx.vstack(
                        rx.callout(registration.LEAGUE_FULL, icon="info", color_scheme="amber"),
                        link_button("Join the Waitlist", href=s.links["register"]),
                        width="100%",
                    ),
                    link_button("Register a Team", href=s.links["register"]),
                ),
                width="100%",
            ),
            width="100%",
        ),
        rx.fragment(),
    )
