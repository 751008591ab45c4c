"""A league's schedule a week at a time, or one team's games (/dash/leagues/teams/schedule?league={id}).

Edit links for its SVL and admins, who may also move a week (and the rest of the season) a week later.
"""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.calendar import add_to_calendar, webcal
from volley_app.components.forms import confirm_delete, native_select
from volley_app.components.layout import button_row
from volley_app.components.leagues import edit_link, league_header, league_screen
from volley_app.components.tables import row, table
from volley_app.registry import page
from volley_app.services.core import timefmt
from volley_app.services.seasons import calendar, schedule, scheduling
from volley_app.state.auth import AuthState
from volley_app.state.files import backend_address
from volley_app.state.forms import path_arg, run_action

NO_SCHEDULE = "No Schedule yet, try back later!"


def _game_row(
    g: schedule.WeekGameRow, can_manage: bool, by_team: bool, zone: str | None = None, day: str = ""
) -> dict[str, str]:
    """A game's row: its time on the venue's clock, labelled with the venue's zone ('6:30 PM CT'); ``day``: the
    date heading shown above it (the first game of each date in a week played on more than one date)."""
    when = timefmt.clock(g["start_at"], zone, labelled=True)
    result = g["sets"].replace("-", "\u2011")  # a non-breaking hyphen keeps "21-17" on one line
    return {
        "id": str(g["id"]),
        "when": f"Week {g['week']} · {timefmt.day(g['start_at'], zone)} {when}" if by_team else when,
        "day": day,
        "court": g["court"] or "–",
        "team1": g["team1"],
        "team2": g["team2"],
        "match": str(g["match"]),
        "sets": result or (f"{g['forfeit']} forfeited" if g["forfeit"] else "–"),
        "href": routes.game_path(g["id"]) if can_manage else "",
    }


def _week_rows(
    games: list[schedule.WeekGameRow], can_manage: bool, zone: str | None
) -> tuple[list[dict[str, str]], list[str]]:
    """A week's rows under their own dates (a game moved to another day of the week shows under that day),
    and the dates in order."""
    days = [timefmt.day(g["start_at"], zone) for g in games]
    dates = list(dict.fromkeys(days))
    several = len(dates) > 1
    shown: set[str] = set()
    out: list[dict[str, str]] = []
    for g, day in zip(games, days, strict=True):
        out.append(_game_row(g, can_manage, False, zone, day if several and day not in shown else ""))
        shown.add(day)
    return out, dates


class ScheduleState(AuthState):
    league_name: rx.Field[str] = rx.field("")
    back: rx.Field[str] = rx.field("")
    heading: rx.Field[str] = rx.field("")
    games: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    week_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    team_options: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    week: rx.Field[str] = rx.field("")
    team: rx.Field[str] = rx.field("")
    previous_week: rx.Field[str] = rx.field("")
    next_week: rx.Field[str] = rx.field("")
    can_manage: rx.Field[bool] = rx.field(False)
    push_question: rx.Field[str] = rx.field("")
    error: rx.Field[str] = rx.field("")
    notice: rx.Field[str] = rx.field("")
    loaded: rx.Field[bool] = rx.field(False)
    feed: rx.Field[str] = rx.field("")
    zone_note: rx.Field[str] = rx.field("")
    # The weeks there are and the one shown, as the server last showed them: Previous/Next step from these.
    _weeks: list[int] = []
    _week: int | None = None

    async def load(self) -> None:
        self.notice = ""
        await self._show(week=None, team=None)

    async def _show(self, *, week: object, team: object) -> None:
        found, failure = await run_action(
            schedule.schedule_view, actor=await self._actor(), league_id=path_arg(self, "league"), week=week, team=team
        )
        self.loaded, self.error = True, failure.message if failure else ""
        if found is None:
            self.league_name, self.back, self.can_manage = league_header(None)
            self.feed = self.zone_note = self.heading = self.push_question = ""
            self._weeks, self._week = [], None
            self.week_options, self.team_options, self.games = [], [], []
            self.week = self.team = self.previous_week = self.next_week = ""
            return
        league, team, week = found["league"], found["team"], found["week"]
        links, _f = await run_action(
            calendar.feed_links, actor=await self._actor(), league_id=league["id"], team_id=team
        )
        path = (links or {}).get("team" if team is not None else "league", "")
        self.feed = backend_address(path) if path else ""
        self.league_name, self.back, self.can_manage = league_header(league)
        zone = found["zone"]
        if zone:
            first = found["games"][0]["start_at"] if found["games"] else league["start_at"]
            self.zone_note = f"Times are the venue's: {timefmt.label(first, zone)} ({zone.replace('_', ' ')})"
        else:
            self.zone_note = ""
        weeks = found["weeks"]
        self._weeks, self._week = list(weeks), week
        self.week_options = [{"value": str(w), "label": f"Week {w}"} for w in weeks]
        self.team_options = [{"value": str(i), "label": n} for i, n in found["teams"]]
        self.week = str(week or "")
        self.team = str(team or "")
        dates: list[str] = []
        if team is not None:
            self.games = [_game_row(g, self.can_manage, True, zone) for g in found["games"]]
        else:
            ordered = sorted(found["games"], key=lambda g: g["start_at"])
            self.games, dates = _week_rows(ordered, self.can_manage, zone)
        at = weeks.index(week) if week is not None and week in weeks else -1
        self.previous_week = str(weeks[at - 1]) if at > 0 else ""
        self.next_week = str(weeks[at + 1]) if 0 <= at < len(weeks) - 1 else ""
        if team is not None:
            self.heading = f"Games of {dict(found['teams']).get(team, '')}"
        elif found["games"]:
            self.heading = f"Week {week}" + (f" · {dates[0]}" if len(dates) == 1 else "")
        else:
            self.heading = ""
        self.push_question = (
            f"Move week {self.week} and every later week a week later? The captains are emailed."
            if self.week and self.can_manage else ""
        )  # fmt: skip

    @rx.var
    def feed_subscribe(self) -> str:
        return webcal(self.feed)

    @rx.event
    async def show_week(self, week: str) -> None:
        self.notice = ""
        await self._show(week=week, team=None)

    @rx.event
    async def step_week(self, step: int) -> None:
        """Previous (-1) or Next (+1) week from the week the server shows now: each click moves one week,
        however quickly they come (a second click is handled after the first has changed the week)."""
        try:
            delta = max(-1, min(1, int(step)))
        except (TypeError, ValueError, OverflowError):
            return
        self.notice = ""
        if not delta or self._week not in self._weeks:
            return
        at = self._weeks.index(self._week) + delta
        if 0 <= at < len(self._weeks):
            await self._show(week=self._weeks[at], team=None)

    @rx.event
    async def show_team(self, team: str) -> None:
        self.notice = ""
        if team in ("", None):
            await self._show(week=None, team=None)
        else:
            await self._show(week=None, team=team)

    @rx.event
    async def push_week(self, week: str) -> None:
        self.notice = ""
        moved, failure = await run_action(
            scheduling.push_week, actor=await self._actor(), league_id=path_arg(self, "league"), week=week
        )
        if failure is not None:
            self.error = failure.message
            return
        await self._show(week=None, team=None)
        self.notice = f"Week {week} and every later week moved a week later: {moved} games. The captains were emailed."


