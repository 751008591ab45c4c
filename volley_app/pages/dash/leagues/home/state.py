"""The league home's state: the league, what this user may do there, the handlers of its sections, and the
Payments card's list (its first page read with the league as the page opens)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import reflex as rx

from volley_app import routes
from volley_app.components.league_form import LEAGUE_FIELDS
from volley_app.components.leagues import money, where
from volley_app.services.core import timefmt, uploads
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.operations import archive
from volley_app.services.operations.league_home import league_home
from volley_app.services.seasons import leagues as svc
from volley_app.services.seasons import scheduling
from volley_app.services.seasons.leagues import LeagueDetail
from volley_app.services.seasons.score_reports import CaptainGame, DisputedScore
from volley_app.services.teams import registration
from volley_app.settings import get_settings
from volley_app.state.auth import AuthState
from volley_app.state.files import backend_address
from volley_app.state.forms import RecordForms, flags, form_values, path_arg, run_action
from volley_app.state.paging import PagedList

ERROR_ID = "league-error"
EDIT_FIELDS = (*LEAGUE_FIELDS, "active")


def _teams_of(lg: LeagueDetail, held: int) -> str:
    """'3 of 8', and the places held by a checkout under way or an offer (they count as taken)."""
    shown = f"{lg['team_count']} of {lg['max_teams']}"
    return shown + (f" ({held} more place{'s' if held != 1 else ''} held for payment)" if held else "")


def info_of(lg: LeagueDetail, held: int = 0) -> dict[str, str]:
    """The League Info card's lines (``held``: the places held for payment)."""
    return {
        "name": lg["name"], "session": lg["session_name"], "svl": lg["svl_name"], "court": lg["court"],
        "start": timefmt.date_time(lg["start_at"], lg["zone"], labelled=True), "weeks": str(lg["number_of_weeks"]),
        "increment": f"{lg['time_increment']} minutes", "skill": lg["skill_level"], "format": lg["format"],
        "gender": lg["gender_requirement"] or "None", "day": lg["day"], "max_teams": str(lg["max_teams"]),
        "teams": str(lg["team_count"]), "teams_of": _teams_of(lg, held), "waitlist": str(lg["waitlist_count"]), "cost": money(lg["cost_cents"]),
        "cash": "Yes" if lg["cash"] else "No", "stage": lg["stage"], "active": "True" if lg["active"] else "False",
        "where": where(lg),
        "closes": timefmt.date_time(lg["registration_closes"], lg["zone"], labelled=True),
        "zone": f"{lg['zone'].replace('_', ' ')} ({timefmt.label(lg['start_at'], lg['zone'])})",
        "rules": "; ".join(lg["rules"]),
        "agent_fee": "" if lg["agent_fee_cents"] is None else money(lg["agent_fee_cents"]),
    }  # fmt: skip


def _rule_value(value: object) -> str:
    """A rule as the form shows it: blank for none, true/false for a choice."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def form_of(lg: LeagueDetail) -> dict[str, str]:
    """The edit form's defaults."""
    return {
        "court": lg["first_court"], "more_courts": lg["more_courts"], "start": timefmt.input_value(lg["start_at"], lg["zone"]), "number_of_weeks": str(lg["number_of_weeks"]),
        "time_increment": str(lg["time_increment"]), "skill_level": lg["skill_level"], "format": lg["raw_format"],
        "day": lg["day"], "gender_requirement": lg["gender_requirement"], "max_teams": str(lg["max_teams"]),
        "cost": f"{lg['cost_cents'] / 100:.2f}", "cash": "true" if lg["cash"] else "false",
        "offer_hold_hours": str(lg["offer_hold_hours"]), "ranking": lg["ranking"], "sets_to_play": lg["sets_to_play"],
        "registration_deadline": timefmt.input_value(lg["registration_deadline"], lg["zone"]),
        "active": "true" if lg["active"] else "false",
        "refund_full_until": timefmt.input_value(lg["refund_full_until"], lg["zone"]),
        "refund_until": timefmt.input_value(lg["refund_until"], lg["zone"]),
        "refund_fee": f"{lg['refund_fee_cents'] / 100:.2f}" if lg["refund_fee_cents"] else "",
        "payment_mode": lg["payment_mode"], "deposit": f"{lg['deposit_cents'] / 100:.2f}" if lg["deposit_cents"] else "",
        "shares_due": timefmt.input_value(lg["shares_due_at"], lg["zone"]),
        "agent_fee": "" if lg["agent_fee_cents"] is None else f"{lg['agent_fee_cents'] / 100:.2f}",
        **{k: _rule_value(v) for k, v in lg.items() if k in svc.RULE_FIELDS},
    }  # fmt: skip


