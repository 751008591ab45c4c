"""Login (spec section 2): username lower-cased as typed, Trust This Device, spinner, live errors."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import checkbox_field, form_card, password_field, username_field
from volley_app.components.inquiries import kept_form
from volley_app.components.layout import public_page
from volley_app.registry import page
from volley_app.services.accounts import auth
from volley_app.services.core import validation
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg

ERROR_ID = "login-error"
NOTICE_ID = "login-notice"


class LoginState(FormState, rx.State):
    trusted: rx.Field[bool] = rx.field(True)
    # Said instead of logging in while the account's failed-login ceiling holds (a sign-in link was emailed).
    notice: rx.Field[str] = rx.field("")
    # Sign Up goes on to where this login would have (``?next=``).
    signup_href: rx.Field[str] = rx.field(routes.SIGNUP)

    _fields = ("username", "password")
    _error_id = ERROR_ID

    async def on_load(self):
        """Start clean, with the device's remembered trust choice (checked unless turned off)."""
        auth_state = await self.get_state(AuthState)
        trusted = auth_state.persist != "false"
        self._clear_messages()
        self.notice = ""
        target = path_arg(self, "next")
        self.signup_href = routes.signup_with_next(routes.safe_next(target)) if target else routes.SIGNUP
        if trusted != self.trusted:
            # Drawn again with the remembered choice; only then, so nothing typed meanwhile is lost.
            self.trusted = trusted
            self._show_record()

    def _show_failure(self, failure) -> None:
        if isinstance(failure, auth.SignInLinkSent):
            self.errors, self.error, self.notice = {}, "", failure.message
            return
        super()._show_failure(failure)

    def _focus_target(self) -> str:
        return NOTICE_ID if self.notice else super()._focus_target()

    def _done(self, result, auth_state: AuthState):
        auth_state._apply_login(result)
        return rx.redirect(routes.after_login(path_arg(self, "next"), result.actor.roles))

    @rx.event
    async def login(self, form_data: dict | None = None):
        data = form_values(form_data, ("username", "password", "trust"))
        auth_state = await self.get_state(AuthState)
        self.trusted = validation.flag(data["trust"])
        self.notice = ""
        return self._submit(
            auth.login,
            as_actor=False,
            done=lambda result: self._done(result, auth_state),
            username=data["username"].lower(),
            password=data["password"],
            trusted=self.trusted,
            client=auth_state._client(),
            device=auth_state.device,
        )


@page(routes.LOGIN, "Login", on_load=LoginState.on_load, site_name=False)
def login_page() -> rx.Component:
    return public_page(
        form_card(
            "Login",
            rx.box(
                rx.cond(LoginState.notice != "", rx.callout(LoginState.notice, icon="mail", color_scheme="blue"),
                        rx.fragment()),
                id=NOTICE_ID, role="status", aria_live="polite", tab_index=-1, width="100%",
            ),  # fmt: skip
            kept_form(
                LoginState,
                "Logging in…",
                username_field(LoginState, required=True, auto_focus=True),
                password_field("Password", "password", LoginState, new=False, required=True),
                checkbox_field("Trust This Device", "trust", default_checked=LoginState.trusted),
                rx.button("Login", type="submit", size="3", width="100%"),
                on_submit=LoginState.login,
                error_id=ERROR_ID,
                key=LoginState.form_key,
            ),
            rx.flex(
                rx.link("Sign Up", href=LoginState.signup_href),
                rx.link("Forgot Password?", href=routes.FORGOT_PASSWORD),
                justify="between",
                width="100%",
            ),
        )
    )