def _schedule_game(game: ObjectVar[dict[str, str]]) -> rx.Component:
    when = rx.vstack(rx.text(game["when"]), edit_link(game["href"]), spacing="1", align="start")
    return rx.fragment(
        rx.cond(
            game["day"] != "",
            rx.table.row(rx.table.cell(rx.heading(game["day"], size="3", as_="h3"), col_span=5)),
        ),
        row(when, game["court"], game["team1"], game["team2"], game["sets"]),
    )


def _chooser(label: str, field_id: str, select: rx.Component) -> rx.Component:
    """A labelled select sized to its choices (a whole line on a phone)."""
    return rx.flex(
        rx.el.label(label, html_for=field_id, class_name="rt-Text rt-r-size-2"),
        rx.box(select, width=["100%", "13rem"]),
        direction="column", spacing="1", width=["100%", "auto"],
    )  # fmt: skip


def _choosers() -> rx.Component:
    s = ScheduleState
    # mypy reads Reflex's rx.event as its namespace class, so it sees no call in a handler
    previous_week = ScheduleState.step_week(-1)  # type: ignore[operator]
    next_week = ScheduleState.step_week(1)  # type: ignore[operator]
    return rx.flex(
        _chooser("Week", "schedule-week",
                 native_select("schedule-week", s.week_options, value=s.week, placeholder="By team",
                               on_change=ScheduleState.show_week, required=False)),
        rx.hstack(
            rx.button("Previous week", on_click=previous_week,
                      disabled=s.previous_week == "", variant="soft", size="2", type="button"),
            rx.button("Next week", on_click=next_week, disabled=s.next_week == "",
                      variant="soft", size="2", type="button"),
            spacing="2",
        ),
        _chooser("Team", "schedule-team",
                 native_select("schedule-team", s.team_options, value=s.team, placeholder="All teams",
                               on_change=ScheduleState.show_team, required=False)),
        wrap="wrap", spacing="4", align="end", width="100%",
    )  # fmt: skip


@page(routes.SCHEDULE, "Schedule", on_load=ScheduleState.load)
def schedule_page() -> rx.Component:
    s = ScheduleState
    # mypy reads Reflex's rx.event as its namespace class, so it sees no call in a handler
    push_week = ScheduleState.push_week(s.week)  # type: ignore[operator]
    return league_screen(
        "Schedule",
        s,
        rx.cond(s.notice != "", rx.callout(s.notice, color_scheme="green", role="status")),
        rx.cond(
            s.week_options.length() > 0,
            rx.vstack(
                _choosers(),
                rx.flex(
                    add_to_calendar(ScheduleState.feed_subscribe, s.feed, "Add to calendar"),
                    rx.text(s.zone_note, size="2", color_scheme="gray"),
                    spacing="3", align="center", wrap="wrap",
                ),  # fmt: skip
                rx.heading(s.heading, size="4", as_="h2"),
                table(["Time", "Court", "Team 1", "Team 2", "Score"], rx.foreach(s.games, _schedule_game)),
                rx.cond(
                    s.can_manage & (s.week != ""),
                    button_row(confirm_delete("No games this week (holiday)", s.push_question, push_week,
                                              confirm_label="Move the weeks")),
                ),
                width="100%",
                spacing="3",
            ),
            rx.cond(s.loaded & (s.error == ""), rx.text(NO_SCHEDULE, color_scheme="gray")),
        ),
    )
