"""Schedule by week, edit game, standings, and the admin test schedule view."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import field, form_card, text_input
from volley_app.components.layout import dash_page, link_button
from volley_app.pages.dash.ops_common import error_text, native_select, page_heading, path_part, table, table_or_empty
from volley_app.registry import page
from volley_app.services import leagues, scheduling, timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

NO_SCHEDULE = "No Schedule yet, try back later!"


def _game_row(g: dict, can_manage: bool) -> dict[str, str]:
    return {
        "id": str(g["id"]),
        "when": timefmt.clock(g["start_at"]),
        "team1": g["team1"],
        "team2": g["team2"],
        "match": str(g["match"]),
        "sets": g["sets"].replace("-", "\u2011") or "–",  # a non-breaking hyphen keeps "21-17" on one line
        "href": routes.game_path(g["id"]) if can_manage else "",
    }


class ScheduleState(AuthState):
    league_name: str = ""
    lid: str = ""
    weeks: list[dict] = []
    can_manage: bool = False
    error: str = ""
    loaded: bool = False

    def _league(self) -> str:
        return self.router.url.query_parameters.get("league", "")

    async def load(self):
        actor = await self._actor()
        found, failure = await run_action(scheduling.schedule, actor=actor, league_id=self._league())
        self.loaded = True
        if failure is not None:
            self.league_name, self.lid, self.weeks, self.can_manage, self.error = "", "", [], False, failure.message
            return
        self.error = ""
        self.league_name, self.lid = found["league"]["name"], str(found["league"]["id"])
        self.can_manage = found["league"]["can_manage"]
        self.weeks = [
            {
                "week": f"Week {w['week']} · {timefmt.day(w['games'][0]['start_at'])}",
                "games": [_game_row(g, self.can_manage) for g in w["games"]],
            }  # fmt: skip
            for w in found["weeks"]
        ]


def _schedule_game(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.vstack(
                rx.text(row["when"], white_space="nowrap"),
                rx.cond(
                    row["href"] != "", link_button("Edit", href=row["href"], size="1", variant="soft"), rx.fragment()
                ),
                spacing="1",
                align="start",
            )
        ),
        rx.table.cell(row["team1"]),
        rx.table.cell(row["team2"]),
        rx.table.cell(row["sets"]),
    )


def _week(week: rx.Var) -> rx.Component:
    return rx.vstack(
        rx.heading(week["week"].to(str), size="4", as_="h2"),
        table(
            ["Time", "Team 1", "Team 2", "Score"], rx.foreach(week["games"].to(list[dict[str, str]]), _schedule_game)
        ),
        width="100%",
    )


@page(routes.SCHEDULE, "Schedule", on_load=ScheduleState.load)
def schedule_page() -> rx.Component:
    s = ScheduleState
    return dash_page(
        rx.vstack(
            page_heading("Schedule: ", s.league_name),
            error_text(s.error),
            rx.cond(
                s.lid != "",
                link_button("Back to League", href=routes.DASH_LEAGUES + "/" + s.lid, variant="soft"),
                rx.fragment(),
            ),
            rx.cond(
                s.weeks.length() > 0,
                rx.foreach(s.weeks, _week),
                rx.cond(s.loaded & (s.error == ""), rx.text(NO_SCHEDULE, color_scheme="gray"), rx.fragment()),
            ),
            spacing="4",
            width="100%",
        )
    )


# --- edit game ------------------------------------------------------------------------------

SCORE_LABELS = [
    ("team1_game1_score", "Team 1 Set 1"), ("team2_game1_score", "Team 2 Set 1"),
    ("team1_game2_score", "Team 1 Set 2"), ("team2_game2_score", "Team 2 Set 2"),
    ("team1_game3_score", "Team 1 Set 3"), ("team2_game3_score", "Team 2 Set 3"),
]  # fmt: skip


class GameEditState(AuthState):
    gid: str = ""
    lid: str = ""
    form: dict[str, str] = {}
    team_options: list[dict[str, str]] = []
    team2_options: list[dict[str, str]] = []
    errors: dict[str, str] = {}
    error: str = ""
    denied: bool = False
    saving: bool = False
    form_key: int = 0

    def _id(self) -> str:
        return path_part(self.router.url.path, -1)

    async def load(self):
        self.errors, self.error, self.saving = {}, "", False
        actor = await self._actor()
        found, failure = await run_action(scheduling.get_game, actor=actor, game_id=self._id())
        if failure is not None:
            self.gid, self.lid, self.form, self.team_options, self.team2_options = "", "", {}, [], []
            self.error, self.denied = failure.message, True
            return
        self.denied = False
        self.gid, self.lid = str(found["id"]), str(found["league_id"])
        self.team_options = [{"value": str(t["id"]), "label": t["name"]} for t in found["teams"]]
        self.team2_options = [*self.team_options, {"value": "bye", "label": "BYE"}]
        self.form = {
            "team1": str(found["team1_id"] or ""),
            "team2": "bye" if found["team2_id"] is None else str(found["team2_id"]),
            "start": timefmt.input_value(found["start_at"]),
            **{k: "" if found[k] is None else str(found[k]) for k, _l in SCORE_LABELS},
        }
        self.form_key += 1

    async def save(self, form_data: dict):
        if self.saving:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.saving, self.errors, self.error = True, {}, ""
        yield
        actor = await self._actor()
        scores = {k: data.get(k) for k, _l in SCORE_LABELS}
        game, failure = await run_action(
            scheduling.update_game, actor=actor, game_id=self._id(), team1=data.get("team1"), team2=data.get("team2"),
            start=data.get("start"), **scores,
        )  # fmt: skip
        self.saving = False
        if failure is not None:
            self.errors = dict(getattr(failure, "errors", {}) or {})
            self.error = failure.message
            return
        yield rx.redirect(routes.schedule_path(game.league_id))


@page(routes.GAME_EDIT, "Edit Game", on_load=GameEditState.load)
def game_edit_page() -> rx.Component:
    s = GameEditState
    return dash_page(
        form_card(
            "Edit Game",
            error_text(s.error),
            rx.cond(
                s.denied,
                link_button("Back to Leagues", href=routes.DASH_LEAGUES, variant="soft"),
                rx.form(
                    rx.vstack(
                        field("Team 1", native_select("team1", s.team_options, placeholder="Choose a team", default_value=s.form["team1"]),
                              field_id="team1", error=s.errors.get("team1", "")),
                        field("Team 2", native_select("team2", s.team2_options, placeholder="Choose a team",
                                                      default_value=s.form["team2"]),
                              field_id="team2", error=s.errors.get("team2", "")),
                        field("Date and Time", text_input("start", type="datetime-local", required=True, default_value=s.form["start"]),
                              field_id="start", error=s.errors.get("start", "")),
                        rx.grid(
                            *[
                                field(label, text_input(key, type="number", min=0, max=99, inputmode="numeric",
                                                        default_value=s.form[key]), field_id=key)
                                for key, label in SCORE_LABELS
                            ],
                            columns="2",
                            spacing="3",
                            width="100%",
                        ),
                        rx.foreach(["set1", "set2", "set3"], lambda k: rx.cond(s.errors.get(k, "") != "", rx.text(s.errors.get(k, ""), color_scheme="red", size="2"), rx.fragment())),
                        rx.text("Sets 1 and 2 go to 21 (cap 23), set 3 to 15 (cap 17); win by two.", size="1", color_scheme="gray"),
                        rx.flex(
                            rx.button("Update Game", type="submit", loading=s.saving),
                            link_button("Cancel", href=routes.SCHEDULE + "?league=" + s.lid, variant="soft", color_scheme="gray"),
                            spacing="3",
                        ),
                        spacing="4",
                        width="100%",
                    ),
                    on_submit=s.save,
                    key=s.form_key,
                    width="100%",
                ),
            ),
        )
    )  # fmt: skip


# --- standings ----------------------------------------------------------------------------------


class StandingsState(AuthState):
    league_name: str = ""
    lid: str = ""
    team_rows: list[dict[str, str]] = []
    can_manage: bool = False
    error: str = ""

    async def load(self):
        actor = await self._actor()
        found, failure = await run_action(
            scheduling.standings, actor=actor, league_id=path_part(self.router.url.path, 2)
        )
        if failure is not None:
            self.league_name, self.lid, self.team_rows, self.can_manage, self.error = "", "", [], False, failure.message
            return
        self.error = ""
        self.league_name, self.lid = found["league"]["name"], str(found["league"]["id"])
        self.can_manage = found["league"]["can_manage"]
        self.team_rows = [
            {"rank": str(i + 1), "team_name": t["team_name"], "wins": str(t["wins"]), "losses": str(t["losses"]),
             "href": routes.team_path(t["id"]) if self.can_manage else ""}
            for i, t in enumerate(found["teams"])
        ]  # fmt: skip


def _standing_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["rank"]),
        rx.table.cell(row["team_name"]),
        rx.table.cell(row["wins"]),
        rx.table.cell(row["losses"]),
        rx.table.cell(
            rx.cond(row["href"] != "", link_button("Edit", href=row["href"], size="1", variant="soft"), rx.fragment())
        ),
    )


@page(routes.LEAGUE_STANDINGS, "Standings", on_load=StandingsState.load)
def standings_page() -> rx.Component:
    s = StandingsState
    return dash_page(
        rx.vstack(
            page_heading("Standings: ", s.league_name),
            error_text(s.error),
            rx.cond(
                s.lid != "",
                link_button("Back to League", href=routes.DASH_LEAGUES + "/" + s.lid, variant="soft"),
                rx.fragment(),
            ),
            table_or_empty(
                ["#", "Team", "Wins", "Losses", ""], s.team_rows, _standing_row, "No teams yet.", s.error == ""
            ),
            spacing="4",
            width="100%",
        )
    )


# --- admin test schedule view --------------------------------------------------------------------


class TestScheduleState(AuthState):
    """Admin only: every game of a league as stored, with round and match (a check of the generator)."""

    game_rows: list[dict[str, str]] = []
    league_links: list[dict[str, str]] = []
    league_name: str = ""
    error: str = ""

    async def load(self):
        actor = await self._actor()
        self.game_rows, self.league_links, self.league_name = [], [], ""
        if actor is None or not actor.is_admin:
            self.error = "No access"
            return
        league = self.router.url.query_parameters.get("league", "")
        if not league:
            listed, failure = await run_action(leagues.list_leagues, actor=actor)
            self.error = failure.message if failure else ""
            self.league_links = [
                {"name": f"{lg['name']} ({lg['session_name']})", "href": f"{routes.TEST_SCHEDULE}?league={lg['id']}"}
                for lg in listed or []
            ]
            return
        found, failure = await run_action(scheduling.schedule, actor=actor, league_id=league)
        if failure is not None:
            self.game_rows, self.error = [], failure.message
            return
        self.error = ""
        self.league_name = found["league"]["name"]
        self.game_rows = [
            {"id": str(g["id"]), "round": str(g["round"]), "match": str(g["match"]), "type": g["type"],
             "when": timefmt.date_time(g["start_at"]), "team1": g["team1"], "team2": g["team2"]}
            for w in found["weeks"] for g in w["games"]
        ]  # fmt: skip


@page(routes.TEST_SCHEDULE, "Test Schedule", on_load=TestScheduleState.load)
def test_schedule_page() -> rx.Component:
    s = TestScheduleState
    return dash_page(
        rx.vstack(
            page_heading("Test Schedule"),
            error_text(s.error),
            rx.cond(
                s.league_links.length() > 0,
                rx.vstack(
                    rx.text("Choose a league:", color_scheme="gray"),
                    rx.foreach(s.league_links, lambda lg: rx.link(lg["name"], href=lg["href"])),
                ),
                rx.fragment(),
            ),
            rx.cond(s.league_name != "", rx.heading(s.league_name, size="4", as_="h2"), rx.fragment()),
            rx.cond(
                s.game_rows.length() > 0,
                table(
                    ["Game", "Round", "Match", "Type", "Time", "Team 1", "Team 2"],
                    rx.foreach(
                        s.game_rows,
                        lambda r: rx.table.row(
                            *[rx.table.cell(r[k]) for k in ("id", "round", "match", "type", "when", "team1", "team2")]
                        ),
                    ),
                ),
                rx.fragment(),
            ),
            spacing="4",
            width="100%",
        )
    )
