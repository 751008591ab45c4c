"""The states of a request's Suggested subs panel, its Played / No-show marks, and a sub's availability card.

Each holds what its panel shows; the services decide who may see and change what.
"""

from __future__ import annotations

from typing import Any, TypedDict

import reflex as rx

from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.subs import availability, matching
from volley_app.services.subs.matching import Outcomes, SuggestionRow
from volley_app.state.auth import AuthState
from volley_app.state.forms import failure_text, form_values, path_arg, run_action
from volley_app.state.paging import PagedList

INVITED = "Invited. The sub has been emailed."
MARKED = "Saved: {name} {outcome}."
SUGGESTIONS_ERROR_ID = "suggestions-error"


class SuggestedSub(TypedDict):
    """A suggested sub as the browser gets them: strings only (``eligible`` "1" or ""), never an email."""

    id: str
    name: str
    gender: str
    reason: str
    ratings: str
    record: str
    eligible: str


class Mark(TypedDict):
    """A sub who took a place, as the marks show them: id, name, their mark ("" when not marked yet)."""

    id: str
    name: str
    outcome: str


def _flat(r: SuggestionRow) -> SuggestedSub:
    """A suggested sub as the browser gets it: strings, never an email."""
    return {
        "id": str(r["id"]), "name": r["name"], "gender": r["gender"] or "-", "reason": r["reason"],
        "ratings": f"H {r['hitter'] or '-'} · P {r['passer'] or '-'} · S {r['setter'] or '-'}",
        "record": f"{r['played']} played, {r['no_shows']} no-show{'' if r['no_shows'] == 1 else 's'}",
        "eligible": "1" if r["eligible"] else "",
    }  # fmt: skip


class SuggestionsState(PagedList, AuthState):
    """A request's suggested subs, a page at a time (the requestor's and admins' only)."""

    suggestions_shown: rx.Field[bool] = rx.field(False)
    show_ineligible: rx.Field[bool] = rx.field(False)
    suggested: rx.Field[list[SuggestedSub]] = rx.field(default_factory=list)
    needs: rx.Field[str] = rx.field("")
    can_invite: rx.Field[bool] = rx.field(False)
    suggest_error: rx.Field[str] = rx.field("")
    suggest_notice: rx.Field[str] = rx.field("")
    _extra: dict[str, Any] = {}

    def _request_id(self) -> str:
        return path_arg(self, "request_id")

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        show = "ineligible" if self.show_ineligible else "eligible"
        return await run_action(
            matching.suggestions, actor=await self._actor(), request_id=self._request_id(), show=show, bookmark=bookmark,
            size=10,
        )  # fmt: skip

    def _show_page(self, found: tuple[Page | None, DomainError | None], first: int) -> None:
        page, _failure = found
        self._extra = page.extra if page else {}
        super()._show_page(found, first)

    def _show(self, rows: list[SuggestionRow], failure: DomainError | None) -> None:
        self.suggested = [_flat(r) for r in rows]
        self.suggestions_shown = failure is None
        self.needs = self._extra.get("needs", "")
        self.can_invite = bool(self._extra.get("can_invite"))

    async def load(self):
        self.show_ineligible, self.suggest_error, self.suggest_notice = False, "", ""
        await self._first_page()

    def _open_read(self, first: tuple[Page | None, DomainError | None]) -> None:
        """As :meth:`load`, with the first page of suggestions read beforehand (``first``)."""
        self.show_ineligible, self.suggest_error, self.suggest_notice = False, "", ""
        self._show_page(first, 1)

    @rx.event
    async def toggle_ineligible(self):
        """Show the subs who may not take it, with why; or back to the suggestions."""
        self.show_ineligible = not self.show_ineligible
        await self._first_page()

    @rx.event
    async def invite(self, sub_id: str):
        """Invite one suggested sub (the server checks the requestor and that the sub may take it)."""
        self.suggest_error, self.suggest_notice = "", ""
        _, failure = await run_action(matching.invite, actor=await self._actor(), request_id=self._request_id(),
                                      sub_id=sub_id)  # fmt: skip
        if failure:
            self.suggest_error = failure_text(failure)
        else:
            self.suggest_notice = INVITED
        await self._refresh()


