"""Admin screens: the newsletter composer (/dash/newsletterSetup), email all users (/dash/emailAll), inquiries."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import busy, error_line, field, focus
from volley_app.components.layout import dash_page
from volley_app.models import NEWSLETTER_SECTIONS
from volley_app.registry import page
from volley_app.services import email_all, inquiries, newsletter, timefmt
from volley_app.services.errors import Invalid
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

NEWSLETTER_ERROR = "newsletter-setup-error"
EMAIL_ALL_ERROR = "email-all-error"


def _when(value) -> str:
    """A stored UTC time in the venue's zone, e.g. 'Nov 21, 2026 9:40 AM'."""
    return timefmt.local(value).strftime("%b %-d, %Y %-I:%M %p")


# -- newsletter composer -----------------------------------------------------------------------


class NewsletterSetupState(AuthState):
    values: dict[str, str] = {}
    errors: dict[str, str] = {}
    error: str = ""
    notice: str = ""
    loading: bool = False
    subscribers: list[dict[str, str]] = []

    @rx.var
    def preview(self) -> str:
        return newsletter.preview(self.values)

    async def _load_subscribers(self) -> None:
        actor = await self._actor()
        found, failure = await run_action(
            lambda s: [
                {"id": str(r.id), "email": r.email, "referral": r.referral or "", "since": _when(r.created_at)}
                for r in newsletter.list_subscribers(s, actor)
            ]
        )
        if failure is not None:
            self.subscribers, self.error = [], failure.message
            return
        self.subscribers = found

    async def load(self):
        self.errors, self.error, self.notice, self.loading = {}, "", "", False
        await self._load_subscribers()

    def edit(self, name: str, value: str):
        """Keep the composer's text so the preview follows it."""
        if isinstance(name, str) and name in newsletter.ISSUE_FIELDS and isinstance(value, str):
            self.values = {**self.values, name: value[:5000]}

    async def send(self, form_data: dict | None = None):
        if self.loading:
            return
        data = form_data if isinstance(form_data, dict) else {}
        values = {name: str(data.get(name) or "") for name in newsletter.ISSUE_FIELDS}
        self.values, self.errors, self.error, self.notice, self.loading = values, {}, "", "", True
        yield
        actor = await self._actor()
        _r, failure = await run_action(newsletter.send_issue, actor=actor, data=values)
        self.loading = False
        if failure is not None:
            if isinstance(failure, Invalid):
                self.errors = {k: v for k, v in failure.errors.items() if k in newsletter.ISSUE_FIELDS}
            self.error = "Please fill in every blurb and correct the fields marked below." if self.errors else failure.message
            yield
            yield focus(NEWSLETTER_ERROR)
            return
        self.values = {}
        yield rx.redirect(routes.DASH_PROFILE)

    async def delete_subscriber(self, subscriber_id: str):
        actor = await self._actor()
        _r, failure = await run_action(newsletter.delete_subscriber, actor=actor, subscriber_id=subscriber_id)
        if failure is not None:
            self.error = failure.message
            return
        self.notice = "Subscriber deleted."
        await self._load_subscribers()


def _section_fields(section: str) -> rx.Component:
    label = newsletter.SECTION_LABELS[section]
    link, blurb = f"{section}_link", f"{section}_blurb"
    e = NewsletterSetupState.errors
    return rx.card(
        rx.vstack(
            rx.heading(label, size="3", as_="h3"),
            field(
                f"{label} Link",
                rx.input(
                    id=link, name=link, type="url", size="3", width="100%", placeholder="https://",
                    on_change=lambda v: NewsletterSetupState.edit(link, v),
                ),
                field_id=link,
                error=e.get(link, ""),
            ),
            field(
                f"{label} Blurb",
                rx.text_area(
                    id=blurb, name=blurb, size="3", width="100%", rows="3", required=True, max_length=2000,
                    on_change=lambda v: NewsletterSetupState.edit(blurb, v),
                ),
                field_id=blurb,
                error=e.get(blurb, ""),
            ),
            spacing="3",
            width="100%",
        ),
        size="2",
        width="100%",
    )  # fmt: skip


