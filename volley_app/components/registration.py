"""What the registration screens share: the way back to the league, and their texts by name."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.layout import link_button


def league_href(league_id: object) -> str:
    """The league's home when the address named one, else the leagues list."""
    text = str(league_id or "").strip()
    return routes.league_path(text) if text.isdigit() else routes.DASH_LEAGUES


def return_to_league(href: rx.Var[str] | str, **props: object) -> rx.Component:
    return link_button("Return to League", href=href, **props)


def texts(field: rx.Var) -> ObjectVar[dict[str, str]]:
    """A state's texts by name (a ``dict[str, str]`` field), each read as ``texts(field)["name"]``."""
    return field.to(ObjectVar, dict[str, str])
