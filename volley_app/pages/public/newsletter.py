"""Newsletter signup, the subscribed page, and one-click unsubscribe (no login needed)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import busy, error_line, focus, form_card
from volley_app.components.layout import link_button, public_page
from volley_app.pages.public.forms import input_field, message_page
from volley_app.registry import page
from volley_app.services import newsletter
from volley_app.services.errors import Invalid
from volley_app.state.forms import run_action

ERROR_ID = "newsletter-error"


class NewsletterSignupState(rx.State):
    errors: dict[str, str] = {}
    error: str = ""
    loading: bool = False

    def clear(self):
        self.errors, self.error, self.loading = {}, "", False

    async def subscribe(self, form_data: dict | None = None):
        if self.loading:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.errors, self.error, self.loading = {}, "", True
        yield
        _r, failure = await run_action(
            newsletter.subscribe,
            email=str(data.get("email") or ""),
            referral=str(data.get("referral") or ""),
            client=self.router.session.client_ip or "unknown",
        )
        self.loading = False
        if failure is not None:
            if isinstance(failure, Invalid):
                self.errors = {k: v for k, v in failure.errors.items() if k in ("email", "referral")}
            self.error = "" if self.errors else failure.message
            yield
            yield focus("email" if self.errors else ERROR_ID)
            return
        yield rx.redirect(routes.SUBSCRIBED)


@page(routes.NEWSLETTER, "Newsletter", on_load=NewsletterSignupState.clear)
def newsletter_page() -> rx.Component:
    e = NewsletterSignupState.errors
    return public_page(
        form_card(
            "Newsletter",
            rx.text(
                "League openings, venue news, tournament results and the occasional deal from our sponsors, "
                "every Friday morning. One click unsubscribes you at any time.",
                color_scheme="gray",
            ),
            error_line(NewsletterSignupState.error, ERROR_ID),
            rx.cond(NewsletterSignupState.loading, busy("Signing you up…"), rx.fragment()),
            rx.form(
                rx.vstack(
                    input_field("Email", "email", e, type="email", auto_complete="email", max_length=254),
                    input_field("How did you hear about us? (optional)", "referral", e, required=False, max_length=200),
                    rx.button("Subscribe", type="submit", size="3", width="100%"),
                    spacing="4",
                    width="100%",
                ),
                on_submit=NewsletterSignupState.subscribe,
                width="100%",
                display=rx.cond(NewsletterSignupState.loading, "none", "block"),
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


class UnsubscribeState(rx.State):
    status: str = "working"  # then "done" or "invalid"
    message: str = ""

    async def unsubscribe(self):
        """on_load: the link itself is the one click (mail scanners do not run the page's script)."""
        parts = (self.router.url.path or "").strip("/").split("/")
        sub_id, token = (parts[1], parts[2]) if len(parts) == 3 else ("", "")
        email, failure = await run_action(newsletter.unsubscribe, subscriber_id=sub_id, token=token)
        if failure is None:
            self.status, self.message = "done", f"{email} will get no more newsletters."
        else:
            self.status, self.message = "invalid", failure.message


@page(routes.UNSUBSCRIBE_ROUTE, "Unsubscribe", on_load=UnsubscribeState.unsubscribe)
def unsubscribe_page() -> rx.Component:
    return public_page(
        form_card(
            "Newsletter",
            rx.match(
                UnsubscribeState.status,
                (
                    "done",
                    rx.vstack(
                        rx.heading("You are unsubscribed", size="5", as_="h2"),
                        rx.text(UnsubscribeState.message),
                        rx.text("Changed your mind? ", rx.link("Subscribe again", href=routes.NEWSLETTER), "."),
                        spacing="3",
                    ),
                ),
                (
                    "invalid",
                    rx.vstack(
                        rx.callout(UnsubscribeState.message, icon="triangle_alert", color_scheme="red", role="alert"),
                        rx.text("If you keep getting newsletters, ", rx.link("contact us", href=routes.CONTACT), "."),
                        spacing="3",
                    ),
                ),
                busy("Unsubscribing…"),
            ),
        )
    )
