"""Edit a game (/dash/leagues/teams/schedule/{id}): teams, time and set scores, for the league's SVL and admins."""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import record_form, select_field, submit_button, text_field
from volley_app.components.layout import button_row, link_button
from volley_app.components.leagues import operator_form_screen
from volley_app.components.scores import SCORE_KEYS, ScoreEntry, score_entry
from volley_app.registry import page
from volley_app.services.core import timefmt
from volley_app.services.seasons import games
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg

ERROR_ID = "game-error"
SCORE_LABELS = [
    ("team1_game1_score", "Team 1 Set 1"), ("team2_game1_score", "Team 2 Set 1"),
    ("team1_game2_score", "Team 1 Set 2"), ("team2_game2_score", "Team 2 Set 2"),
    ("team1_game3_score", "Team 1 Set 3"), ("team2_game3_score", "Team 2 Set 3"),
]  # fmt: skip
SETS = ("set1", "set2", "set3")
GAME_FIELDS = ("team1", "team2", "start", "court", *(key for key, _label in SCORE_LABELS))


class GameEntry(ScoreEntry):
    """What the game form sent: its teams, time and court, and its set scores."""

    team1: str
    team2: str
    start: str
    court: str


def game_entry(form_data: object) -> GameEntry:
    v = form_values(form_data, ("team1", "team2", "start", "court"))
    return {"team1": v["team1"], "team2": v["team2"], "start": v["start"], "court": v["court"], **score_entry(form_data)}


class GameEditState(FormState, AuthState):
    _fields = (*GAME_FIELDS, *SETS)
    _error_id = ERROR_ID

    gid: rx.Field[str] = rx.field("")
    back: rx.Field[str] = rx.field("")
    form: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    team_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    team2_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    court_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    sets_rule: rx.Field[str] = rx.field("")
    denied: rx.Field[bool] = rx.field(False)

    async def load(self) -> None:
        found: games.GameForm | None = await self._read_record(games.get_game, game_id=path_arg(self, "game_id"))
        if found is None:
            self.gid, self.back, self.form, self.team_options, self.team2_options = "", "", {}, [], []
            self.denied = True
            return
        self.denied = False
        self.gid, self.back = str(found["id"]), routes.schedule_path(found["league_id"])
        self.team_options = [{"value": str(t["id"]), "label": t["name"]} for t in found["teams"]]
        self.team2_options = [*self.team_options, {"value": "bye", "label": "BYE"}]
        self.court_options = [{"value": c, "label": c} for c in found["courts"]]
        self.sets_rule = found["sets_rule"]
        self.form = {
            "team1": str(found["team1_id"] or ""),
            "team2": "bye" if found["team2_id"] is None else str(found["team2_id"]),
            "start": timefmt.input_value(found["start_at"], found["zone"]),
            "court": found["court"] or found["courts"][0],
            **{k: "" if found[k] is None else str(found[k]) for k in SCORE_KEYS},
        }

    @rx.event
    def save(self, form_data: dict):
        return self._submit(
            games.update_game,
            done=lambda game: rx.redirect(routes.schedule_path(game.league_id)),
            game_id=path_arg(self, "game_id"),
            **game_entry(form_data),
        )


def _set_error(name: str) -> rx.Component:
    errors = cast(ObjectVar[dict[str, str]], GameEditState.errors)  # Reflex's Field stubs give mypy an ArrayVar for a dict field
    message = errors.get(name, "")
    return rx.cond(message != "", rx.text(message, color_scheme="red", size="2"))


def _game_form() -> rx.Component:
    s = GameEditState
    form = cast(ObjectVar[dict[str, str]], s.form)  # Reflex's Field stubs give mypy an ArrayVar for a dict field
    return record_form(
        s,
        select_field("Team 1", "team1", s.team_options, s, placeholder="Choose a team", default_value=form["team1"]),
        select_field("Team 2", "team2", s.team2_options, s, placeholder="Choose a team", default_value=form["team2"]),
        text_field("Date and Time", "start", s, type="datetime-local", required=True, default_value=form["start"]),
        select_field("Court", "court", s.court_options, s, default_value=form["court"]),
        rx.text("Both captains are emailed when the time or court changes.", size="1", color_scheme="gray"),
        rx.grid(
            *[text_field(label, key, s, type="number", min=0, max=99, inputmode="numeric", default_value=form[key])
              for key, label in SCORE_LABELS],
            columns="2",
            spacing="3",
            width="100%",
        ),
        *[_set_error(name) for name in SETS],
        rx.text(s.sets_rule, size="1", color_scheme="gray"),
        button_row(
            submit_button("Update Game", s, size="2", width="auto"),
            link_button("Cancel", href=s.back, variant="soft", color_scheme="gray"),
            spacing="3",
        ),
    )  # fmt: skip


@page(routes.GAME_EDIT, "Edit Game", on_load=GameEditState.load)
def game_edit_page() -> rx.Component:
    return operator_form_screen("Edit Game", GameEditState, ERROR_ID, _game_form())
