"""The player contact form (/dash/playercontact), then Sent Successfully (/dash/playersent)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import area_field, error_line, form_card, submit_button
from volley_app.components.inquiries import form_page
from volley_app.components.layout import column, dash_page, link_button
from volley_app.registry import page
from volley_app.services.accounts import accounts
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values

ERROR_ID = "contact-error"


class PlayerContactState(FormState, AuthState):
    _fields = ("message",)
    _error_id = ERROR_ID

    async def load(self):
        self._clear_messages()

    @rx.event
    def send(self, form_data: dict):
        data = form_values(form_data, self._fields)
        return self._submit(accounts.player_contact, done=lambda _: rx.redirect(routes.PLAYER_SENT), submitted=data)


@page(routes.PLAYER_CONTACT, "Contact Us", on_load=PlayerContactState.load)
def player_contact_page() -> rx.Component:
    s = PlayerContactState
    return form_page(
        "Contact Us",
        "Questions, ideas or trouble? Send us a message and we will reply by email.",
        error_line(s.error, ERROR_ID),
        rx.form(
            column(
                area_field("Message", "message", s, rows="6", required=True, max_length=accounts.MESSAGE_MAX),
                submit_button("Send", s),
                spacing="3",
            ),
            on_submit=s.send,
            width="100%",
            method="post",
        ),
        frame=dash_page,
    )


@page(routes.PLAYER_SENT, "Sent Successfully")
def player_sent_page() -> rx.Component:
    return dash_page(
        form_card(
            "Sent Successfully",
            rx.text("Thank you for your message. Our team will reach out shortly."),
            rx.text(
                "If you do not hear from us in 1-2 days, please check that the email address on your account "
                "is correct and try again."
            ),
            link_button("Back to Profile", href=routes.DASH_PROFILE, size="3"),
        )
    )
