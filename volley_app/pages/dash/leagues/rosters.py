"""A league's rosters (/dash/leagues/{id}/rosters): every member of every team, a page at a time, searchable by
name, username or team, with the CSV of them all (its SVL and admins); each member's playoff standing when the
league sets a minimum, and the playoff subs awaiting the operator's approval, to approve or refuse."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import confirm_delete, error_line, form_messages
from volley_app.components.layout import button_row, column, link_button
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import Body, screen
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.operations import exports, playoff_subs
from volley_app.services.operations.playoff_subs import PendingSub
from volley_app.services.teams import rosters
from volley_app.services.teams.rosters import LeagueRosterRow
from volley_app.state.auth import AuthState
from volley_app.state.files import backend_address
from volley_app.state.forms import FormState, path_arg, run_action
from volley_app.state.paging import TableList

HEADERS = ["Team", "Name", "Username", "Role", "Gender", "Joined"]


class LeagueRostersState(TableList, AuthState):
    members: rx.Field[list[LeagueRosterRow]] = rx.field(default_factory=list)
    league_href: rx.Field[str] = rx.field("")
    _filter_names = rosters.ROSTER_FILTERS

    def _league_id(self) -> str:
        return path_arg(self, "league_id")

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(rosters.league_rosters, bookmark, league_id=self._league_id())

    def _show_rows(self, rows: list[LeagueRosterRow]) -> None:
        self.members = list(rows)

    async def load(self) -> None:
        """The first page of members and the playoff subs awaiting approval, in one read."""
        self.league_href = routes.league_path(self._league_id())
        found = await self._open_screen(playoff_subs.rosters_screen, lambda screen: screen.members,
                                        league_id=self._league_id())  # fmt: skip
        waiting = await self.get_state(PlayoffSubsState)
        waiting._opened(found.pending if found is not None else [])

    @rx.event
    async def download(self):
        """The rosters' CSV, by a link signed for this reader."""
        found, failure = await run_action(exports.export_links, actor=await self._actor(), league_id=self._league_id())
        if failure is not None or not found:
            self.error = failure.message if failure else ""
            return None
        return rx.redirect(backend_address(found["rosters"]), is_external=True)


PLAYOFF_SUBS_ERROR_ID = "playoff-subs-error"


class PlayoffSubsState(FormState, AuthState):
    """The league's playoff subs awaiting the operator's approval, and the operator's verdicts."""

    _error_id = PLAYOFF_SUBS_ERROR_ID

    pending: rx.Field[list[PendingSub]] = rx.field(default_factory=list)
    notice: rx.Field[str] = rx.field("")

    def _league_id(self) -> str:
        return path_arg(self, "league_id")

    def _opened(self, pending: list[PendingSub]) -> None:
        """The page opened: what waits, and no message from before."""
        self._clear_messages()
        self.notice, self.pending = "", pending

    @rx.event
    async def load(self) -> None:
        """What waits, read again after a verdict."""
        found, _failure = await run_action(playoff_subs.pending, actor=await self._actor(), league_id=self._league_id())
        self.pending = list(found or [])  # a reader who may not see them sees the rosters' own refusal

    def _done(self, notice: str):
        def after(_result: object) -> object:
            self.notice = notice
            return PlayoffSubsState.load

        return after

    @rx.event
    def approve(self, place_id: str):
        self.notice = ""
        return self._submit(playoff_subs.approve, done=self._done("Sub approved"), place_id=place_id)

    @rx.event
    def refuse(self, place_id: str):
        self.notice = ""
        return self._submit(playoff_subs.refuse, done=self._done("Sub refused: the place is open again"),
                            place_id=place_id)  # fmt: skip


def _pending(p: ObjectVar[PendingSub]) -> rx.Component:
    s = PlayoffSubsState
    pid = p["place_id"].to_string()
    refuse = confirm_delete("Refuse", "Refuse " + p["sub"].to(str) + " as a sub for " + p["team"].to(str)
                            + "? The place opens to other subs.", s.refuse(pid), confirm_label="Refuse")  # type: ignore[operator]  # rx.event is typed by a __new__ mypy skips
    return rx.card(
        rx.vstack(
            rx.flex(rx.text(p["sub"], weight="medium"), rx.text("for ", p["team"], size="2"), spacing="2", wrap="wrap"),
            rx.text(p["when"], " · asked by ", p["requestor"], size="2", color_scheme="gray"),
            button_row(
                rx.button("Approve", size="2", type="button", on_click=s.approve(pid)),  # type: ignore[operator]  # as above
                refuse,
                link_button("Open the sub request", href=p["request_href"].to(str), variant="soft", size="2"),
                spacing="2",
            ),
            spacing="1",
            width="100%",
        ),
        width="100%",
        custom_attrs={"data-testid": "pending-playoff-sub"},
    )


def playoff_subs_section() -> rx.Component:
    s = PlayoffSubsState
    return rx.cond(
        (s.pending.length() > 0) | (s.notice != "") | (s.error != ""),
        column(
            rx.heading("Playoff subs awaiting approval", size="4", as_="h2"),
            form_messages(s, PLAYOFF_SUBS_ERROR_ID),
            rx.vstack(rx.foreach(s.pending, _pending), spacing="2", width="100%"),
        ),
        rx.fragment(),
    )


def _member(r: ObjectVar[LeagueRosterRow]) -> rx.Component:
    team = rx.link(r["team_name"], href=routes.TEAMS + "/" + r["team_id"].to_string())
    name = rx.vstack(
        rx.text(r["name"]),
        rx.cond(r["playoff"] != "", rx.text(r["playoff"], size="1", color_scheme=rx.cond(r["playoff_eligible"], "gray", "red")),
                rx.fragment()),
        spacing="0",
        min_width="11rem",  # the standing wraps in a column of its own width, not a word a line
    )  # fmt: skip
    return row(team, name, r["username"], r["role"], r["gender"], r["joined"])


@screen(routes.LEAGUE_ROSTERS, "Rosters", LeagueRostersState)
def league_rosters_page(s: type[LeagueRostersState]) -> Body:
    return (
        button_row(
            link_button("Back to the league", href=s.league_href, variant="soft", size="2"),
            rx.button("Download the rosters (CSV)", on_click=s.download, variant="soft", size="2", type="button"),
        ),
        playoff_subs_section(),
        search_form(s, "Search rosters", placeholder="Name, username or team"),
        error_line(s.error),
        table_or_empty(HEADERS, s.members, _member, "No players found on the league's teams.", s.loaded & (s.error == "")),
        pager(s, "players"),
    )
