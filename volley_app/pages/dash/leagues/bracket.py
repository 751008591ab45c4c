"""A league's playoff bracket (/dash/leagues/{id}/bracket): the generated single-elimination bracket round by
round for everyone who may see the league; Generate Bracket, Enter Result and Record a Forfeit for its SVL and
admins."""

from __future__ import annotations

from collections.abc import Sequence

import reflex as rx
from reflex.vars import ArrayVar, ObjectVar

from volley_app import routes
from volley_app.components.forms import (
    confirm_delete,
    error_line,
    notice_line,
    record_form,
    select_field,
    submit_button,
)
from volley_app.components.layout import button_row, card_for, dash_screen, section_card
from volley_app.components.leagues import back_to_league, league_header
from volley_app.components.scores import SCORE_KEYS, SETS, score_entry, score_fields
from volley_app.registry import page
from volley_app.services.core import timefmt
from volley_app.services.seasons import playoffs
from volley_app.state.auth import AuthState
from volley_app.state.forms import RecordForms, form_values, path_arg, run_action

ERROR_ID = "bracket-error"
CHOOSE_FORFEIT = "Choose the game and the team that did not show."


def game_line(g: playoffs.BracketGame, round_name: str, zone: str | None = None) -> dict[str, str]:
    """One bracket game as the page shows it."""
    return {
        "id": str(g["id"]), "round": round_name, "team1": g["team1"], "team2": g["team2"],
        "sets": g["sets"] or (f"Forfeit: {g['forfeit']} did not show" if g["forfeit"] else ""),
        "winner": str(g["winner"]), "when": timefmt.date_time(g["start_at"], zone, labelled=True) + (f", {g['court']}" if g["court"] else ""),
        "label": f"{round_name} {g['match']}: {g['team1']} v {g['team2']}",
    }  # fmt: skip


class BracketState(RecordForms, AuthState):
    _fields = ("game", *SCORE_KEYS, *SETS, "team")
    _error_id = ERROR_ID

    league_name: rx.Field[str] = rx.field("")
    back: rx.Field[str] = rx.field("")
    rounds: rx.Field[list[list[dict[str, str]]]] = rx.field(default_factory=list)
    byes: rx.Field[list[str]] = rx.field(default_factory=list)
    champion: rx.Field[str] = rx.field("")
    generated: rx.Field[bool] = rx.field(False)
    can_generate: rx.Field[bool] = rx.field(False)
    can_manage: rx.Field[bool] = rx.field(False)
    early_question: rx.Field[str] = rx.field("")
    open_games: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    forfeit_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)

    async def _fetch(self) -> None:
        found: playoffs.Bracket | None = await self._read_record(playoffs.bracket, league_id=path_arg(self, "league_id"))
        if found is None:
            self.league_name, self.back, self.rounds, self.byes, self.champion = "", "", [], [], ""
            self.generated = self.can_generate = self.can_manage = False
            self.early_question = ""
            self.open_games, self.forfeit_options = [], []
            return
        self.league_name, self.back, _m = league_header(found["league"])
        zone = found["league"]["zone"]
        self.rounds = [[game_line(g, r["name"], zone) for g in r["games"]] for r in found["rounds"]]
        self.byes, self.champion, self.generated = found["byes"], found["champion"], found["generated"]
        self.can_generate, self.can_manage = found["can_generate"], found["can_manage"]
        self.early_question = found["early_question"]
        enterable = [(g, r["name"]) for r in found["rounds"] for g in r["games"] if g["can_enter"]]
        self.open_games = [  # games waiting for a result first, then those whose result may still be corrected
            {"value": str(g["id"]), "label": game_line(g, name)["label"] + (" (correct the result)" if g["winner"] else "")}
            for g, name in sorted(enterable, key=lambda x: bool(x[0]["winner"]))
        ]  # fmt: skip
        self.forfeit_options = [
            {"value": f"{g['id']}:{team_id}", "label": f"{game_line(g, name)['label']}: {shown} did not show"}
            for g, name in enterable
            for team_id, shown in ((g["team1_id"], g["team1"]), (g["team2_id"], g["team2"]))
        ]

    @rx.event
    async def generate(self, early: bool = False) -> None:
        """Generate the bracket; ``early`` after the operator confirmed it while regular-season games are unplayed."""
        self.error, self.notice = "", ""
        made, failure = await run_action(
            playoffs.generate, actor=await self._actor(), league_id=path_arg(self, "league_id"), early=early is True
        )
        if failure is not None:
            self.error = failure.message
            return
        await self._fetch()
        self.notice = f"Bracket generated: {made} games in the tournament week."

    @rx.event
    def save(self, form_data: dict):
        self.notice = ""
        game = form_values(form_data, ("game",))["game"]
        return self._submit(playoffs.record_result, done=lambda _game: BracketState.entered, game_id=game,
                            **score_entry(form_data))  # fmt: skip

    @rx.event
    async def entered(self):
        """After a saved result: the bracket again, with the winner moved on."""
        await self._fetch()
        self.notice = "Result entered."

    @rx.event
    def forfeit(self, form_data: dict):
        self.notice = ""
        game, _sep, team = form_values(form_data, ("team",))["team"].partition(":")
        if not game or not team:
            self.error, self.errors = "", {"team": CHOOSE_FORFEIT}
            return None
        return self._submit(playoffs.record_forfeit, done=lambda _game: BracketState.forfeited, game_id=game, team=team)

    @rx.event
    async def forfeited(self):
        """After a recorded forfeit: the bracket again, with the other team moved on."""
        await self._fetch()
        self.notice = "Forfeit recorded."


