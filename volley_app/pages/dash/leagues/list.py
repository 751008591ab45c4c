"""The leagues list (/dash/leagues), refreshed every 15 s while the tab stays on it."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import dash_screen
from volley_app.components.leagues import summary_row
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services import leagues as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action
from volley_app.state.polling import PolledPage


class LeaguesState(PolledPage, AuthState):
    league_rows: list[dict[str, str]] = []
    error: str = ""
    loaded: bool = False
    _poll_path: str = routes.DASH_LEAGUES
    _poll_seconds: float = 15

    async def _reload(self) -> None:
        found, failure = await run_action(svc.list_leagues, actor=await self._actor())
        self.league_rows = [summary_row(lg) for lg in found or []]
        self.error = failure.message if failure else ""
        self.loaded = True



def _league_row(lg: rx.Var) -> rx.Component:
    return row(rx.link(lg["name"], href=lg["href"], weight="medium"), lg["svl_name"], lg["court"], lg["start"],
               lg["stage"], lg["cost"])  # fmt: skip


@page(routes.DASH_LEAGUES, "Leagues", on_load=LeaguesState.load)
def leagues_page() -> rx.Component:
    s = LeaguesState
    return dash_screen(
        "Leagues",
        error_line(s.error),
        table_or_empty(["League", "Venue", "Court", "Starts", "Stage", "Cost"], s.league_rows, _league_row,
                       "No leagues yet.", s.loaded & (s.error == "")),  # fmt: skip
    )
