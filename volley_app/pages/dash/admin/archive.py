"""Archive (/dash/archive): sessions, leagues and accounts kept instead of deleted, with Restore (admin only).

Newest first, a page at a time, by kind and by name.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import form_messages
from volley_app.components.layout import column
from volley_app.components.paging import filter_select, pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import Body, screen
from volley_app.services.operations import archive
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action
from volley_app.state.paging import TableList

HEADERS = ["Name", "Kind", "Venue or person", "Archived", ""]


class ArchiveState(TableList, AuthState):
    archived_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    notice: rx.Field[str] = rx.field("")
    _filter_names = archive.ARCHIVE_FILTERS

    _listing = staticmethod(archive.archived_page)

    def _show_rows(self, rows: list) -> None:
        self.archived_rows = [{k: str(v) for k, v in r.items()} for r in rows]

    async def load(self):
        self.notice = ""
        await self._open_list()

    @rx.event
    async def restore(self, kind: str, record_id: str):
        self.notice = ""
        name, failure = await run_action(archive.restore, actor=await self._actor(), kind=kind, record_id=record_id)
        if failure is not None:
            self.error = failure.message
            return
        await self._refresh()
        self.notice = f"{name} restored."


def _row(r: ObjectVar[dict[str, str]]) -> rx.Component:
    # mypy reads Reflex's rx.event as its namespace class, so it sees no call in a handler
    restored = ArchiveState.restore(r["kind"], r["id"])  # type: ignore[operator]
    restore = rx.cond(
        r["kind"] != "request",
        rx.button("Restore", size="1", variant="soft", on_click=restored, aria_label="Restore " + r["name"]),
        rx.text("Kept", color_scheme="gray", size="1"),
    )
    name = rx.cond(r["href"] != "", rx.link(r["name"], href=r["href"]), rx.text(r["name"]))
    return row(name, r["what"], r["owner"], r["archived"], restore)


@screen(routes.ARCHIVE, "Archive", ArchiveState)
def archive_page(s: type[ArchiveState]) -> Body:
    return (
        column(
            rx.text("Kept instead of deleted because they hold teams, results, payments or other people's requests.",
                    color_scheme="gray"),  # fmt: skip
            search_form(
                s,
                "Search the archive",
                filter_select("Kind", "kind", list(archive.KIND_LABELS.items()), s, any_label="Every kind"),
                placeholder="Name, venue, court or requestor",
            ),
            form_messages(s),
            table_or_empty(HEADERS, s.archived_rows, _row, "Nothing archived.", s.loaded & (s.error == "")),
            pager(s, "archived records"),
        ),
    )
