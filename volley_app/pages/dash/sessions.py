"""Sessions (SVL and admin): list (/dash/sessions), new, edit (/dash/sessions/{id}), a session's leagues."""

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
from volley_app.services import leagues as league_svc
from volley_app.services import sessions as svc
from volley_app.services import timefmt
from volley_app.state.auth import AuthState
from volley_app.state.forms import run_action

POLL_MS = 15_000


def _row(s: dict) -> dict[str, str]:
    return {
        "id": str(s["id"]),
        "name": s["name"],
        "svl_name": s["svl_name"],
        "status": s["status"],
        "dates": timefmt.date_range(s["start_at"], s["end_at"]),
        "href": routes.session_path(s["id"]),
    }


class SessionsState(AuthState):
    """The sessions list: an SVL's own current sessions, or every session for an admin."""

    session_rows: list[dict[str, str]] = []
    error: str = ""
    loaded: bool = False

    async def load(self):
        actor = await self._actor()
        found, failure = await run_action(svc.list_sessions, actor=actor)
        if failure is not None:
            self.session_rows, self.error, self.loaded = [], failure.message, True
            return
        self.session_rows, self.error, self.loaded = [_row(s) for s in found], "", True

    async def poll(self, _value=None):
        """Refetch every 15 s while the list is open (spec section 7)."""
        await self.load()


def _session_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(
            rx.vstack(
                rx.text(row["name"], weight="medium"),
                link_button("Select Session", href=row["href"], size="1", variant="soft"),
                spacing="2",
                align="start",
            )
        ),
        rx.table.cell(row["svl_name"]),
        rx.table.cell(row["dates"]),
        rx.table.cell(rx.badge(row["status"], color_scheme=rx.cond(row["status"] == "Active", "green", "blue"))),
    )


@page(routes.SESSIONS, "Sessions", on_load=SessionsState.load)
def sessions_page() -> rx.Component:
    return dash_page(
        rx.vstack(
            rx.flex(
                page_heading(rx.cond(AuthState.status == "Admin", "All Sessions", "My Sessions")),
                rx.flex(
                    link_button("Leagues", href=routes.DASH_LEAGUES, variant="soft"),
                    link_button("Teams", href=routes.TEAMS, variant="soft"),
                    link_button("Waitlist", href=routes.WAITLIST, variant="soft"),
                    link_button("Add Session", href=routes.SESSIONS_NEW),
                    spacing="2",
                    wrap="wrap",
                ),
                justify="between",
                align="center",
                width="100%",
                wrap="wrap",
                spacing="3",
            ),
            error_text(SessionsState.error),
            table_or_empty(
                ["Session", "SVL", "Dates", "Status"],
                SessionsState.session_rows,
                _session_row,
                "No Sessions Yet",
                SessionsState.loaded & (SessionsState.error == ""),
            ),
            rx.moment(interval=POLL_MS, on_change=SessionsState.poll, display="none"),
            spacing="4",
            width="100%",
        )
    )


# --- new -------------------------------------------------------------------------------


class NewSessionState(AuthState):
    svl_options: list[dict[str, str]] = []
    choose_svl: bool = False
    errors: dict[str, str] = {}
    error: str = ""
    saving: bool = False

    async def load(self):
        actor = await self._actor()
        self.errors, self.error, self.saving = {}, "", False
        self.choose_svl = bool(actor and actor.is_admin)
        if self.choose_svl:
            found, failure = await run_action(svc.svl_choices, actor=actor)
            self.svl_options = [{"value": str(o["id"]), "label": o["name"]} for o in (found or [])]
        else:
            self.svl_options = []

    async def create(self, form_data: dict):
        if self.saving:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.saving, self.errors, self.error = True, {}, ""
        yield
        actor = await self._actor()
        row, failure = await run_action(
            svc.create_session, actor=actor, name=data.get("name"), start=data.get("start"), end=data.get("end"),
            svl_id=data.get("svl"),
        )  # fmt: skip
        self.saving = False
        if failure is not None:
            self.errors = dict(getattr(failure, "errors", {}) or {})
            self.error = failure.message
            return
        yield rx.redirect(routes.session_path(row.id))


def _session_fields(state, defaults: dict | None = None) -> list[rx.Component]:
    d = defaults or {}
    return [
        field("Name", text_input("name", required=True, max_length=120, default_value=d.get("name", "")),
              field_id="name", error=state.errors.get("name", "")),
        field("Start", text_input("start", type="datetime-local", required=True, default_value=d.get("start", "")),
              field_id="start", error=state.errors.get("start", "")),
        field("End", text_input("end", type="datetime-local", required=True, default_value=d.get("end", "")),
              field_id="end", error=state.errors.get("end", "")),
    ]  # fmt: skip


@page(routes.SESSIONS_NEW, "New Session", on_load=NewSessionState.load)
def new_session_page() -> rx.Component:
    return dash_page(
        form_card(
            "New Session",
            error_text(NewSessionState.error),
            rx.form(
                rx.vstack(
                    rx.cond(
                        NewSessionState.choose_svl,
                        field(
                            "SVL",
                            native_select("svl", NewSessionState.svl_options, placeholder="Choose an SVL"),
                            field_id="svl",
                            error=NewSessionState.errors.get("svl", ""),
                        ),  # fmt: skip
                        rx.fragment(),
                    ),
                    *_session_fields(NewSessionState),
                    rx.button("Create Session", type="submit", size="3", width="100%", loading=NewSessionState.saving),
                    spacing="4",
                    width="100%",
                ),
                on_submit=NewSessionState.create,
                width="100%",
            ),
        )
    )


# --- edit --------------------------------------------------------------------------------


