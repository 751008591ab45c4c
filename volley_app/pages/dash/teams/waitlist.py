"""The waitlist (/dash/leagues/teams/waitlist, ?league={id} for one league's): Promote for its SVL and admins.

Promote offers the team a place (its captain gets a checkout link); a team with an open offer shows until when.
The list is read a page at a time and searches by team or captain.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import notice_line
from volley_app.components.tables import row
from volley_app.components.teams import TeamLine, TeamList, league_link, teams_screen
from volley_app.registry import page
from volley_app.services.teams import teams as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

HEADERS = ["Team", "League", "Captain", "Place"]


class WaitlistState(TeamList, AuthState):
    notice: rx.Field[str] = rx.field("")
    _waitlist = True

    async def load(self) -> None:
        self.notice = ""
        await self._open_list()

    @rx.event
    async def promote(self, team_id: str) -> None:
        offer, failure = await run_action(svc.promote, actor=await self._actor(), team_id=team_id)
        if failure is not None:
            self.error, self.notice = failure.message, ""
            return
        assert offer is not None  # run_action answers the result or the failure
        await self._refresh()
        self.notice = (
            f"{offer['team_name']} has been offered a place: the captain has been emailed a link to pay by "
            f"{offer['until']}. The team is in once paid."
        )


def _waitlist_row(r: ObjectVar[TeamLine]) -> rx.Component:
    on_click = WaitlistState.promote(r["id"])  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    promote = rx.button("Promote", size="1", on_click=on_click)
    offered = rx.text("Offered until ", r["offered_until"], size="2")
    place = rx.cond(r["offered_until"] != "", offered, rx.cond(r["can_promote"] != "", promote, rx.fragment()))
    return row(r["team_name"], league_link(r), r["captain"], place)


@page(routes.WAITLIST, "Waitlist", on_load=WaitlistState.load)
def waitlist_page() -> rx.Component:
    s = WaitlistState
    return teams_screen(s, "Waitlist", "Search the waitlist", HEADERS, _waitlist_row, "No Waitlisted Teams",
                        "waitlisted teams", notice_line(s.notice))  # fmt: skip
