"""Leagues: list, new, league home (info, actions, bracket, edit, delete), rules, player leagues."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import field, form_card, text_input
from volley_app.components.layout import dash_page, link_button
from volley_app.models import Day, LeagueFormat, SkillLevel
from volley_app.pages.dash.ops_common import (
    confirm_delete,
    error_text,
    native_select,
    page_heading,
    path_part,
    table_or_empty,
)
from volley_app.registry import page
from volley_app.services import leagues as svc
from volley_app.services import registration, scheduling, timefmt
from volley_app.settings import get_settings
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

POLL_MS = 15_000
UPLOAD_ID = "bracket-upload"

SKILLS = [(s.value, s.value) for s in SkillLevel]
FORMATS = [(f.value, svc.FORMAT_LABELS[f]) for f in LeagueFormat]
DAYS = [(d.value, d.value) for d in Day]


def _money(cents: int) -> str:
    return f"${cents / 100:,.2f}".replace(".00", "")


def _summary_row(lg: dict) -> dict[str, str]:
    return {
        "id": str(lg["id"]),
        "name": lg["name"],
        "svl_name": lg["svl_name"],
        "session_name": lg["session_name"],
        "court": lg["court"],
        "start": timefmt.date_time(lg["start_at"]),
        "stage": lg["stage"],
        "cost": _money(lg["cost_cents"]) + (" (cash)" if lg["cash"] else ""),
        "href": routes.league_path(lg["id"]),
    }


# --- list --------------------------------------------------------------------------------


class LeaguesState(AuthState):
    league_rows: list[dict[str, str]] = []
    error: str = ""
    loaded: bool = False

    async def load(self):
        actor = await self._actor()
        found, failure = await run_action(svc.list_leagues, actor=actor)
        if failure is not None:
            self.league_rows, self.error, self.loaded = [], failure.message, True
            return
        self.league_rows, self.error, self.loaded = [_summary_row(lg) for lg in found], "", True

    async def poll(self, _value=None):
        await self.load()


def _league_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(row["name"], href=row["href"], weight="medium")),
        rx.table.cell(row["svl_name"]),
        rx.table.cell(row["court"]),
        rx.table.cell(row["start"]),
        rx.table.cell(row["stage"]),
        rx.table.cell(row["cost"]),
    )


@page(routes.DASH_LEAGUES, "Leagues", on_load=LeaguesState.load)
def leagues_page() -> rx.Component:
    s = LeaguesState
    return dash_page(
        rx.vstack(
            page_heading("Leagues"),
            error_text(s.error),
            table_or_empty(
                ["League", "Venue", "Court", "Starts", "Stage", "Cost"],
                s.league_rows,
                _league_row,
                "No leagues yet.",
                s.loaded & (s.error == ""),
            ),
            rx.moment(interval=POLL_MS, on_change=s.poll, display="none"),
            spacing="4",
            width="100%",
        )
    )


# --- the league form (new and edit) ----------------------------------------------------------


def _league_fields(state, d: dict, *, show_cash: rx.Var, show_active: bool) -> list[rx.Component]:
    e = state.errors
    return [
        field("Court", text_input("court", required=True, max_length=100, default_value=d.get("court", "")),
              field_id="court", error=e.get("court", "")),
        field("Start Date and Time", text_input("start", type="datetime-local", required=True,
                                                default_value=d.get("start", "")),
              field_id="start", error=e.get("start", "")),
        rx.grid(
            field("Number of Weeks", text_input("number_of_weeks", type="number", min=1, max=svc.MAX_WEEKS,
                                                required=True, default_value=d.get("number_of_weeks", "")),
                  field_id="number_of_weeks", error=e.get("number_of_weeks", "")),
            field("Time Increment (minutes)", text_input("time_increment", type="number", min=1, required=True,
                                                         default_value=d.get("time_increment", "")),
                  field_id="time_increment", error=e.get("time_increment", "")),
            columns={"initial": "1", "sm": "2"}, spacing="3", width="100%",
        ),
        rx.grid(
            field("Skill Level", native_select("skill_level", SKILLS, placeholder="Choose", default_value=d.get("skill_level", "")),
                  field_id="skill_level", error=e.get("skill_level", "")),
            field("Format", native_select("format", FORMATS, placeholder="Choose", default_value=d.get("format", "")),
                  field_id="format", error=e.get("format", "")),
            field("Day", native_select("day", DAYS, placeholder="Choose", default_value=d.get("day", "")),
                  field_id="day", error=e.get("day", "")),
            columns={"initial": "1", "sm": "3"}, spacing="3", width="100%",
        ),
        field("Gender Requirement (optional)", text_input("gender_requirement", max_length=100,
                                                          default_value=d.get("gender_requirement", "")),
              field_id="gender_requirement"),
        rx.grid(
            field("Max Teams", text_input("max_teams", type="number", min=2, max=svc.MAX_TEAMS, required=True,
                                          default_value=d.get("max_teams", "")),
                  field_id="max_teams", error=e.get("max_teams", "")),
            field("Cost (dollars)", text_input("cost", inputmode="decimal", required=True, default_value=d.get("cost", "")),
                  field_id="cost", error=e.get("cost", "")),
            columns={"initial": "1", "sm": "2"}, spacing="3", width="100%",
        ),
        rx.cond(
            show_cash,
            field("Cash Only", native_select("cash", [("false", "No"), ("true", "Yes")], default_value=d.get("cash", "false")),
                  field_id="cash"),
            rx.fragment(),
        ),
        field("Active", native_select("active", [("true", "True"), ("false", "False")], default_value=d.get("active", "true")),
              field_id="active") if show_active else rx.fragment(),
    ]  # fmt: skip


def _cash_svl(actor) -> bool:
    name = get_settings().cash_only_svl
    return bool(actor and name and actor.username == name.strip().lower())


class NewLeagueState(AuthState):
    session_options: list[dict[str, str]] = []
    chosen_session: str = ""
    show_cash: bool = False
    errors: dict[str, str] = {}
    error: str = ""
    saving: bool = False
    denied: bool = False
    form_key: int = 0

    async def load(self):
        actor = await self._actor()
        self.errors, self.error, self.saving, self.denied = {}, "", False, False
        self.show_cash = _cash_svl(actor)
        found, failure = await run_action(svc.svl_sessions_for_new_league, actor=actor)
        if failure is not None:
            self.session_options, self.error, self.denied = [], failure.message, True
            return
        self.session_options = [{"value": str(s["id"]), "label": f"{s['name']} ({s['svl_name']})"} for s in found]
        wanted = self.router.url.query_parameters.get("session", "")
        self.chosen_session = wanted if any(o["value"] == wanted for o in self.session_options) else ""
        self.form_key += 1

    async def create(self, form_data: dict):
        if self.saving:
            return
        data = dict(form_data) if isinstance(form_data, dict) else {}
        self.saving, self.errors, self.error = True, {}, ""
        yield
        actor = await self._actor()
        session_id = data.pop("session", "")
        data.pop("active", None)
        row, failure = await run_action(svc.create_league, actor=actor, session_id=session_id, **_form_fields(data))
        self.saving = False
        if failure is not None:
            self.errors = dict(getattr(failure, "errors", {}) or {})
            self.error = failure.message
            return
        yield rx.redirect(routes.league_path(row.id))


_FIELDS = ("court", "start", "number_of_weeks", "time_increment", "skill_level", "format", "day", "gender_requirement",
           "max_teams", "cost", "cash", "active")  # fmt: skip


def _form_fields(data: dict) -> dict:
    """Only the league fields, by name: a client cannot smuggle other keyword arguments in."""
    return {k: data[k] for k in _FIELDS if k in data}


@page(routes.LEAGUES_NEW, "New League", on_load=NewLeagueState.load)
def new_league_page() -> rx.Component:
    s = NewLeagueState
    return dash_page(
        form_card(
            "New League",
            error_text(s.error),
            rx.cond(
                s.denied,
                link_button("Back to Leagues", href=routes.DASH_LEAGUES, variant="soft"),
                rx.form(
                    rx.vstack(
                        field(
                            "Session",
                            native_select(
                                "session",
                                s.session_options,
                                placeholder="Choose a session",
                                default_value=s.chosen_session,
                            ),
                            field_id="session",
                            error=s.errors.get("session", ""),
                        ),  # fmt: skip
                        *_league_fields(s, {}, show_cash=s.show_cash, show_active=False),
                        rx.button("Create League", type="submit", size="3", width="100%", loading=s.saving),
                        spacing="4",
                        width="100%",
                    ),
                    on_submit=s.create,
                    key=s.form_key,
                    width="100%",
                ),
            ),
        )
    )


# --- league home ----------------------------------------------------------------------------


class LeagueHomeState(AuthState):
    lid: str = ""
    info: dict[str, str] = {}
    form: dict[str, str] = {}
    can_manage: bool = False
    show_cash: bool = False
    bracket_url: str = ""
    bracket_is_image: bool = False
    schedule_generated: bool = False
    errors: dict[str, str] = {}
    error: str = ""
    notice: str = ""
    missing: bool = False
    saving: bool = False
    form_key: int = 0
    # issue 5: the registration entry point for players, the payments table for operators
    may_register: bool = False
    league_full: bool = False
    payment_rows: list[dict[str, str]] = []

    def _id(self) -> str:
        return path_part(self.router.url.path, 2)

    async def load(self):
        self.errors, self.error, self.notice, self.saving = {}, "", "", False
        await self._fetch()

    async def _fetch(self):
        actor = await self._actor()
        found, failure = await run_action(svc.get_league, actor=actor, league_id=self._id())
        if failure is not None:
            self.lid, self.info, self.form, self.can_manage, self.bracket_url = "", {}, {}, False, ""
            self.error, self.missing = failure.message, True
            self.may_register, self.league_full, self.payment_rows = False, False, []
            return
        self.missing = False
        lg = found
        await self._registration(actor, lg)
        self.lid = str(lg["id"])
        self.can_manage = lg["can_manage"]
        self.show_cash = lg["can_manage"] and lg["cash_allowed"]
        self.schedule_generated = lg["schedule_generated"]
        self.info = {
            "name": lg["name"], "session": lg["session_name"], "svl": lg["svl_name"], "court": lg["court"],
            "start": timefmt.date_time(lg["start_at"]), "weeks": str(lg["number_of_weeks"]),
            "increment": f"{lg['time_increment']} minutes", "skill": lg["skill_level"], "format": lg["format"],
            "gender": lg["gender_requirement"] or "None", "day": lg["day"], "max_teams": str(lg["max_teams"]),
            "teams": str(lg["team_count"]), "waitlist": str(lg["waitlist_count"]), "cost": _money(lg["cost_cents"]),
            "cash": "Yes" if lg["cash"] else "No", "stage": lg["stage"], "active": "True" if lg["active"] else "False",
            "where": ", ".join(x for x in (lg["address"], lg["city"], lg["region"]) if x),
        }  # fmt: skip
        self.form = {
            "court": lg["court"], "start": timefmt.input_value(lg["start_at"]), "number_of_weeks": str(lg["number_of_weeks"]),
            "time_increment": str(lg["time_increment"]), "skill_level": lg["skill_level"], "format": lg["raw_format"],
            "day": lg["day"], "gender_requirement": lg["gender_requirement"], "max_teams": str(lg["max_teams"]),
            "cost": f"{lg['cost_cents'] / 100:.2f}", "cash": "true" if lg["cash"] else "false",
            "active": "true" if lg["active"] else "false",
        }  # fmt: skip
        self.bracket_is_image = lg["bracket_type"].startswith("image/")
        self.bracket_url = ""
        if lg["has_bracket"]:
            url, _f = await run_action(svc.bracket_data_url, actor=actor, league_id=self.lid)
            self.bracket_url = url or ""
        self.form_key += 1

    async def _registration(self, actor, lg: dict) -> None:
        """Issue 5: may this user register a team here (or join the waitlist); the payments for operators."""
        opts, _f = await run_action(registration.options, actor=actor, league_id=lg["id"])
        self.may_register = bool(opts and opts["may_register"])
        self.league_full = bool(opts and opts["full"])
        self.payment_rows = []
        if lg["can_manage"]:
            found, _f = await run_action(registration.list_payments, actor=actor, league_id=lg["id"])
            self.payment_rows = [{k: str(v) for k, v in p.items()} for p in (found or [])]

    async def save(self, form_data: dict):
        if self.saving:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.saving, self.errors, self.error, self.notice = True, {}, "", ""
        yield
        actor = await self._actor()
        _row, failure = await run_action(svc.update_league, actor=actor, league_id=self._id(), **_form_fields(data))
        self.saving = False
        if failure is not None:
            self.errors = dict(getattr(failure, "errors", {}) or {})
            self.error = failure.message
            return
        yield rx.redirect(routes.DASH_LEAGUES)

    async def delete(self):
        actor = await self._actor()
        _name, failure = await run_action(svc.delete_league, actor=actor, league_id=self._id())
        if failure is not None:
            self.error = failure.message
            return None
        return rx.redirect(routes.DASH_LEAGUES)

    async def generate(self):
        self.error, self.notice = "", ""
        actor = await self._actor()
        made, failure = await run_action(scheduling.generate, actor=actor, league_id=self._id())
        if failure is not None:
            self.error = failure.message
            return None
        await self._fetch()
        self.notice = f"Schedule generated: {made} games."
        return None

    async def upload(self, files: list[rx.UploadFile]):
        """Store a new tournament bracket; the service checks its content and size."""
        self.error, self.notice = "", ""
        actor = await self._actor()
        if not isinstance(files, list) or len(files) != 1:
            self.error = "Choose one file to upload"
            return
        limit = get_settings().upload_max_bytes
        data = await files[0].read(limit + 1)
        _row, failure = await run_action(svc.upload_bracket, actor=actor, league_id=self._id(), data=data)
        if failure is not None:
            self.error = failure.message
            return
        await self._fetch()
        self.notice = "Tournament bracket uploaded."


def _info_line(label: str, value: rx.Var) -> rx.Component:
    return rx.flex(
        rx.text(label, weight="medium", color_scheme="gray", min_width="9rem"),
        rx.text(value),
        spacing="2",
        wrap="wrap",
    )


def _bracket() -> rx.Component:
    s = LeagueHomeState
    return rx.card(
        rx.vstack(
            rx.heading("Tournament Bracket", size="4", as_="h2"),
            rx.cond(
                s.bracket_url != "",
                rx.cond(
                    s.bracket_is_image,
                    rx.image(src=s.bracket_url, alt="Tournament bracket", width="100%", max_width="48rem"),
                    rx.link(
                        "Download the tournament bracket",
                        href=s.bracket_url,
                        download="tournament-bracket",
                        is_external=False,
                    ),
                ),
                rx.text("Tournament Bracket not released yet. Check back later!", color_scheme="gray"),
            ),
            rx.cond(
                s.can_manage,
                rx.vstack(
                    rx.upload(
                        rx.text("Drop a PNG, PDF, DOC or JPEG here, or click to choose one", size="2"),
                        id=UPLOAD_ID,
                        multiple=False,
                        max_files=1,
                        accept={
                            "image/png": [".png"],
                            "image/jpeg": [".jpg", ".jpeg"],
                            "application/pdf": [".pdf"],
                            "application/msword": [".doc"],
                        },  # fmt: skip
                        border=f"1px dashed {rx.color('gray', 8)}",
                        padding="1rem",
                        width="100%",
                    ),
                    rx.hstack(rx.foreach(rx.selected_files(UPLOAD_ID), lambda f: rx.text(f, size="2"))),
                    rx.button(
                        "Upload Bracket",
                        on_click=s.upload(rx.upload_files(upload_id=UPLOAD_ID)),
                        variant="soft",
                    ),
                    width="100%",
                ),
                rx.fragment(),
            ),
            width="100%",
        ),
        width="100%",
    )


def _register_card() -> rx.Component:
    """Issue 5: Register a Team, or the waitlist when the league is full (players only)."""
    s = LeagueHomeState
    return rx.cond(
        s.may_register,
        rx.card(
            rx.vstack(
                rx.heading("Registration", size="4", as_="h2"),
                rx.cond(
                    s.league_full,
                    rx.vstack(
                        rx.callout(registration.LEAGUE_FULL, icon="info", color_scheme="amber"),
                        link_button("Join the Waitlist", href=routes.TEAMS_NEW + "?league=" + s.lid),
                        width="100%",
                    ),
                    link_button("Register a Team", href=routes.TEAMS_NEW + "?league=" + s.lid),
                ),
                width="100%",
            ),
            width="100%",
        ),
        rx.fragment(),
    )


def _payment_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["team_name"]),
        rx.table.cell(row["user"]),
        rx.table.cell(row["amount"]),
        rx.table.cell(row["status"]),
        rx.table.cell(row["provider"]),
        rx.table.cell(row["time"]),
    )


def _payments_card() -> rx.Component:
    """Issue 5: card payments of this league, for its SVL and admins."""
    s = LeagueHomeState
    return rx.cond(
        s.can_manage,
        rx.card(
            rx.vstack(
                rx.heading("Payments", size="4", as_="h2"),
                table_or_empty(
                    ["Team", "Player", "Amount", "Status", "Provider", "Time"],
                    s.payment_rows,
                    _payment_row,
                    "No payments yet.",
                ),
                width="100%",
            ),
            width="100%",
        ),
        rx.fragment(),
    )


@page(routes.LEAGUE_HOME, "League", on_load=LeagueHomeState.load)
def league_home_page() -> rx.Component:
    s = LeagueHomeState
    i = s.info
    return dash_page(
        rx.cond(
            s.missing,
            rx.vstack(
                page_heading("League"),
                error_text(s.error),
                link_button("Back to Leagues", href=routes.DASH_LEAGUES, variant="soft"),
            ),
            rx.vstack(
                page_heading(i["name"]),
                rx.text(i["svl"], " · ", i["session"], color_scheme="gray"),
                error_text(s.error),
                rx.cond(
                    s.notice != "",
                    rx.callout(s.notice, icon="check", color_scheme="green", role="status"),
                    rx.fragment(),
                ),
                rx.flex(
                    link_button("Schedule", href=routes.SCHEDULE + "?league=" + s.lid, variant="soft"),
                    link_button("Standings", href=routes.DASH_LEAGUES + "/" + s.lid + "/teams", variant="soft"),
                    link_button(
                        "League Rules", href=routes.DASH_LEAGUES + "/" + s.lid + "/LeagueRules", variant="soft"
                    ),
                    spacing="2",
                    wrap="wrap",
                ),
                rx.card(
                    rx.vstack(
                        rx.heading("League Info", size="4", as_="h2"),
                        _info_line("Day", i["day"]),
                        _info_line("Starts", i["start"]),
                        _info_line("Weeks", i["weeks"]),
                        _info_line("Games every", i["increment"]),
                        _info_line("Court", i["court"]),
                        _info_line("Where", i["where"]),
                        _info_line("Skill level", i["skill"]),
                        _info_line("Format", i["format"]),
                        _info_line("Gender requirement", i["gender"]),
                        _info_line("Teams", i["teams"] + " of " + i["max_teams"]),
                        _info_line("Cost per team", i["cost"]),
                        _info_line("Cash only", i["cash"]),
                        _info_line("Stage", i["stage"]),
                        spacing="2",
                    ),
                    width="100%",
                ),
                rx.cond(
                    s.can_manage,
                    rx.card(
                        rx.vstack(
                            rx.heading("Actions", size="4", as_="h2"),
                            rx.flex(
                                rx.cond(
                                    s.schedule_generated,
                                    rx.badge("Schedule generated", color_scheme="green", size="2"),
                                    rx.button("Generate Schedule", on_click=s.generate),
                                ),
                                link_button("Waitlist", href=routes.WAITLIST + "?league=" + s.lid, variant="soft"),
                                link_button("Teams", href=routes.TEAMS + "?league=" + s.lid, variant="soft"),
                                spacing="2",
                                wrap="wrap",
                            ),
                        ),
                        width="100%",
                    ),
                    rx.fragment(),
                ),
                _register_card(),
                _payments_card(),
                _bracket(),
                rx.cond(
                    s.can_manage,
                    rx.card(
                        rx.vstack(
                            rx.heading("Edit League", size="4", as_="h2"),
                            rx.form(
                                rx.vstack(
                                    *_league_fields(s, s.form, show_cash=s.show_cash, show_active=True),
                                    rx.flex(
                                        rx.button("Update League", type="submit", loading=s.saving),
                                        confirm_delete(
                                            "Delete League",
                                            "Are you sure you want to delete League: " + i["name"] + "?",
                                            s.delete,
                                        ),
                                        spacing="3",
                                        wrap="wrap",
                                    ),
                                    spacing="4",
                                    width="100%",
                                ),
                                on_submit=s.save,
                                key=s.form_key,
                                width="100%",
                            ),
                            width="100%",
                        ),
                        width="100%",
                        max_width="40rem",
                    ),
                    rx.fragment(),
                ),
                spacing="4",
                width="100%",
            ),
        )
    )


# --- rules ----------------------------------------------------------------------------------

GENERAL_RULES = [
    "All players must be 18 years of age or older.",
    "A team that cannot play must give notice at least 2 hours before its match.",
    "A team has a 10 minute grace period after the scheduled time; after that the match is a forfeit.",
    "Matches are 3 sets: the first two to 21 (cap 23), the third to 15 (cap 17). Every set is won by two.",
    "One 30 second timeout per team per set.",
    "The play area is the court plus 10 feet on each side.",
    "Back row attackers must stay 10 feet from the net when attacking.",
    "The season ends with a single elimination tournament, seeded by record; tournament matches are best of 3.",
]

FORMAT_RULES: list[tuple[str, list[str]]] = [
    ("C Sixes", ["Six players on court; a team needs at least 4 players to play.",
                 "At least 2 men and 2 women on court; at most 4 men on court.",
                 "C level: recreational play, all general rules apply."]),
    ("C 5s", ["Five players on court; a team needs at least 3 players to play.",
              "At least 2 women on court; at most 3 men on court.",
              "C level: recreational play, all general rules apply."]),
    ("C Quads", ["Four players on court; a team needs at least 2 players to play.",
                 "C level: recreational play, all general rules apply."]),
    ("D Sixes", ["Six players on court; a team needs at least 4 players to play.",
                 "At least 2 men and 2 women on court; at most 4 men on court.",
                 "D level: beginners welcome, all general rules apply."]),
]  # fmt: skip


class LeagueRulesState(AuthState):
    lid: str = ""

    async def load(self):
        self.lid = path_part(self.router.url.path, 2)


@page(routes.LEAGUE_RULES, "League Rules", on_load=LeagueRulesState.load)
def rules_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            page_heading("League Rules"),
            rx.card(
                rx.vstack(
                    rx.heading("General Rules", size="4", as_="h2"),
                    rx.unordered_list(*[rx.list_item(r) for r in GENERAL_RULES]),
                ),
                width="100%",
            ),
            rx.accordion.root(
                *[
                    rx.accordion.item(
                        header=title, content=rx.unordered_list(*[rx.list_item(r) for r in rules]), value=title
                    )
                    for title, rules in FORMAT_RULES
                ],
                type="multiple",
                collapsible=True,
                width="100%",
                variant="outline",
            ),
            link_button("Back to League", href=routes.DASH_LEAGUES + "/" + LeagueRulesState.lid, variant="soft"),
            spacing="4",
            width="100%",
        )
    )


# --- player leagues ---------------------------------------------------------------------------


class PlayerLeaguesState(AuthState):
    registration: list[dict[str, str]] = []
    current: list[dict[str, str]] = []
    venues: list[dict[str, str]] = []
    error: str = ""

    async def load(self):
        actor = await self._actor()
        if actor is not None and (actor.is_admin or actor.is_svl):
            return rx.redirect(routes.DASH_PROFILE)
        found, failure = await run_action(svc.player_leagues, actor=actor)
        if failure is not None:
            self.registration, self.current, self.venues, self.error = [], [], [], failure.message
            return None
        self.error = ""
        self.registration = [_summary_row(lg) for lg in found["registration"]]
        self.current = [_summary_row(lg) for lg in found["current"]]
        self.venues = [
            {"name": v["name"], "where": ", ".join(x for x in (v["address"], v["city"], v["region"]) if x)}
            for v in found["venues"]
        ]
        return None


def _player_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(row["name"], href=row["href"], weight="medium")),
        rx.table.cell(row["svl_name"]),
        rx.table.cell(row["start"]),
        rx.table.cell(row["cost"]),
    )


def _player_table(title: str, rows_var, empty: str) -> rx.Component:
    return rx.vstack(
        rx.heading(title, size="5", as_="h2"),
        table_or_empty(["League", "Venue", "Starts", "Cost"], rows_var, _player_row, empty),
        width="100%",
    )


@page(routes.PLAYER_LEAGUES, "Leagues", on_load=PlayerLeaguesState.load)
def player_leagues_page() -> rx.Component:
    s = PlayerLeaguesState
    return dash_page(
        rx.vstack(
            page_heading("Leagues"),
            error_text(s.error),
            _player_table("Open for Registration", s.registration, "No leagues open for registration right now."),
            _player_table("Current Leagues", s.current, "No leagues running right now."),
            rx.heading("Partner Venues", size="5", as_="h2"),
            rx.grid(
                rx.foreach(
                    s.venues,
                    lambda v: rx.card(
                        rx.text(v["name"], weight="bold"), rx.text(v["where"], size="2", color_scheme="gray")
                    ),
                ),
                columns={"initial": "1", "sm": "2"},
                spacing="3",
                width="100%",
            ),
            spacing="4",
            width="100%",
        )
    )
