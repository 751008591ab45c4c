"""The teams list (/dash/teams, ?league={id} for one league's)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, page_heading
from volley_app.components.layout import dash_page
from volley_app.components.tables import table_or_empty
from volley_app.components.teams import team_row
from volley_app.registry import page
from volley_app.services import teams as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action


class TeamsState(AuthState):
    team_rows: list[dict[str, str]] = []
    error: str = ""
    loaded: bool = False

    async def load(self):
        found, failure = await run_action(
            svc.list_teams, actor=await self._actor(), league_id=path_arg(self, "league")
        )
        self.loaded = True
        self.team_rows = [team_row(t) for t in found or []]
        self.error = failure.message if failure else ""


def _list_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(row["team_name"], href=row["href"], weight="medium")),
        rx.table.cell(rx.link(row["league_name"], href=row["league_href"])),
        rx.table.cell(row["captain"]),
        rx.table.cell(row["record"]),
        rx.table.cell(row["paid"]),
        rx.table.cell(row["status"]),
    )


@page(routes.TEAMS, "Teams", on_load=TeamsState.load)
def teams_page() -> rx.Component:
    s = TeamsState
    return dash_page(
        rx.vstack(
            page_heading("Teams"),
            error_line(s.error),
            table_or_empty(
                ["Team", "League", "Captain", "Record", "Paid", "Status"],
                s.team_rows,
                _list_row,
                "No teams yet.",
                s.loaded & (s.error == ""),
            ),
            spacing="4",
            width="100%",
        )
    )
