"""Audit Log (/dash/auditLog): every operator and admin change, newest first, by league or user (admin only)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line, text_field
from volley_app.components.layout import button_row, column
from volley_app.components.tables import card
from volley_app.registry import Body, screen
from volley_app.services.core import audit
from volley_app.state.auth import AuthState
from volley_app.state.forms import form_values, path_arg, run_action


class AuditLogState(AuthState):
    entries: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    next_before: rx.Field[int] = rx.field(0)
    league: rx.Field[str] = rx.field("")
    user: rx.Field[str] = rx.field("")
    error: rx.Field[str] = rx.field("")

    async def load(self):
        self.league, self.user = path_arg(self, "league"), path_arg(self, "user")
        await self._page(None)

    async def _page(self, before_id: int | None) -> None:
        found = await run_action(
            audit.entries, actor=await self._actor(), league_id=self.league, user=self.user, before_id=before_id
        )
        if found.failure is not None:
            self.entries, self.next_before, self.error = [], 0, found.failure.message
            return
        self.error = ""
        self.entries = [{k: str(v) for k, v in e.items()} for e in found.value["entries"]]
        self.next_before = found.value["next_before"]

    @rx.event
    def search(self, form_data: dict):
        data = form_values(form_data, ("league", "user"))
        return rx.redirect(routes.audit_log_path(data["league"].strip(), data["user"].strip().lower()))

    @rx.event
    async def older(self):
        if self.next_before:
            await self._page(self.next_before)

    @rx.event
    async def newest(self):
        await self._page(None)


def _entry(e: ObjectVar[dict[str, str]]) -> rx.Component:
    """One change as a card: readable at any width, the before and after under the summary."""
    return card(
        rx.flex(
            rx.badge(e["action"]),
            rx.text(e["at"], size="2", color_scheme="gray"),
            rx.text("by ", rx.text.strong(e["actor"]), size="2"),
            spacing="3",
            wrap="wrap",
            align="center",
        ),
        rx.text(e["summary"], overflow_wrap="anywhere"),
        rx.cond(e["before"] != "", rx.text("Before: ", e["before"], size="1", color_scheme="gray")),
        rx.cond(e["after"] != "", rx.text("After: ", e["after"], size="1", color_scheme="gray")),
        test_id="audit-entry",
    )


def _filters() -> rx.Component:
    s = AuditLogState
    return rx.form(
        rx.flex(
            text_field("League id", "league", default_value=s.league, input_mode="numeric", size="2"),
            text_field("Username", "user", default_value=s.user, size="2", auto_capitalize="none"),
            rx.button("Filter", type="submit"),
            rx.link("Clear", href=routes.AUDIT_LOG),
            spacing="3",
            align="end",
            wrap="wrap",
        ),
        on_submit=s.search,
        key=s.league + "|" + s.user,
        method="post",
    )


@screen(routes.AUDIT_LOG, "Audit Log", AuditLogState)
def audit_log_page(s: type[AuditLogState]) -> Body:
    return (
        column(
            _filters(),
            error_line(s.error),
            rx.cond(
                s.entries.length() > 0,
                column(rx.foreach(s.entries, _entry), spacing="2"),
                rx.text("No changes recorded.", color_scheme="gray"),
            ),
            button_row(
                rx.cond(s.next_before > 0, rx.button("Older entries", on_click=s.older, variant="soft")),
                rx.button("Newest entries", on_click=s.newest, variant="soft"),
            ),
        ),
    )


