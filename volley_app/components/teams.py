"""What the teams list and the waitlist share: a team as one table row shows it."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.tables import table_or_empty


def team_row(t: dict) -> dict[str, str]:
    """A team from ``services.teams.teams.list_teams`` as the texts and links of its row."""
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
        "can_promote": "yes" if t.get("can_promote") else "",
        "offered_until": t.get("offered_until", ""),
    }


def league_link(r: rx.Var) -> rx.Component:
    """The team's league, linked to its home."""
    return rx.link(r["league_name"], href=r["league_href"])


def team_table(state, headers: list[str], row, empty: str) -> rx.Component:
    """``state``'s teams in a table, or ``empty`` once they are loaded and there are none."""
    return table_or_empty(headers, state.team_rows, row, empty, state.loaded & (state.error == ""))
