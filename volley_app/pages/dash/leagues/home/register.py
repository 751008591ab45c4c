"""The league home's Registration card: Register a Team, or the waitlist when the league is full, and Register as a
Free Agent when the league takes them (players)."""

from __future__ import annotations

import reflex as rx

from volley_app.components.layout import card_for, column, link_button
from volley_app.services.teams import registration
from volley_app.state.forms import flag

from .state import LeagueHomeState


def register_card() -> rx.Component:
    s = LeagueHomeState
    closed = card_for(s.registration_note != "", "Registration", rx.callout(s.registration_note, icon="info"))
    return rx.fragment(closed, _open_card())


def _open_card() -> rx.Component:
    s = LeagueHomeState
    register = s.links.to(dict[str, str])["register"]
    agent_fee = s.info.to(dict[str, str])["agent_fee"]
    return card_for(
        flag(s.registration, "may_register"),
        "Registration",
        rx.cond(
            flag(s.registration, "full"),
            column(
                rx.callout(registration.LEAGUE_FULL, icon="info", color_scheme="amber"),
                link_button("Join the Waitlist", href=register),
                spacing="3",
            ),
            link_button("Register a Team", href=register),
        ),
        rx.cond(agent_fee != "", link_button("Register as a Free Agent (" + agent_fee + ")", variant="soft",
                                              href=s.links.to(dict[str, str])["free_agent"])),
    )
