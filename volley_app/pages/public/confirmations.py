"""The confirmations a public form or an emailed link leads to (no login needed): a line saying what happened, a
quieter note, and the way on."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import reflex as rx

from volley_app import routes
from volley_app.components.inquiries import confirmation_page
from volley_app.registry import page


@dataclasses.dataclass(frozen=True)
class Confirmation:
    route: str
    title: str  # the page's title
    heading: str
    lead: str
    note: str
    link: tuple[str, str]  # label, address
    props: dict[str, Any] = dataclasses.field(default_factory=dict)  # the message page's look (its icon)


CONFIRMATIONS = (
    Confirmation(
        routes.SENT, "Sent Successfully", "Sent Successfully",
        "Thank you for your submission! Our team will reach out to you shortly.",
        "If you do not hear from us in 1-2 days, please check that the email address you entered is correct and try again.",
        ("Back to Home", routes.HOME),
    ),
    Confirmation(
        routes.SUBSCRIBED, "Subscribed", "You're Subscribed",
        "Thanks for signing up! Our newsletter goes out on Friday mornings.",
        "Every issue has a one-click unsubscribe link at the bottom.",
        ("Back to Home", routes.HOME),
    ),
    Confirmation(
        routes.FORGOT_SENT, "Check Your Email", "Check Your Email",
        "We sent a link to choose a new password to your email address.",
        "The link works once, for one hour. If it does not arrive in a few minutes, check your spam folder.",
        ("Back to Login", routes.LOGIN),
        {"icon": "mail_check"},
    ),
    Confirmation(
        routes.PASSWORD_UPDATED, "Password Updated", "Password Updated",
        "Your password was changed. For your safety, every device that was logged in has been logged out.",
        "Log in with your new password.",
        ("Login", routes.LOGIN),
    ),
)  # fmt: skip


def _page(c: Confirmation) -> Callable[[], rx.Component]:
    def confirmation() -> rx.Component:
        return confirmation_page(c.heading, c.lead, c.note, c.link, **c.props)

    return confirmation


for _c in CONFIRMATIONS:
    page(_c.route, _c.title)(_page(_c))