def _team(name: rx.Var[str], won: rx.Var[bool]) -> rx.Component:
    return rx.text(name, weight=rx.cond(won, "bold", "regular"), color_scheme=rx.cond(won, "green", "gray"),
                   size="2")  # fmt: skip


def _game(g: ObjectVar[dict[str, str]]) -> rx.Component:
    return rx.card(
        rx.vstack(
            _team(g["team1"], g["winner"] == "1"),
            _team(g["team2"], g["winner"] == "2"),
            rx.cond(g["sets"] != "", rx.text(g["sets"], size="1"), rx.text(g["when"], size="1", color_scheme="gray")),
            spacing="1",
        ),
        width="100%",
        custom_attrs={"data-testid": "bracket-game"},
    )


def _round(games: ArrayVar[Sequence[dict[str, str]]]) -> rx.Component:
    return rx.vstack(
        rx.heading(games[0]["round"], size="3", as_="h3"),
        rx.foreach(games, _game),
        spacing="2",
        min_width={"initial": "100%", "md": "12rem"},
        flex="1",
    )


def _game_form(title: str, options: ArrayVar[Sequence[dict[str, str]]], *fields: rx.Component, **form_props) -> rx.Component:
    """A form about one of the games ``options`` offers; while it offers none, a line that says so."""
    return section_card(
        title,
        rx.cond(
            options.length() > 0,
            record_form(BracketState, *fields, **form_props),
            rx.text("No game is waiting for a result.", color_scheme="gray"),
        ),
        max_width="36rem",
    )


def _result_form() -> rx.Component:
    s = BracketState
    return _game_form(
        "Enter a Result",
        s.open_games,
        select_field("Game", "game", s.open_games, s, placeholder="Choose a game", required=True),
        score_fields(s, "Team listed first", "Team listed second"),
        button_row(submit_button("Save Result", s, size="2", width="auto")),
    )


def _forfeit_form() -> rx.Component:
    s = BracketState
    return _game_form(
        "Record a Forfeit",
        s.forfeit_options,
        select_field("Team that did not show", "team", s.forfeit_options, s, placeholder="Choose a game and team",
                     required=True),
        rx.text("The other team wins and moves on. A score entered later replaces the forfeit.", size="1",
                color_scheme="gray"),
        button_row(submit_button("Record Forfeit", s, size="2", width="auto", color_scheme="red")),
        on_submit=s.forfeit,
    )  # fmt: skip


@page(routes.LEAGUE_BRACKET, "Playoff Bracket", on_load=BracketState.load)
def bracket_page() -> rx.Component:
    s = BracketState
    # mypy reads Reflex's rx.event as its namespace class, so it sees no call in a handler
    generate_anyway = BracketState.generate(True)  # type: ignore[operator]
    generate = BracketState.generate(False)  # type: ignore[operator]
    return dash_screen(
        "Playoff Bracket: " + s.league_name,
        error_line(s.error, ERROR_ID),
        rx.cond(s.back != "", back_to_league(s.back)),
        notice_line(s.notice),
        rx.cond(s.champion != "", rx.callout(rx.text("Champion: ", rx.text.strong(s.champion)), icon="trophy",
                                               color_scheme="green")),
        rx.cond(
            s.generated,
            rx.vstack(
                rx.cond(s.byes.length() > 0, rx.text("Byes to round 2: ", rx.foreach(s.byes, lambda b: rx.text.span(b, " ")),
                                                      size="2")),
                rx.flex(rx.foreach(s.rounds, _round), direction={"initial": "column", "md": "row"}, spacing="4",
                        width="100%", overflow_x="auto"),
                spacing="3",
                width="100%",
            ),
            rx.text("The playoff bracket has not been generated yet.", color_scheme="gray"),
        ),
        card_for(
            s.can_generate,
            "Generate the Bracket",
            rx.text("Seeds every team in play by the standings; byes go to the top seeds; games are in the "
                    "tournament week at the league's time, court and increment.", size="2"),
            rx.cond(
                s.early_question != "",
                confirm_delete("Generate Bracket", s.early_question, generate_anyway, confirm_label="Generate the bracket"),
                rx.button("Generate Bracket", on_click=generate, width="fit-content"),
            ),
        ),
        rx.cond(s.can_manage & s.generated, _result_form()),
        rx.cond(s.can_manage & s.generated, _forfeit_form()),
    )  # fmt: skip
