"""/sent: the confirmation after a public inquiry form (spec sections 2 and 8)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.inquiries import confirmation_page
from volley_app.registry import page


@page(routes.SENT, "Sent Successfully")
def sent_page() -> rx.Component:
    return confirmation_page(
        "Sent Successfully",
        "Thank you for your submission! Our team will reach out to you shortly.",
        "If you do not hear from us in 1-2 days, please check that the email address you entered is correct and try again.",
        ("Back to Home", routes.HOME),
    )
