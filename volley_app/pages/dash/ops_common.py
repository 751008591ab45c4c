"""Pieces the operator screens share: ids from the path, native selects, the delete confirmation, tables."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import _NATIVE_CONTROL


def path_part(path: str, index: int) -> str:
    """Segment ``index`` of a URL path ('/dash/sessions/5' index 2 is '5'); '' when absent."""
    parts = [p for p in (path or "").split("?")[0].split("/") if p]
    return parts[index] if -len(parts) <= index < len(parts) else ""


def native_select(field_id: str, options: list[tuple[str, str]] | rx.Var, *, default_value=None, placeholder: str = "",
                  required: bool = True, **props) -> rx.Component:  # fmt: skip
    """A native select (best on phones). ``options``: (value, label) pairs, or a Var of {value, label} dicts."""
    children = [rx.el.option(placeholder, value="")] if placeholder else []
    if isinstance(options, rx.Var):
        children.append(rx.foreach(options, lambda o: rx.el.option(o["label"], value=o["value"])))
    else:
        children.extend(rx.el.option(label, value=value) for value, label in options)
    if default_value is not None:
        props["default_value"] = default_value
    return rx.el.select(*children, id=field_id, name=field_id, required=required, style=_NATIVE_CONTROL, **props)


def confirm_delete(button_label: str, question: rx.Var | str, on_confirm) -> rx.Component:
    """A Delete button that asks the spec's question before anything is deleted."""
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(rx.button(button_label, color_scheme="red", variant="soft", type="button")),
        rx.alert_dialog.content(
            rx.alert_dialog.title("Please confirm"),
            rx.alert_dialog.description(question),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray")),
                rx.alert_dialog.action(rx.button("Delete", color_scheme="red", on_click=on_confirm)),
                spacing="3",
                justify="end",
                margin_top="1rem",
            ),
            max_width="26rem",
        ),
    )


def table(headers: list[str], body: rx.Component) -> rx.Component:
    """A table that scrolls sideways on a phone instead of squeezing."""
    return rx.box(
        rx.table.root(
            rx.table.header(rx.table.row(*[rx.table.column_header_cell(h) for h in headers])),
            rx.table.body(body),
            width="100%",
            variant="surface",
            size="2",
        ),
        width="100%",
        overflow_x="auto",
    )


def table_or_empty(headers: list[str], rows: rx.Var, row, empty: str, show_empty: rx.Var | bool = True) -> rx.Component:
    """A table of ``rows`` (each drawn by ``row``), or ``empty`` when there are none and ``show_empty`` holds."""
    empty_text = rx.text(empty, color_scheme="gray")
    return rx.cond(
        rows.length() > 0,
        table(headers, rx.foreach(rows, row)),
        empty_text if show_empty is True else rx.cond(show_empty, empty_text, rx.fragment()),
    )


def error_text(message: rx.Var) -> rx.Component:
    """The red error line of spec section 8 (nothing when there is no error)."""
    return rx.cond(
        message != "", rx.callout(message, icon="triangle_alert", color_scheme="red", role="alert"), rx.fragment()
    )


def page_heading(*text) -> rx.Component:
    return rx.heading(*text, size="7", as_="h1")