def links_of(league_id: int) -> dict[str, str]:
    return {
        "schedule": routes.schedule_path(league_id), "standings": routes.standings_path(league_id),
        "rules": routes.league_rules_path(league_id), "waitlist": routes.waitlist_path(league_id),
        "teams": routes.teams_path(league_id), "register": routes.new_team_path(league_id),
        "audit": routes.audit_log_path(league_id), "bracket": routes.league_bracket_path(league_id),
        "message": routes.league_message_path(league_id), "waiver": routes.league_waiver_path(league_id),
        "rosters": routes.league_rosters_path(league_id), "free_agent": routes.free_agent_path(league_id),
        "free_agents": routes.free_agents_path(league_id),
    }  # fmt: skip


class LeaguePaymentsState(PagedList, AuthState):
    """The payments of the league the address names; none for those who do not manage it. Its first page comes
    with the league home (``LeagueHomeState.load``); its later pages and searches are read here."""

    payment_rows: rx.Field[list[dict[str, str]]] = rx.field(default_factory=list)
    money: rx.Field[dict[str, str]] = rx.field(default_factory=dict)  # the league's totals, from the ledger
    _filter_names = registration.PAYMENT_FILTERS

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(registration.payments_page, bookmark, league_id=path_arg(self, "league_id"))

    def _show(self, rows: list, failure: DomainError | None) -> None:
        self.payment_rows = [{k: str(v) for k, v in p.items()} for p in rows]


# what the league's record says the reader may do (manage it, restore it) and sees (its audit log, the cash column,
# the schedule once made)
_SHOWS = ("can_manage", "can_restore", "show_audit", "show_cash", "schedule_generated")
# what the registration card offers: a place to register, or that the league is full
_REGISTRATION = ("may_register", "full")


