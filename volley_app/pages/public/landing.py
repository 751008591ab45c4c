"""The public landing page (spec section 2): header, league banner, links, footer."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import button_row, leagues_button, link_button, public_page
from volley_app.components.prose import hero
from volley_app.registry import page
from volley_app.services.operations import home
from volley_app.state.forms import run_action


class LandingState(rx.State):
    banner: rx.Field[str] = rx.field("")

    async def load(self):
        """The announcement: the next league in registration (or the settings' text)."""
        found = await run_action(home.announcement)
        self.banner = found.value if found.failure is None else home.NO_LEAGUE_OPEN


def _feature(icon: str, title: str, text: str) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.icon(icon, size=28, color=rx.color("accent", 9)),
            rx.heading(title, size="4", as_="h2"),
            rx.text(text, color_scheme="gray", size="2"),
            spacing="2",
        ),
        size="2",
    )


def _more(label: str, href: str, text: str) -> rx.Component:
    return rx.link(
        rx.card(
            rx.hstack(
                rx.vstack(rx.text(label, weight="bold"), rx.text(text, size="2", color_scheme="gray"), spacing="1"),
                rx.icon("chevron_right", color=rx.color("gray", 9)),
                justify="between",
                align="center",
                width="100%",
            ),
            size="2",
            width="100%",
        ),
        href=href,
        underline="none",
        color="inherit",
    )


@page(routes.HOME, on_load=LandingState.load)
def landing_page() -> rx.Component:
    return public_page(
        rx.vstack(
            hero(
                "Play more volleyball.",
                "Find a sub in minutes, pick up games as a sub, and sign your team up for leagues "
                "in Lexington, KY, all from your phone.",
                button_row(
                    link_button("Sign Up", href=routes.SIGNUP, size="4"),
                    link_button("Log In", href=routes.LOGIN, size="4", variant="outline"),
                    leagues_button("Browse Leagues", size="4", variant="soft"),
                    spacing="3",
                ),
                intro_width="38rem",
                spacing="4",
                padding_y={"initial": "1.5rem", "sm": "3rem"},
            ),
            rx.grid(
                _feature("users", "Never play short", "Post a sub request and the players on the sub list see it right away."),
                _feature("hand", "Sub when you can", "Rate your hitting, passing and setting, and answer requests that fit."),
                _feature("trophy", "Join a league", "Browse leagues in registration, register your team and pay by card."),
                columns={"initial": "1", "sm": "3"},
                spacing="4",
                width="100%",
            ),
            rx.heading("More from us", size="5", as_="h2", padding_top="2rem"),
            rx.grid(
                _more("About Us", routes.ABOUT, "Who runs the leagues and the sub network."),
                _more("Franchise", routes.FRANCHISE, "Bring our leagues to your city."),
                _more("Host a League", routes.HOST, "Run leagues at your venue."),
                _more("Promote", routes.PROMOTE, "Reach players in our newsletter."),
                _more("Contact", routes.CONTACT, "Questions? We answer within 1-2 days."),
                columns={"initial": "1", "sm": "2", "md": "3"},
                spacing="3",
                width="100%",
            ),
            spacing="5",
            width="100%",
        ),
        banner=LandingState.banner,
    )
