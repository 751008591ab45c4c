"""Shared pieces of the public forms: uncontrolled fields that keep what was typed, the bot trap, the sent page."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import field
from volley_app.components.layout import link_button, public_page
from volley_app.models import REGIONS
from volley_app.registry import page

# The bot trap: a field people never see or fill; bots fill every field they find.
TRAP_FIELD = "website"

_NATIVE = {
    "width": "100%",
    "height": "2.5rem",
    "padding": "0 0.6rem",
    "border_radius": "var(--radius-3)",
    "border": f"1px solid {rx.color('gray', 7)}",
    "background": "white",
    "font_size": "16px",
}


def _described(name: str, errors: rx.Var) -> dict:
    """Tie a control to its error message for screen readers."""
    has_error = errors.get(name, "") != ""
    return {"aria_invalid": rx.cond(has_error, "true", "false"), "aria_describedby": rx.cond(has_error, f"{name}-error", "")}


def input_field(label: str, name: str, errors: rx.Var, *, required: bool = True, **props) -> rx.Component:
    """A labelled input that keeps its typed value (the form is not reset) and shows its own error."""
    props.setdefault("size", "3")
    return field(
        label,
        rx.input(id=name, name=name, width="100%", required=required, **_described(name, errors), **props),
        field_id=name,
        error=errors.get(name, ""),
    )


def area_field(label: str, name: str, errors: rx.Var, *, required: bool = True, rows: str = "5") -> rx.Component:
    return field(
        label,
        rx.text_area(
            id=name, name=name, width="100%", required=required, rows=rows, size="3", max_length=5000,
            **_described(name, errors),
        ),  # fmt: skip
        field_id=name,
        error=errors.get(name, ""),
    )


def state_field(errors: rx.Var, name: str = "region") -> rx.Component:
    """The state picker, uncontrolled so a failed submit keeps the choice."""
    return field(
        "State",
        rx.el.select(
            rx.el.option("Choose a state", value=""),
            *[rx.el.option(label, value=code) for code, label in REGIONS.items()],
            id=name,
            name=name,
            default_value="",
            required=True,
            style=_NATIVE,
        ),
        field_id=name,
        error=errors.get(name, ""),
    )


def trap_field() -> rx.Component:
    """Off-screen and out of the tab order; a person never fills it."""
    return rx.box(
        rx.el.label("Leave this field empty", html_for=TRAP_FIELD),
        rx.el.input(id=TRAP_FIELD, name=TRAP_FIELD, type="text", tab_index=-1, auto_complete="off", default_value=""),
        aria_hidden="true",
        style={"position": "absolute", "left": "-10000px", "top": "auto", "width": "1px", "height": "1px", "overflow": "hidden"},
    )


def message_page(title: str, *children: rx.Component, icon: str = "circle_check", tone: str = "green") -> rx.Component:
    """A centred card with a heading and a few lines: the confirmation and error pages."""
    return public_page(
        rx.center(
            rx.card(
                rx.vstack(
                    rx.icon(icon, size=40, color=rx.color(tone, 9)),
                    rx.heading(title, size="7", as_="h1"),
                    *children,
                    spacing="4",
                    align="start",
                    width="100%",
                ),
                width="100%",
                max_width="32rem",
                size="3",
            ),
            width="100%",
            padding_top={"initial": "0.5rem", "sm": "2rem"},
        )
    )


@page(routes.SENT, "Sent Successfully")
def sent_page() -> rx.Component:
    """/sent (spec sections 2 and 8)."""
    return message_page(
        "Sent Successfully",
        rx.text("Thank you for your submission! Our team will reach out to you shortly."),
        rx.text(
            "If you do not hear from us in 1-2 days, please check that the email address you entered "
            "is correct and try again.",
            color_scheme="gray",
        ),
        link_button("Back to Home", href=routes.HOME, size="3"),
    )
