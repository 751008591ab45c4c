"""One-click unsubscribe from the newsletter: the emailed link itself unsubscribes (no login needed)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.inquiries import emailed_link_page, refusal
from volley_app.components.layout import column
from volley_app.registry import page
from volley_app.services.mail import newsletter
from volley_app.state.forms import path_arg, run_action


class UnsubscribeState(rx.State):
    status: rx.Field[str] = rx.field("working")  # then "done" or "invalid"
    message: rx.Field[str] = rx.field("")

    async def unsubscribe(self):
        """on_load: the link itself is the one click (mail scanners do not run the page's script)."""
        email, failure = await run_action(
            newsletter.unsubscribe, subscriber_id=path_arg(self, "sub_id"), token=path_arg(self, "sub_token")
        )
        if failure is None:
            self.status, self.message = "done", f"{email} will get no more newsletters."
        else:
            self.status, self.message = "invalid", failure.message


@page(routes.UNSUBSCRIBE_ROUTE, "Unsubscribe", on_load=UnsubscribeState.unsubscribe)
def unsubscribe_page() -> rx.Component:
    s = UnsubscribeState
    return emailed_link_page(
        "Newsletter",
        s.status,
        "Unsubscribing…",
        done=column(
            rx.heading("You are unsubscribed", size="5", as_="h2"),
            rx.text(s.message),
            rx.text("Changed your mind? ", rx.link("Subscribe again", href=routes.NEWSLETTER), "."),
            spacing="3",
        ),
        invalid=refusal(
            s.message,
            rx.text("If you keep getting newsletters, ", rx.link("contact us", href=routes.CONTACT), "."),
            spacing="3",
        ),
    )
