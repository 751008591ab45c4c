"""Forgot Password: ask for a reset link by email, then the sent or not-found page."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import form_card, submit_button, text_field
from volley_app.components.inquiries import kept_form
from volley_app.components.layout import button_row, link_button, message_page, public_page
from volley_app.registry import page
from volley_app.services import recovery
from volley_app.state.forms import FormState, form_values

FORGOT_ERROR = "forgot-error"


class ForgotState(FormState, rx.State):
    _fields = ("email",)
    _error_id = FORGOT_ERROR

    def clear(self):
        self._clear_messages()

    @rx.event
    async def send(self, form_data: dict | None = None):
        data = form_values(form_data, self._fields)
        async for event in self._submit(
            recovery.request_reset,
            as_actor=False,
            done=lambda result: rx.redirect(routes.FORGOT_SENT if result.found else routes.FORGOT_NOT_FOUND),
            email=data["email"],
            client=self.router.session.client_ip or "unknown",
        ):
            yield event


@page(routes.FORGOT_PASSWORD, "Forgot Password", on_load=ForgotState.clear)
def forgot_page() -> rx.Component:
    return public_page(
        form_card(
            "Forgot Password",
            rx.text("Enter the email address of your account and we will send you a link to choose a new password.", color_scheme="gray"),
            kept_form(
                ForgotState,
                "Sending…",
                text_field("Email", "email", ForgotState, type="email", required=True, auto_focus=True,
                           auto_complete="email", max_length=254),
                submit_button("Send Reset Link"),
                on_submit=ForgotState.send,
                error_id=FORGOT_ERROR,
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
        button_row(
            link_button("Try Again", href=routes.FORGOT_PASSWORD, size="3"),
            link_button("Sign Up", href=routes.SIGNUP, size="3", variant="outline"),
            spacing="3",
        ),
        icon="circle_alert",
        tone="amber",
    )
