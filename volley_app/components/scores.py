"""The set-score fields shared by the playoff result form and a game's score page (a captain's report, the
operator's entry): two boxes a set, each set's message under it, and the game's scoring rule beside them."""

from __future__ import annotations

from typing import TypedDict, cast

import reflex as rx
from reflex.vars import ObjectVar

from volley_app.components.forms import text_field
from volley_app.services.seasons import scoring
from volley_app.state.forms import FormState, form_values

SCORE_KEYS = tuple(f for pair in scoring.SCORE_FIELDS for f in pair)
SETS = ("set1", "set2", "set3")
RULE = scoring.sets_rule(None)  # a best of three: a playoff game's, and a league's unless it plays all 3 sets


class ScoreEntry(TypedDict):
    """The six set scores a form sent, as text ('' when left empty)."""

    team1_game1_score: str
    team2_game1_score: str
    team1_game2_score: str
    team2_game2_score: str
    team1_game3_score: str
    team2_game3_score: str


def score_entry(form_data: object) -> ScoreEntry:
    """The set scores of a submitted form."""
    v = form_values(form_data, SCORE_KEYS)
    return {
        "team1_game1_score": v["team1_game1_score"], "team2_game1_score": v["team2_game1_score"],
        "team1_game2_score": v["team1_game2_score"], "team2_game2_score": v["team2_game2_score"],
        "team1_game3_score": v["team1_game3_score"], "team2_game3_score": v["team2_game3_score"],
    }  # fmt: skip


def _set_error(state: type[FormState], name: str) -> rx.Component:
    errors = cast(ObjectVar[dict[str, str]], state.errors)  # Reflex's Field stubs give mypy an ArrayVar for a dict field
    message = errors.get(name, "")
    return rx.cond(message != "", rx.text(message, color_scheme="red", size="2", id=f"{name}-error"))


def score_fields(
    state: type[FormState], team1: rx.Var[str] | str, team2: rx.Var[str] | str,
    defaults: ObjectVar[dict[str, str]] | None = None, *, rule: rx.Var[str] | str = RULE,
) -> rx.Component:
    """Set by set: the first team's points and the second's side by side (two columns even on a phone).

    ``defaults`` (a dict var by field name) fills the boxes, e.g. with the score waiting for an answer. ``rule``
    is the game's scoring rule as ``scoring.sets_rule`` words it for its league (a best of three by default).
    """

    def default(key: str) -> rx.Var[str] | str:
        return defaults[key] if defaults is not None else ""

    def points(i: int, key: str, team: str) -> rx.Component:
        return text_field(f"Set {i + 1}: {team} team", key, state, type="number", min=0, max=99, inputmode="numeric",
                          required=i < 2, default_value=default(key))  # fmt: skip

    rows: list[rx.Component] = []
    for i, (k1, k2) in enumerate(scoring.SCORE_FIELDS):
        rows.append(rx.grid(points(i, k1, "first"), points(i, k2, "second"), columns="2", spacing="3", width="100%"))
        rows.append(_set_error(state, SETS[i]))
    return rx.vstack(
        rx.text("First team: ", rx.text.strong(team1), rx.el.br(), "Second team: ", rx.text.strong(team2), size="2"),
        *rows,
        rx.text(rule, size="1", color_scheme="gray"),
        spacing="2",
        width="100%",
    )
