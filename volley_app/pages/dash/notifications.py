"""Notifications (/dash/notifications): what the app told the person, newest first, live."""

from __future__ import annotations

from volley_app import routes
from volley_app.components.notifications import notification_list
from volley_app.registry import Body, screen
from volley_app.state.notifications import NotificationListState


@screen(routes.NOTIFICATIONS, "Notifications", NotificationListState)
def notifications_screen(s: type[NotificationListState]) -> Body:
    return notification_list()
