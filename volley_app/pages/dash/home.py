"""The Player home (/dash): links, open sub requests, and the league lists.

Admins are sent to /dash/profile and SVLs to /dash/sessions (spec section 2).
"""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from volley_app import routes
from volley_app.components.forms import error_line
from volley_app.components.layout import button_row, card_for, dash_screen, link_button, section_card
from volley_app.components.paging import pager
from volley_app.components.rsvps import answer_buttons
from volley_app.components.sub_requests import my_sub_info, open_requests_table, page_error, request_search
from volley_app.registry import page
from volley_app.services.core.errors import DomainError, Invalid
from volley_app.services.operations import home
from volley_app.services.seasons.score_reports import TeamCard
from volley_app.services.subs import request_lists
from volley_app.services.teams.rsvps import MyGame
from volley_app.state.auth import AuthState
from volley_app.state.paging import PagedList
from volley_app.state.rsvps import answer_game
from volley_app.state.sub_requests import ListedRequest, as_table_rows


class PlayerHomeState(PagedList, AuthState):
    open_rows: rx.Field[list[ListedRequest]] = rx.field(default_factory=list)
    all_leagues: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    registration_leagues: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    current_leagues: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    is_sub: rx.Field[bool] = rx.field(False)
    team_cards: rx.Field[list[TeamCard]] = rx.field(default_factory=list)  # per team this player is on: next game and last result
    commitments: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)  # the coming games this player subs in
    next_games: rx.Field[list[MyGame]] = rx.field(default_factory=list)  # the next games of this player's teams
    answer_error: rx.Field[str] = rx.field("")
    home_error: rx.Field[str] = rx.field("")
    _filter_names = request_lists.REQUEST_FILTERS

    _listing = staticmethod(request_lists.list_open)

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.open_rows = as_table_rows(rows)
        self.home_error = failure.message if failure and not isinstance(failure, Invalid) else ""

    async def load(self):
        actor = await self._actor()
        if actor is None:
            return None
        if target := home.elsewhere(actor):
            return rx.redirect(target)
        found = await self._open_screen(home.player_home, lambda screen: screen.open_requests, actor=actor)
        if found is None:
            self.all_leagues = self.registration_leagues = self.current_leagues = []
            self.team_cards, self.commitments, self.next_games, self.is_sub = [], [], [], False
            return None

        def pick(key: str) -> list[dict[str, str]]:
            return [
                {"id": str(r["id"]), "label": r["label"], "starts": r["starts"], "href": routes.league_path(r["id"])}
                for r in found.leagues.get(key, [])
            ]

        self.all_leagues, self.registration_leagues = pick("all"), pick("registration")
        self.current_leagues = pick("current")
        self.is_sub = found.is_sub
        self.team_cards = found.team_cards
        self.commitments = found.commitments
        self.next_games = found.next_games
        return None

    @rx.event
    async def answer(self, game_id: int, team_id: int, answer: str):
        """My In / Out / Maybe for one of my next games: that game's answer alone changes."""
        found, self.answer_error = await answer_game(self, game_id, team_id, answer)
        if found is None:
            return
        self.next_games = [{**g, "mine": found["mine"]} if (g["game_id"], g["team_id"]) == (game_id, team_id) else g
                           for g in self.next_games]  # fmt: skip


def _league_item(r: ObjectVar[dict[str, str]]) -> rx.Component:
    starts = rx.text(" starts ", r["starts"], as_="span", size="2", color_scheme="gray")
    return rx.el.li(rx.link(r["label"], href=r["href"]), starts, margin_bottom="0.4rem")


def _league_list(title: str, rows: ArrayVar[Sequence[dict[str, str]]], empty: str) -> rx.Component:
    return section_card(
        title,
        rx.cond(
            rows.length() > 0,
            rx.el.ul(rx.foreach(rows, _league_item), style={"padding_left": "1.1rem", "margin": "0"}),
            rx.text(empty, color_scheme="gray", size="2"),
        ),
    )


def _all_leagues(rows: ArrayVar[Sequence[dict[str, str]]]) -> rx.Component:
    """All Leagues: how many, and the ways to them (the two lists beside it already name each one)."""
    return section_card(
        "All Leagues",
        rx.text(rows.length(), rx.cond(rows.length() == 1, " league in all.", " leagues in all."), size="2"),
        rx.link("Join a league: leagues open for registration", href=routes.PLAYER_LEAGUES),
        rx.link("Every league, with its venue and cost", href=routes.DASH_LEAGUES),
    )


