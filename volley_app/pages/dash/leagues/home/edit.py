"""The league home's Edit League card (its SVL and admins): the league form, Update and Delete."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import confirm_delete, submit_button
from volley_app.components.league_form import league_fields

from .state import LeagueHomeState


def edit_card() -> rx.Component:
    s = LeagueHomeState
    return rx.cond(
        s.can_manage,
        rx.card(
            rx.vstack(
                rx.heading("Edit League", size="4", as_="h2"),
                rx.form(
                    rx.vstack(
                        *league_fields(s, s.form, show_cash=s.show_cash, show_active=True),
                        rx.flex(
                            submit_button("Update League", s, size="2", width="auto"),
                            confirm_delete(
                                "Delete League",
                                "Are you sure you want to delete League: " + s.info["name"] + "?",
                                s.delete,
                            ),
                            spacing="3",
                            wrap="wrap",
                        ),
                        spacing="4",
                        width="100%",
                    ),
                    on_submit=s.save,
                    key=s.form_key,
                    width="100%",
                ),
                width="100%",
            ),
            width="100%",
            max_width="40rem",
        ),
        rx.fragment(),
    )
