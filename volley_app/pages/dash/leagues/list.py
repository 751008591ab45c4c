"""The leagues list (/dash/leagues), refreshed every 15 s while the tab stays on it."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.leagues import league_search, summary_row
from volley_app.components.paging import pager
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import Body, screen
from volley_app.services.core import live
from volley_app.services.seasons import leagues as svc
from volley_app.state.auth import AuthState
from volley_app.state.paging import PolledList, TableList


class LeaguesState(PolledList, TableList, AuthState):
    league_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    _poll_path: str = routes.DASH_LEAGUES
    _poll_seconds: float = 15
    _live_tables = live.track("leagues", "league_sessions")
    _filter_names = svc.LEAGUE_FILTERS

    _listing = staticmethod(svc.leagues_page)

    def _show_rows(self, rows: list) -> None:
        self.league_rows = [summary_row(lg) for lg in rows]



def _league_row(lg: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(rx.link(lg["name"], href=lg["href"], weight="medium"), lg["svl_name"], lg["court"], lg["start"],
               lg["stage"], lg["cost"])  # fmt: skip


@screen(routes.DASH_LEAGUES, "Leagues", LeaguesState)
def leagues_page(s: type[LeaguesState]) -> Body:
    return (
        league_search(s, "Search leagues", "Venue, session or court"),
        error_line(s.error),
        table_or_empty(["League", "Venue", "Court", "Starts", "Stage", "Cost"], s.league_rows, _league_row,
                       "No leagues yet.", s.loaded & (s.error == "")),  # fmt: skip
        pager(s, "leagues"),
    )
