"""The inquiry form frame shared by the contact, host, promote and franchise pages."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import busy, error_line, submit_button, trap_field


def inquiry_form(state, kind: str, button: str, *fields: rx.Component) -> rx.Component:
    """The form with its error line; fields keep their values when a submit is refused (hidden, not removed, while sending)."""
    return rx.vstack(
        error_line(state.error, f"{kind}-error"),
        rx.cond(state.busy, busy("Sending…"), rx.fragment()),
        rx.form(
            rx.vstack(
                *fields,
                trap_field(),
                submit_button(button, disabled=state.busy),
                spacing="4",
                width="100%",
                position="relative",
            ),
            on_submit=state.submit,
            width="100%",
            display=rx.cond(state.busy, "none", "block"),
        ),
        spacing="3",
        width="100%",
    )
