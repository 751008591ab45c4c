"""The teams list (/dash/teams, ?league={id} for one league's), a page at a time, searchable by team or captain."""

from __future__ import annotations

from collections.abc import Callable

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import dash_screen
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.components.teams import TeamLine, league_link, team_row
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.teams import teams as svc
from volley_app.services.teams.teams import TeamRow
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg
from volley_app.state.paging import TableList

HEADERS = ["Team", "League", "Captain", "Record", "Paid", "Status"]


class TeamList(TableList, mixin=True):
    """Teams a page at a time (``_waitlist``: only those on the waitlist, or only those off it), searchable by
    team or captain; ``?league={id}`` keeps one league's."""

    team_rows: rx.Field[list[TeamLine]] = rx.field(default_factory=list)
    _filter_names = svc.TEAM_FILTERS
    _waitlist: bool | None = None

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(svc.teams_page, bookmark, waitlist=self._waitlist,
                                     league_id=path_arg(self, "league"))  # fmt: skip

    def _show_rows(self, rows: list[TeamRow]) -> None:
        self.team_rows = [team_row(t) for t in rows]


def teams_screen(s: type[TeamList], title: str, search: str, headers: list[str],
                 item: Callable[[ObjectVar[TeamLine]], rx.Component], empty: str, noun: str,
                 *notices: rx.Component) -> rx.Component:  # fmt: skip
    """The teams of ``s`` in a table under ``title`` (``search``: its search form's label), or ``empty`` once
    they are loaded and there are none; ``notices`` under the error line."""
    return dash_screen(
        title,
        search_form(s, search, placeholder="Team or captain"),
        error_line(s.error),
        *notices,
        table_or_empty(headers, s.team_rows, item, empty, s.loaded & (s.error == "")),
        pager(s, noun),
    )


class TeamsState(TeamList, AuthState):
    async def load(self) -> None:
        await self._open_list()


def _list_row(r: ObjectVar[TeamLine]) -> rx.Component:
    team = rx.link(r["team_name"], href=r["href"], weight="medium")
    return row(team, league_link(r), r["captain"], r["record"], r["paid"], r["status"])


@page(routes.TEAMS, "Teams", on_load=TeamsState.load)
def teams_page() -> rx.Component:
    return teams_screen(TeamsState, "Teams", "Search teams", HEADERS, _list_row, "No teams yet.", "teams")
