"""Inquiries (/dash/inquiries): every form the public sent, newest first (admin only)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.admin import local_time
from volley_app.components.forms import error_line
from volley_app.components.layout import column, dash_screen
from volley_app.registry import page
from volley_app.services import inquiries
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


class InquiriesState(AuthState):
    rows: list[dict[str, str]] = []
    error: str = ""

    async def load(self):
        found, failure = await run_action(inquiries.list_recent, actor=await self._actor())
        if failure is not None:
            self.rows, self.error = [], failure.message
            return
        self.error = ""
        self.rows = [
            {
                "kind": r["kind"],
                "when": local_time(r["created_at"]),
                "details": "\n".join(f"{k}: {v}" for k, v in r["details"].items()),
            }
            for r in found
        ]


def _inquiry(inquiry: rx.Var) -> rx.Component:
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
    return dash_screen("Inquiries", column(error_line(s.error), found, max_width="46rem"))
