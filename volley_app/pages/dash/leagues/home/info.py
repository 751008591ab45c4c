"""The league home's links, League Info card and (for its SVL and admins) the Actions card."""

from __future__ import annotations

import reflex as rx

from volley_app.components.layout import button_row, details, labelled, link_button, section_card

from .state import LeagueHomeState


def links() -> rx.Component:
    s = LeagueHomeState
    return button_row(
        link_button("Schedule", href=s.links["schedule"], variant="soft"),
        link_button("Standings", href=s.links["standings"], variant="soft"),
        link_button("League Rules", href=s.links["rules"], variant="soft"),
    )


def info_card() -> rx.Component:
    i = LeagueHomeState.info
    return section_card(
        "League Info",
        details(
            labelled("Day", i["day"]),
            labelled("Starts", i["start"]),
            labelled("Weeks", i["weeks"]),
            labelled("Games every", i["increment"]),
            labelled("Court", i["court"]),
            labelled("Where", i["where"]),
            labelled("Skill level", i["skill"]),
            labelled("Format", i["format"]),
            labelled("Gender requirement", i["gender"]),
            labelled("Teams", i["teams"] + " of " + i["max_teams"]),
            labelled("Cost per team", i["cost"]),
            labelled("Cash only", i["cash"]),
            labelled("Stage", i["stage"]),
        ),
    )


def actions_card() -> rx.Component:
    s = LeagueHomeState
    return rx.cond(
        s.can_manage,
        section_card(
            "Actions",
            button_row(
                rx.cond(
                    s.schedule_generated,
                    rx.badge("Schedule generated", color_scheme="green", size="2"),
                    rx.button("Generate Schedule", on_click=s.generate),
                ),
                link_button("Waitlist", href=s.links["waitlist"], variant="soft"),
                link_button("Teams", href=s.links["teams"], variant="soft"),
            ),
        ),
    )
