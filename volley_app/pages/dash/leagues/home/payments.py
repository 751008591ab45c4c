"""The league home's Payments card: the league's card payments, for its SVL and admins, a page at a time."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app.components.layout import card_for
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty

from .state import LeagueHomeState, LeaguePaymentsState


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
