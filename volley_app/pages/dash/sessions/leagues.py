"""A session's leagues (/dash/sessions/leagues?session={id}), a page at a time, by day, format and skill."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import button_row, dash_screen, link_button
from volley_app.components.leagues import league_search
from volley_app.components.paging import pager
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services.core import timefmt
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.seasons import leagues as league_svc
from volley_app.services.seasons import sessions as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action
from volley_app.state.paging import PagedList

HEADERS = ["League", "Court", "Starts", "Stage", "Active"]


def _shown(lg: league_svc.LeagueSummary) -> dict[str, str]:
    return {"name": lg["name"], "court": lg["court"], "start": timefmt.date_time(lg["start_at"], lg["zone"], labelled=True), "stage": lg["stage"],
            "active": "Yes" if lg["active"] else "No", "href": routes.league_path(lg["id"])}  # fmt: skip


class SessionLeaguesState(PagedList, AuthState):
    session_name: rx.Field[str] = rx.field("")
    sid: rx.Field[str] = rx.field("")
    session_href: rx.Field[str] = rx.field("")
    new_league_href: rx.Field[str] = rx.field("")
    league_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    error: rx.Field[str] = rx.field("")
    _filter_names = league_svc.LEAGUE_FILTERS

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        # Never the leagues of no session: before a session is shown, the id refused ("-") stands in.
        return await self._read_list(league_svc.leagues_page, bookmark, session_id=self.sid or "-")

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.league_rows = [_shown(lg) for lg in rows]
        self.error = failure.message if failure else ""

    async def load(self):
        self._open_filters()
        found, failure = await run_action(svc.get_session, actor=await self._actor(), session_id=path_arg(self, "session"))
        if found is None:
            self.session_name, self.sid, self.league_rows = "", "", []
            self.error = failure.message if failure else ""
            self.page_summary, self.has_next, self.has_previous = "", False, False
            return
        self.session_name, self.sid, self.error = found["name"], str(found["id"]), ""
        self.session_href = routes.session_path(found["id"])
        self.new_league_href = routes.new_league_path(found["id"])
        await self._first_page()


def _league_row(r: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(rx.link(r["name"], href=r["href"]), r["court"], r["start"], r["stage"], r["active"])


@page(routes.SESSION_LEAGUES, "Session Leagues", on_load=SessionLeaguesState.load)
def session_leagues_page() -> rx.Component:
    s = SessionLeaguesState
    links = button_row(
        link_button("Add League", href=s.new_league_href),
        link_button("Back to Session", href=s.session_href, variant="soft"),
    )
    search = league_search(s, "Search this session's leagues", "Venue or court")
    return dash_screen(
        "Leagues: " + s.session_name,
        error_line(s.error),
        rx.cond(s.sid != "", rx.fragment(links, search), rx.fragment()),
        table_or_empty(HEADERS, s.league_rows, _league_row, "No leagues in this session yet.", s.error == ""),
        pager(s, "leagues of this session"),
    )