def _team_card(c: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.card(
        rx.vstack(
            rx.text(rx.link(c["team"], href=c["team_href"]), " · ", c["league"], weight="bold", size="2"),
            rx.cond(c["next"] != "", rx.text("Next game: ", rx.link(c["next"], href=c["next_href"]), size="2")),
            rx.cond(
                c["last"] != "",
                rx.text("Last game: ", rx.link(c["last"], href=c["last_href"]), " — ", c["last_result"], size="2"),
            ),
            rx.cond(c["last_action"] != "", link_button(c["last_action"], href=c["last_href"], size="2")),
            spacing="2",
        ),
        width="100%",
        custom_attrs={"data-testid": "team-card"},
    )


def _team_cards() -> rx.Component:
    s = PlayerHomeState
    return card_for(s.team_cards.length() > 0, "My Teams", rx.foreach(s.team_cards, _team_card),
                    rx.link("All my teams", href=routes.TEAMS, size="2"))


def _next_game(g: ObjectVar[MyGame]) -> rx.Component:
    s = PlayerHomeState
    return rx.el.li(
        rx.vstack(
            rx.text(rx.link(g["team"], " v ", g["opponent"], href=g["href"], weight="bold"), size="2"),
            rx.text(g["when"], rx.cond(g["where"] != "", rx.text(" · ", g["where"], as_="span")), size="2",
                    color_scheme="gray"),
            answer_buttons(g["mine"].to(str), lambda a: s.answer(g["game_id"], g["team_id"], a)),  # type: ignore[operator]  # an event handler called with its arguments
            spacing="1",
        ),
        margin_bottom="0.8rem",
        custom_attrs={"data-testid": "my-next-game"},
    )  # fmt: skip


def _next_games() -> rx.Component:
    """The next games of my teams, my answer inline, and the games I sub in."""
    s = PlayerHomeState
    return card_for(
        (s.next_games.length() > 0) | (s.commitments.length() > 0),
        "My Next Games",
        error_line(s.answer_error),
        rx.cond(
            s.next_games.length() > 0,
            rx.el.ul(rx.foreach(s.next_games, _next_game), style={"list_style": "none", "padding_left": "0", "margin": "0"}),
        ),
        rx.cond(
            s.commitments.length() > 0,
            rx.vstack(
                rx.heading("Subbing", size="3", as_="h3"),
                rx.el.ul(rx.foreach(s.commitments, _commitment), style={"padding_left": "1.1rem", "margin": "0"},
                         custom_attrs={"data-testid": "my-commitments"}),
                rx.link("All my sub requests", href=routes.MY_SUB_REQUESTS, size="2"),
                spacing="2",
            ),
        ),
    )  # fmt: skip


def _commitment(c: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.el.li(
        rx.link(c["team"], href=c["href"], weight="bold"),
        rx.text(" · ", c["when"], " · ", c["where"], as_="span", size="2"),
        margin_bottom="0.4rem",
    )


@page(routes.DASH, "Home", on_load=PlayerHomeState.load)
def dash_home_page() -> rx.Component:
    s = PlayerHomeState
    return dash_screen(
        "Welcome, " + AuthState.first_name,
        button_row(
            my_sub_info(s.is_sub, "Edit My Sub Info"),
            link_button("All Subs", href=routes.DASH_SUBS, size="2", variant="soft"),
            link_button("All Open Sub Requests", href=routes.SUB_REQUESTS, size="2", variant="soft"),
            link_button("My Sub Requests", href=routes.MY_SUB_REQUESTS, size="2", variant="soft"),
            link_button("Create Sub Request", href=routes.SUB_REQUEST_NEW, size="2", variant="soft"),
        ),
        page_error(s.home_error),
        _team_cards(),
        _next_games(),
        rx.heading("Open Sub Requests", size="5", as_="h2", margin_top="0.5rem"),
        request_search(s),
        open_requests_table(s.open_rows),
        pager(s, "open sub requests"),
        rx.grid(
            _league_list("Leagues in Registration", s.registration_leagues, "No leagues in registration."),
            _league_list("Current Leagues", s.current_leagues, "No current leagues."),
            _all_leagues(s.all_leagues),
            columns={"initial": "1", "md": "3"},
            spacing="3",
            width="100%",
            margin_top="0.5rem",
        ),
    )
