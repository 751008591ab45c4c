"""Player signup (spec sections 2 and 5): then logged in and at /dash."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import (
    busy,
    error_line,
    field,
    focus,
    form_card,
    region_select,
    text_input,
    username_input,
)
from volley_app.components.layout import public_page
from volley_app.services import auth
from volley_app.services.errors import Invalid
from volley_app.services.validation import PASSWORD_RULE, USERNAME_RULE
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

FIELDS = ("username", "password", "email", "first_name", "last_name", "region")
ERROR_ID = "signup-error"


class SignupState(rx.State):
    username: str = ""
    password: str = ""
    email: str = ""
    first_name: str = ""
    last_name: str = ""
    region: str = ""
    errors: dict[str, str] = {}
    error: str = ""
    loading: bool = False

    def _edit(self, name: str, value) -> None:
        value = str(value) if value is not None else ""
        if value == getattr(self, name):
            return  # a late, debounced echo of what the form already sent: nothing changed
        setattr(self, name, value)
        if name in self.errors:
            self.errors = {k: v for k, v in self.errors.items() if k != name}
        self.error = ""

    @rx.event
    def set_username(self, value: str):
        self._edit("username", str(value).lower())

    @rx.event
    def set_password(self, value: str):
        self._edit("password", value)

    @rx.event
    def set_email(self, value: str):
        self._edit("email", value)

    @rx.event
    def set_first_name(self, value: str):
        self._edit("first_name", value)

    @rx.event
    def set_last_name(self, value: str):
        self._edit("last_name", value)

    @rx.event
    def set_region(self, value: str):
        self._edit("region", value)

    async def signup(self, form_data: dict | None = None):
        if self.loading:
            return
        data = form_data if isinstance(form_data, dict) else {}
        for name in FIELDS:
            if name in data:
                setattr(self, name, str(data.get(name) or ""))
        self.username = self.username.lower()
        self.errors, self.error, self.loading = {}, "", True
        yield
        auth_state = await self.get_state(AuthState)
        result, failure = await run_action(
            auth.signup,
            **{name: getattr(self, name) for name in FIELDS},
            trusted=auth_state.persist != "false",
            client=auth_state._client(),
        )
        if failure is not None:
            self.loading = False
            if isinstance(failure, Invalid):
                self.errors = {k: v for k, v in failure.errors.items() if k in FIELDS}
            self.error = "Please correct the fields marked below." if self.errors else failure.message
            yield
            yield focus(ERROR_ID)
            return
        auth_state._apply_login(result)
        self.reset()
        yield rx.redirect(routes.DASH)


def _text(label: str, name: str, **props) -> rx.Component:
    return field(
        label,
        text_input(name, value=getattr(SignupState, name), on_change=getattr(SignupState, f"set_{name}"), required=True, **props),
        field_id=name,
        error=SignupState.errors.get(name, ""),
    )


def signup_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            field(
                "Username",
                username_input(SignupState.username, SignupState.set_username, max_length=50),
                field_id="username",
                error=SignupState.errors.get("username", ""),
                hint=USERNAME_RULE,
            ),
            field(
                "Password",
                text_input(
                    "password",
                    type="password",
                    value=SignupState.password,
                    on_change=SignupState.set_password,
                    required=True,
                    auto_complete="new-password",
                    max_length=100,
                ),
                field_id="password",
                error=SignupState.errors.get("password", ""),
                hint=PASSWORD_RULE,
            ),
            _text("Email", "email", type="email", auto_complete="email"),
            rx.grid(
                _text("First Name", "first_name", auto_complete="given-name"),
                _text("Last Name", "last_name", auto_complete="family-name"),
                columns={"initial": "1", "sm": "2"},
                spacing="4",
                width="100%",
            ),
            field(
                "State",
                region_select("region", SignupState.region, SignupState.set_region),
                field_id="region",
                error=SignupState.errors.get("region", ""),
            ),
            rx.button("Sign Up", type="submit", size="3", width="100%"),
            spacing="4",
            width="100%",
        ),
        on_submit=SignupState.signup,
        width="100%",
    )


def signup_page() -> rx.Component:
    return public_page(
        form_card(
            "Sign Up",
            rx.text("Create your player account to find subs, sub for others and join leagues.", color_scheme="gray"),
            error_line(SignupState.error, ERROR_ID),
            rx.cond(SignupState.loading, busy("Creating your account…"), signup_form()),
            rx.text("Already have an account? ", rx.link("Log in", href=routes.LOGIN), size="2"),
        )
    )
