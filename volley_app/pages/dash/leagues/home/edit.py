"""The league home's Edit League card (its SVL and admins): the league form, Update and Delete."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import confirm_delete, record_form, submit_button
from volley_app.components.layout import button_row
from volley_app.components.league_form import league_fields
from volley_app.state.forms import flag

from .info import managers_card
from .state import LeagueHomeState


def edit_card() -> rx.Component:
    s = LeagueHomeState
    refunds = s.refund_plan != ""
    return managers_card(
        "Edit League",
        record_form(
            s,
            *league_fields(s, s.form.to(dict[str, str]), show_cash=flag(s.shows, "show_cash"), show_active=True),
            # One dialog whatever the refund plan says: read after it opened, it changes the dialog's buttons, never
            # closes it.
            button_row(
                submit_button("Update League", s, size="2", width="auto"),
                confirm_delete("Delete League", s.delete_question + s.refund_plan,
                               choices=(("Archive and refund", s.archive_and_refund, refunds),
                                        ("Archive, no refunds", s.delete, refunds), ("Delete", s.delete, ~refunds))),
                spacing="3",
            ),
        ),
        max_width="40rem",
    )  # fmt: skip
