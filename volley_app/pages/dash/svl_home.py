"""SVL home (/dash/SVLHome): the operator's own sessions in Registration and Active."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, page_heading
from volley_app.components.layout import dash_page
from volley_app.components.tables import table_or_empty
from volley_app.registry import page
from volley_app.services import sessions, timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


class SVLHomeState(AuthState):
    rows: list[dict[str, str]] = []
    error: str = ""

    async def load(self):
        found, failure = await run_action(sessions.svl_home, actor=await self._actor())
        self.error = failure.message if failure else ""
        self.rows = [
            {
                "id": str(s["id"]),
                "name": s["name"],
                "status": s["status"],
                "dates": timefmt.date_range(s["start_at"], s["end_at"]),
                "href": routes.session_path(s["id"]),
            }
            for s in found or []
        ]


def _session_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(row["name"], href=row["href"])),
        rx.table.cell(row["dates"]),
        rx.table.cell(rx.badge(row["status"], color_scheme=rx.cond(row["status"] == "Active", "green", "blue"))),
    )


@page(routes.SVL_HOME, "SVL Home", on_load=SVLHomeState.load)
def svl_home_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            page_heading("My Sessions"),
            error_line(SVLHomeState.error),
            table_or_empty(["Name", "Dates", "Status"], SVLHomeState.rows, _session_row, "No Sessions Yet"),
            spacing="4",
            width="100%",
        )
    )
