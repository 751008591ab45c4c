"""A session's leagues (/dash/sessions/leagues?session={id})."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import button_row, dash_screen, link_button
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services import leagues as league_svc
from volley_app.services import sessions as svc
from volley_app.services import timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg, run_action

HEADERS = ["League", "Court", "Starts", "Stage", "Active"]


class SessionLeaguesState(AuthState):
    session_name: str = ""
    sid: str = ""
    session_href: str = ""
    new_league_href: str = ""
    league_rows: list[dict[str, str]] = []
    error: str = ""

    async def load(self):
        actor = await self._actor()
        sid = path_arg(self, "session")
        found, failure = await run_action(svc.get_session, actor=actor, session_id=sid)
        if failure is None:
            listed, failure = await run_action(league_svc.list_leagues, actor=actor, session_id=sid)
        if failure is not None:
            self.session_name, self.sid, self.league_rows, self.error = "", "", [], failure.message
            return
        self.session_name, self.sid, self.error = found["name"], str(found["id"]), ""
        self.session_href = routes.session_path(found["id"])
        self.new_league_href = routes.new_league_path(found["id"])
        self.league_rows = [
            {"name": lg["name"], "court": lg["court"], "start": timefmt.date_time(lg["start_at"]), "stage": lg["stage"],
             "active": "Yes" if lg["active"] else "No", "href": routes.league_path(lg["id"])}
            for lg in listed
        ]  # fmt: skip


def _league_row(r: rx.Var) -> rx.Component:
    return row(rx.link(r["name"], href=r["href"]), r["court"], r["start"], r["stage"], r["active"])


@page(routes.SESSION_LEAGUES, "Session Leagues", on_load=SessionLeaguesState.load)
def session_leagues_page() -> rx.Component:
    s = SessionLeaguesState
    links = button_row(
        link_button("Add League", href=s.new_league_href),
        link_button("Back to Session", href=s.session_href, variant="soft"),
    )
    return dash_screen(
        "Leagues: " + s.session_name,
        error_line(s.error),
        rx.cond(s.sid != "", links, rx.fragment()),
        table_or_empty(HEADERS, s.league_rows, _league_row, "No leagues in this session yet.", s.error == ""),
    )
