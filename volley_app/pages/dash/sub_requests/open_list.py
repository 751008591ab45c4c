"""All open sub requests (/dash/notes), refreshed every 150 s while the tab stays here."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import dash_screen
from volley_app.components.sub_requests import open_requests_table, page_error, request_links
from volley_app.registry import page
from volley_app.services import sub_requests
from volley_app.state.auth import AuthState
from volley_app.state.sub_requests import RequestListState

OPEN_LIST_SECONDS = 150


class NotesListState(RequestListState, AuthState):
    """All open requests."""

    _path = routes.NOTES
    _seconds = OPEN_LIST_SECONDS

    def _listing(self):
        return sub_requests.list_open


@page(routes.NOTES, "Open Sub Requests", on_load=NotesListState.load)
def notes_page() -> rx.Component:
    s = NotesListState
    return dash_screen("Open Sub Requests", request_links(), page_error(s.list_error), open_requests_table(s.rows))