def _subscriber_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["email"]),
        rx.table.cell(row["referral"]),
        rx.table.cell(row["since"]),
        rx.table.cell(
            rx.button(
                "Delete",
                size="1",
                color_scheme="red",
                variant="soft",
                aria_label="Delete " + row["email"],
                on_click=NewsletterSetupState.delete_subscriber(row["id"]),
            )
        ),
    )


@page(routes.NEWSLETTER_SETUP, "New Newsletter", on_load=NewsletterSetupState.load)
def newsletter_setup_page() -> rx.Component:
    s = NewsletterSetupState
    return dash_page(
        rx.vstack(
            rx.heading("New Newsletter", size="7", as_="h1"),
            rx.text(
                "Each section needs a blurb; links are optional. The preview shows the email exactly as each "
                "subscriber gets it (with their own unsubscribe link).",
                color_scheme="gray",
            ),
            error_line(s.error, NEWSLETTER_ERROR),
            rx.cond(s.notice != "", rx.callout(s.notice, icon="check", color_scheme="green", size="1"), rx.fragment()),
            rx.grid(
                rx.form(
                    rx.vstack(
                        *[_section_fields(section) for section in NEWSLETTER_SECTIONS],
                        rx.cond(
                            s.loading,
                            busy("Queueing the newsletter…"),
                            rx.button("Send Newsletter", type="submit", size="3", width="100%"),
                        ),
                        spacing="3",
                        width="100%",
                    ),
                    on_submit=s.send,
                    width="100%",
                ),
                rx.box(
                    rx.vstack(
                        rx.heading("Preview", size="4", as_="h2"),
                        rx.text(
                            "To: ", rx.text.strong(s.subscribers.length()), " subscribers · Subject: ", newsletter.SUBJECT,
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
                        width="100%",
                    ),
                    position={"initial": "static", "md": "sticky"},
                    top="5rem",
                ),
                columns={"initial": "1", "md": "2"},
                spacing="5",
                width="100%",
                align="start",
            ),
            rx.heading("Subscribers", size="5", as_="h2", padding_top="1rem"),
            rx.cond(
                s.subscribers.length() > 0,
                rx.box(
                    rx.table.root(
                        rx.table.header(
                            rx.table.row(
                                rx.table.column_header_cell("Email"),
                                rx.table.column_header_cell("Referral"),
                                rx.table.column_header_cell("Since"),
                                rx.table.column_header_cell(rx.text("Delete", class_name="sr-only")),
                            )
                        ),
                        rx.table.body(rx.foreach(s.subscribers, _subscriber_row)),
                        width="100%",
                    ),
                    overflow_x="auto",
                    width="100%",
                ),
                rx.text("No subscribers yet.", color_scheme="gray"),
            ),
            spacing="4",
            width="100%",
        )
    )  # fmt: skip


# -- email all users ---------------------------------------------------------------------------


class EmailAllState(AuthState):
    errors: dict[str, str] = {}
    error: str = ""
    notice: str = ""
    loading: bool = False
    jobs: list[dict[str, str]] = []

    async def _load_jobs(self) -> None:
        actor = await self._actor()
        found, failure = await run_action(email_all.recent_jobs, actor=actor)
        if failure is not None:
            self.jobs, self.error = [], failure.message
            return
        self.jobs = [
            {
                "subject": j.subject,
                "when": _when(j.created_at),
                "queued": str(j.queued),
                "sent": str(j.sent),
                "pending": str(j.pending),
                "failed": str(j.failed),
            }
            for j in found
        ]

    async def load(self):
        self.errors, self.error, self.notice, self.loading = {}, "", "", False
        await self._load_jobs()

    async def refresh(self):
        await self._load_jobs()

    async def send(self, form_data: dict | None = None):
        if self.loading:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.errors, self.error, self.notice, self.loading = {}, "", "", True
        yield
        actor = await self._actor()
        status, failure = await run_action(
            email_all.send, actor=actor, subject=str(data.get("subject") or ""), body=str(data.get("body") or "")
        )
        self.loading = False
        if failure is not None:
            if isinstance(failure, Invalid):
                self.errors = {k: v for k, v in failure.errors.items() if k in ("subject", "body")}
            self.error = "" if self.errors else failure.message
            yield
            yield focus(EMAIL_ALL_ERROR)
            return
        self.notice = f"Queued {status.queued} message{'s' if status.queued != 1 else ''}, one to each active user."
        await self._load_jobs()
        yield rx.call_script(f"document.getElementById('{EMAIL_ALL_FORM}')?.reset()")


EMAIL_ALL_FORM = "email-all-form"


def _job_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["when"]),
        rx.table.cell(row["subject"]),
        rx.table.cell(row["queued"]),
        rx.table.cell(row["sent"]),
        rx.table.cell(row["pending"]),
        rx.table.cell(row["failed"]),
    )


