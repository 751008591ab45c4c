"""Sub request lists the home and the sub request pages share: the open list, My Sub Requests, their links.

Each list is a table on wider screens and a list of cards on a phone.
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import link_button
from volley_app.components.tables import card, cell, responsive, table

OPEN_HEADERS = ["Requestor", "Team", "Date", "Time", "Location", ""]
MINE_HEADERS = ["Requestor", "Status", "Team", "Date", "Location", "Court", ""]


def as_table_rows(found: list[dict]) -> list[dict[str, str]]:
    """The browser's copy of request rows: strings only, no emails (the service gives none)."""
    return [
        {
            "id": str(r["id"]),
            "href": routes.note_path(r["id"]),
            "requestor": r["requestor"],
            "sub": r["sub"],
            "status": r["status"],
            "team": r["team"],
            "date": r["date_text"],
            "time": r["time_text"],
            "svl": r["svl"],
            "court": r["court"],
        }
        for r in found
    ]


def status_color(status: rx.Var):
    """Accepted green, Declined red, Open blue."""
    return rx.match(status, ("Accepted", "green"), ("Declined", "red"), "blue")


def status_badge(status: rx.Var) -> rx.Component:
    return rx.badge(status, color_scheme=status_color(status))


def page_error(message: rx.Var) -> rx.Component:
    """A list's load failure, read out when it appears."""
    return rx.cond(message != "", rx.text(message, color_scheme="red", role="alert"), rx.fragment())


def _view(r: rx.Var, size: str) -> rx.Component:
    return link_button("View", href=r["href"], size=size, variant="soft")


def _card_head(title: rx.Component, r: rx.Var) -> rx.Component:
    return rx.flex(title, _view(r, "2"), justify="between", align="center", width="100%")


def _open_card(r: rx.Var) -> rx.Component:
    return card(
        _card_head(rx.text(r["team"], weight="bold"), r),
        rx.text(r["date"], ", ", r["time"], size="2"),
        rx.text(r["svl"], size="2", color_scheme="gray"),
        rx.text("Requestor: ", r["requestor"], size="2", color_scheme="gray"),
    )


def _mine_card(r: rx.Var) -> rx.Component:
    return card(
        _card_head(rx.hstack(rx.text(r["team"], weight="bold"), status_badge(r["status"])), r),
        rx.text(r["date"], size="2"),
        rx.text(r["svl"], rx.cond(r["court"] != "", ", " + r["court"], ""), size="2", color_scheme="gray"),
        rx.text("Requestor: ", r["requestor"], size="2", color_scheme="gray"),
    )


def _open_row(r: rx.Var) -> rx.Component:
    return rx.table.row(
        cell("Requestor", r["requestor"]),
        cell("Team", r["team"]),
        cell("Date", r["date"]),
        cell("Time", r["time"]),
        cell("Location", r["svl"]),
        rx.table.cell(_view(r, "1")),
        custom_attrs={"data-testid": "request-item"},
    )


def _mine_row(r: rx.Var) -> rx.Component:
    return rx.table.row(
        cell("Requestor", r["requestor"]),
        cell("Status", status_badge(r["status"])),
        cell("Team", r["team"]),
        cell("Date", r["date"]),
        cell("Location", r["svl"]),
        cell("Court", r["court"]),
        rx.table.cell(_view(r, "1")),
        custom_attrs={"data-testid": "request-item"},
    )


def _list(headers: list[str], rows: rx.Var, row, item, empty: str) -> rx.Component:
    return rx.cond(
        rows.length() > 0,
        responsive(
            table(headers, rx.foreach(rows, row), size="1"),
            rx.vstack(rx.foreach(rows, item), spacing="2", width="100%"),
        ),
        rx.text(empty, color_scheme="gray"),
    )


def open_requests_table(rows: rx.Var) -> rx.Component:
    """Requestor, Team, Date, Time, Location, View (spec section 2)."""
    return _list(OPEN_HEADERS, rows, _open_row, _open_card, "No open sub requests right now.")


def notifications_table(rows: rx.Var) -> rx.Component:
    """Requestor, Status, Team, Date, Location, Court (spec section 2)."""
    return _list(MINE_HEADERS, rows, _mine_row, _mine_card, "You have no sub requests right now.")


def request_links() -> rx.Component:
    """The links above both request lists."""
    return rx.flex(
        link_button("Create Sub Request", href=routes.NOTES_NEW, size="2"),
        link_button("All Open Sub Requests", href=routes.NOTES, size="2", variant="soft"),
        link_button("My Sub Requests", href=routes.NOTES_NOTIFICATIONS, size="2", variant="soft"),
        link_button("All Subs", href=routes.DASH_SUBS, size="2", variant="soft"),
        spacing="2",
        wrap="wrap",
    )
