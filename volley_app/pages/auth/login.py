"""Login (spec section 2): username forced to lower case, Trust This Device, spinner, live errors."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import busy, error_line, field, focus, form_card, text_input, username_input
from volley_app.components.layout import public_page
from volley_app.services import auth
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

ERROR_ID = "login-error"


class LoginState(rx.State):
    username: str = ""
    password: str = ""
    trusted: bool = True
    error: str = ""
    loading: bool = False

    def _edit(self, name: str, value: str) -> None:
        """Keep a typed value; a real change clears the message (a debounced echo does not)."""
        if value != getattr(self, name):
            setattr(self, name, value)
            self.error = ""

    @rx.event
    def set_username(self, value: str):
        self._edit("username", str(value).lower())

    @rx.event
    def set_password(self, value: str):
        self._edit("password", str(value))

    @rx.event
    def set_trusted(self, value: bool):
        self.trusted = bool(value)

    async def on_load(self):
        """Start clean, with the device's remembered trust choice (checked unless turned off)."""
        auth_state = await self.get_state(AuthState)
        self.trusted = auth_state.persist != "false"
        self.password = ""
        self.error = ""
        self.loading = False

    async def login(self, form_data: dict | None = None):
        if self.loading:  # a second click while the first is running
            return
        data = form_data if isinstance(form_data, dict) else {}
        if "username" in data:
            self.username = str(data.get("username") or "").lower()
        if "password" in data:
            self.password = str(data.get("password") or "")
        self.error = ""
        self.loading = True
        yield
        auth_state = await self.get_state(AuthState)
        result, failure = await run_action(
            auth.login,
            username=self.username,
            password=self.password,
            trusted=self.trusted,
            client=auth_state._client(),
        )
        if failure is not None:
            self.loading, self.error = False, failure.message
            yield
            yield focus(ERROR_ID)
            return
        auth_state._apply_login(result)
        target = routes.safe_next(self.router.url.query_parameters.get("next"))
        self.username, self.password, self.loading = "", "", False
        yield rx.redirect(target)


def login_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            field(
                "Username",
                username_input(LoginState.username, LoginState.set_username),
                field_id="username",
            ),
            field(
                "Password",
                text_input(
                    "password",
                    type="password",
                    value=LoginState.password,
                    on_change=LoginState.set_password,
                    required=True,
                    auto_complete="current-password",
                ),
                field_id="password",
            ),
            rx.hstack(
                rx.checkbox(id="trust", name="trust", checked=LoginState.trusted, on_change=LoginState.set_trusted),
                rx.el.label("Trust This Device", html_for="trust", style={"font_size": "var(--font-size-2)"}),
                align="center",
                spacing="2",
            ),
            rx.button("Login", type="submit", size="3", width="100%"),
            spacing="4",
            width="100%",
        ),
        on_submit=LoginState.login,
        width="100%",
    )


def login_page() -> rx.Component:
    return public_page(
        form_card(
            "Login",
            error_line(LoginState.error, ERROR_ID),
            rx.cond(LoginState.loading, busy("Logging in…"), login_form()),
            rx.flex(
                rx.link("Sign Up", href=routes.SIGNUP),
                rx.link("Forgot Password?", href=routes.FORGOT_PASSWORD),
                justify="between",
                width="100%",
            ),
        )
    )