class OutcomeState(AuthState):
    """After the game, the requestor says of each sub who took a place whether they played or did not show."""

    can_mark: rx.Field[bool] = rx.field(False)
    # each sub who took a place: id, name, and their mark ("" when not marked yet)
    marks: rx.Field[list[Mark]] = rx.field(default_factory=list)
    outcome_error: rx.Field[str] = rx.field("")
    outcome_notice: rx.Field[str] = rx.field("")

    async def load(self):
        self.outcome_error, self.outcome_notice = "", ""
        await self._read()

    def _open_read(self, found: Outcomes | None) -> None:
        """As :meth:`load`, with the marks read beforehand (``found``, None when the viewer may not mark)."""
        self.outcome_error, self.outcome_notice = "", ""
        self._show_marks(found)

    async def _read(self) -> None:
        self._show_marks(await self._read_marks())

    async def _read_marks(self) -> Outcomes | None:
        """What :meth:`_read` shows, read and not shown (a poll reads it with the state unlocked); None when the
        viewer may not mark the request's subs."""
        found, _f = await run_action(matching.outcome_info, actor=await self._actor(),
                                     request_id=path_arg(self, "request_id"))  # fmt: skip
        return found

    def _show_marks(self, found: Outcomes | None) -> None:
        self.can_mark = bool(found and found["can_mark"])
        subs = found["subs"] if found else []
        self.marks = [{"id": str(r["id"]), "name": r["name"], "outcome": r["outcome"]} for r in subs]

    @rx.event
    async def mark(self, sub_id: str, outcome: str):
        """Mark one sub (the server checks the requestor, the window, and that the sub took a place)."""
        self.outcome_error, self.outcome_notice = "", ""
        _, failure = await run_action(matching.mark_outcome, actor=await self._actor(),
                                      request_id=path_arg(self, "request_id"), sub_id=sub_id, outcome=outcome)  # fmt: skip
        if failure:
            self.outcome_error = failure_text(failure)
        await self._read()
        if not failure:
            name = next((r["name"] for r in self.marks if r["id"] == str(sub_id)), "")
            self.outcome_notice = MARKED.format(name=name, outcome=outcome)


class AvailabilityState(AuthState):
    """The sub's weekdays, weekly cap and dates they cannot play, on Edit Info."""

    avail_days: rx.Field[list[str]] = rx.field(default_factory=list)
    avail_cap: rx.Field[str] = rx.field("")
    avail_dates: rx.Field[list[str]] = rx.field(default_factory=list)
    avail_summary: rx.Field[str] = rx.field("")
    avail_loaded: rx.Field[bool] = rx.field(False)
    avail_error: rx.Field[str] = rx.field("")
    avail_notice: rx.Field[str] = rx.field("")
    avail_key: rx.Field[int] = rx.field(0)

    def _user_id(self) -> str:
        return path_arg(self, "user_id")

    def _show_on_open(self, found: dict | None, failure: DomainError | None) -> None:
        """Show the days and dates as Edit Info read them (``availability.get``); refused, nothing to edit."""
        self.avail_error, self.avail_notice = "", ""
        self._show_days(found, failure)

    async def _read(self) -> None:
        found, failure = await run_action(availability.get, actor=await self._actor(), user_id=self._user_id())
        self._show_days(found, failure)

    def _show_days(self, found: dict | None, failure: DomainError | None) -> None:
        self.avail_loaded = failure is None
        if found:
            self.avail_days, self.avail_cap, self.avail_dates = found["days"], found["cap"], found["dates"]
            self.avail_summary = found["days_text"]
        self.avail_key += 1

    async def _change(self, change, **kwargs) -> bool:
        """Make the availability ``change`` for the user shown; False when refused (and why shown)."""
        self.avail_error, self.avail_notice = "", ""
        _, failure = await run_action(change, actor=await self._actor(), user_id=self._user_id(), **kwargs)
        if failure:
            self.avail_error = failure_text(failure)
        return failure is None

    @rx.event
    async def save_week(self, form_data: dict | None = None):
        data = form_data if isinstance(form_data, dict) else {}
        days = [d for d in availability.DAYS if data.get(f"day-{d}") not in (None, "", False)]
        if await self._change(availability.save_week, days=days, cap=form_values(data, ("cap",))["cap"]):
            self.avail_notice = availability.SAVED
            await self._read()

    @rx.event
    async def add_date(self, form_data: dict | None = None):
        if await self._change(availability.add_date, day=form_values(form_data, ("day",))["day"]):
            await self._read()

    @rx.event
    async def remove_date(self, day: str):
        await self._change(availability.remove_date, day=day)
        await self._read()
