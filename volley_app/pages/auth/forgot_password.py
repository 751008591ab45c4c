"""Forgot Password: ask for a reset link by email, then the not-found page (the sent page is a confirmation,
``pages/public/confirmations.py``)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import submit_button, text_field
from volley_app.components.inquiries import form_page, kept_form
from volley_app.components.layout import message_page, page_link
from volley_app.components.prose import link_row
from volley_app.registry import page
from volley_app.services.accounts import recovery
from volley_app.state.forms import form_values
from volley_app.state.inquiries import PublicFormState

FORGOT_ERROR = "forgot-error"


class ForgotState(PublicFormState, rx.State):
    _fields = ("email",)
    _error_id = FORGOT_ERROR

    @rx.event
    def send(self, form_data: dict | None = None):
        return self._send(
            recovery.request_reset,
            done=lambda result: rx.redirect(routes.FORGOT_SENT if result.found else routes.FORGOT_NOT_FOUND),
            **form_values(form_data, self._fields),
        )


@page(routes.FORGOT_PASSWORD, "Forgot Password", on_load=ForgotState.clear)
def forgot_page() -> rx.Component:
    return form_page(
        "Forgot Password",
        "Enter the email address of your account and we will send you a link to choose a new password.",
        kept_form(
            ForgotState,
            "Sending…",
            text_field("Email", "email", ForgotState, type="email", required=True, auto_focus=True,
                       auto_complete="email", max_length=254),
            submit_button("Send Reset Link"),
            on_submit=ForgotState.send,
            error_id=FORGOT_ERROR,
        ),
        rx.flex(page_link("Back to Login", href=routes.LOGIN), rx.link("Sign Up", href=routes.SIGNUP), justify="between", width="100%"),
    )  # fmt: skip


@page(routes.FORGOT_NOT_FOUND, "Email Not Found")
def forgot_not_found_page() -> rx.Component:
    return message_page(
        "Email Not Found",
        rx.text("A password reset could not be sent."),
        rx.text("Please check the email you used or create a new account."),
        link_row(("Try Again", routes.FORGOT_PASSWORD, "solid"), ("Sign Up", routes.SIGNUP, "outline")),
        icon="circle_alert",
        tone="amber",
    )
