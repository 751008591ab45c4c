"""New Newsletter (/dash/newsletterSetup): compose an issue with a live preview, and the subscribers (admin only)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.admin import local_time, notice, send_button
from volley_app.components.forms import area_field, checkbox_field, error_line, text_field
from volley_app.components.layout import column
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.models import NEWSLETTER_SECTIONS
from volley_app.registry import Body, screen
from volley_app.services.core.errors import DomainError
from volley_app.services.mail import newsletter
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, run_action
from volley_app.state.paging import PagedList

ERROR_ID = "newsletter-setup-error"
TEXT_MAX = 5000


class NewsletterSetupState(PagedList, FormState, AuthState):
    _fields = newsletter.ISSUE_FIELDS
    _error_id = ERROR_ID

    values: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    notice: rx.Field[str] = rx.field("")
    subscribers: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    subscriber_total: rx.Field[int] = rx.field(0)

    @rx.var
    def preview(self) -> str:
        return newsletter.preview(self.values)

    _listing = staticmethod(newsletter.subscribers_page)

    def _show(self, rows: list, failure: DomainError | None) -> None:
        if failure is not None:
            self.subscribers, self.subscriber_total, self.error = [], 0, failure.message
            return
        self.subscribers = [
            {"id": str(r["id"]), "email": r["email"], "referral": r["referral"], "since": local_time(r["created_at"])}
            for r in rows
        ]

    async def _load_subscribers(self) -> None:
        await self._refresh()
        total, _failure = await run_action(newsletter.subscriber_total, actor=await self._actor())
        self.subscriber_total = total or 0

    async def load(self):
        self._clear_messages()
        self.notice = ""
        found = await self._open_screen(newsletter.setup_screen, lambda screen: screen.subscribers)
        self.subscriber_total = found.total if found is not None else 0

    @rx.event
    def edit(self, name: str, value: str):
        """The composer's text as typed, so the preview follows it: only the issue's own fields are kept."""
        if not (isinstance(name, str) and name in newsletter.ISSUE_FIELDS and isinstance(value, str)):
            return
        self.values = {**self.values, name: value[:TEXT_MAX]}
        if name in self.errors:
            self.errors = {k: v for k, v in self.errors.items() if k != name}

    def _sent(self, _result):
        self.values = {}
        return rx.redirect(routes.DASH_PROFILE)

    @rx.event
    async def send(self, form_data: dict):
        self.values, self.notice = form_values(form_data, self._fields), ""
        ticked = form_values(form_data, ("confirmed",))["confirmed"].lower()
        shown = str(self.subscriber_total)
        confirmed = shown if ticked in ("true", "on", shown) else ""  # the number this page showed, checked again
        async for event in self._submit(newsletter.send_issue, done=self._sent, data=dict(self.values),
                                        confirmed=confirmed):  # fmt: skip
            yield event
        if self.error or self.errors:  # the number may have changed: show the one it goes to now
            total, _failure = await run_action(newsletter.subscriber_total, actor=await self._actor())
            self.subscriber_total = total or 0
            yield

    @rx.event
    async def delete_subscriber(self, subscriber_id: str):
        actor = await self._actor()
        _r, failure = await run_action(newsletter.delete_subscriber, actor=actor, subscriber_id=subscriber_id)
        if failure is not None:
            self.error = failure.message
            return
        self.notice = "Subscriber deleted."
        await self._load_subscribers()


def _section_fields(section: str) -> rx.Component:
    s = NewsletterSetupState
    label = newsletter.SECTION_LABELS[section]
    link, blurb = f"{section}_link", f"{section}_blurb"

    def typed(name: str):
        """The composer's ``name`` box as typed, sent on to the preview."""
        return lambda v: s.edit(name, v)  # type: ignore[operator]  # mypy reads rx.event as its namespace class

    return rx.card(
        column(
            rx.heading(label, size="3", as_="h2"),
            text_field(f"{label} Link", link, s, type="url", placeholder="https://", on_change=typed(link)),
            area_field(f"{label} Blurb", blurb, s, rows="3", required=True, max_length=2000, on_change=typed(blurb)),
            spacing="3",
        ),
        size="2",
        width="100%",
    )  # fmt: skip


def _subscriber_row(sub: ObjectVar[dict[str, str]]) -> rx.Component:
    # mypy reads Reflex's rx.event as its namespace class, so it sees no call in a handler
    deleted = NewsletterSetupState.delete_subscriber(sub["id"])  # type: ignore[operator]
    delete = rx.button("Delete", size="1", color_scheme="red", variant="soft", aria_label="Delete " + sub["email"],
                       on_click=deleted)
    return row(sub["email"], sub["referral"], rx.text(sub["since"], class_name="nowrap"), delete)


def _preview() -> rx.Component:
    s = NewsletterSetupState
    return rx.box(
        column(
            rx.heading("Preview", size="4", as_="h2"),
            rx.text(
                "To: ", rx.text.strong(s.subscriber_total), " subscribers · Subject: ", newsletter.SUBJECT,
                size="2", color_scheme="gray",
            ),
            rx.el.pre(
                s.preview,
                aria_label="Newsletter preview",
                style={
                    "white_space": "pre-wrap", "word_break": "break-word", "font_size": "0.85rem",
                    "background": "white", "border": f"1px solid {rx.color('gray', 6)}",
                    "border_radius": "var(--radius-3)", "padding": "1rem", "margin": "0", "width": "100%",
                },
            ),
            spacing="2",
        ),
        position={"initial": "static", "md": "sticky"},
        top="5rem",
    )  # fmt: skip


SUBSCRIBER_HEADERS = ["Email", "Referral", "Since", ""]


@screen(routes.NEWSLETTER_SETUP, "New Newsletter", NewsletterSetupState)
def newsletter_setup_page(s: type[NewsletterSetupState]) -> Body:
    return (
        rx.text(
            "Each section needs a blurb; links are optional. The preview shows the email exactly as each "
            "subscriber gets it (with their own unsubscribe link).",
            color_scheme="gray",
        ),
        error_line(s.error, ERROR_ID),
        notice(s.notice),
        rx.grid(
            rx.form(
                column(
                    *[_section_fields(section) for section in NEWSLETTER_SECTIONS],
                    checkbox_field("Send it to " + s.subscriber_total.to(str) + " subscribers", "confirmed",
                                   value=s.subscriber_total.to(str), required=True),
                    send_button(s, "Send Newsletter", "Queueing the newsletter…", width="100%"),
                    spacing="3",
                ),
                on_submit=s.send,
                width="100%",
                method="post",
            ),
            _preview(),
            columns={"initial": "1", "md": "2"},
            spacing="5",
            width="100%",
            align="start",
        ),
        rx.heading("Subscribers", size="5", as_="h2", padding_top="1rem"),
        search_form(s, "Search subscribers", placeholder="Email address or referral"),
        table_or_empty(SUBSCRIBER_HEADERS, s.subscribers, _subscriber_row, "No subscribers yet."),
        pager(s, "subscribers"),
    )
