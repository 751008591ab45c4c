"""Player signup (spec sections 2 and 5): then logged in and at /dash."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import (
    form_card,
    password_field,
    region_field,
    submit_button,
    text_field,
    username_field,
)
from volley_app.components.inquiries import kept_form, two_columns
from volley_app.components.layout import public_page
from volley_app.registry import page
from volley_app.services import accounts
from volley_app.services.validation import PASSWORD_RULE, USERNAME_RULE
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values

FIELDS = ("username", "password", "email", "first_name", "last_name", "region")
ERROR_ID = "signup-error"


class SignupState(FormState, rx.State):
    _fields = FIELDS
    _error_id = ERROR_ID

    def on_load(self):
        self._clear_messages()

    @rx.event
    async def signup(self, form_data: dict | None = None):
        data = form_values(form_data, FIELDS)
        data["username"] = data["username"].lower()
        auth_state = await self.get_state(AuthState)

        def logged_in(result):
            auth_state._apply_login(result)
            return rx.redirect(routes.DASH)

        async for event in self._submit(
            accounts.signup,
            as_actor=False,
            done=logged_in,
            trusted=auth_state.persist != "false",
            client=auth_state._client(),
            **data,
        ):
            yield event


@page(routes.SIGNUP, "Sign Up", on_load=SignupState.on_load)
def signup_page() -> rx.Component:
    s = SignupState
    return public_page(
        form_card(
            "Sign Up",
            rx.text("Create your player account to find subs, sub for others and join leagues.", color_scheme="gray"),
            kept_form(
                s,
                "Creating your account…",
                username_field(s, hint=USERNAME_RULE, required=True, auto_focus=True),
                password_field("Password", "password", s, hint=PASSWORD_RULE, required=True),
                text_field("Email", "email", s, type="email", auto_complete="email", required=True),
                two_columns(
                    text_field("First Name", "first_name", s, auto_complete="given-name", required=True),
                    text_field("Last Name", "last_name", s, auto_complete="family-name", required=True),
                    spacing="4",
                ),
                region_field(s, required=True),
                submit_button("Sign Up", s),
                on_submit=s.signup,
                error_id=ERROR_ID,
            ),
            rx.text("Already have an account? ", rx.link("Log in", href=routes.LOGIN), size="2"),
        )
    )
