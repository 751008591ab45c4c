"""Password recovery: ask for a link, the sent / not-found pages, the reset form, and the done page."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import busy, error_line, field, focus, form_card, text_input
from volley_app.components.layout import link_button, public_page
from volley_app.pages.public.forms import message_page
from volley_app.registry import page
from volley_app.services import recovery
from volley_app.services.errors import Invalid, NotFound
from volley_app.services.validation import RESET_PASSWORD_RULE
from volley_app.state.forms import run_action

FORGOT_ERROR = "forgot-error"
RESET_ERROR = "reset-error"


class ForgotState(rx.State):
    email_error: str = ""
    error: str = ""
    loading: bool = False

    def clear(self):
        self.email_error, self.error, self.loading = "", "", False

    async def send(self, form_data: dict | None = None):
        if self.loading:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.email_error, self.error, self.loading = "", "", True
        yield
        result, failure = await run_action(
            recovery.request_reset, email=str(data.get("email") or ""), client=self.router.session.client_ip or "unknown"
        )
        self.loading = False
        if failure is not None:
            if isinstance(failure, Invalid) and "email" in failure.errors:
                self.email_error = failure.errors["email"]
            else:
                self.error = failure.message
            yield
            yield focus(FORGOT_ERROR)
            return
        yield rx.redirect(routes.FORGOT_SENT if result.found else routes.FORGOT_NOT_FOUND)


@page(routes.FORGOT_PASSWORD, "Forgot Password", on_load=ForgotState.clear)
def forgot_page() -> rx.Component:
    return public_page(
        form_card(
            "Forgot Password",
            rx.text("Enter the email address of your account and we will send you a link to choose a new password.", color_scheme="gray"),
            error_line(ForgotState.error, FORGOT_ERROR),
            rx.cond(ForgotState.loading, busy("Sending…"), rx.fragment()),
            rx.form(
                rx.vstack(
                    field(
                        "Email",
                        text_input("email", type="email", required=True, auto_focus=True, auto_complete="email", max_length=254),
                        field_id="email",
                        error=ForgotState.email_error,
                    ),
                    rx.button("Send Reset Link", type="submit", size="3", width="100%"),
                    spacing="4",
                    width="100%",
                ),
                on_submit=ForgotState.send,
                width="100%",
                display=rx.cond(ForgotState.loading, "none", "block"),
            ),
            rx.flex(rx.link("Back to Login", href=routes.LOGIN), rx.link("Sign Up", href=routes.SIGNUP), justify="between", width="100%"),
        )
    )


@page(routes.FORGOT_SENT, "Check Your Email")
def forgot_sent_page() -> rx.Component:
    return message_page(
        "Check Your Email",
        rx.text("We sent a link to choose a new password to your email address."),
        rx.text("The link works once, for one hour. If it does not arrive in a few minutes, check your spam folder.", color_scheme="gray"),
        link_button("Back to Login", href=routes.LOGIN, size="3"),
        icon="mail_check",
    )


@page(routes.FORGOT_NOT_FOUND, "Email Not Found")
def forgot_not_found_page() -> rx.Component:
    return message_page(
        "Email Not Found",
        rx.text("A password reset could not be sent."),
        rx.text("Please check the email you used or create a new account."),
        rx.flex(
            link_button("Try Again", href=routes.FORGOT_PASSWORD, size="3"),
            link_button("Sign Up", href=routes.SIGNUP, size="3", variant="outline"),
            spacing="3",
            wrap="wrap",
        ),
        icon="circle_alert",
        tone="amber",
    )


class ResetState(rx.State):
    # "checking" until on_load has looked at the link, then "ok" or "invalid".
    status: str = "checking"
    link_error: str = ""
    password_error: str = ""
    confirm_error: str = ""
    error: str = ""
    loading: bool = False

    def _link(self) -> tuple[str, str]:
        """The user id and token of this page's path (/resetPassword/{id}/{token})."""
        parts = (self.router.url.path or "").strip("/").split("/")
        if len(parts) == 3 and parts[0] == routes.RESET_PASSWORD.strip("/"):
            return parts[1], parts[2]
        return "", ""

    async def check(self):
        """on_load: say at once when the link is no good, rather than after a new password was typed."""
        self.password_error, self.confirm_error, self.error, self.loading = "", "", "", False
        user_id, token = self._link()
        _r, failure = await run_action(recovery.check_link, user_id=user_id, token=token)
        if failure is None:
            self.status, self.link_error = "ok", ""
        else:
            self.status = "invalid"
            self.link_error = failure.message if isinstance(failure, NotFound) else recovery.INVALID_LINK

    async def save(self, form_data: dict | None = None):
        if self.loading:
            return
        data = form_data if isinstance(form_data, dict) else {}
        password = data.get("password")
        password = password if isinstance(password, str) else ""
        self.password_error, self.confirm_error, self.error = "", "", ""
        if password != data.get("confirm"):
            self.confirm_error = "The passwords do not match"
            yield focus("confirm")
            return
        self.loading = True
        yield
        user_id, token = self._link()
        _r, failure = await run_action(recovery.reset_password, user_id=user_id, token=token, password=password)
        self.loading = False
        if failure is not None:
            if isinstance(failure, Invalid):
                self.password_error = failure.errors.get("password", failure.message)
            elif isinstance(failure, NotFound):
                self.status, self.link_error = "invalid", failure.message
            else:
                self.error = failure.message
            yield
            yield focus(RESET_ERROR)
            return
        yield rx.redirect(routes.PASSWORD_UPDATED)


def _reset_form() -> rx.Component:
    return rx.form(
        rx.vstack(
            field(
                "New Password",
                text_input("password", type="password", required=True, auto_focus=True, auto_complete="new-password", max_length=100),
                field_id="password",
                error=ResetState.password_error,
                hint=RESET_PASSWORD_RULE,
            ),
            field(
                "Confirm New Password",
                text_input("confirm", type="password", required=True, auto_complete="new-password", max_length=100),
                field_id="confirm",
                error=ResetState.confirm_error,
            ),
            rx.button("Set New Password", type="submit", size="3", width="100%"),
            spacing="4",
            width="100%",
        ),
        on_submit=ResetState.save,
        width="100%",
        display=rx.cond(ResetState.loading, "none", "block"),
    )


@page(routes.RESET_PASSWORD_ROUTE, "Reset Password", on_load=ResetState.check)
def reset_page() -> rx.Component:
    return public_page(
        form_card(
            "Reset Password",
            error_line(ResetState.error, RESET_ERROR),
            rx.match(
                ResetState.status,
                (
                    "invalid",
                    rx.vstack(
                        rx.callout(ResetState.link_error, icon="triangle_alert", color_scheme="red", role="alert"),
                        link_button("Ask for a New Link", href=routes.FORGOT_PASSWORD, size="3"),
                        spacing="4",
                        width="100%",
                    ),
                ),
                ("ok", rx.fragment(rx.cond(ResetState.loading, busy("Saving…"), rx.fragment()), _reset_form())),
                busy("Checking your link…"),
            ),
        )
    )


@page(routes.PASSWORD_UPDATED, "Password Updated")
def password_updated_page() -> rx.Component:
    return message_page(
        "Password Updated",
        rx.text("Your password was changed. For your safety, every device that was logged in has been logged out."),
        rx.text("Log in with your new password.", color_scheme="gray"),
        link_button("Login", href=routes.LOGIN, size="3"),
    )
