"""League pieces several screens share: money as shown, a league list's search, a league's summary row and header,
the links back, Edit links, the frame of the operators' form screens."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import reflex as rx

from volley_app import routes
from volley_app.components.forms import error_line, form_card
from volley_app.components.layout import dash_page, dash_screen, link_button
from volley_app.components.league_form import DAYS, FORMATS, SKILLS
from volley_app.components.paging import filter_select, search_form
from volley_app.services.core import timefmt
from volley_app.services.seasons.leagues import LeagueSummary


def money(cents: int) -> str:
    """'$300' or '$299.50'."""
    return f"${cents / 100:,.2f}".replace(".00", "")


def league_search(state, label: str, placeholder: str) -> rx.Component:
    """A league list's search form (``state`` a ``PagedList``): its search box, its day, format and skill level."""
    return search_form(
        state,
        label,
        filter_select("Day", "day", DAYS, state),
        filter_select("Format", "format", FORMATS, state),
        filter_select("Skill", "skill", SKILLS, state),
        placeholder=placeholder,
    )


def summary_row(lg: LeagueSummary) -> dict[str, str]:
    """A league of a list (``leagues.summary``) as the browser gets it: strings only, with its link."""
    return {
        "name": lg["name"], "svl_name": lg["svl_name"], "session_name": lg["session_name"], "court": lg["court"],
        "stage": lg["stage"],
        "id": str(lg["id"]),
        "start": timefmt.date_time(lg["start_at"], lg["zone"], labelled=True),
        "cost": money(lg["cost_cents"]) + (" (cash)" if lg["cash"] else ""),
        "href": routes.league_path(lg["id"]),
    }


def where(place: Mapping[str, object]) -> str:
    """'12 Main St, Louisville, KY' from an address, city and region (blank parts left out)."""
    return ", ".join(str(place[k]) for k in ("address", "city", "region") if place[k])


def back_to_league(href: rx.Var[str]) -> rx.Component:
    """The 'Back to League' button, shown once the league is known (``href`` not empty)."""
    return rx.cond(href != "", link_button("Back to League", href=href, variant="soft"))


def league_screen(title: str, state, *children: rx.Component) -> rx.Component:
    """A screen about one league ('Schedule: Monday C Sixes'): its message, the way back to it, then ``children``.

    ``state`` has the ``league_name``, ``back`` and ``error`` vars.
    """
    return dash_screen(f"{title}: {state.league_name}", error_line(state.error), back_to_league(state.back), *children)


def league_header(league: Mapping[str, Any] | None) -> tuple[str, str, bool]:
    """The league a schedule or standings shows: its name, the link back to it, whether this user manages it."""
    if league is None:
        return "", "", False
    return league["name"], routes.league_path(league["id"]), league["can_manage"]


def back_to_leagues() -> rx.Component:
    """The 'Back to Leagues' button of a screen the user may not use."""
    return link_button("Back to Leagues", href=routes.DASH_LEAGUES, variant="soft")


def edit_link(href: rx.Var[str]) -> rx.Component:
    """A row's small Edit button, shown to those who may edit (``href`` not empty)."""
    return rx.cond(href != "", link_button("Edit", href=href, size="1", variant="soft"))


def operator_form_screen(title: str, state, error_id: str, form: rx.Component) -> rx.Component:
    """A form screen for a league's SVL and admins: its message, then the form, or the way back when refused."""
    return dash_page(form_card(title, error_line(state.error, error_id), rx.cond(state.denied, back_to_leagues(), form)))
