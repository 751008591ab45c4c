"""Frames of the public forms: login, signup, password reset, newsletter, and the contact, host, promote and franchise inquiries."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import busy, error_line, form_card, submit_button, trap_field
from volley_app.components.layout import column, link_button, message_page, public_page


def kept_form(state, busy_label: str, *fields: rx.Component, on_submit, error_id: str | None = None,
              **props) -> rx.Component:  # fmt: skip
    """The form's error line, a spinner while it is sent, and the form itself.

    The form is hidden, not removed, while it is sent: a refused submit keeps what was typed.
    ``error_id``: the error line's id (no error line when None: the screen draws its own).
    """
    return rx.fragment(
        error_line(state.error, error_id) if error_id else rx.fragment(),
        rx.cond(state.busy, busy(busy_label), rx.fragment()),
        rx.form(column(*fields, position="relative"), on_submit=on_submit, width="100%", display=rx.cond(state.busy, "none", "block"),
                **props),
    )  # fmt: skip


def two_columns(*fields: rx.Component, spacing: str = "3") -> rx.Component:
    """Two short fields side by side (one under the other on a phone)."""
    return rx.grid(*fields, columns={"initial": "1", "sm": "2"}, spacing=spacing, width="100%")


def inquiry_form(state, kind: str, button: str, *fields: rx.Component) -> rx.Component:
    """An inquiry form with its error line and the bot trap."""
    return column(
        kept_form(state, "Sending…", *fields, trap_field(), submit_button(button, disabled=state.busy),
                  on_submit=state.submit, error_id=f"{kind}-error"),
        spacing="3",
    )  # fmt: skip


def form_page(title: str, intro: str, *children: rx.Component, frame=public_page) -> rx.Component:
    """A screen that is one form: its title, a line on what the form is for, then ``children`` (in ``frame``)."""
    return frame(form_card(title, rx.text(intro, color_scheme="gray"), *children))


def confirmation_page(title: str, lead: str, note: str, link: tuple[str, str], **props) -> rx.Component:
    """What a sent form led to: a line saying so, a quieter note, and the way on (``link``: label, address)."""
    label, href = link
    return message_page(title, rx.text(lead), rx.text(note, color_scheme="gray"), link_button(label, href=href, size="3"),
                        **props)  # fmt: skip
