"""A league's standings (/dash/leagues/{id}/teams): teams by record from the games, adjustments and forfeits
noted; Edit links for its SVL and admins."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.leagues import edit_link, league_header, league_screen
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services import results
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action


class StandingsState(AuthState):
    league_name: str = ""
    back: str = ""
    team_rows: list[dict[str, str]] = []
    can_manage: bool = False
    error: str = ""

    async def load(self):
        found, failure = await run_action(
            results.standings, actor=await self._actor(), league_id=path_arg(self, "league_id")
        )
        self.error = failure.message if failure else ""
        found = found or {"league": None, "teams": []}
        self.league_name, self.back, self.can_manage = league_header(found["league"])
        self.team_rows = [
            {"rank": str(i + 1), "team_name": t["team_name"] + (" (withdrawn)" if t["withdrawn"] else ""),
             "wins": str(t["wins"]), "losses": str(t["losses"]),
             "note": "; ".join(x for x in (
                 f"{t['forfeits']} forfeit{'s' if t['forfeits'] != 1 else ''}" if t["forfeits"] else "",
                 f"Adjusted {t['adjustment']}: {t['reasons']}" if t["adjustment"] else "",
             ) if x),
             "href": routes.team_path(t["id"]) if self.can_manage else ""}
            for i, t in enumerate(found["teams"])
        ]  # fmt: skip


def _standing_row(team: rx.Var) -> rx.Component:
    return row(team["rank"], team["team_name"], team["wins"], team["losses"], team["note"], edit_link(team["href"]))


@page(routes.LEAGUE_STANDINGS, "Standings", on_load=StandingsState.load)
def standings_page() -> rx.Component:
    s = StandingsState
    return league_screen(
        "Standings",
        s,
        table_or_empty(["#", "Team", "Wins", "Losses", "Notes", ""], s.team_rows, _standing_row, "No teams yet.", s.error == ""),
    )
