"""The admins' test schedule (/dash/leagues/teams/TESTschedule?league={id}): every stored game of a league."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.tables import row, table
from volley_app.registry import Body, screen
from volley_app.services.core import timefmt
from volley_app.services.seasons import schedule
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action

COLUMNS = ("id", "round", "match", "type", "when", "team1", "team2")


class TestScheduleState(AuthState):
    """Every game of a league as stored, with round and match (a check of the generator); the service says who may."""

    game_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    league_links: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    league_name: rx.Field[str] = rx.field("")
    error: rx.Field[str] = rx.field("")

    async def load(self) -> None:
        self.game_rows, self.league_links, self.league_name = [], [], ""
        found, failure = await run_action(
            schedule.stored_games, actor=await self._actor(), league_id=path_arg(self, "league")
        )
        self.error = failure.message if failure else ""
        if found is None:
            return
        self.league_links = [
            {"name": f"{lg['name']} ({lg['session_name']})", "href": routes.test_schedule_path(lg["id"])}
            for lg in found["leagues"]
        ]
        league = found["league"]
        self.league_name = league["name"] if league else ""
        zone = league["zone"] if league else None
        self.game_rows = [
            {"id": str(g["id"]), "round": str(g["round"]), "match": str(g["match"]), "type": g["type"],
             "when": timefmt.date_time(g["start_at"], zone, labelled=True), "team1": g["team1"], "team2": g["team2"]}
            for g in found["games"]
        ]  # fmt: skip


@screen(routes.TEST_SCHEDULE, "Test Schedule", TestScheduleState)
def test_schedule_page(s: type[TestScheduleState]) -> Body:
    return (
        error_line(s.error),
        rx.cond(
            s.league_links.length() > 0,
            rx.vstack(
                rx.text("Choose a league:", color_scheme="gray"),
                rx.foreach(s.league_links, lambda lg: rx.link(lg["name"], href=lg["href"])),
            ),
        ),
        rx.cond(s.league_name != "", rx.heading(s.league_name, size="4", as_="h2")),
        rx.cond(
            s.game_rows.length() > 0,
            table(["Game", "Round", "Match", "Type", "Time", "Team 1", "Team 2"],
                  rx.foreach(s.game_rows, lambda g: row(*[g[k] for k in COLUMNS]))),
        ),
    )  # fmt: skip
