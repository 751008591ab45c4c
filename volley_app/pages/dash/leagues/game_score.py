"""A game's score (/dash/leagues/games/{id}/score): a captain of the game reports it once it has started, the
other captain confirms or disputes it, the league's SVL or an admin enters or corrects it."""

from __future__ import annotations

from typing import cast

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import form_messages, record_form, stacked_form, submit_button, text_field
from volley_app.components.layout import button_row, details, labelled, section_card
from volley_app.components.leagues import back_to_league
from volley_app.components.scores import SCORE_KEYS, SETS, score_entry, score_fields
from volley_app.registry import Body, screen
from volley_app.services.seasons import score_reports
from volley_app.state.auth import AuthState
from volley_app.state.forms import RecordForms, form_values, path_arg

ERROR_ID = "score-error"


class GameScoreState(RecordForms, AuthState):
    _fields = (*SCORE_KEYS, *SETS, "note")
    _error_id = ERROR_ID

    game: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    form: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    back: rx.Field[str] = rx.field("")
    can_report: rx.Field[bool] = rx.field(False)
    can_answer: rx.Field[bool] = rx.field(False)
    can_settle: rx.Field[bool] = rx.field(False)

    async def _fetch(self) -> None:
        found: score_reports.ScoreView | None = await self._read_record(
            score_reports.game_view, game_id=path_arg(self, "game_id")
        )
        if found is None:
            self.game, self.form, self.back = {}, {}, ""
            self.can_report = self.can_answer = self.can_settle = False
            return
        self.game = {
            "team1": found["team1"], "team2": found["team2"], "when": found["when"], "league": found["league"],
            "score": found["score"], "report": found["report"], "report_status": found["report_status"],
            "report_team": found["report_team"], "note": found["note"], "type": found["type"],
            "sets_rule": found["sets_rule"],
        }  # fmt: skip
        self.form = found["form"]
        self.back = routes.league_path(found["league_id"])
        self.can_report, self.can_answer, self.can_settle = (
            found["can_report"],
            found["can_answer"],
            found["can_settle"],
        )

    @rx.event
    def save(self, form_data: dict):
        """A captain's report of the score."""
        self.notice = ""
        return self._submit(score_reports.report, done=lambda _r: GameScoreState.reported,
                            game_id=path_arg(self, "game_id"), **score_entry(form_data))  # fmt: skip

    @rx.event
    def settle(self, form_data: dict):
        """The operator's entry or correction of the score."""
        self.notice = ""
        return self._submit(score_reports.settle, done=lambda _r: GameScoreState.settled,
                            game_id=path_arg(self, "game_id"), **score_entry(form_data))  # fmt: skip

    @rx.event
    async def reported(self):
        await self._fetch()
        self.notice = "Score reported: the other captain is asked to confirm it."

    @rx.event
    async def settled(self):
        await self._fetch()
        self.notice = "Score entered."

    @rx.event
    def confirm(self):
        self.notice = ""
        return self._submit(score_reports.confirm, done=lambda _r: GameScoreState.answered,
                            game_id=path_arg(self, "game_id"), seen=self.game.get("report", ""))  # fmt: skip

    @rx.event
    def dispute(self, form_data: dict):
        self.notice = ""
        note = form_values(form_data, ("note",))["note"]
        return self._submit(score_reports.dispute, done=lambda _r: GameScoreState.answered,
                            game_id=path_arg(self, "game_id"), note=note, seen=self.game.get("report", ""))  # fmt: skip

    @rx.event
    async def answered(self):
        await self._fetch()
        self.notice = "Thank you: your answer is recorded and the other captain is told."


def _game() -> ObjectVar[dict[str, str]]:
    """The game the page shows, its values by name."""
    return cast(ObjectVar[dict[str, str]], GameScoreState.game)  # Reflex's Field stubs give mypy an ArrayVar for a dict field


def _game_card() -> rx.Component:
    g = _game()
    return section_card(
        g["team1"] + " v " + g["team2"],
        details(
            labelled("League", g["league"]),
            labelled("When", g["when"]),
            labelled("Score", rx.cond(g["score"] != "", g["score"], "Not entered yet")),
            rx.cond(g["report"] != "", labelled("Reported", g["report"] + " by the captain of " + g["report_team"])),
            rx.cond(
                g["report_status"] == "disputed",
                labelled("Disputed", rx.cond(g["note"] != "", g["note"], "The operator decides")),
            ),
        ),  # fmt: skip
    )


def _score_form(title: str, button: str, on_submit) -> rx.Component:
    s, g = GameScoreState, _game()
    return section_card(
        title,
        record_form(
            s,
            score_fields(s, g["team1"], g["team2"], cast(ObjectVar[dict[str, str]], s.form), rule=g["sets_rule"]),
            button_row(submit_button(button, s, size="2", width="auto")),
            on_submit=on_submit,
        ),
        max_width="36rem",
    )


def _answer() -> rx.Component:
    s = GameScoreState
    return section_card(
        "Confirm or Dispute",
        rx.text("The other captain reported ", rx.text.strong(_game()["report"]), ". Is it right?"),
        rx.button("Confirm Score", on_click=s.confirm, loading=s.busy, width="fit-content"),
        stacked_form(
            text_field("What is wrong (optional)", "note", s, max_length=300),
            button_row(submit_button("Dispute Score", s, size="2", width="auto", color_scheme="red", variant="soft")),
            on_submit=s.dispute,
            spacing="2",
        ),
        max_width="36rem",
    )


@screen(routes.GAME_SCORE, "Game Score", GameScoreState)
def game_score_page(s: type[GameScoreState]) -> Body:
    return (
        form_messages(s, ERROR_ID),
        back_to_league(s.back),
        rx.cond(s.game.length() > 0, _game_card()),
        rx.cond(s.can_answer, _answer()),
        rx.cond(
            s.can_settle,
            _score_form("Enter the Score", "Save Score", s.settle),
            rx.cond(s.can_report, _score_form("Report the Score", "Report Score", s.save)),
        ),
    )
