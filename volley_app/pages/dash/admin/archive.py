"""Archive (/dash/archive): sessions, leagues and accounts kept instead of deleted, with Restore (admin only)."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, notice_line
from volley_app.components.layout import column, dash_screen, section_card
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services import archive
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

SECTIONS = (
    ("sessions", "Sessions", "Venue"),
    ("leagues", "Leagues", "Venue"),
    ("users", "Accounts", "Name"),
    ("requests", "Cancelled sub requests", "Requestor"),
)


class ArchiveState(AuthState):
    sessions: list[dict[str, str]] = []
    leagues: list[dict[str, str]] = []
    users: list[dict[str, str]] = []
    requests: list[dict[str, str]] = []
    error: str = ""
    notice: str = ""

    async def load(self):
        self.notice = ""
        await self._fetch()

    async def _fetch(self) -> None:
        found, failure = await run_action(archive.archived, actor=await self._actor())
        self.error = failure.message if failure else ""
        found = found or {key: [] for key, _t, _o in SECTIONS}
        for key, _title, _owner in SECTIONS:
            setattr(self, key, [{k: str(v) for k, v in r.items()} for r in found[key]])

    @rx.event
    async def restore(self, kind: str, record_id: str):
        self.notice = ""
        name, failure = await run_action(archive.restore, actor=await self._actor(), kind=kind, record_id=record_id)
        if failure is not None:
            self.error = failure.message
            return
        await self._fetch()
        self.notice = f"{name} restored."


def _row(r: rx.Var) -> rx.Component:
    restore = rx.cond(
        r["kind"] != "request",
        rx.button("Restore", size="1", variant="soft", on_click=ArchiveState.restore(r["kind"], r["id"]),
                  aria_label="Restore " + r["name"]),  # fmt: skip
        rx.text("Kept", color_scheme="gray", size="1"),
    )
    name = rx.cond(r["href"] != "", rx.link(r["name"], href=r["href"]), rx.text(r["name"]))
    return row(name, r["owner"], r["archived"], restore)


@page(routes.ARCHIVE, "Archive", on_load=ArchiveState.load)
def archive_page() -> rx.Component:
    s = ArchiveState
    return dash_screen(
        "Archive",
        column(
            rx.text("Kept instead of deleted because they hold teams, results, payments or other people's requests.",
                    color_scheme="gray"),  # fmt: skip
            error_line(s.error),
            notice_line(s.notice),
            *[
                section_card(title, table_or_empty(["Name", owner, "Archived", ""], getattr(s, key), _row, "None."))
                for key, title, owner in SECTIONS
            ],
        ),
    )
