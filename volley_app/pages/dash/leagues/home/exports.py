"""The league home's Exports card: CSV files of the teams, payments, standings, schedule and rosters, and the
rosters' page (its SVL and admins)."""

from __future__ import annotations

import reflex as rx

from volley_app.components.layout import card_for, file_link

from .state import LeagueHomeState

# Names that no other link of the page contains (its Schedule, Standings and Teams links keep theirs).
LABELS = (("teams", "Captain list"), ("payments", "Payment list"), ("standings", "Record table"), ("schedule", "Game list"),
          ("rosters", "Roster list"))


def exports_card() -> rx.Component:
    s = LeagueHomeState
    links = s.export_links.to(dict[str, str])
    return card_for(
        s.export_links.length() > 0,
        "Exports",
        rx.text("Spreadsheet files (CSV, UTF-8) named after the league and today's date.", size="2"),
        rx.flex(
            *[file_link(label, " (CSV)", href=links[kind], size="2")
              for kind, label in LABELS],
            spacing="4", wrap="wrap",
        ),  # fmt: skip
        rx.link("Every team's roster", href=s.links.to(dict[str, str])["rosters"], size="2"),
    )
