"""Tables: a table that scrolls sideways instead of squeezing, the table-or-empty helper, phone cards."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import reflex as rx
from reflex.vars import ArrayVar

from volley_app.components.layout import Content
from volley_app.components.react.by_width import by_width


def _header(text: str) -> rx.Component | str:
    """A column's header; a column of buttons has no visible title, but screen readers hear "Actions"."""
    return text or rx.el.span("Actions", class_name="sr-only")


def table(headers: list[str], body: rx.Component, *, size: str = "2") -> rx.Component:
    """A table that scrolls sideways on a phone instead of squeezing.

    The scrolling box is a named region the keyboard can reach (and scroll with the arrow keys); on a
    phone, a table of more than three columns says that it scrolls, so no column is cut off unseen.
    """
    named = [h for h in headers if isinstance(h, str) and h]
    cue = rx.mobile_only(
        rx.text("Swipe the table sideways to see all its columns →", size="1", color_scheme="gray"), width="100%"
    )
    return rx.box(
        cue if len(headers) > 3 else rx.fragment(),
        rx.box(
            rx.table.root(
                rx.table.header(rx.table.row(*[rx.table.column_header_cell(_header(h)) for h in headers])),
                rx.table.body(body),
                width="100%",
                variant="surface",
                size=size,
            ),
            width="100%",
            overflow_x="auto",
            tab_index=0,
            role="region",
            aria_label="Table: " + ", ".join(named[:3]) + (" …" if len(named) > 3 else ""),
        ),
        width="100%",
    )


def table_or_empty(headers: list[str], rows: ArrayVar[Sequence[object]], row: Callable[[Any], rx.Component],
                   empty: str | rx.Var[str], show_empty: rx.Var[bool] | bool = True) -> rx.Component:
    """A table of ``rows`` (each drawn by ``row``), or ``empty`` when there are none and ``show_empty`` holds."""
    empty_text = rx.text(empty, color_scheme="gray")
    return rx.cond(
        rows.length() > 0,
        table(headers, rx.foreach(rows, row)),
        empty_text if show_empty is True else rx.cond(show_empty, empty_text, rx.fragment()),
    )


def row(*cells: Content) -> rx.Component:
    """A table row of plain cells (a component or a value each)."""
    return rx.table.row(*[rx.table.cell(c) for c in cells])


def cell(label: str, value: Content) -> rx.Component:
    """A cell that names its column (read out on a phone, where the header is off screen)."""
    return rx.table.cell(value, data_label=label)


def card(*children: rx.Component, test_id: str = "request-item") -> rx.Component:
    """One row of a list drawn as a card on a phone."""
    return rx.card(rx.vstack(*children, spacing="1", width="100%"), width="100%", custom_attrs={"data-testid": test_id})


def responsive(wide: rx.Component, cards: rx.Component) -> rx.Component:
    """A table on wider screens, a list of cards on a phone (no sideways scrolling for the buttons).

    The browser draws only the one its width asks for, so each row is drawn once.
    """
    return by_width(rx.box(wide, width="100%"), rx.box(cards, width="100%"))
