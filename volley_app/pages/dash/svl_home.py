"""SVL home (/dash/SVLHome): the operator's own sessions in Registration and Active."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import dash_screen
from volley_app.components.sessions import session_row, status_badge
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services.seasons import sessions
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


class SVLHomeState(AuthState):
    rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    error: rx.Field[str] = rx.field("")

    async def load(self):
        found, failure = await run_action(sessions.svl_home, actor=await self._actor())
        self.error = failure.message if failure else ""
        self.rows = [session_row(s) for s in found or []]


def _session_row(r: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(rx.link(r["name"], href=r["href"]), r["dates"], status_badge(r["status"]))


@page(routes.SVL_HOME, "SVL Home", on_load=SVLHomeState.load)
def svl_home_page() -> rx.Component:
    return dash_screen(
        "My Sessions",
        error_line(SVLHomeState.error),
        table_or_empty(["Name", "Dates", "Status"], SVLHomeState.rows, _session_row, "No Sessions Yet"),
    )
