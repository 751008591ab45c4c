"""My Sub Requests (/dash/notes/notifications): the ones I made or was named on, refreshed every 15 s."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import dash_page
from volley_app.components.sub_requests import as_table_rows, notifications_table, page_error, request_links
from volley_app.registry import page
from volley_app.services import sub_requests
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action
from volley_app.state.polling import poll_page

NOTIFICATIONS_SECONDS = 15


class NotificationsState(AuthState):
    note_rows: list[dict[str, str]] = []
    list_error: str = ""
    _poll_beat: float = 0.0

    async def _reload(self) -> None:
        found, failure = await run_action(sub_requests.notifications, actor=await self._actor())
        self.note_rows = as_table_rows(found or [])
        self.list_error = failure.message if failure else ""

    async def load(self):
        await self._reload()
        return NotificationsState.poll

    @rx.event(background=True)
    async def poll(self):
        """Refetch My Sub Requests every 15 s while the tab stays here (spec section 7)."""
        await poll_page(self, path=routes.NOTES_NOTIFICATIONS, seconds=NOTIFICATIONS_SECONDS, reload=self._reload)


@page(routes.NOTES_NOTIFICATIONS, "My Sub Requests", on_load=NotificationsState.load)
def notifications_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            rx.heading("My Sub Requests", size="7", as_="h1"),
            request_links(),
            page_error(NotificationsState.list_error),
            notifications_table(NotificationsState.note_rows),
            spacing="4",
            width="100%",
        )
    )
