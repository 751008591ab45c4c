"""Inquiries (/dash/inquiries): every form the public sent, newest first (admin only)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.admin import local_time
from volley_app.components.forms import error_line
from volley_app.components.layout import column, dash_screen
from volley_app.components.paging import filter_select, pager, search_form
from volley_app.registry import page
from volley_app.services.core.errors import DomainError
from volley_app.services.mail import inquiries
from volley_app.state.auth import AuthState
from volley_app.state.paging import PagedList


class InquiriesState(PagedList, AuthState):
    rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    error: rx.Field[str] = rx.field("")
    _filter_names = inquiries.INQUIRY_FILTERS

    _listing = staticmethod(inquiries.inquiries_page)

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.error = failure.message if failure else ""
        self.rows = [
            {
                "kind": r["kind"],
                "when": local_time(r["created_at"]),
                "details": "\n".join(f"{k}: {v}" for k, v in r["details"].items()),
            }
            for r in rows
        ]

    async def load(self):
        await self._open_list()


def _inquiry(inquiry: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.hstack(rx.badge(inquiry["kind"]), rx.text(inquiry["when"], size="2", color_scheme="gray"), spacing="3"),
            rx.text(inquiry["details"], white_space="pre-wrap", size="2"),
            spacing="2",
        ),
        width="100%",
    )


@page(routes.INQUIRIES, "Inquiries", on_load=InquiriesState.load)
def inquiries_page() -> rx.Component:
    s = InquiriesState
    found = rx.cond(s.rows.length() > 0, column(rx.foreach(s.rows, _inquiry), spacing="3"),
                    rx.text("No inquiries yet.", color_scheme="gray"))  # fmt: skip
    kinds = [(spec.kind, spec.title) for spec in inquiries.FORMS.values()]
    search = search_form(s, "Search inquiries", filter_select("Form", "kind", kinds, s), placeholder="Email address")
    return dash_screen("Inquiries", column(search, error_line(s.error), found, pager(s, "inquiries"), max_width="46rem"))
