"""All open sub requests (/dash/notes), refreshed every 150 s while the tab stays here."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.sub_requests import open_requests_table, request_list_screen
from volley_app.registry import page
from volley_app.state.auth import AuthState
from volley_app.state.sub_requests import RequestListState


class SubRequestListState(RequestListState, AuthState):
    _poll_path = routes.SUB_REQUESTS
    _poll_seconds = 150  # spec section 7
    _page_in_address = True  # a reload stays on the page shown (?page=2)


@page(routes.SUB_REQUESTS, "Open Sub Requests", on_load=SubRequestListState.load)
def notes_page() -> rx.Component:
    return request_list_screen("Open Sub Requests", SubRequestListState, open_requests_table)
