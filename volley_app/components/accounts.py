"""Account form pieces Edit user and Create New SVL share: the form screen, role checkboxes, reading a ticked box, deleting an account."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import reflex as rx
from reflex.vars import ArrayVar

from volley_app.components.forms import Event, checkbox_field, error_line, form_card
from volley_app.components.layout import column, dash_page
from volley_app.services.core import validation

if TYPE_CHECKING:
    from volley_app.state.forms import FormState

# A role checkbox: (its id and form name, the role it stands for).
RoleBox = tuple[str, str]


def account_form_page(title: str, state: type[FormState], error_id: str, shown: rx.Var[bool], *fields: rx.Component,
                      on_submit: Event, form: Callable[..., rx.Component] = rx.form, after: tuple[rx.Component, ...] = (),
                      **props: Any) -> rx.Component:  # fmt: skip
    """An account form screen: its title, its error line, and the form (made by ``form``) once ``shown``;
    ``after``: parts with forms of their own, under it."""
    props.setdefault("method", "post")
    body = form(column(*fields, spacing="3"), on_submit=on_submit, width="100%", **props)
    return dash_page(form_card(title, error_line(state.error, error_id), rx.cond(shown, body), *after))


def ticked(form_data: object, name: str) -> bool:
    """Whether the checkbox ``name`` was ticked in a submitted form (the browser sends true or 'on')."""
    return validation.flag(form_data.get(name) if isinstance(form_data, dict) else None)


def picked_roles(form_data: object, boxes: Sequence[RoleBox]) -> list[str]:
    """The roles whose checkboxes were ticked."""
    return [role for name, role in boxes if ticked(form_data, name)]


def role_boxes(boxes: Sequence[RoleBox], roles: ArrayVar[Sequence[str]], error: str | rx.Var[str]) -> rx.Component:
    """One checkbox per role, ticked when ``roles`` (the record's roles) holds it, and the roles' message."""
    return rx.vstack(
        rx.flex(
            *[checkbox_field(role, name, default_checked=roles.contains(role)) for name, role in boxes],
            spacing="4",
            wrap="wrap",
        ),
        rx.cond(error != "", rx.text(error, color_scheme="red", size="2", id="roles-error")),
        spacing="1",
        width="100%",
    )


def delete_account(question: str | rx.Var[str], on_confirm: Event) -> rx.Component:
    """The Delete Account button, which asks ``question`` before the account is deleted."""
    return rx.alert_dialog.root(
        rx.alert_dialog.trigger(
            rx.button("Delete Account", type="button", size="3", width="100%", color_scheme="red", variant="soft")
        ),
        rx.alert_dialog.content(
            rx.alert_dialog.title("Delete Account"),
            rx.alert_dialog.description(question),
            rx.flex(
                rx.alert_dialog.cancel(rx.button("Cancel", variant="soft", color_scheme="gray")),
                rx.alert_dialog.action(rx.button("Delete", color_scheme="red", on_click=on_confirm)),
                spacing="3",
                justify="end",
                margin_top="1rem",
            ),
        ),
    )