class EditSessionState(AuthState):
    sid: str = ""
    name: str = ""
    start: str = ""
    end: str = ""
    session_status: str = ""
    svl_name: str = ""
    form_key: int = 0
    league_count: int = 0
    errors: dict[str, str] = {}
    error: str = ""
    denied: bool = False
    saving: bool = False

    def _id(self) -> str:
        return path_part(self.router.url.path, 2)

    async def load(self):
        self.errors, self.error, self.denied, self.saving = {}, "", False, False
        self.sid = ""
        actor = await self._actor()
        found, failure = await run_action(svc.get_session, actor=actor, session_id=self._id())
        if failure is not None:
            self.name = self.start = self.end = self.session_status = self.svl_name = ""
            self.error, self.denied = failure.message, True
            return
        self.sid = str(found["id"])
        self.name = found["name"]
        self.start = timefmt.input_value(found["start_at"])
        self.end = timefmt.input_value(found["end_at"])
        self.session_status = found["status"]
        self.svl_name = found["svl_name"]
        self.league_count = len(found["league_ids"])
        self.form_key += 1

    async def save(self, form_data: dict):
        if self.saving:
            return
        data = form_data if isinstance(form_data, dict) else {}
        self.saving, self.errors, self.error = True, {}, ""
        yield
        actor = await self._actor()
        _row, failure = await run_action(
            svc.update_session, actor=actor, session_id=self._id(), name=data.get("name"), start=data.get("start"),
            end=data.get("end"),
        )  # fmt: skip
        self.saving = False
        if failure is not None:
            self.errors = dict(getattr(failure, "errors", {}) or {})
            self.error = failure.message
            return
        yield rx.redirect(routes.SESSIONS)

    async def delete(self):
        actor = await self._actor()
        _name, failure = await run_action(svc.delete_session, actor=actor, session_id=self._id())
        if failure is not None:
            self.error = failure.message
            return None
        return rx.redirect(routes.SESSIONS)


@page(routes.SESSION_EDIT, "Session", on_load=EditSessionState.load)
def edit_session_page() -> rx.Component:
    s = EditSessionState
    return dash_page(
        rx.cond(
            s.denied,
            rx.vstack(
                page_heading("Session"),
                error_text(s.error),
                link_button("Back to Sessions", href=routes.SESSIONS, variant="soft"),
            ),
            rx.vstack(
                page_heading(s.name),
                rx.text(s.svl_name, " · ", rx.badge(s.session_status), color_scheme="gray"),
                rx.flex(
                    link_button("View Leagues", href=routes.SESSION_LEAGUES + "?session=" + s.sid, variant="soft"),
                    link_button("Add League", href=routes.LEAGUES_NEW + "?session=" + s.sid),
                    spacing="3",
                    wrap="wrap",
                ),
                rx.card(
                    rx.vstack(
                        rx.heading("Edit Session", size="4", as_="h2"),
                        error_text(s.error),
                        rx.form(
                            rx.vstack(
                                *_session_fields(s, {"name": s.name, "start": s.start, "end": s.end}),
                                rx.flex(
                                    rx.button("Update Session", type="submit", loading=s.saving),
                                    confirm_delete(
                                        "Delete Session",
                                        "Are you sure you want to delete Session: " + s.name + "?",
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
                        spacing="3",
                        width="100%",
                    ),
                    width="100%",
                    max_width="32rem",
                ),
                spacing="4",
                width="100%",
            ),
        )
    )


# --- a session's leagues --------------------------------------------------------------------


class SessionLeaguesState(AuthState):
    session_name: str = ""
    sid: str = ""
    league_rows: list[dict[str, str]] = []
    error: str = ""

    async def load(self):
        actor = await self._actor()
        sid = self.router.url.query_parameters.get("session", "")
        found, failure = await run_action(svc.get_session, actor=actor, session_id=sid)
        if failure is not None:
            self.session_name, self.sid, self.league_rows, self.error = "", "", [], failure.message
            return
        listed, failure = await run_action(league_svc.list_leagues, actor=actor, session_id=sid)
        if failure is not None:
            self.league_rows, self.error = [], failure.message
            return
        self.session_name, self.sid, self.error = found["name"], str(found["id"]), ""
        self.league_rows = [
            {"name": lg["name"], "court": lg["court"], "start": timefmt.date_time(lg["start_at"]), "stage": lg["stage"],
             "active": "Yes" if lg["active"] else "No", "href": routes.league_path(lg["id"])}
            for lg in listed
        ]  # fmt: skip


def _league_row(row: rx.Var) -> rx.Component:
    return rx.table.row(
        rx.table.cell(rx.link(row["name"], href=row["href"])),
        rx.table.cell(row["court"]),
        rx.table.cell(row["start"]),
        rx.table.cell(row["stage"]),
        rx.table.cell(row["active"]),
    )


@page(routes.SESSION_LEAGUES, "Session Leagues", on_load=SessionLeaguesState.load)
def session_leagues_page() -> rx.Component:
    s = SessionLeaguesState
    return dash_page(
        rx.vstack(
            page_heading("Leagues: ", s.session_name),
            error_text(s.error),
            rx.cond(
                s.sid != "",
                rx.flex(
                    link_button("Add League", href=routes.LEAGUES_NEW + "?session=" + s.sid),
                    link_button("Back to Session", href=routes.SESSIONS + "/" + s.sid, variant="soft"),
                    spacing="3",
                ),
                rx.fragment(),
            ),
            table_or_empty(
                ["League", "Court", "Starts", "Stage", "Active"],
                s.league_rows,
                _league_row,
                "No leagues in this session yet.",
                s.error == "",
            ),
            spacing="4",
            width="100%",
        )
    )
