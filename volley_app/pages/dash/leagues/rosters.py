"""A league's rosters (/dash/leagues/{id}/rosters): every member of every team, a page at a time, searchable by
name, username or team, with the CSV of them all (its SVL and admins)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import button_row, dash_screen, link_button
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.operations import exports
from volley_app.services.teams import rosters
from volley_app.services.teams.rosters import LeagueRosterRow
from volley_app.state.auth import AuthState
from volley_app.state.files import backend_address
from volley_app.state.forms import path_arg, run_action
from volley_app.state.paging import TableList

HEADERS = ["Team", "Name", "Username", "Role", "Gender", "Joined"]


class LeagueRostersState(TableList, AuthState):
    members: rx.Field[list[LeagueRosterRow]] = rx.field(default_factory=list)
    league_href: rx.Field[str] = rx.field("")
    _filter_names = rosters.ROSTER_FILTERS

    def _league_id(self) -> str:
        return path_arg(self, "league_id")

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(rosters.league_rosters, bookmark, league_id=self._league_id())

    def _show_rows(self, rows: list[LeagueRosterRow]) -> None:
        self.members = list(rows)

    async def load(self) -> None:
        self.league_href = routes.league_path(self._league_id())
        await self._open_list()

    @rx.event
    async def download(self):
        """The rosters' CSV, by a link signed for this reader."""
        found, failure = await run_action(exports.export_links, actor=await self._actor(), league_id=self._league_id())
        if failure is not None or not found:
            self.error = failure.message if failure else ""
            return None
        return rx.redirect(backend_address(found["rosters"]), is_external=True)


def _member(r: ObjectVar[LeagueRosterRow]) -> rx.Component:
    team = rx.link(r["team_name"], href=routes.TEAMS + "/" + r["team_id"].to_string())
    name = rx.vstack(
        rx.text(r["name"]),
        rx.cond(r["playoff"] != "", rx.text(r["playoff"], size="1", color_scheme=rx.cond(r["playoff_eligible"], "gray", "red")),
                rx.fragment()),
        spacing="0",
    )  # fmt: skip
    return row(team, name, r["username"], r["role"], r["gender"], r["joined"])


@page(routes.LEAGUE_ROSTERS, "Rosters", on_load=LeagueRostersState.load)
def league_rosters_page() -> rx.Component:
    s = LeagueRostersState
    return dash_screen(
        "Rosters",
        button_row(
            link_button("Back to the league", href=s.league_href, variant="soft", size="2"),
            rx.button("Download the rosters (CSV)", on_click=s.download, variant="soft", size="2", type="button"),
        ),
        search_form(s, "Search rosters", placeholder="Name, username or team"),
        error_line(s.error),
        table_or_empty(HEADERS, s.members, _member, "No players found on the league's teams.", s.loaded & (s.error == "")),
        pager(s, "players"),
    )
