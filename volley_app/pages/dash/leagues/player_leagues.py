"""The players' leagues page (/dash/playerleagues): open for registration, current, and the partner venues."""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.leagues import summary_row, where
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import Body, screen
from volley_app.services.core.errors import Forbidden
from volley_app.services.seasons import leagues as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


class PlayerLeaguesState(AuthState):
    registration: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    current: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    venues: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    error: rx.Field[str] = rx.field("")

    async def load(self):
        found, failure = await run_action(svc.player_leagues, actor=await self._actor())
        if isinstance(failure, Forbidden):  # operators have their own leagues list
            return rx.redirect(routes.DASH_PROFILE)
        if found is None:
            self.registration, self.current, self.venues = [], [], []
            self.error = failure.message if failure else ""
            return None
        self.error = ""
        self.registration = [summary_row(lg) for lg in found["registration"]]
        self.current = [summary_row(lg) for lg in found["current"]]
        self.venues = [{"name": v["name"], "where": where(v)} for v in found["venues"]]
        return None


def _player_row(lg: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(rx.link(lg["name"], href=lg["href"], weight="medium"), lg["svl_name"], lg["start"], lg["cost"])


def _player_table(title: str, rows_var: ArrayVar[Sequence[object]], empty: str) -> rx.Component:
    return rx.vstack(
        rx.heading(title, size="5", as_="h2"),
        table_or_empty(["League", "Venue", "Starts", "Cost"], rows_var, _player_row, empty),
        width="100%",
    )


def _venue(v: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.card(rx.text(v["name"], weight="bold"), rx.text(v["where"], size="2", color_scheme="gray"))


@screen(routes.PLAYER_LEAGUES, "Leagues", PlayerLeaguesState)
def player_leagues_page(s: type[PlayerLeaguesState]) -> Body:
    return (
        error_line(s.error),
        _player_table("Open for Registration", s.registration, "No leagues open for registration right now."),
        _player_table("Current Leagues", s.current, "No leagues running right now."),
        rx.heading("Partner Venues", size="5", as_="h2"),
        rx.grid(rx.foreach(s.venues, _venue), columns={"initial": "1", "sm": "2"}, spacing="3", width="100%"),
    )
