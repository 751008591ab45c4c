"""The sessions list (/dash/sessions): an SVL's own current sessions, or every session for an admin."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, page_heading
from volley_app.components.layout import dash_page, link_button
from volley_app.components.tables import table_or_empty
from volley_app.registry import page
from volley_app.services import sessions as svc
from volley_app.services import timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action
from volley_app.state.polling import poll_page

POLL_SECONDS = 15


def _row(s: dict) -> dict[str, str]:
    return {
        "id": str(s["id"]),
        "name": s["name"],
        "svl_name": s["svl_name"],
        "status": s["status"],
        "dates": timefmt.date_range(s["start_at"], s["end_at"]),
        "href": routes.session_path(s["id"]),
    }


class SessionsState(AuthState):
    session_rows: list[dict[str, str]] = []
    error: str = ""
    loaded: bool = False
    _poll_beat: float = 0.0

    async def _reload(self) -> None:
        found, failure = await run_action(svc.list_sessions, actor=await self._actor())
        self.session_rows = [_row(s) for s in found or []]
        self.error = failure.message if failure else ""
        self.loaded = True

    async def load(self):
        await self._reload()
        return SessionsState.poll

    @rx.event(background=True)
    async def poll(self):
        """Refetch every 15 s while the tab stays on the list (spec section 7)."""
        await poll_page(self, path=routes.SESSIONS, seconds=POLL_SECONDS, reload=self._reload)


def _session_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.vstack(
                rx.text(row["name"], weight="medium"),
                link_button("Select Session", href=row["href"], size="1", variant="soft"),
                spacing="2",
                align="start",
            )
        ),
        rx.table.cell(row["svl_name"]),
        rx.table.cell(row["dates"]),
        rx.table.cell(rx.badge(row["status"], color_scheme=rx.cond(row["status"] == "Active", "green", "blue"))),
    )


@page(routes.SESSIONS, "Sessions", on_load=SessionsState.load)
def sessions_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            rx.flex(
                page_heading(rx.cond(AuthState.status == "Admin", "All Sessions", "My Sessions")),
                rx.flex(
                    link_button("Leagues", href=routes.DASH_LEAGUES, variant="soft"),
                    link_button("Teams", href=routes.TEAMS, variant="soft"),
                    link_button("Waitlist", href=routes.WAITLIST, variant="soft"),
                    link_button("Add Session", href=routes.SESSIONS_NEW),
                    spacing="2",
                    wrap="wrap",
                ),
                justify="between",
                align="center",
                width="100%",
                wrap="wrap",
                spacing="3",
            ),
            error_line(SessionsState.error),
            table_or_empty(
                ["Session", "SVL", "Dates", "Status"],
                SessionsState.session_rows,
                _session_row,
                "No Sessions Yet",
                SessionsState.loaded & (SessionsState.error == ""),
            ),
            spacing="4",
            width="100%",
        )
    )
