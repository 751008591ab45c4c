"""A league's standings (/dash/leagues/{id}/teams): teams in the league's ranking order with matches, sets and
points from the games, forfeits, adjustments and broken ties noted, and how the order is calculated; Edit
links for its SVL and admins."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.layout import section_card
from volley_app.components.leagues import edit_link, league_header, league_screen
from volley_app.components.tables import table_or_empty
from volley_app.registry import page
from volley_app.services.seasons import results
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action


class StandingsState(AuthState):
    league_name: rx.Field[str] = rx.field("")
    back: rx.Field[str] = rx.field("")
    team_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    ranking: rx.Field[str] = rx.field("")
    how: rx.Field[list[str]] = rx.field(default_factory=list)
    can_manage: rx.Field[bool] = rx.field(False)
    error: rx.Field[str] = rx.field("")

    async def load(self) -> None:
        found, failure = await run_action(
            results.standings, actor=await self._actor(), league_id=path_arg(self, "league_id")
        )
        self.error = failure.message if failure else ""
        if found is None:
            self.league_name, self.back, self.can_manage = league_header(None)
            self.ranking, self.how, self.team_rows = "", [], []
            return
        self.league_name, self.back, self.can_manage = league_header(found["league"])
        self.ranking, self.how = found["ranking"], found["how"]
        self.team_rows = [
            {"rank": str(t["rank"]), "team_name": t["team_name"] + (" (withdrawn)" if t["withdrawn"] else ""),
             "wins": str(t["wins"]), "losses": str(t["losses"]), "played": str(t["played"]),
             "sets": f"{t['sets_won']}-{t['sets_lost']}", "set_pct": t["set_pct"],
             "points": f"{t['points_for']}-{t['points_against']}", "ratio": t["point_ratio"],
             "note": results.note_of(t), "href": routes.team_path(t["id"]) if self.can_manage else ""}
            for t in found["teams"]
        ]  # fmt: skip


def _standing_row(team: ObjectVar[dict[str, str]]) -> rx.Component:
    # The rank is narrow and the team's name is the column that keeps a readable width; the notes get
    # room to run on one or two lines, so no row grows tall on a phone (the table scrolls sideways).
    return rx.table.row(
        rx.table.cell(team["rank"], min_width="2.5rem"),
        *[rx.table.cell(c) for c in (
            rx.text(team["team_name"], min_width="8rem"), team["wins"], team["losses"], team["played"],
            rx.text(team["sets"], class_name="nowrap"), rx.text(team["set_pct"], class_name="nowrap"),
            rx.text(team["points"], class_name="nowrap"), team["ratio"],
            rx.text(team["note"], size="2", min_width=rx.cond(team["note"] != "", "18rem", "0")),
            edit_link(team["href"]),
        )],
    )  # fmt: skip


def _how() -> rx.Component:
    s = StandingsState
    return section_card(
        "How standings are calculated",
        rx.text("Order: ", s.ranking, weight="medium"),
        rx.el.ul(rx.foreach(s.how, lambda line: rx.el.li(rx.text(line, size="2")))),
    )


@page(routes.LEAGUE_STANDINGS, "Standings", on_load=StandingsState.load)
def standings_page() -> rx.Component:
    s = StandingsState
    return league_screen(
        "Standings",
        s,
        table_or_empty(
            ["#", "Team", "W", "L", "Played", "Sets", "Set %", "Points", "Point ratio", "Notes", ""],
            s.team_rows, _standing_row, "No teams yet.", s.error == "",
        ),
        rx.cond(s.ranking != "", _how()),
    )  # fmt: skip
