"""The waitlist (/dash/leagues/teams/waitlist, ?league={id} for one league's): Promote for its SVL and admins."""

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


class WaitlistState(AuthState):
    team_rows: list[dict[str, str]] = []
    error: str = ""
    notice: str = ""
    loaded: bool = False

    async def load(self):
        self.notice = ""
        await self._fetch()

    async def _fetch(self):
        found, failure = await run_action(
            svc.list_teams, actor=await self._actor(), waitlist=True, league_id=path_arg(self, "league")
        )
        self.loaded = True
        self.team_rows = [team_row(t) for t in found or []]
        self.error = failure.message if failure else ""

    @rx.event
    async def promote(self, team_id: str):
        team, failure = await run_action(svc.promote, actor=await self._actor(), team_id=team_id)
        if failure is not None:
            self.error, self.notice = failure.message, ""
            return
        await self._fetch()
        self.notice = f"{team.team_name} promoted; the captain has been emailed."


def _waitlist_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["team_name"]),
        rx.table.cell(rx.link(row["league_name"], href=row["league_href"])),
        rx.table.cell(row["captain"]),
        rx.table.cell(
            rx.cond(
                row["can_promote"] != "",
                rx.button("Promote", size="1", on_click=WaitlistState.promote(row["id"])),
                rx.fragment(),
            )
        ),
    )


@page(routes.WAITLIST, "Waitlist", on_load=WaitlistState.load)
def waitlist_page() -> rx.Component:
    s = WaitlistState
    return dash_page(
        rx.vstack(
            page_heading("Waitlist"),
            error_line(s.error),
            rx.cond(
                s.notice != "", rx.callout(s.notice, icon="check", color_scheme="green", role="status"), rx.fragment()
            ),
            table_or_empty(
                ["Team", "League", "Captain", ""],
                s.team_rows,
                _waitlist_row,
                "No Waitlisted Teams",
                s.loaded & (s.error == ""),
            ),
            spacing="4",
            width="100%",
        )
    )
