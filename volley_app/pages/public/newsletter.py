"""Newsletter signup (no login needed); the subscribed page is a confirmation (``confirmations.py``)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import submit_button, text_field, trap_field
from volley_app.components.inquiries import form_page, kept_form
from volley_app.registry import page
from volley_app.services.mail import newsletter
from volley_app.state.forms import TRAP_FIELD, form_values
from volley_app.state.inquiries import PublicFormState

ERROR_ID = "newsletter-error"


class NewsletterSignupState(PublicFormState, rx.State):
    _fields = ("email", "referral")
    _error_id = ERROR_ID

    @rx.event
    def subscribe(self, form_data: dict | None = None):
        data = form_values(form_data, (*self._fields, TRAP_FIELD))
        trap = data.pop(TRAP_FIELD)
        return self._send(newsletter.subscribe, done=lambda _r: rx.redirect(routes.SUBSCRIBED), trap=trap, **data)


@page(routes.NEWSLETTER, "Newsletter", on_load=NewsletterSignupState.clear)
def newsletter_page() -> rx.Component:
    s = NewsletterSignupState
    return form_page(
        "Newsletter",
        "League openings, venue news, tournament results and the occasional deal from our sponsors, "
        "every Friday morning. One click unsubscribes you at any time.",
        kept_form(
            s,
            "Signing you up…",
            text_field("Email", "email", s, type="email", auto_complete="email", max_length=254, required=True),
            text_field("How did you hear about us? (optional)", "referral", s, max_length=200),
            trap_field(),
            submit_button("Subscribe"),
            on_submit=s.subscribe,
            error_id=ERROR_ID,
        ),
    )
