"""All Users (/dash/users): every account, with a link to edit it (admin only)."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.layout import dash_screen, link_button
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import page
from volley_app.services.accounts import accounts
from volley_app.services.core.errors import DomainError
from volley_app.state.auth import AuthState
from volley_app.state.paging import PagedList

LOAD_FAILED = "Issue accessing player info. Please log out and log back in."


class UsersListState(PagedList, AuthState):
    user_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    users_error: rx.Field[str] = rx.field("")
    can_create_svl: rx.Field[bool] = rx.field(False)
    empty_text: rx.Field[str] = rx.field("")

    _listing = staticmethod(accounts.list_users)

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.users_error = LOAD_FAILED if failure else ""
        words = self.filters.get("q", "").strip()
        self.empty_text = f"No users match “{words}”." if words else "No users yet."
        self.user_rows = [
            {"id": str(r["id"]), "username": r["username"], "roles": r["roles"], "href": routes.user_path(r["id"])}
            for r in rows
        ]

    async def load(self):
        self.can_create_svl = accounts.can_create_svl(await self._actor())
        await self._open_list()


def _user_row(user: ObjectVar[dict[str, str]]) -> rx.Component:
    edit = link_button("Edit", href=user["href"], size="1", variant="soft", aria_label="Edit " + user["username"])
    return row(user["username"], user["roles"], edit)


@page(routes.USERS, "All Users", on_load=UsersListState.load)
def users_page() -> rx.Component:
    s = UsersListState
    return dash_screen(
        "All Users",
        search_form(s, "Search users", placeholder="Username, name or email"),
        rx.cond(
            s.users_error != "",
            rx.callout(s.users_error, icon="triangle_alert", color_scheme="red", role="alert"),
            table_or_empty(["Username", "Roles", "Edit"], s.user_rows, _user_row, s.empty_text),
        ),
        pager(s, "users"),
        actions=(rx.cond(s.can_create_svl, link_button("Create New SVL", href=routes.USERS_NEW, size="2")),),
    )
