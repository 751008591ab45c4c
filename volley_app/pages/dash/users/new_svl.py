"""Create New SVL (/dash/users/new): an admin opens an account for a venue (spec section 5, Create SVL)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.accounts import RoleBox, picked_roles, role_boxes
from volley_app.components.forms import (
    error_line,
    form_card,
    password_field,
    region_field,
    submit_button,
    text_field,
    username_field,
)
from volley_app.components.layout import column, dash_page
from volley_app.registry import page
from volley_app.services import accounts
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, run_action

ERROR_ID = "svl-error"
FIELDS = ("username", "password", "first_name", "email", "region")
ROLE_BOXES: tuple[RoleBox, ...] = (("new-role-svl", "SVL"), ("new-role-admin", "Admin"), ("new-role-player", "Player"))


class NewSVLState(FormState, AuthState):
    _fields = (*FIELDS, "roles")
    _error_id = ERROR_ID

    allowed: bool = False
    roles: list[str] = []

    async def load(self):
        self._clear_messages()
        start, failure = await run_action(accounts.new_svl_form, actor=await self._actor())
        self.allowed = failure is None
        if failure:
            self.error, self.roles = failure.message, []
            return
        self.roles = start["roles"]  # the form is drawn once allowed: what is typed is never redrawn away

    @rx.event
    async def create(self, form_data: dict):
        data = form_values(form_data, FIELDS)
        data["username"] = data["username"].lower()
        roles = picked_roles(form_data, ROLE_BOXES)  # the service makes an SVL when none is ticked
        async for event in self._submit(
            accounts.create_svl, done=lambda _: rx.redirect(routes.USERS), roles=roles, **data
        ):
            yield event


def _new_svl_form() -> rx.Component:
    s = NewSVLState
    return rx.form(
        column(
            username_field(s, hint="3 to 20 letters", required=True),
            password_field("Password", "password", s, hint="4 to 100 characters: letters, numbers or ! @ # $ %",
                           required=True),
            text_field("Name", "first_name", s, required=True),
            text_field("Email", "email", s, type="email", required=True),
            region_field(s, required=True),
            rx.vstack(
                rx.text("Roles", weight="medium", size="2"),
                role_boxes(ROLE_BOXES, s.roles, s.errors.get("roles", "")),
                spacing="1",
            ),
            submit_button("Create SVL", s),
            spacing="3",
        ),
        on_submit=s.create,
        width="100%",
    )  # fmt: skip


@page(routes.USERS_NEW, "Create New SVL", on_load=NewSVLState.load)
def new_svl_page() -> rx.Component:
    s = NewSVLState
    return dash_page(form_card("Create New SVL", error_line(s.error, ERROR_ID), rx.cond(s.allowed, _new_svl_form())))
