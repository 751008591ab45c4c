"""Calendar links: "Add to calendar" (a webcal:// subscription a calendar app opens) and the plain address."""

from __future__ import annotations

import reflex as rx

from volley_app.components.layout import file_link, link_button


def webcal(url: str) -> str:
    """The subscription form of a feed's address (calendar apps open webcal:// links)."""
    for scheme in ("https://", "http://"):
        if url.startswith(scheme):
            return "webcal://" + url[len(scheme):]
    return url


def add_to_calendar(subscribe: rx.Var[str], download: rx.Var[str], label: str = "Add to calendar") -> rx.Component:
    """A button that subscribes a calendar app to a feed, and the feed's plain address (to copy or download)."""
    return rx.cond(
        subscribe != "",
        rx.flex(
            link_button(rx.icon("calendar-plus", size=16), label, href=subscribe, size="2", variant="soft"),
            file_link(".ics file", href=download, size="2"),
            spacing="3", align="center", wrap="wrap",
        ),  # fmt: skip
    )
