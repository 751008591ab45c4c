"""Cash on the team's page, for the league's operator: the amount taken in person and a note, into the ledger."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import form_messages, stacked_form, submit_button, text_field
from volley_app.components.layout import column
from volley_app.state.teams import CASH_ERROR_ID, CashState


def cash_section() -> rx.Component:
    s = CashState
    return column(
        rx.heading("Record cash", size="4", as_="h2"),
        rx.text("Money the team paid you in person: it counts in the league's payments totals.", size="2"),
        form_messages(s, CASH_ERROR_ID),
        stacked_form(
            rx.el.input(type="hidden", name="key", value=s.key),
            text_field("Amount ($)", "amount", s, inputmode="decimal", max_length=12, required=True,
                       auto_complete="off"),
            text_field("Note", "note", s, max_length=200, hint="Blank: “Cash at the venue”."),
            submit_button("Record cash", s, size="2", width="auto"),
            on_submit=s.record,
            key=s.form_key.to_string(),
            spacing="3",
        ),
        spacing="3",
    )
