"""The sessions list (/dash/sessions): an SVL's own current sessions, or every session for an admin, a page at a time."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import dash_screen, link_button
from volley_app.components.paging import pager, search_form
from volley_app.components.sessions import session_row, status_badge
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services.core import live
from volley_app.services.seasons import sessions as svc
from volley_app.state.auth import AuthState
from volley_app.state.paging import PolledList, TableList

HEADERS = ["Session", "SVL", "Dates", "Status"]


class SessionsState(PolledList, TableList, AuthState):
    session_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    _poll_path: str = routes.SESSIONS
    _poll_seconds: float = 15  # spec section 7
    _live_tables = live.track("league_sessions")
    _filter_names = svc.SESSION_FILTERS

    _listing = staticmethod(svc.sessions_page)

    def _show_rows(self, rows: list) -> None:
        self.session_rows = [session_row(s) for s in rows]


def _session_row(r: ObjectVar[dict[str, str]]) -> rx.Component:
    name = rx.vstack(
        rx.text(r["name"], weight="medium"),
        link_button("Select Session", href=r["href"], size="1", variant="soft"),
        spacing="2",
        align="start",
    )
    return row(name, r["svl_name"], r["dates"], status_badge(r["status"]))


@page(routes.SESSIONS, "Sessions", on_load=SessionsState.load)
def sessions_page() -> rx.Component:
    s = SessionsState
    return dash_screen(
        rx.cond(AuthState.status == "Admin", "All Sessions", "My Sessions"),
        search_form(s, "Search sessions", placeholder="Session or venue"),
        error_line(s.error),
        table_or_empty(HEADERS, s.session_rows, _session_row, "No Sessions Yet", s.loaded & (s.error == "")),
        pager(s, "sessions"),
        actions=(
            link_button("Leagues", href=routes.DASH_LEAGUES, variant="soft"),
            link_button("Teams", href=routes.TEAMS, variant="soft"),
            link_button("Waitlist", href=routes.WAITLIST, variant="soft"),
            link_button("Add Session", href=routes.SESSIONS_NEW),
        ),
    )
