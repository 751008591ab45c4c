"""/sent: the confirmation after a public inquiry form (spec sections 2 and 8)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import link_button, message_page
from volley_app.registry import page


@page(routes.SENT, "Sent Successfully")
def sent_page() -> rx.Component:
    return message_page(
        "Sent Successfully",
        rx.text("Thank you for your submission! Our team will reach out to you shortly."),
        rx.text(
            "If you do not hear from us in 1-2 days, please check that the email address you entered "
            "is correct and try again.",
            color_scheme="gray",
        ),
        link_button("Back to Home", href=routes.HOME, size="3"),
    )