class LeagueHomeState(RecordForms, AuthState):
    _fields = EDIT_FIELDS
    _error_id = ERROR_ID

    info: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    form: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    links: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    shows: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)  # what the reader may do and see: _SHOWS
    show_payments: rx.Field[bool] = rx.field(False)
    delete_question: rx.Field[str] = rx.field("")
    refund_plan: rx.Field[str] = rx.field("")  # what archiving would refund by the league's policy ("" nothing)
    bracket_url: rx.Field[str] = rx.field("")
    bracket_is_image: rx.Field[bool] = rx.field(False)
    missing: rx.Field[bool] = rx.field(False)
    registration: rx.Field[dict[str, bool]] = rx.field(default_factory=dict)  # may_register, full
    registration_note: rx.Field[str] = rx.field("")
    export_links: rx.Field[dict[str, str]] = rx.field(default_factory=dict)
    upload_error: rx.Field[str] = rx.field("")  # shown under the bracket upload, where the file was chosen
    bracket_generated: rx.Field[bool] = rx.field(False)
    my_games: rx.Field[list[CaptainGame]] = rx.field(default_factory=list)  # the games of the teams this user captains here, shown first
    disputed: rx.Field[list[DisputedScore]] = rx.field(default_factory=list)  # scores waiting for the operator

    def _league_id(self) -> str:
        return path_arg(self, "league_id")

    async def load(self):
        """The league home and its Payments card's first page, read in one call."""
        self.upload_error, self.notice = "", ""
        self._clear_messages()
        payments = await self.get_state(LeaguePaymentsState)
        payments._open_filters()
        await self._fetch(payments)

    async def _fetch(self, payments: LeaguePaymentsState | None = None) -> None:
        """The league as this user sees it; ``payments``: the Payments card, shown from its first page (as the page
        opens; after an action on the league the card stays as it is)."""
        filters = None if payments is None else dict(payments.filters)
        found, failure = await run_action(
            league_home, actor=await self._actor(), league_id=self._league_id(), payment_filters=filters
        )
        if payments is not None:
            page = None if found is None else found.payments
            payments._show_page((None, None) if page is None else (page.value, page.failure), 1)
            totals = None if found is None or found.money is None else found.money.value
            payments.money = {k: str(v) for k, v in totals.items()} if totals else {}
        if found is None:
            self.info, self.form, self.links, self.shows, self.bracket_url = {}, {}, {}, flags(None, *_SHOWS), ""
            self.show_payments, self.delete_question, self.refund_plan = False, "", ""
            self.error, self.missing = failure.message if failure else "", True
            self.registration = flags(None, *_REGISTRATION)
            self.bracket_generated, self.my_games, self.disputed = False, [], []
            self.export_links, self.registration_note = {}, ""
            return
        lg, offer = found.league, found.registration.value  # a part refused shows nothing, as its card did alone
        self.missing = False
        self.shows, self.show_payments = flags(lg, *_SHOWS), lg["show_payments"]
        self.delete_question = lg["delete_question"]
        self.refund_plan = found.refund_plan.value or ""
        self.info, self.form, self.links = info_of(lg, offer["held"] if offer else 0), form_of(lg), links_of(lg["id"])
        self.registration = flags(offer, *_REGISTRATION)
        self.registration_note = offer["closed_note"] if offer else ""
        self.export_links = {k: backend_address(v) for k, v in (found.export_links.value or {}).items()}
        self.bracket_generated = bool(found.bracket_generated.value)
        self.my_games, self.disputed = found.my_games.value or [], found.disputed.value or []
        self.bracket_is_image = lg["bracket_type"].startswith("image/")
        link = found.bracket_link.value
        self.bracket_url = backend_address(link) if link else ""
        self._show_record(self.form)

    @rx.event
    def save(self, form_data: dict):
        self.notice = ""
        data = form_values(form_data, self._fields)
        if not data["active"]:
            del data["active"]  # a form without the field leaves the flag as it is
        return self._submit(
            svc.update_league, done=lambda _row: rx.redirect(routes.DASH_LEAGUES), as_actor=True,
            league_id=self._league_id(), submitted=data,
        )  # fmt: skip

    @rx.event
    def delete(self):
        return self._submit(
            svc.delete_league, done=lambda _name: rx.redirect(routes.DASH_LEAGUES), league_id=self._league_id()
        )

    @rx.event
    def archive_and_refund(self):
        return self._submit(
            archive.archive_and_refund, done=lambda _name: rx.redirect(routes.DASH_LEAGUES), league_id=self._league_id()
        )

    @rx.event
    async def restore(self):
        await self._act(svc.restore_league, lambda name: f"{name} restored: it is listed again.")

    async def _act(self, fn, notice: Callable[[Any], str], **kwargs: Any) -> None:
        """Run one of the league's actions; its message on failure, else the league again and ``notice(result)``."""
        self.error, self.notice = "", ""
        result, failure = await run_action(fn, actor=await self._actor(), league_id=self._league_id(), **kwargs)
        if failure is not None:
            self.error = failure.message
            return
        await self._fetch()
        self.notice = notice(result)

    @rx.event
    async def redraw(self):
        await self._act(scheduling.redraw, lambda made: f"Unplayed weeks redrawn: {made} games. The captains were emailed.")

    @rx.event
    async def generate(self):
        await self._act(scheduling.generate, lambda made: f"Schedule generated: {made} games.")

    async def _may_upload(self) -> bool:
        """Asked before an upload's body is read (``state.uploads.UploadGuard``): the league's SVL or an admin."""
        found, _failure = await run_action(svc.managed, actor=await self._actor(), league_id=self._league_id())
        return found is not None

    @rx.event
    async def upload(self, files: list[rx.UploadFile]):
        """Store a new tournament bracket; the service checks its content and size."""
        self.upload_error = ""
        if not isinstance(files, list) or len(files) != 1 or not isinstance(files[0], rx.UploadFile):
            self.upload_error, self.notice = uploads.no_file_text(), ""
            return
        data = await files[0].read(get_settings().upload_max_bytes + 1)
        await self._act(svc.upload_bracket, lambda _row: "Tournament bracket uploaded.", data=data)
        self.upload_error, self.error = self.error, ""

    @rx.event
    def upload_rejected(self, _files=None):
        """The browser refused the chosen file (its type): say so under the upload."""
        self.upload_error, self.notice = uploads.allowed_text(), ""
