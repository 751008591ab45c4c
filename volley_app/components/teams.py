"""What the teams list and the waitlist share: a team as one table row shows it."""

from __future__ import annotations

from typing import TypedDict

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.services.teams.teams import TeamRow


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

