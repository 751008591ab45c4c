"""The public pages' forms and what they lead to.

The form frame of login, signup, password reset, newsletter and the contact, host, promote and franchise
inquiries; the inquiry forms drawn from the service's form; the confirmation and emailed-link pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import reflex as rx

from volley_app.components.forms import (
    Event,
    area_field,
    busy,
    error_line,
    form_card,
    region_field,
    submit_button,
    text_field,
    trap_field,
)
from volley_app.components.layout import column, link_button, message_page, public_page
from volley_app.services.mail import inquiries
from volley_app.state.inquiries import inquiry_error_id

if TYPE_CHECKING:
    from volley_app.state.forms import FormState
    from volley_app.state.inquiries import InquiryFormState


def kept_form(state: type[FormState], busy_label: str, *fields: rx.Component, on_submit: Event, error_id: str,
              **props: Any) -> rx.Component:  # fmt: skip
    """The form's error line (``error_id``), a spinner while it is sent, and the form itself.

    The form is hidden, not removed, while it is sent: a refused submit keeps what was typed.
    """
    return rx.fragment(
        error_line(state.error, error_id),
        rx.cond(state.busy, busy(busy_label), rx.fragment()),
        rx.form(
            column(*fields, position="relative"),
            on_submit=on_submit,
            width="100%",
            display=rx.cond(state.busy, "none", "block"),
            method="post",
            **props,
        ),
    )


def two_columns(*fields: rx.Component, spacing: str = "3") -> rx.Component:
    """Two short fields side by side (one under the other on a phone)."""
    return rx.grid(*fields, columns={"initial": "1", "sm": "2"}, spacing=spacing, width="100%")


# How each inquiry field is typed in (its label comes from the service's form, every field is required).
_INPUTS: dict[str, dict[str, Any]] = {
    "name": {"auto_complete": "name", "max_length": 100},
    "svl_name": {"auto_complete": "organization", "max_length": 200},
    "company_name": {"auto_complete": "organization", "max_length": 200},
    "email": {"type": "email", "auto_complete": "email", "max_length": 254},
    "phone": {"type": "tel", "auto_complete": "tel", "placeholder": "(859) 555-0123", "max_length": 40},
    "address": {"auto_complete": "street-address", "max_length": 200},
    "city": {"auto_complete": "address-level2", "max_length": 100},
    "zip": {"auto_complete": "postal-code", "input_mode": "numeric", "max_length": 10},
}
_AREAS = ("body", "why", "message")


def _inquiry_field(state: type[FormState], name: str, label: str) -> rx.Component:
    if name == "region":
        return region_field(state, required=True)
    if name in _AREAS:
        return area_field(label, name, state, required=True)
    return text_field(label, name, state, required=True, **_INPUTS[name])


def inquiry_form(state: type[InquiryFormState], kind: str, *, pair: tuple[str, str] = ("", "")) -> rx.Component:
    """The form of inquiry ``kind``: its fields in the service's order (``pair``: two drawn side by side), the bot trap."""
    drawn = {name: _inquiry_field(state, name, label) for name, (label, _check) in inquiries.FORMS[kind].fields.items()}
    if pair[0]:
        drawn[pair[0]] = two_columns(drawn[pair[0]], drawn.pop(pair[1]))
    return column(
        kept_form(state, "Sending…", *drawn.values(), trap_field(), submit_button("Send", disabled=state.busy),
                  on_submit=state.submit, error_id=inquiry_error_id(kind)),
        spacing="3",
    )  # fmt: skip


def form_page(title: str, intro: str, *children: rx.Component,
              frame: Callable[..., rx.Component] = public_page) -> rx.Component:  # fmt: skip
    """A screen that is one form: its title, a line on what the form is for, then ``children`` (in ``frame``)."""
    return frame(form_card(title, rx.text(intro, color_scheme="gray"), *children))


def confirmation_page(title: str, lead: str, note: str, link: tuple[str, str], **props: Any) -> rx.Component:
    """What a sent form led to: a line saying so, a quieter note, and the way on (``link``: label, address)."""
    label, href = link
    return message_page(title, rx.text(lead), rx.text(note, color_scheme="gray"), link_button(label, href=href, size="3"),
                        **props)  # fmt: skip


def emailed_link_page(title: str, status: rx.Var[str], waiting: str, **cases: rx.Component) -> rx.Component:
    """A page an emailed link opens: ``waiting`` while the link is checked, then what its ``status`` names in ``cases``."""
    return public_page(form_card(title, rx.match(status, *cases.items(), busy(waiting))))


def refusal(message: str | rx.Var[str], *then: rx.Component, spacing: str = "4") -> rx.Component:
    """Why a link was refused, in red, and what the visitor may do instead."""
    return column(rx.callout(message, icon="triangle_alert", color_scheme="red", role="alert"), *then, spacing=spacing)
