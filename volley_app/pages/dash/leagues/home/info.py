"""The league home's links, League Info card and (for its SVL and admins) the Actions card."""

from __future__ import annotations

import reflex as rx

from volley_app.components.layout import link_button

from .state import LeagueHomeState


def _info_line(label: str, value: rx.Var) -> rx.Component:
    return rx.flex(
        rx.text(label, weight="medium", color_scheme="gray", min_width="9rem"),
        rx.text(value),
        spacing="2",
        wrap="wrap",
    )


def links() -> rx.Component:
    s = LeagueHomeState
    return rx.flex(
        link_button("Schedule", href=s.links["schedule"], variant="soft"),
        link_button("Standings", href=s.links["standings"], variant="soft"),
        link_button("League Rules", href=s.links["rules"], variant="soft"),
        spacing="2",
        wrap="wrap",
    )


def info_card() -> rx.Component:
    i = LeagueHomeState.info
    return rx.card(
        rx.vstack(
            rx.heading("League Info", size="4", as_="h2"),
            _info_line("Day", i["day"]),
            _info_line("Starts", i["start"]),
            _info_line("Weeks", i["weeks"]),
            _info_line("Games every", i["increment"]),
            _info_line("Court", i["court"]),
            _info_line("Where", i["where"]),
            _info_line("Skill level", i["skill"]),
            _info_line("Format", i["format"]),
            _info_line("Gender requirement", i["gender"]),
            _info_line("Teams", i["teams"] + " of " + i["max_teams"]),
            _info_line("Cost per team", i["cost"]),
            _info_line("Cash only", i["cash"]),
            _info_line("Stage", i["stage"]),
            spacing="2",
        ),
        width="100%",
    )


def actions_card() -> rx.Component:
    s = LeagueHomeState
    return rx.cond(
        s.can_manage,
        rx.card(
            rx.vstack(
                rx.heading("Actions", size="4", as_="h2"),
                rx.flex(
                    rx.cond(
                        s.schedule_generated,
                        rx.badge("Schedule generated", color_scheme="green", size="2"),
                        rx.button("Generate Schedule", on_click=s.generate),
                    ),
                    link_button("Waitlist", href=s.links["waitlist"], variant="soft"),
                    link_button("Teams", href=s.links["teams"], variant="soft"),
                    spacing="2",
                    wrap="wrap",
                ),
            ),
            width="100%",
        ),
        rx.fragment(),
    )
