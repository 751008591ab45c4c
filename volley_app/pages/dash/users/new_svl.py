"""Create New SVL (/dash/users/new): an admin opens an account for a venue (spec section 5, Create SVL)."""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.accounts import RoleBox, account_form_page, picked_roles, role_boxes
from volley_app.components.forms import (
    password_field,
    region_field,
    submit_button,
    text_field,
    username_field,
)
from volley_app.registry import page
from volley_app.services.accounts import accounts
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, run_action

ERROR_ID = "svl-error"
FIELDS = ("username", "password", "first_name", "email", "region")
ROLE_BOXES: tuple[RoleBox, ...] = (("new-role-svl", "SVL"), ("new-role-admin", "Admin"), ("new-role-player", "Player"))


class NewSVLState(FormState, AuthState):
    _fields = (*FIELDS, "roles")
    _error_id = ERROR_ID

    allowed: rx.Field[bool] = rx.field(False)
    roles: rx.Field[list[str]] = rx.field(default_factory=list)

    async def load(self):
        self._clear_messages()
        start = await run_action(accounts.new_svl_form, actor=await self._actor())
        self.allowed = start.failure is None
        if start.failure is not None:
            self.error, self.roles = start.failure.message, []
            return
        self.roles = start.value["roles"]  # the form is drawn once allowed: what is typed is never redrawn away

    @rx.event
    def create(self, form_data: dict):
        data = form_values(form_data, FIELDS)
        data["username"] = data["username"].lower()
        roles = picked_roles(form_data, ROLE_BOXES)  # the service makes an SVL when none is ticked
        return self._submit(
            accounts.create_svl, done=lambda _: rx.redirect(routes.USERS), roles=roles, submitted=data
        )


@page(routes.USERS_NEW, "Create New SVL", on_load=NewSVLState.load)
def new_svl_page() -> rx.Component:
    s = NewSVLState
    errors = cast(ObjectVar[dict[str, str]], s.errors)  # Reflex's Field stubs give mypy an ArrayVar for a dict field
    return account_form_page(
        "Create New SVL",
        s,
        ERROR_ID,
        s.allowed,
        username_field(s, hint="3 to 20 letters", required=True),
        password_field("Password", "password", s, hint="4 to 100 characters: letters, numbers or ! @ # $ %",
                       required=True),
        text_field("Name", "first_name", s, required=True),
        text_field("Email", "email", s, type="email", required=True),
        region_field(s, required=True),
        rx.vstack(rx.text("Roles", weight="medium", size="2"), role_boxes(ROLE_BOXES, s.roles, errors.get("roles", "")),
                  spacing="1"),
        submit_button("Create SVL", s),
        on_submit=s.create,
    )  # fmt: skip
