"""What the teams list and the waitlist share: a team as one table row shows it, the list's state and its screen."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypedDict

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import dash_screen
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import table_or_empty
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.teams import teams as svc
from volley_app.services.teams.teams import TeamRow
from volley_app.state.forms import path_arg
from volley_app.state.paging import TableList


class TeamLine(TypedDict):
    """A team as the texts and links of its row."""

    id: str
    team_name: str
    league_name: str
    league_href: str
    captain: str
    record: str
    paid: str
    status: str
    href: str
    can_promote: str
    offered_until: str


def team_row(t: TeamRow) -> TeamLine:
    """A team from ``services.teams.teams.teams_page`` as the texts and links of its row."""
    return {
        "id": str(t["id"]),
        "team_name": t["team_name"],
        "league_name": t["league_name"],
        "league_href": routes.league_path(t["league_id"]),
        "captain": t["captain"],
        "record": f"{t['wins']}-{t['losses']}",
        "paid": "Yes" if t["paid"] else "No",
        "status": "Waitlist" if t["waitlist"] else "Registered",
        "href": routes.team_path(t["id"]),
        "can_promote": "yes" if t["can_promote"] else "",
        "offered_until": t["offered_until"],
    }


def league_link(r: ObjectVar[TeamLine]) -> rx.Component:
    """The team's league, linked to its home."""
    return rx.link(r["league_name"], href=r["league_href"])


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
