"""Form pieces: labelled fields, the error line, the state picker, the busy spinner."""

from __future__ import annotations

import reflex as rx

from volley_app.models import REGIONS

_NATIVE_CONTROL = {
    "width": "100%",
    "height": "2.5rem",
    "padding": "0 0.6rem",
    "border_radius": "var(--radius-3)",
    "border": f"1px solid {rx.color('gray', 7)}",
    "background": "white",
    "font_size": "16px",  # 16px keeps phones from zooming into the field
}


def field(label: str, control: rx.Component, *, field_id: str, error: rx.Var | str = "", hint: str = "") -> rx.Component:
    """A label above its control, an optional hint, and the field's own error message."""
    return rx.vstack(
        rx.el.label(label, html_for=field_id, style={"font_weight": "500", "font_size": "var(--font-size-2)"}),
        control,
        rx.cond(hint != "", rx.text(hint, size="1", color_scheme="gray"), rx.fragment()) if hint else rx.fragment(),
        rx.cond(
            error != "",
            rx.text(error, size="2", color_scheme="red", id=f"{field_id}-error"),
            rx.fragment(),
        ),
        spacing="1",
        width="100%",
        align="stretch",
    )


def text_input(field_id: str, **props) -> rx.Component:
    props.setdefault("size", "3")
    return rx.input(id=field_id, name=field_id, width="100%", **props)


def username_input(value: rx.Var, on_change, **props) -> rx.Component:
    """The username box: focused first, never auto-capitalised or spell-checked."""
    return text_input(
        "username",
        value=value,
        on_change=on_change,
        required=True,
        auto_focus=True,
        auto_complete="username",
        auto_capitalize="none",
        spell_check=False,
        **props,
    )


def region_select(field_id: str, value: rx.Var, on_change) -> rx.Component:
    """A native select of the 50 states plus DC (native: best on phones)."""
    return rx.el.select(
        rx.el.option("Choose a state", value="", disabled=True),
        *[rx.el.option(name, value=code) for code, name in REGIONS.items()],
        id=field_id,
        name=field_id,
        value=value,
        on_change=on_change,
        required=True,
        style=_NATIVE_CONTROL,
    )


def error_line(message: rx.Var, element_id: str) -> rx.Component:
    """An assertive live region that is always in the page, so screen readers hear each new message."""
    return rx.box(
        rx.cond(
            message != "",
            rx.callout(message, icon="triangle_alert", color_scheme="red", size="1"),
            rx.fragment(),
        ),
        id=element_id,
        role="alert",
        aria_live="assertive",
        tab_index=-1,
        width="100%",
        outline="none",
    )


def focus(element_id: str):
    """An event that moves keyboard focus to an element."""
    return rx.call_script(f"document.getElementById({element_id!r})?.focus()")


def busy(label: str) -> rx.Component:
    return rx.center(
        rx.vstack(rx.spinner(size="3"), rx.text(label, color_scheme="gray"), align="center"),
        padding="2.5rem",
        role="status",
        aria_live="polite",
        width="100%",
    )


def form_card(title: str, *children: rx.Component) -> rx.Component:
    return rx.center(
        rx.card(
            rx.vstack(rx.heading(title, size="7", as_="h1"), *children, spacing="4", width="100%"),
            width="100%",
            max_width="28rem",
            size="3",
        ),
        width="100%",
        padding_top={"initial": "0.5rem", "sm": "2rem"},
    )
