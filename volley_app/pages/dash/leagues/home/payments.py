"""The league home's Payments card: the league's card payments, for its SVL and admins, a page at a time."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app.components.layout import card_for
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.teams import registration
from volley_app.state.auth import AuthState
from volley_app.state.forms import path_arg
from volley_app.state.paging import PagedList

from .state import LeagueHomeState


class LeaguePaymentsState(PagedList, AuthState):
    """The payments of the league the address names; none for those who do not manage it."""

    payment_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    _filter_names = registration.PAYMENT_FILTERS

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(registration.payments_page, bookmark, league_id=path_arg(self, "league_id"))

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.payment_rows = [{k: str(v) for k, v in p.items()} for p in rows]

    async def load(self):
        await self._open_list()


def _payment_row(p: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(p["team_name"], p["user"], p["amount"], p["status"], p["provider"], rx.text(p["time"], class_name="nowrap"))


def payments_card() -> rx.Component:
    s = LeaguePaymentsState
    return card_for(
        LeagueHomeState.show_payments,
        "Payments",
        search_form(s, "Search payments", placeholder="Team or player"),
        table_or_empty(["Team", "Player", "Amount", "Status", "Provider", "Time"], s.payment_rows, _payment_row,
                       "No payments yet."),
        pager(s, "payments"),
    )  # fmt: skip
