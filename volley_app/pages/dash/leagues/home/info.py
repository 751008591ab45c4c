"""The league home's links, League Info card and (for its SVL and admins) the Actions card."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from volley_app.components.layout import button_row, card_for, details, labelled, link_button, section_card
from volley_app.components.tables import row, table_or_empty
from volley_app.state.forms import flag

from .state import LeagueHomeState

INFO_LINES = (
    ("Day", "day"), ("Starts", "start"), ("Time zone", "zone"), ("Registration closes", "closes"), ("Weeks", "weeks"), ("Games every", "increment"), ("Court", "court"),
    ("Where", "where"), ("Skill level", "skill"), ("Format", "format"), ("Gender requirement", "gender"),
    ("Teams", "teams_of"), ("Cost per team", "cost"), ("Cash only", "cash"), ("Stage", "stage"),
    ("Rosters and subs", "rules"),
)  # fmt: skip


def links() -> rx.Component:
    s = LeagueHomeState
    to = s.links.to(dict[str, str])
    return button_row(
        link_button("Schedule", href=to["schedule"], variant="soft"),
        link_button("Standings", href=to["standings"], variant="soft"),
        link_button("Playoff Bracket", href=to["bracket"], variant="soft"),
        link_button("League Rules", href=to["rules"], variant="soft"),
        rx.cond(flag(s.shows, "show_audit"), link_button("Audit Log", href=to["audit"], variant="soft")),
    )


def info_card() -> rx.Component:
    i = LeagueHomeState.info.to(dict[str, str])
    return section_card("League Info", details(*[labelled(label, i[key]) for label, key in INFO_LINES]))


def managers_card(title: str, *children: rx.Component, **props) -> rx.Component:
    """A card only the league's SVL and admins see (while it is not archived)."""
    return card_for(flag(LeagueHomeState.shows, "can_manage"), title, *children, **props)


def actions_card() -> rx.Component:
    s = LeagueHomeState
    to = s.links.to(dict[str, str])
    return managers_card(
        "Actions",
        button_row(
            rx.cond(
                flag(s.shows, "schedule_generated"),
                rx.fragment(
                    rx.badge("Schedule generated", color_scheme="green", size="2"),
                    rx.button("Redraw Unplayed Weeks", on_click=s.redraw, variant="soft"),
                ),
                rx.button("Generate Schedule", on_click=s.generate),
            ),
            link_button("Waitlist", href=to["waitlist"], variant="soft"),
            link_button("Teams", href=to["teams"], variant="soft"),
            link_button("Email Players", href=to["message"], variant="soft"),
            link_button("Waiver", href=to["waiver"], variant="soft"),
            rx.cond(s.info.to(dict[str, str])["agent_fee"] != "",
                    link_button("Free Agents", href=to["free_agents"], variant="soft")),
        ),
    )


Row = ObjectVar[dict[str, str]]


def _my_game(g: Row) -> rx.Component:
    return row(
        g["when"], g["game"], g["kind"], g["status"], link_button("Score", href=g["href"], size="1", variant="soft")
    )


def _table_card(
    title: str, headers: list[str], rows: ArrayVar[Sequence[dict[str, str]]], shown: Callable[[Row], rx.Component], empty: str
) -> rx.Component:
    """A card with a table of ``rows`` (``shown`` draws each), there only while there are rows."""
    return card_for(rows.length() > 0, title, table_or_empty(headers, rows, shown, empty))


def my_games_card() -> rx.Component:
    """The games of the teams this user captains in the league, first on the page."""
    s = LeagueHomeState
    return _table_card("Your Team's Games", ["When", "Game", "Type", "Score", ""], s.my_games, _my_game, "No games yet.")


def _disputed(d: Row) -> rx.Component:
    return row(d["when"], d["game"], d["reported"], d["note"], link_button("Decide", href=d["href"], size="1"))


def disputed_card() -> rx.Component:
    """Scores the captains disagree on, waiting for the league's SVL or an admin."""
    s = LeagueHomeState
    return _table_card("Disputed Scores", ["When", "Game", "Reported", "What is wrong", ""], s.disputed, _disputed, "None.")
