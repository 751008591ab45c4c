"""My Sub Requests (/dash/notes/notifications): the ones I made or was named on, refreshed every 15 s."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.sub_requests import notifications_table, request_list_screen
from volley_app.registry import page
from volley_app.state.auth import AuthState
from volley_app.state.sub_requests import RequestListState


class NotificationsState(RequestListState, AuthState):
    _poll_path = routes.MY_SUB_REQUESTS
    _poll_seconds = 15  # spec section 7


@page(routes.MY_SUB_REQUESTS, "My Sub Requests", on_load=NotificationsState.load)
def notifications_page() -> rx.Component:
    return request_list_screen("My Sub Requests", NotificationsState, notifications_table)
