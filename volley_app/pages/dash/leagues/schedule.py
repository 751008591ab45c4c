"""A league's schedule by week (/dash/leagues/teams/schedule?league={id}); Edit links for its SVL and admins."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.leagues import edit_link, league_header, league_screen
from volley_app.components.tables import row, table
from volley_app.registry import page
from volley_app.services import scheduling, timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action

NO_SCHEDULE = "No Schedule yet, try back later!"


def _game_row(g: dict, can_manage: bool) -> dict[str, str]:
    return {
        "id": str(g["id"]),
        "when": timefmt.clock(g["start_at"]),
        "court": g["court"] or "–",
        "team1": g["team1"],
        "team2": g["team2"],
        "match": str(g["match"]),
        "sets": g["sets"].replace("-", "\u2011") or "–",  # a non-breaking hyphen keeps "21-17" on one line
        "href": routes.game_path(g["id"]) if can_manage else "",
    }


class ScheduleState(AuthState):
    league_name: str = ""
    back: str = ""
    weeks: list[dict] = []
    can_manage: bool = False
    error: str = ""
    loaded: bool = False

    async def load(self):
        found, failure = await run_action(
            scheduling.schedule, actor=await self._actor(), league_id=path_arg(self, "league")
        )
        self.loaded, self.error = True, failure.message if failure else ""
        found = found or {"league": None, "weeks": []}
        self.league_name, self.back, self.can_manage = league_header(found["league"])
        self.weeks = [
            {
                "week": f"Week {w['week']} · {timefmt.day(w['games'][0]['start_at'])}",
                "games": [_game_row(g, self.can_manage) for g in w["games"]],
            }  # fmt: skip
            for w in found["weeks"]
        ]


def _schedule_game(game: rx.Var) -> rx.Component:
    when = rx.vstack(rx.text(game["when"], white_space="nowrap"), edit_link(game["href"]), spacing="1", align="start")
    return row(when, game["court"], game["team1"], game["team2"], game["sets"])


def _week(week: rx.Var) -> rx.Component:
    return rx.vstack(
        rx.heading(week["week"].to(str), size="4", as_="h2"),
        table(
            ["Time", "Court", "Team 1", "Team 2", "Score"], rx.foreach(week["games"].to(list[dict[str, str]]), _schedule_game)
        ),
        width="100%",
    )


@page(routes.SCHEDULE, "Schedule", on_load=ScheduleState.load)
def schedule_page() -> rx.Component:
    s = ScheduleState
    return league_screen(
        "Schedule",
        s,
        rx.cond(
            s.weeks.length() > 0,
            rx.foreach(s.weeks, _week),
            rx.cond(s.loaded & (s.error == ""), rx.text(NO_SCHEDULE, color_scheme="gray")),
        ),
    )
