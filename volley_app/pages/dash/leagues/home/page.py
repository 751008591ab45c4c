"""A league's home (/dash/leagues/{id}): its info for everyone logged in; actions, payments and edit for its SVL."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, notice_line
from volley_app.components.layout import dash_screen, section_card
from volley_app.components.leagues import back_to_leagues
from volley_app.registry import page
from volley_app.state.forms import flag

from .bracket import bracket_card
from .edit import edit_card
from .exports import exports_card
from .info import actions_card, disputed_card, info_card, links, my_games_card
from .payments import payments_card
from .register import register_card
from .state import ERROR_ID, LeagueHomeState


def _archived() -> rx.Component:
    s = LeagueHomeState
    return section_card(
        "Archived",
        rx.text("This league is archived: no list shows it. Its teams, games and payments are kept."),
        rx.button("Restore League", on_click=s.restore, width="fit-content"),
    )


@page(routes.LEAGUE_HOME, "League", on_load=LeagueHomeState.load)
def league_home_page() -> rx.Component:
    s = LeagueHomeState
    info = s.info.to(dict[str, str])
    return dash_screen(
        rx.cond(s.missing, "League", info["name"]),
        rx.cond(s.missing, rx.fragment(), rx.text(info["svl"], " · ", info["session"], color_scheme="gray")),
        error_line(s.error, ERROR_ID),
        rx.cond(
            s.missing,
            back_to_leagues(),
            rx.fragment(
                notice_line(s.notice),
                rx.cond(flag(s.shows, "can_restore"), _archived()),
                links(),
                my_games_card(),
                disputed_card(),
                info_card(),
                actions_card(),
                register_card(),
                payments_card(),
                exports_card(),
                bracket_card(),
                edit_card(),
            ),
        ),
    )
