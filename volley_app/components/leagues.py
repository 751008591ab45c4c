"""League pieces several screens share: money as shown, a league's summary row, the back-to-league link."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.layout import link_button
from volley_app.services import timefmt


def money(cents: int) -> str:
    """'$300' or '$299.50'."""
    return f"${cents / 100:,.2f}".replace(".00", "")


def summary_row(lg: dict) -> dict[str, str]:
    """A league of a list (``leagues.summary``) as the browser gets it: strings only, with its link."""
    return {
        "id": str(lg["id"]),
        "name": lg["name"],
        "svl_name": lg["svl_name"],
        "session_name": lg["session_name"],
        "court": lg["court"],
        "start": timefmt.date_time(lg["start_at"]),
        "stage": lg["stage"],
        "cost": money(lg["cost_cents"]) + (" (cash)" if lg["cash"] else ""),
        "href": routes.league_path(lg["id"]),
    }


def where(place: dict) -> str:
    """'12 Main St, Louisville, KY' from an address, city and region (blank parts left out)."""
    return ", ".join(x for x in (place["address"], place["city"], place["region"]) if x)


def back_to_league(href: rx.Var) -> rx.Component:
    """The 'Back to League' button, shown once the league is known (``href`` not empty)."""
    return rx.cond(href != "", link_button("Back to League", href=href, variant="soft"), rx.fragment())
