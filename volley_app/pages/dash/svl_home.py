"""SVL home (/dash/SVLHome): the operator's own sessions in Registration and Active."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import dash_page
from volley_app.registry import page
from volley_app.services import sessions, timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


class SVLHomeState(AuthState):
    rows: list[dict[str, str]] = []
    error: str = ""

    async def load(self):
        actor = await self._actor()
        found, failure = await run_action(sessions.svl_home, actor=actor)
        if failure is not None:
            self.rows, self.error = [], failure.message
            return
        self.error = ""
        self.rows = [
            {
                "id": str(s["id"]),
                "name": s["name"],
                "status": s["status"],
                "dates": timefmt.date_range(s["start_at"], s["end_at"]),
                "href": f"{routes.SESSIONS}/{s['id']}",
            }
            for s in found
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
            rx.heading("My Sessions", size="7", as_="h1"),
            rx.cond(SVLHomeState.error != "", rx.text(SVLHomeState.error, color_scheme="red"), rx.fragment()),
            rx.cond(
                SVLHomeState.rows.length() > 0,
                rx.table.root(
                    rx.table.header(
                        rx.table.row(
                            rx.table.column_header_cell("Name"),
                            rx.table.column_header_cell("Dates"),
                            rx.table.column_header_cell("Status"),
                        )
                    ),
                    rx.table.body(rx.foreach(SVLHomeState.rows, _session_row)),
                    width="100%",
                    variant="surface",
                ),
                rx.text("No Sessions Yet", color_scheme="gray"),
            ),
            spacing="4",
            width="100%",
        )
    )
