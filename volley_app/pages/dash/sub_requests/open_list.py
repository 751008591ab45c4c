"""All open sub requests (/dash/notes), refreshed every 150 s while the tab stays here."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import dash_page
from volley_app.components.sub_requests import as_table_rows, open_requests_table, page_error, request_links
from volley_app.registry import page
from volley_app.services import sub_requests
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action
from volley_app.state.polling import poll_page

OPEN_LIST_SECONDS = 150


class NotesListState(AuthState):
    open_rows: list[dict[str, str]] = []
    list_error: str = ""
    _poll_beat: float = 0.0

    async def _reload(self) -> None:
        found, failure = await run_action(sub_requests.list_open, actor=await self._actor())
        self.open_rows = as_table_rows(found or [])
        self.list_error = failure.message if failure else ""

    async def load(self):
        await self._reload()
        return NotesListState.poll

    @rx.event(background=True)
    async def poll(self):
        """Refetch the open list every 150 s while the tab stays here (spec section 7)."""
        await poll_page(self, path=routes.NOTES, seconds=OPEN_LIST_SECONDS, reload=self._reload)


@page(routes.NOTES, "Open Sub Requests", on_load=NotesListState.load)
def notes_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            rx.heading("Open Sub Requests", size="7", as_="h1"),
            request_links(),
            page_error(NotesListState.list_error),
            open_requests_table(NotesListState.open_rows),
            spacing="4",
            width="100%",
        )
    )
