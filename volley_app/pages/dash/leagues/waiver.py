"""A league's waiver (/dash/leagues/{id}/waiver), for its operator: the text (each save a new version) and who signed."""

from __future__ import annotations

import reflex as rx
from reflex.vars import ObjectVar

from volley_app import routes
from volley_app.components.forms import area_field, error_line, form_messages, record_form, submit_button
from volley_app.components.layout import column, file_link, section_card
from volley_app.components.leagues import back_to_league
from volley_app.components.paging import pager, search_form
from volley_app.components.tables import row, table_or_empty
from volley_app.registry import Body, screen
from volley_app.services.core import timefmt
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.operations import league_waiver
from volley_app.services.teams import waivers
from volley_app.state.auth import AuthState
from volley_app.state.forms import FormState, form_values, path_arg, run_action
from volley_app.state.paging import PagedList

ERROR_ID = "league-waiver-error"
HEADERS = ["Name", "Team", "Typed name", "Age", "Version", "Signed"]


def _version_line(found: waivers.WaiverVersion | None) -> str:
    if found is None:
        return "No waiver yet: members have nothing to sign until you save one."
    by = f" by {found['created_by']}" if found["created_by"] else ""
    return f"Version {found['version']}, saved {timefmt.date_time(found['created_at'], found['zone'], labelled=True)}{by}."


class LeagueWaiverState(PagedList, FormState, AuthState):
    _fields = ("text",)
    _error_id = ERROR_ID

    league_name: rx.Field[str] = rx.field("")
    back: rx.Field[str] = rx.field("")
    denied: rx.Field[bool] = rx.field(False)
    text: rx.Field[str] = rx.field("")
    version: rx.Field[int] = rx.field(0)
    version_line: rx.Field[str] = rx.field("")
    export_link: rx.Field[str] = rx.field("")
    signatures: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    list_error: rx.Field[str] = rx.field("")
    notice: rx.Field[str] = rx.field("")

    _zone: str = ""

    def _show_waiver(self, found: waivers.WaiverVersion | None) -> None:
        self.text = found["text"] if found else ""
        self.version = found["version"] if found else 0
        self.version_line = _version_line(found)
        self._show_record()

    async def load(self):
        self._clear_messages()
        self.notice = ""
        self._open_filters()
        found, failure = await run_action(
            league_waiver.league_waiver_screen, actor=await self._actor(), league_id=path_arg(self, "league_id"),
            filters=self.filters,
        )  # fmt: skip
        if found is None:
            self.denied, self.league_name, self.back, self.export_link = True, "", "", ""
            self.error = failure.message if failure else ""
            self._show_waiver(None)
            self._show_page((None, None), 1)
            return
        self.denied, self.league_name, self.back = False, found.league_name, routes.league_path(found.league_id)
        self._zone, self.export_link = found.zone, found.export_link
        self._show_waiver(found.waiver)
        self._show_page((found.signatures.value, found.signatures.failure), 1)

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(waivers.signatures_page, bookmark, league_id=path_arg(self, "league_id"))

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.list_error = failure.message if failure else ""
        self.signatures = [
            {"name": r["name"], "username": r["username"], "team": r["team"], "typed_name": r["typed_name"],
             "age": f"Born {r['birth_date']}" if r["birth_date"] else f"{waivers.MINIMUM_AGE} or older (attested)",
             "version": str(r["version"]), "signed": timefmt.date_time(r["signed_at"], self._zone, labelled=True)}
            for r in rows
        ]  # fmt: skip

    def _saved(self, found: waivers.WaiverVersion) -> None:
        same = found["version"] == self.version
        self._show_waiver(found)
        self.notice = (f"No change: the text is version {found['version']}'s." if same else
                       f"Saved as version {found['version']}. Members sign it again before they play.")  # fmt: skip

    @rx.event
    def save(self, form_data: dict):
        self.notice = ""
        return self._submit(waivers.save_waiver, done=self._saved, league_id=path_arg(self, "league_id"),
                            submitted=form_values(form_data, self._fields))  # fmt: skip


def _signature(r: ObjectVar[dict[str, str]]) -> rx.Component:
    return row(rx.vstack(rx.text(r["name"]), rx.text("@" + r["username"], size="1", color_scheme="gray"), spacing="0"),
               r["team"], r["typed_name"], r["age"], r["version"], rx.text(r["signed"], class_name="nowrap"))  # fmt: skip


def _editor() -> rx.Component:
    s = LeagueWaiverState
    return section_card(
        "Waiver Text",
        rx.text(s.version_line, size="2", color_scheme="gray"),
        record_form(
            s,
            area_field("Waiver text", "text", s, rows="12", required=True, max_length=waivers.TEXT_MAX,
                       default_value=s.text, hint="Saving a changed text makes a new version: every member signs it again."),
            submit_button("Save", s, width="auto"),
            spacing="3",
        ),
    )  # fmt: skip


def _signatures() -> rx.Component:
    s = LeagueWaiverState
    return section_card(
        "Signatures",
        rx.cond(s.export_link != "", file_link("Download signatures", " (CSV)", href=s.export_link, size="2")),
        search_form(s, "Search signatures", placeholder="Name or username"),
        error_line(s.list_error),
        table_or_empty(HEADERS, s.signatures, _signature, "No signatures yet."),
        pager(s, "signatures"),
    )


@screen(routes.LEAGUE_WAIVER, "League Waiver", LeagueWaiverState, heading=lambda s: f"Waiver: {s.league_name}")
def league_waiver_page(s: type[LeagueWaiverState]) -> Body:
    return (
        form_messages(s, ERROR_ID),
        back_to_league(s.back),
        rx.cond(s.denied, rx.fragment(), column(_editor(), _signatures())),
    )
