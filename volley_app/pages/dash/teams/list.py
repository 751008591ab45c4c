"""The teams list (/dash/teams, ?league={id} for one league's), a page at a time, searchable by team or captain."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import dash_screen
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row
from volley_app.components.teams import league_link, team_row, team_table
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.teams import teams as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg
from volley_app.state.paging import TableList

HEADERS = ["Team", "League", "Captain", "Record", "Paid", "Status"]


class TeamsState(TableList, AuthState):
    team_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    _filter_names = svc.TEAM_FILTERS

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(svc.teams_page, bookmark, league_id=path_arg(self, "league"))

    def _show_rows(self, rows: list) -> None:
        self.team_rows = [team_row(t) for t in rows]

    async def load(self):
        await self._open_list()


def _list_row(r: rx.Var) -> rx.Component:
    team = rx.link(r["team_name"], href=r["href"], weight="medium")
    return row(team, league_link(r), r["captain"], r["record"], r["paid"], r["status"])


@page(routes.TEAMS, "Teams", on_load=TeamsState.load)
def teams_page() -> rx.Component:
    s = TeamsState
    return dash_screen(
        "Teams",
        search_form(s, "Search teams", placeholder="Team or captain"),
        error_line(s.error),
        team_table(s, HEADERS, _list_row, "No teams yet."),
        pager(s, "teams"),
    )
