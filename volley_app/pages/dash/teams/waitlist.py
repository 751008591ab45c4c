"""The waitlist (/dash/leagues/teams/waitlist, ?league={id} for one league's): Promote for its SVL and admins.

Promote offers the team a place (its captain gets a checkout link); a team with an open offer shows until when.
The list is read a page at a time and searches by team or captain.
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, notice_line
from volley_app.components.layout import dash_screen
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row
from volley_app.components.teams import league_link, team_row, team_table
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.teams import teams as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action
from volley_app.state.paging import TableList

HEADERS = ["Team", "League", "Captain", "Place"]


class WaitlistState(TableList, AuthState):
    team_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    notice: rx.Field[str] = rx.field("")
    _filter_names = svc.TEAM_FILTERS

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(svc.teams_page, bookmark, waitlist=True, league_id=path_arg(self, "league"))

    def _show_rows(self, rows: list) -> None:
        self.team_rows = [team_row(t) for t in rows]

    async def load(self):
        self.notice = ""
        await self._open_list()

    @rx.event
    async def promote(self, team_id: str):
        offer, failure = await run_action(svc.promote, actor=await self._actor(), team_id=team_id)
        if failure is not None:
            self.error, self.notice = failure.message, ""
            return
        await self._refresh()
        self.notice = (
            f"{offer['team_name']} has been offered a place: the captain has been emailed a link to pay by "
            f"{offer['until']}. The team is in once paid."
        )


def _waitlist_row(r: rx.Var) -> rx.Component:
    promote = rx.button("Promote", size="1", on_click=WaitlistState.promote(r["id"]))
    offered = rx.text("Offered until ", r["offered_until"], size="2")
    place = rx.cond(r["offered_until"] != "", offered, rx.cond(r["can_promote"] != "", promote, rx.fragment()))
    return row(r["team_name"], league_link(r), r["captain"], place)


@page(routes.WAITLIST, "Waitlist", on_load=WaitlistState.load)
def waitlist_page() -> rx.Component:
    s = WaitlistState
    return dash_screen(
        "Waitlist",
        search_form(s, "Search the waitlist", placeholder="Team or captain"),
        error_line(s.error),
        notice_line(s.notice),
        team_table(s, HEADERS, _waitlist_row, "No Waitlisted Teams"),
        pager(s, "waitlisted teams"),
    )
