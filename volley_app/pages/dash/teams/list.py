"""The teams list (/dash/teams, ?league={id} for one league's), a page at a time, searchable by team or captain."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.tables import row
from volley_app.components.teams import TeamLine, TeamList, league_link, teams_screen
from volley_app.registry import page
from volley_app.state.auth import AuthState

HEADERS = ["Team", "League", "Captain", "Record", "Paid", "Status"]


class TeamsState(TeamList, AuthState):
    async def load(self) -> None:
        await self._open_list()


def _list_row(r: ObjectVar[TeamLine]) -> rx.Component:
    team = rx.link(r["team_name"], href=r["href"], weight="medium")
    return row(team, league_link(r), r["captain"], r["record"], r["paid"], r["status"])


@page(routes.TEAMS, "Teams", on_load=TeamsState.load)
def teams_page() -> rx.Component:
    return teams_screen(TeamsState, "Teams", "Search teams", HEADERS, _list_row, "No teams yet.", "teams")
