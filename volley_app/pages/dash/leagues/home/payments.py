"""The league home's Payments card: the league's card payments, for its SVL and admins."""

from __future__ import annotations

import reflex as rx

from volley_app.components.leagues import card_for
from volley_app.components.tables import row, table_or_empty

from .state import LeagueHomeState


def _payment_row(p: rx.Var) -> rx.Component:
    return row(p["team_name"], p["user"], p["amount"], p["status"], p["provider"], rx.text(p["time"], class_name="nowrap"))


def payments_card() -> rx.Component:
    s = LeagueHomeState
    return card_for(
        s.show_payments,
        "Payments",
        table_or_empty(["Team", "Player", "Amount", "Status", "Provider", "Time"], s.payment_rows, _payment_row,
                       "No payments yet."),
    )  # fmt: skip
