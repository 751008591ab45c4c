"""Email All Users (/dash/emailAll): one email to every active user, and how each went, a page at a time (admin only)."""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.admin import local_time, notice, send_button
from volley_app.components.forms import area_field, checkbox_field, error_line, text_field
from volley_app.components.layout import column
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import Body, screen
from volley_app.services.core.errors import DomainError
from volley_app.services.mail import email_all
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, run_action
from volley_app.state.paging import PagedList

ERROR_ID = "email-all-error"
FORM_ID = "email-all-form"


class EmailAllState(PagedList, FormState, AuthState):
    _fields = ("subject", "body", "confirmed", "repeat")
    _error_id = ERROR_ID
    _filter_names = email_all.JOB_FILTERS

    notice: rx.Field[str] = rx.field("")
    jobs: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    audience: rx.Field[str] = rx.field("")
    # The send of the last hour a new one would repeat: its id (what the "Send it again" box confirms) and words.
    repeat_id: rx.Field[str] = rx.field("")
    repeat_question: rx.Field[str] = rx.field("")

    _listing = staticmethod(email_all.jobs_page)

    def _show(self, rows: list, failure: DomainError | None) -> None:
        if failure is not None:
            self.jobs, self.error = [], failure.message
            return
        self.jobs = [
            {
                "subject": j.subject,
                "when": local_time(j.created_at),
                "queued": str(j.queued),
                "sent": str(j.sent),
                "pending": str(j.pending),
                "failed": str(j.failed),
            }
            for j in rows
        ]

    def _show_audience(self, audience: int | None, recent: dict[str, str] | None) -> None:
        self.audience = "" if audience is None else str(audience)
        self.repeat_id = recent["id"] if recent else ""
        self.repeat_question = recent["question"] if recent else ""

    async def _load_audience(self) -> None:
        actor = await self._actor()
        found, _failure = await run_action(email_all.audience_count, actor=actor)
        recent, _failure = await run_action(email_all.recent_send, actor=actor)
        self._show_audience(found, recent)

    async def load(self):
        self._clear_messages()
        self.notice = ""
        found = await self._open_screen(email_all.screen, lambda screen: screen.jobs)
        if found is None:
            self._show_audience(None, None)
        else:
            self._show_audience(found.audience, found.recent)

    @rx.event
    async def refresh(self):
        await self._refresh()

    def _queued(self, status: email_all.JobStatus):
        self.notice = f"Queued {status.queued} message{'s' if status.queued != 1 else ''}, one to each active user."
        return rx.call_script(f"document.getElementById('{FORM_ID}')?.reset()")

    @rx.event
    async def send(self, form_data: dict):
        self.notice = ""
        typed = form_values(form_data, self._fields)
        repeat = typed.pop("repeat")
        data: dict[str, object] = {
            **typed,
            # The box confirms the number this page showed; the service refuses it when the count changed since.
            "confirmed": self.audience if typed["confirmed"].lower() in ("true", "on", self.audience.lower()) else "",
            # "Send it again" names the send the page showed; the service refuses a repeat of any other.
            "repeat_of": repeat or None,
        }
        async for event in self._submit(email_all.send, done=self._queued, submitted=data):
            yield event
        await self._load_audience()
        if self.notice:
            await self._first_page()
        yield


def _job_row(job: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(job["when"], job["subject"], job["queued"], job["sent"], job["pending"], job["failed"])


@screen(routes.EMAIL_ALL, "Email All Users", EmailAllState)
def email_all_page(s: type[EmailAllState]) -> Body:
    errors = cast(ObjectVar[dict[str, str]], s.errors)  # Reflex's Field stubs give mypy an ArrayVar for a dict field
    return (
        rx.text("One email to every active user. Each user gets it once.", color_scheme="gray"),
        error_line(s.error, ERROR_ID),
        notice(s.notice),
        rx.card(
            rx.form(
                column(
                    text_field("Subject", "subject", s, required=True, max_length=200),
                    area_field("Body", "body", s, rows="10", required=True, max_length=email_all.BODY_MAX),
                    checkbox_field("Send it to " + s.audience + " people: every active user", "confirmed",
                                   value=s.audience, required=True),
                    rx.cond(errors.contains("confirmed"),
                            rx.text(errors["confirmed"], color_scheme="red", size="2", id="confirmed-error")),
                    rx.cond(
                        s.repeat_id != "",
                        rx.box(
                            rx.text(s.repeat_question, size="2", weight="medium", id="repeat-question"),
                            checkbox_field("Send it again", "repeat", value=s.repeat_id, key=s.repeat_id),
                        ),
                    ),
                    rx.cond(errors.contains("repeat"),
                            rx.text(errors["repeat"], color_scheme="red", size="2", id="repeat-error")),
                    send_button(s, "Send to All Users", "Queueing…"),
                ),
                id=FORM_ID,
                on_submit=s.send,
                width="100%",
                method="post",
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
        search_form(s, "Search sent emails", placeholder="Words of the subject"),
        table_or_empty(["When", "Subject", "Queued", "Sent", "Pending", "Failed"], s.jobs, _job_row, "Nothing sent yet."),
        pager(s, "sent emails"),
    )
