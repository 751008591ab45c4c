"""A league's free agents (/dash/leagues/{id}/free-agents), for its SVL and admins: who registered alone, what they
play and when, placing each waiting one on a team with room on its roster (those short of players first), and
forming a new team of waiting agents."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import (
    NATIVE_CONTROL,
    error_of,
    field,
    stacked_form,
    submit_button,
    text_field,
)
from volley_app.components.layout import button_row, column, link_button, section_card
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import Body, record
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.teams import free_agents as svc
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action
from volley_app.state.paging import PagedList

ERROR_ID = "free-agents-error"
NO_AGENTS = "No player has registered as a free agent yet."
NO_MATCH = "No free agent matches this search."
HEADERS = ["Name", "Position", "Ratings", "Gender", "Availability", "Status", "Team"]


class FreeAgentsState(PagedList, FormState, AuthState):
    _fields = ("agent_id", "team_id", "agent_ids", "captain_id", "team_name")
    _error_id = ERROR_ID
    _filter_names = svc.AGENT_FILTERS

    found: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    agents: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    teams: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)  # value, label
    notice: rx.Field[str] = rx.field("")

    @rx.var
    def empty_text(self) -> str:
        """What an empty list says: nobody matches the search, or (no search) nobody registered."""
        return NO_MATCH if any(v for v in self.filters.values()) else NO_AGENTS

    def _league_id(self) -> str:
        return path_arg(self, "league_id")

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(svc.agents_page, bookmark, league_id=self._league_id())

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.agents = [{k: str(v) for k, v in r.items()} for r in rows]
        if failure is not None:
            self.error = failure.message

    def _show_teams(self, teams: list[svc.TeamChoice]) -> None:
        self.teams = [{"value": str(t["id"]), "label": f"{t['name']} ({t['players']} players"
                       f"{', short' if t['short'] else ''})"} for t in teams]  # fmt: skip

    async def load(self) -> None:
        """The league, the first page of its free agents and the teams to place them on, in one read."""
        self._clear_messages()
        self.notice = ""
        found = await self._open_screen(svc.operator_screen, lambda screen: screen.agents, league_id=self._league_id())
        self._show_teams(found.teams if found else [])
        self.found = {"league_name": found.league_name,
                      "league_href": routes.league_path(found.league_id)} if found else {}  # fmt: skip

    @rx.event
    async def refresh(self) -> None:
        """The page of the list shown and the teams read again, keeping what the last action said."""
        await self._refresh()
        teams, _failure = await run_action(svc.team_choices, actor=await self._actor(), league_id=self._league_id())
        self._show_teams(teams or [])

    def _placed(self, done: svc.Placed):
        self.notice = f"Placed on {done['team_name']}."
        return type(self).refresh

    @rx.event
    def place(self, form_data: dict[str, object]):
        self.notice = ""
        data = form_values(form_data, ("agent_id", "team_id"))
        return self._submit(svc.place, done=self._placed, agent_id=data["agent_id"], team_id=data["team_id"])


    @rx.event
    def form_team(self, form_data: dict[str, object]):
        """A new team of the ticked waiting agents, captained by the one chosen, under the name typed."""
        self.notice = ""
        sent = form_data if isinstance(form_data, dict) else {}
        ids = [k.removeprefix("agent-") for k, v in sent.items() if isinstance(k, str) and k.startswith("agent-") and v]
        data = form_values(form_data, ("captain_id", "team_name"))
        return self._submit(svc.form_team, done=self._formed, league_id=path_arg(self, "league_id"), agent_ids=ids,
                            captain_id=data["captain_id"], team_name=data["team_name"])  # fmt: skip

    def _formed(self, done: svc.Placed):
        self.notice, self.form_key = f"{done['team_name']} formed of free agents.", self.form_key + 1
        return type(self).refresh


def _tick(a: ObjectVar[dict[str, str]]) -> rx.Component:
    name = "agent-" + a["id"].to(str)
    return rx.cond(a["status"] == "waiting", rx.el.label(
        rx.el.input(type="checkbox", name=name, id=name, value="on", style={"width": "1.25rem", "height": "1.25rem"}),
        rx.text(a["name"], size="2"), html_for=name,
        style={"display": "flex", "gap": "0.5rem", "align_items": "center", "min_height": "44px"},
    ))  # fmt: skip


def _form_team() -> rx.Component:
    s = FreeAgentsState
    captain = rx.el.select(
        rx.el.option("Choose the captain", value=""),
        rx.foreach(s.agents, lambda a: rx.cond(a["status"] == "waiting", rx.el.option(a["name"], value=a["id"]))),
        name="captain_id", id="captain_id", required=True, style=NATIVE_CONTROL,
    )  # fmt: skip
    return stacked_form(
        rx.text("Tick the waiting free agents who play together; the team takes a free place in the league.",
                size="2"),
        rx.vstack(rx.foreach(s.agents, _tick), spacing="1"),
        rx.cond(error_of(s, "agent_ids") != "", rx.text(error_of(s, "agent_ids"), color_scheme="red", size="2")),
        field("Captain", captain, field_id="captain_id", error=error_of(s, "captain_id")),
        text_field("Team Name", "team_name", s, max_length=100),
        submit_button("Form team", s, width="auto"),
        on_submit=s.form_team, key=s.form_key.to_string(), spacing="3",
    )  # fmt: skip


def _place(a: ObjectVar[dict[str, str]]) -> rx.Component:
    s = FreeAgentsState
    return rx.form(
        rx.el.input(type="hidden", name="agent_id", value=a["id"]),
        rx.hstack(
            rx.el.select(rx.el.option("Choose a team", value=""),
                         rx.foreach(s.teams, lambda t: rx.el.option(t["label"], value=t["value"])),
                         name="team_id", id="team-" + a["id"], required=True, aria_label="Team for " + a["name"],
                         style=NATIVE_CONTROL),
            submit_button("Place", s, size="2", width="auto"),
            spacing="2", wrap="wrap",
        ),
        on_submit=s.place,
        method="post",
    )  # fmt: skip


def _agent_row(a: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(a["name"], a["position"], a["ratings"], a["gender"], a["availability"], a["status_label"],
               rx.cond(a["status"] == "waiting", _place(a), rx.text(a["team"])))  # fmt: skip


@record(routes.FREE_AGENTS, "Free agents", FreeAgentsState, ERROR_ID, name="league_name", shown="league_href")
def free_agents_page(s: type[FreeAgentsState], f: ObjectVar[dict[str, str]]) -> Body:
    return (
        section_card("Free agents", column(
            search_form(s, "Search free agents", placeholder="Name or username"),
            table_or_empty(HEADERS, s.agents, _agent_row, s.empty_text),
            pager(s, "free agents"),
        )),
        rx.cond(s.agents.length() > 0, section_card("Form a team of free agents", _form_team(), max_width="36rem")),
        button_row(link_button("Back to the league", href=f["league_href"], variant="soft", size="2")),
    )  # fmt: skip