@page(routes.EMAIL_ALL, "Email All Users", on_load=EmailAllState.load)
def email_all_page() -> rx.Component:
    s = EmailAllState
    return dash_page(
        rx.vstack(
            rx.heading("Email All Users", size="7", as_="h1"),
            rx.text("One email to every active user. Each user gets it once.", color_scheme="gray"),
            error_line(s.error, EMAIL_ALL_ERROR),
            rx.cond(s.notice != "", rx.callout(s.notice, icon="check", color_scheme="green", role="status"), rx.fragment()),
            rx.card(
                rx.form(
                    rx.vstack(
                        field(
                            "Subject",
                            rx.input(id="subject", name="subject", size="3", width="100%", required=True, max_length=200),
                            field_id="subject",
                            error=s.errors.get("subject", ""),
                        ),
                        field(
                            "Body",
                            rx.text_area(id="body", name="body", size="3", width="100%", rows="10", required=True),
                            field_id="body",
                            error=s.errors.get("body", ""),
                        ),
                        rx.cond(s.loading, busy("Queueing…"), rx.button("Send to All Users", type="submit", size="3")),
                        spacing="4",
                        width="100%",
                    ),
                    id=EMAIL_ALL_FORM,
                    on_submit=s.send,
                    width="100%",
                ),
                size="3",
                width="100%",
                max_width="46rem",
            ),
            rx.hstack(
                rx.heading("Sent Emails", size="5", as_="h2"),
                rx.button(rx.icon("refresh_cw", size=14), "Refresh", size="1", variant="soft", on_click=s.refresh),
                align="center",
                spacing="3",
                padding_top="1rem",
            ),
            rx.cond(
                s.jobs.length() > 0,
                rx.box(
                    rx.table.root(
                        rx.table.header(
                            rx.table.row(
                                *[rx.table.column_header_cell(h) for h in ("When", "Subject", "Queued", "Sent", "Pending", "Failed")]
                            )
                        ),
                        rx.table.body(rx.foreach(s.jobs, _job_row)),
                        width="100%",
                    ),
                    overflow_x="auto",
                    width="100%",
                ),
                rx.text("Nothing sent yet.", color_scheme="gray"),
            ),
            spacing="4",
            width="100%",
        )
    )


# -- inquiries ---------------------------------------------------------------------------------


class InquiriesState(AuthState):
    rows: list[dict[str, str]] = []
    error: str = ""

    async def load(self):
        actor = await self._actor()
        found, failure = await run_action(inquiries.list_recent, actor=actor)
        if failure is not None:
            self.rows, self.error = [], failure.message
            return
        self.error = ""
        self.rows = [
            {
                "kind": r["kind"],
                "when": _when(r["created_at"]),
                "details": "\n".join(f"{k}: {v}" for k, v in r["details"].items()),
            }
            for r in found
        ]


def _inquiry(row: rx.Var) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(rx.badge(row["kind"]), rx.text(row["when"], size="2", color_scheme="gray"), spacing="3"),
            rx.text(row["details"], white_space="pre-wrap", size="2"),
            spacing="2",
        ),
        width="100%",
    )


@page(routes.INQUIRIES, "Inquiries", on_load=InquiriesState.load)
def inquiries_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            rx.heading("Inquiries", size="7", as_="h1"),
            rx.cond(InquiriesState.error != "", rx.text(InquiriesState.error, color_scheme="red"), rx.fragment()),
            rx.cond(
                InquiriesState.rows.length() > 0,
                rx.vstack(rx.foreach(InquiriesState.rows, _inquiry), spacing="3", width="100%"),
                rx.text("No inquiries yet.", color_scheme="gray"),
            ),
            spacing="4",
            width="100%",
            max_width="46rem",
        )
    )
