"""The dashboard landing (/dash): greets the confirmed user."""

from __future__ import annotations

import reflex as rx

from volley_app.components.layout import dash_page
from volley_app.state.auth import AuthState


def dash_home_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            rx.heading("Welcome, ", AuthState.first_name, size="7", as_="h1"),
            rx.text("You are logged in as ", rx.text.strong(AuthState.username), ".", color_scheme="gray"),
            spacing="2",
        )
    )
