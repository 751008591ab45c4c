"""The league home's Payments card: the league's card payments, for its SVL and admins."""

from __future__ import annotations

import reflex as rx

from volley_app.components.tables import table_or_empty

from .state import LeagueHomeState


def _payment_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["team_name"]),
        rx.table.cell(row["user"]),
        rx.table.cell(row["amount"]),
        rx.table.cell(row["status"]),
        rx.table.cell(row["provider"]),
        rx.table.cell(row["time"]),
    )


def payments_card() -> rx.Component:
    s = LeagueHomeState
    return rx.cond(
        s.can_manage,
        rx.card(
            rx.vstack(
                rx.heading("Payments", size="4", as_="h2"),
                table_or_empty(
                    ["Team", "Player", "Amount", "Status", "Provider", "Time"],
                    s.payment_rows,
                    _payment_row,
                    "No payments yet.",
                ),
                width="100%",
            ),
            width="100%",
        ),
        rx.fragment(),
    )
