"""My Sub Requests (/dash/notes/notifications): the ones I made or was named on, refreshed every 15 s."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import dash_screen
from volley_app.components.sub_requests import notifications_table, page_error, request_links
from volley_app.registry import page
from volley_app.services import sub_requests
from volley_app.state.auth import AuthState
from volley_app.state.sub_requests import RequestListState

NOTIFICATIONS_SECONDS = 15


class NotificationsState(RequestListState, AuthState):
    """The requests I made or was named on."""

    _path = routes.NOTES_NOTIFICATIONS
    _seconds = NOTIFICATIONS_SECONDS

    def _listing(self):
        return sub_requests.notifications


@page(routes.NOTES_NOTIFICATIONS, "My Sub Requests", on_load=NotificationsState.load)
def notifications_page() -> rx.Component:
    s = NotificationsState
    return dash_screen("My Sub Requests", request_links(), page_error(s.list_error), notifications_table(s.rows))
