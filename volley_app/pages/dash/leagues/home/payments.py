"""The league home's Payments card: the league's card payments, for its SVL and admins, a page at a time."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app.components.layout import card_for
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty

from .state import LeagueHomeState, LeaguePaymentsState


def _payment_row(p: ObjectVar[dict[str, str]]) -> rx.Component:
    status = rx.flex(rx.text(p["status"]), rx.cond(p["proposed"], rx.text("Refund proposed: " + p["proposed"].to(str),
                                                                          size="1", color_scheme="amber")),
                     direction="column")  # fmt: skip
    return row(rx.link(p["team_name"], href=p["href"]), p["user"], p["amount"], p["kept"], status, p["provider"],
               rx.text(p["time"], class_name="nowrap"))  # fmt: skip


def _totals() -> rx.Component:
    m = LeaguePaymentsState.money.to(dict[str, str])
    return rx.cond(m["line"], rx.text(m["line"], size="2"))


def payments_card() -> rx.Component:
    s = LeaguePaymentsState
    return card_for(
        LeagueHomeState.show_payments,
        "Payments",
        _totals(),
        search_form(s, "Search payments", placeholder="Team or player"),
        table_or_empty(["Team", "Player", "Amount", "Kept", "Status", "Provider", "Time"], s.payment_rows,
                       _payment_row, "No payments yet."),
        rx.text("Open a payment to refund it or give credit.", size="1", color_scheme="gray"),
        pager(s, "payments"),
    )  # fmt: skip
