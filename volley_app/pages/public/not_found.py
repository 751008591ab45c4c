"""The page for an address the site does not have: a heading that says so and the ways back."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import button_row, link_button, message_page
from volley_app.registry import page


@page(routes.NOT_FOUND, "Page Not Found")
def not_found_page() -> rx.Component:
    return message_page(
        "Page Not Found",
        rx.text("There is no page at this address. It may have moved, or the link may be mistyped."),
        button_row(
            link_button("Back to Home", href=routes.HOME, size="3"),
            link_button("My Dashboard", href=routes.DASH, size="3", variant="soft"),
            spacing="3",
        ),
        icon="circle_help",
        tone="gray",
    )
