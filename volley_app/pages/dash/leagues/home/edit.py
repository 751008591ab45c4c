"""The league home's Edit League card (its SVL and admins): the league form, Update and Delete."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import confirm_delete, submit_button
from volley_app.components.layout import button_row
from volley_app.components.league_form import league_fields, record_form
from volley_app.components.leagues import card_for

from .state import LeagueHomeState


def edit_card() -> rx.Component:
    s = LeagueHomeState
    question = "Are you sure you want to delete League: " + s.info["name"] + "?"
    return card_for(
        s.can_manage,
        "Edit League",
        record_form(
            s,
            s.save,
            *league_fields(s, s.form, show_cash=s.show_cash, show_active=True),
            button_row(submit_button("Update League", s, size="2", width="auto"),
                       confirm_delete("Delete League", question, s.delete), spacing="3"),
        ),
        max_width="40rem",
    )  # fmt: skip
