"""A team's games (/dash/teams/[team_id]/games): the schedule with every member's In / Out / Maybe.

Members answer on their own row (one small event per answer: only that game changes); each game shows its counts
against what the format needs and says when it is short. When another member answers (here, from the home or by a
reminder's link), the page shown of games is read again at once (live updates), without reloading the page. The captain and co-captains, the league's operator and
admins also see who is In by position and gender; the operator reads without answering.
"""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import button_row, dash_screen
from volley_app.components.paging import pager
from volley_app.components.rsvps import answer_buttons
from volley_app.registry import page
from volley_app.services.core import live
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.operations import game_requests
from volley_app.services.subs.invites import MAX_PLAYERS
from volley_app.services.teams import rsvps
from volley_app.services.teams.rsvps import RsvpCell, RsvpGame
from volley_app.state.auth import AuthState
from volley_app.state.forms import flag, flags, run_action
from volley_app.state.paging import PolledList
from volley_app.state.rsvps import answer_game
from volley_app.state.teams import TeamScreen

# what rsvps.TeamGames says of the reader: a member, who sees counts (captain), who only reads, who finds subs (runs)
_VIEWER = ("member", "captain", "read_only", "runs")


class TeamGamesState(TeamScreen, PolledList, AuthState):
    """The team's games; the page shown is read again at once when one of the team's members answers (live
    updates), and every few minutes otherwise."""

    _poll_path = routes.TEAM_GAMES
    _poll_seconds = 300
    games: rx.Field[list[RsvpGame]] = rx.field(default_factory=list)
    viewer: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)  # who the reader is to the team (see _VIEWER)
    loaded: rx.Field[bool] = rx.field(False)
    error: rx.Field[str] = rx.field("")
    answer_error: rx.Field[str] = rx.field("")
    _team: str = ""
    _filter_names = ()

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await run_action(rsvps.games_page, actor=await self._actor(), team_id=self._team, bookmark=bookmark)

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.games = rows
        if failure is not None:
            self.error = failure.message

    def _live_interest(self) -> live.Interest | None:
        team = self._team_id()
        return live.Interest(team_id=int(team)) if team.isdigit() and self.loaded and not self.error else None

    async def load(self):
        """The team's games page: its name, its members and the first page of games, in one call; then the poll
        that shows the others' answers as they come."""
        self._team = self._team_id()
        self.error = self.answer_error = ""
        found, failure = await run_action(rsvps.team_games, actor=await self._actor(), team_id=self._team)
        if failure is not None or found is None:
            self.team_name = self.league_name = ""
            self.viewer = flags(None, *_VIEWER)
            self._show_page((None, failure), 1)
            self.loaded = True
            return None
        self.team_name, self.league_name = found.team_name, found.league_name
        self.viewer = flags(found, *_VIEWER)
        self._show_page((found.games, None), 1)
        self.loaded = True
        return type(self).poll

    @rx.event
    async def answer(self, game_id: int, answer: str):
        """The viewer's In / Out / Maybe for one game: that game alone is read again and shown."""
        found, self.answer_error = await answer_game(self, game_id, self._team_id(), answer)
        if found is None:
            return
        self.games = [found if g["game_id"] == found["game_id"] else g for g in self.games]

    @rx.event
    async def find_subs(self, game_id: int):
        """A short game's sub request, filled in from the game (the one still open when there is one): its page."""
        found, failure = await run_action(game_requests.find_subs, actor=await self._actor(), game_id=game_id,
                                          team_id=self._team_id())  # fmt: skip
        if failure is not None or found is None:
            self.answer_error = failure.message if failure else ""
            return None
        return rx.redirect(routes.sub_request_path(found))


def _cell(c: ObjectVar[RsvpCell]) -> rx.Component:
    return rx.el.li(
        rx.text(c["name"], ": ", as_="span", size="2"),
        rx.text(rx.cond(c["answer"] != "", c["answer"], "no answer"), as_="span", size="2", weight="medium",
                color_scheme=rx.cond(c["answer"] == "In", "green", rx.cond(c["answer"] == "Out", "red", "gray"))),
        margin_bottom="0.2rem",
    )  # fmt: skip


def _game(g: ObjectVar[RsvpGame]) -> rx.Component:
    s = TeamGamesState
    counts = rx.text(
        "In ", g["in_count"], " · Out ", g["out_count"], " · Maybe ", g["maybe_count"], " · No answer ", g["none_count"],
        " · Needs ", g["needed"], rx.cond(g["women_needed"].to(int) > 0, rx.text(" (", g["women_needed"], " women)",
                                                                                 as_="span")),
        size="2", custom_attrs={"data-testid": "rsvp-counts"},
    )  # fmt: skip
    cells = cast(ArrayVar[list[RsvpCell]], g["cells"])
    subs = cast(ArrayVar[list[str]], g["subs"])
    places = rx.cond(g["lacking"].to(int) > MAX_PLAYERS, MAX_PLAYERS, g["lacking"].to(int))
    find = rx.button("Find ", places.to(str), rx.cond(places == 1, " sub", " subs"), size="2", color_scheme="red",
                     on_click=s.find_subs(g["game_id"]), min_height="44px")  # type: ignore[operator]  # an event handler called with its arguments
    return rx.card(
        rx.vstack(
            rx.flex(
                rx.heading(g["when"], " v ", g["opponent"], size="3", as_="h2"),
                rx.cond(g["court"] != "", rx.text(g["court"], size="2", color_scheme="gray")),
                rx.cond(g["short"], rx.badge("Short: ", g["short_reason"], color_scheme="red")),
                rx.cond(g["past"], rx.badge("Played", color_scheme="gray")),
                spacing="2", align="center", wrap="wrap",
            ),
            counts,
            rx.cond(subs.length() > 0, rx.text("Subs playing: ", subs.join(", "), size="2",
                                               custom_attrs={"data-testid": "game-subs"})),
            rx.cond(flag(s.viewer, "runs") & g["short"].to(bool), find),
            rx.cond(flag(s.viewer, "captain") & (g["by_position"] != ""),
                    rx.text("In by position: ", g["by_position"], size="2", color_scheme="gray")),
            rx.cond(flag(s.viewer, "captain") & (g["by_gender"] != ""),
                    rx.text("In by gender: ", g["by_gender"], size="2", color_scheme="gray")),
            rx.cond(g["can_answer"], answer_buttons(g["mine"].to(str), lambda a: s.answer(g["game_id"], a))),  # type: ignore[operator]  # an event handler called with its arguments
            rx.el.ul(rx.foreach(cells, _cell), style={"padding_left": "1.1rem", "margin": "0"}, aria_label="Answers"),
            spacing="2",
            width="100%",
        ),
        width="100%",
        custom_attrs={"data-testid": "team-game"},
    )  # fmt: skip


@page(routes.TEAM_GAMES, "Team Games", on_load=TeamGamesState.load)
def team_games_page() -> rx.Component:
    s = TeamGamesState
    return dash_screen(
        rx.cond(s.team_name != "", s.team_name + ": games", "Team games"),
        rx.cond(s.league_name != "", rx.text(s.league_name, size="2", color_scheme="gray")),
        rx.cond(flag(s.viewer, "read_only"), rx.text("You see the team's answers; its members answer.", size="2")),
        error_line(s.error),
        error_line(s.answer_error),
        rx.cond(s.loaded & (s.error == "") & (s.games.length() == 0), rx.text("No games yet.", size="2")),
        rx.vstack(rx.foreach(s.games, _game), spacing="3", width="100%"),
        pager(s, "games"),
        button_row(rx.link("All teams", href=routes.TEAMS, size="2")),
    )
