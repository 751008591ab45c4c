"""Newsletter signup and the subscribed page (no login needed)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import form_card, submit_button, text_field
from volley_app.components.inquiries import kept_form
from volley_app.components.layout import link_button, message_page, public_page
from volley_app.registry import page
from volley_app.services import newsletter
from volley_app.state.forms import FormState, form_values

ERROR_ID = "newsletter-error"


class NewsletterSignupState(FormState, rx.State):
    _fields = ("email", "referral")
    _error_id = ERROR_ID

    def clear(self):
        self._clear_messages()

    @rx.event
    async def subscribe(self, form_data: dict | None = None):
        data = form_values(form_data, self._fields)
        async for event in self._submit(
            newsletter.subscribe,
            as_actor=False,
            done=lambda _r: rx.redirect(routes.SUBSCRIBED),
            client=self.router.session.client_ip or "unknown",
            **data,
        ):
            yield event


@page(routes.NEWSLETTER, "Newsletter", on_load=NewsletterSignupState.clear)
def newsletter_page() -> rx.Component:
    s = NewsletterSignupState
    return public_page(
        form_card(
            "Newsletter",
            rx.text(
                "League openings, venue news, tournament results and the occasional deal from our sponsors, "
                "every Friday morning. One click unsubscribes you at any time.",
                color_scheme="gray",
            ),
            kept_form(
                s,
                "Signing you up…",
                text_field("Email", "email", s, type="email", auto_complete="email", max_length=254, required=True),
                text_field("How did you hear about us? (optional)", "referral", s, max_length=200),
                submit_button("Subscribe"),
                on_submit=s.subscribe,
                error_id=ERROR_ID,
            ),
        )
    )


@page(routes.SUBSCRIBED, "Subscribed")
def subscribed_page() -> rx.Component:
    return message_page(
        "You're Subscribed",
        rx.text("Thanks for signing up! Our newsletter goes out on Friday mornings."),
        rx.text("Every issue has a one-click unsubscribe link at the bottom.", color_scheme="gray"),
        link_button("Back to Home", href=routes.HOME, size="3"),
    )
