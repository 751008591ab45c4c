"""Teams: list (/dash/teams), edit (/dash/teams/{id}), and the waitlist with Promote."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import field, form_card, text_input
from volley_app.components.layout import dash_page, link_button
from volley_app.pages.dash.ops_common import (
    confirm_delete,
    error_text,
    native_select,
    page_heading,
    path_part,
    table_or_empty,
)
from volley_app.registry import page
from volley_app.services import teams as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action


def _team_row(t: dict) -> dict[str, str]:
    return {
        "id": str(t["id"]),
        "team_name": t["team_name"],
        "league_name": t["league_name"],
        "league_href": routes.league_path(t["league_id"]),
        "captain": t["captain"],
        "record": f"{t['wins']}-{t['losses']}",
        "paid": "Yes" if t["paid"] else "No",
        "status": "Waitlist" if t["waitlist"] else "Registered",
        "href": routes.team_path(t["id"]),
    }


def _only_league(rows: list[dict], league: str) -> list[dict]:
    return [t for t in rows if str(t["league_id"]) == league] if league else rows


class TeamsState(AuthState):
    team_rows: list[dict[str, str]] = []
    error: str = ""
    loaded: bool = False

    async def load(self):
        actor = await self._actor()
        found, failure = await run_action(svc.list_teams, actor=actor)
        self.loaded = True
        if failure is not None:
            self.team_rows, self.error = [], failure.message
            return
        self.error = ""
        league = self.router.url.query_parameters.get("league", "")
        self.team_rows = [_team_row(t) for t in _only_league(found, league)]


def _list_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(row["team_name"], href=row["href"], weight="medium")),
        rx.table.cell(rx.link(row["league_name"], href=row["league_href"])),
        rx.table.cell(row["captain"]),
        rx.table.cell(row["record"]),
        rx.table.cell(row["paid"]),
        rx.table.cell(row["status"]),
    )


@page(routes.TEAMS, "Teams", on_load=TeamsState.load)
def teams_page() -> rx.Component:
    s = TeamsState
    return dash_page(
        rx.vstack(
            page_heading("Teams"),
            error_text(s.error),
            table_or_empty(
                ["Team", "League", "Captain", "Record", "Paid", "Status"],
                s.team_rows,
                _list_row,
                "No teams yet.",
                s.loaded & (s.error == ""),
            ),
            spacing="4",
            width="100%",
        )
    )


# --- edit --------------------------------------------------------------------------------------


class TeamEditState(AuthState):
    tid: str = ""
    lid: str = ""
    form: dict[str, str] = {}
    league_name: str = ""
    can_manage: bool = False
    can_edit_name: bool = False
    errors: dict[str, str] = {}
    error: str = ""
    denied: bool = False
    saving: bool = False
    form_key: int = 0

    def _id(self) -> str:
        return path_part(self.router.url.path, 2)

    async def load(self):
        self.errors, self.error, self.saving = {}, "", False
        actor = await self._actor()
        found, failure = await run_action(svc.get_team, actor=actor, team_id=self._id())
        if failure is not None:
            self.tid, self.lid, self.form, self.league_name = "", "", {}, ""
            self.can_manage = self.can_edit_name = False
            self.error, self.denied = failure.message, True
            return
        self.denied = False
        self.tid, self.lid, self.league_name = str(found["id"]), str(found["league_id"]), found["league_name"]
        self.can_manage, self.can_edit_name = found["can_manage"], found["can_edit_name"]
        self.form = {
            "team_name": found["team_name"], "wins": str(found["wins"]), "losses": str(found["losses"]),
            "paid": "true" if found["paid"] else "false", "status": "Waitlist" if found["waitlist"] else "Registered",
        }  # fmt: skip
        self.form_key += 1

    async def save(self, form_data: dict):
        if self.saving:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.saving, self.errors, self.error = True, {}, ""
        yield
        actor = await self._actor()
        _row, failure = await run_action(
            svc.update_team, actor=actor, team_id=self._id(), team_name=data.get("team_name"), paid=data.get("paid"),
            wins=data.get("wins"), losses=data.get("losses"),
        )  # fmt: skip
        self.saving = False
        if failure is not None:
            self.errors = dict(getattr(failure, "errors", {}) or {})
            self.error = failure.message
            if failure.message == svc.TEAM_NAME_REQUIRED:
                yield rx.window_alert(svc.TEAM_NAME_REQUIRED)
            return
        yield rx.redirect(routes.TEAMS)

    async def delete(self):
        actor = await self._actor()
        _name, failure = await run_action(svc.delete_team, actor=actor, team_id=self._id())
        if failure is not None:
            self.error = failure.message
            return None
        return rx.redirect(routes.TEAMS)


@page(routes.TEAM_EDIT, "Team", on_load=TeamEditState.load)
def team_edit_page() -> rx.Component:
    s = TeamEditState
    f = s.form
    return dash_page(
        form_card(
            "Team",
            error_text(s.error),
            rx.cond(
                s.denied,
                link_button("Back to Teams", href=routes.TEAMS, variant="soft"),
                rx.vstack(
                    rx.text("League: ", rx.link(s.league_name, href=routes.DASH_LEAGUES + "/" + s.lid), " · ", f["status"]),
                    rx.cond(
                        s.can_manage,
                        rx.form(
                            rx.vstack(
                                rx.cond(
                                    s.can_edit_name,
                                    rx.fragment(
                                        field("Team Name", text_input("team_name", max_length=100, default_value=f["team_name"]),
                                              field_id="team_name", error=s.errors.get("team_name", "")),
                                        field("Paid", native_select("paid", [("true", "Yes"), ("false", "No")], default_value=f["paid"]),
                                              field_id="paid"),
                                    ),
                                    rx.fragment(
                                        rx.heading(f["team_name"], size="5", as_="h2"),
                                        rx.text("Paid: ", rx.cond(f["paid"] == "true", "Yes", "No")),
                                    ),
                                ),
                                rx.grid(
                                    field("Wins", text_input("wins", type="number", min=0, max=999, required=True, default_value=f["wins"]),
                                          field_id="wins", error=s.errors.get("wins", "")),
                                    field("Losses", text_input("losses", type="number", min=0, max=999, required=True, default_value=f["losses"]),
                                          field_id="losses", error=s.errors.get("losses", "")),
                                    columns="2",
                                    spacing="3",
                                    width="100%",
                                ),
                                rx.flex(
                                    rx.button("Update Team", type="submit", loading=s.saving),
                                    confirm_delete("Delete Team", "Are you sure you want to delete " + f["team_name"] + "?", s.delete),
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
                        rx.vstack(
                            rx.heading(f["team_name"], size="5", as_="h2"),
                            rx.text("Record: ", f["wins"], "-", f["losses"]),
                        ),
                    ),
                    spacing="4",
                    width="100%",
                ),
            ),
        )
    )  # fmt: skip


# --- waitlist -------------------------------------------------------------------------------------


class WaitlistState(AuthState):
    team_rows: list[dict[str, str]] = []
    can_promote: bool = False
    error: str = ""
    notice: str = ""
    loaded: bool = False

    async def load(self):
        self.notice = ""
        await self._fetch()

    async def _fetch(self):
        actor = await self._actor()
        found, failure = await run_action(svc.list_teams, actor=actor, waitlist=True)
        self.loaded = True
        if failure is not None:
            self.team_rows, self.can_promote, self.error = [], False, failure.message
            return
        self.error = ""
        self.can_promote = bool(actor and (actor.is_admin or actor.is_svl))
        league = self.router.url.query_parameters.get("league", "")
        self.team_rows = [_team_row(t) for t in _only_league(found, league)]

    async def promote(self, team_id: str):
        actor = await self._actor()
        team, failure = await run_action(svc.promote, actor=actor, team_id=team_id)
        if failure is not None:
            self.error, self.notice = failure.message, ""
            return
        await self._fetch()
        self.notice = f"{team.team_name} promoted; the captain has been emailed."


def _waitlist_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(row["team_name"]),
        rx.table.cell(rx.link(row["league_name"], href=row["league_href"])),
        rx.table.cell(row["captain"]),
        rx.table.cell(
            rx.cond(
                WaitlistState.can_promote,
                rx.button("Promote", size="1", on_click=WaitlistState.promote(row["id"])),
                rx.fragment(),
            )
        ),
    )


@page(routes.WAITLIST, "Waitlist", on_load=WaitlistState.load)
def waitlist_page() -> rx.Component:
    s = WaitlistState
    return dash_page(
        rx.vstack(
            page_heading("Waitlist"),
            error_text(s.error),
            rx.cond(
                s.notice != "", rx.callout(s.notice, icon="check", color_scheme="green", role="status"), rx.fragment()
            ),
            table_or_empty(
                ["Team", "League", "Captain", ""],
                s.team_rows,
                _waitlist_row,
                "No Waitlisted Teams",
                s.loaded & (s.error == ""),
            ),
            spacing="4",
            width="100%",
        )
    )
