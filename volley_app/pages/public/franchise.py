"""Franchise: how a city joins, and the franchise inquiry form."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.inquiries import inquiry_form
from volley_app.components.layout import column, public_page
from volley_app.components.prose import bullets, hero, section, steps
from volley_app.registry import page
from volley_app.state.inquiries import InquiryFormState, inquiry


class FranchiseState(InquiryFormState, rx.State):
    _kind, _fields, _error_id = inquiry("franchise")


@page(routes.FRANCHISE, "Franchise", on_load=FranchiseState.clear)
def franchise_page() -> rx.Component:
    return public_page(
        rx.grid(
            rx.vstack(
                hero(
                    "Franchise",
                    "Bring our leagues and sub network to your city. You know the local players and the courts; "
                    "we bring a format that already works in Lexington and the software that runs it.",
                ),
                section(
                    "What you get",
                    bullets(
                                "The complete league platform: player accounts, the sub network, team registration "
                                "with card payments and waitlists, schedules, scores and standings.",
                                "Accounts for each of your venues, so operators run their own nights.",
                                "Our season format, rules and tournament structure, tested over many seasons.",
                                "A newsletter and launch plan to fill your first leagues.",
                    ),
                ),
                section(
                    "How it works",
                    steps(
                        ("Tell us about your city.", "Send the form and we reply within 1-2 days to set up a call."),
                        ("Line up venues.", "We help you pick courts and nights and agree terms with each venue."),
                        ("Launch a season.", "We open registration, announce it to local players and help you run week one."),
                        ("Grow.", "Add formats, skill levels and venues as your player base grows."),
                    ),
                ),
                spacing="5",
                width="100%",
            ),
            rx.card(
                column(
                    rx.heading("Start the conversation", size="5", as_="h2"),
                    inquiry_form(FranchiseState, "franchise", pair=("city", "region")),
                ),
                size="3",
                width="100%",
            ),
            columns={"initial": "1", "md": "2"},
            spacing="6",
            width="100%",
            align="start",
        )
    )
