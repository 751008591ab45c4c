"""The sub request form's state, shared by the new request forms and the requestor's edit form.

The form is uncontrolled and submitted whole; the server checks every field. The
service names two fields differently from the form's inputs (``when`` is ``date``,
``sub_format`` is ``format``): messages come back under the inputs' names.

Also the state of the two polled request lists (All Open Sub Requests, My Sub Requests) and the rows they show.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict

import reflex as rx

from volley_app import routes
from volley_app.services.accounts import venues
from volley_app.services.core import live
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import DomainError, Invalid
from volley_app.services.core.paging import Page
from volley_app.services.subs import request_lists, request_rows, subs_list
from volley_app.services.subs.subs_list import SubChoice
from volley_app.state.forms import FormState, form_values, run_action
from volley_app.state.paging import PagedList, PolledList

FORM_ERROR_ID = "sub-request-form-error"
DETAIL_FIELDS = ("team", "when", "svl", "court", "skill_level", "sub_format", "players_needed", "text", "position_needed",
                 "gender_needed", "min_rating")  # fmt: skip
SERVICE_NAMES = {"when": "date", "sub_format": "format"}
FORM_NAMES = {v: k for k, v in SERVICE_NAMES.items()}
# The request lists by page: the service that lists them for the actor.
REQUEST_LISTS: dict[str, Callable[..., Page]] = {
    routes.SUB_REQUESTS: request_lists.list_open,
    routes.MY_SUB_REQUESTS: request_lists.notifications,
}


class ListedRequest(TypedDict):
    """A request's row in a list as the browser gets it: strings only, its link, its day and time."""

    id: str
    href: str
    date: str
    time: str
    requestor: str
    sub: str
    status: str
    team: str
    svl: str
    court: str
    needs: str


def as_table_rows(found: list[request_rows.SubRequestRow]) -> list[ListedRequest]:
    """The browser's copy of request rows: strings only, no emails (the service gives none)."""
    return [_listed(r) for r in found]


def _listed(r: request_rows.SubRequestRow) -> ListedRequest:
    return {
        "requestor": r["requestor"], "sub": r["sub"], "status": r["status"], "team": r["team"], "svl": r["svl"],
        "court": r["court"], "needs": r["needs"],
        "id": str(r["id"]),
        "href": routes.sub_request_path(r["id"]),
        "date": r["date_text"],
        "time": r["time_text"],
    }  # fmt: skip


class RequestValues(TypedDict):
    """The request form's values by the service's names (``SERVICE_NAMES``), as typed."""

    team: str
    date: str
    svl: str
    court: str
    skill_level: str
    format: str
    players_needed: str
    text: str
    position_needed: str
    gender_needed: str
    min_rating: str


class RequestFormState(FormState, mixin=True):
    """The request form's submit: the form's values as the service's arguments, its messages by input."""

    _fields = (*DETAIL_FIELDS, "recipient")
    _error_id = FORM_ERROR_ID
    when_hint: rx.Field[str] = rx.field("")  # the zone the date and time are read in: the location's venue's
    default_hint: rx.Field[str] = rx.field("")  # a location no venue outside the default zone has
    venue_hints: rx.Field[str] = rx.field("{}")  # JSON: venue names (lower-cased) to their hints, picked in the browser as typed

    async def _load_hints(self, location: object = "") -> None:
        found, _failure = await run_action(venues.time_hints)
        self._show_hints(found, location)

    def _show_hints(self, found: dict[str, Any] | None, location: object = "") -> None:
        """Show the time-zone hints ``venues.time_hints`` gave (read beforehand), the one of ``location`` first."""
        found = found or {"default": "", "venues": {}}
        self.default_hint, self.venue_hints = found["default"], json.dumps(found["venues"])
        key = location.strip().casefold() if isinstance(location, str) else ""
        self.when_hint = found["venues"].get(key, found["default"])

    def _request_values(self, form_data: object) -> RequestValues:
        v = form_values(form_data, DETAIL_FIELDS)
        return {
            "team": v["team"], "date": v["when"], "svl": v["svl"], "court": v["court"], "skill_level": v["skill_level"],
            "format": v["sub_format"], "players_needed": v["players_needed"], "text": v["text"],
            "position_needed": v["position_needed"], "gender_needed": v["gender_needed"], "min_rating": v["min_rating"],
        }  # fmt: skip

    def _show_failure(self, failure: DomainError) -> None:
        if isinstance(failure, Invalid):
            failure = Invalid({FORM_NAMES.get(k, k): v for k, v in failure.errors.items()})
        super()._show_failure(failure)


class RequestListState(PolledList, mixin=True):
    """One page of a list of sub requests, read again on a timer while the tab stays on the list's page (spec section 7).

    A subclass names its page in ``_poll_path`` (a key of REQUEST_LISTS) and its interval in ``_poll_seconds``.
    """

    rows: rx.Field[list[ListedRequest]] = rx.field(default_factory=list)
    list_error: rx.Field[str] = rx.field("")
    _filter_names = request_lists.REQUEST_FILTERS

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        return await self._read_list(REQUEST_LISTS[self._poll_path], bookmark)

    def _show(self, rows: list[request_rows.SubRequestRow], failure: DomainError | None) -> None:
        self.rows = as_table_rows(rows)
        self.list_error = failure.message if failure and not isinstance(failure, Invalid) else ""

    def _live_interest(self) -> live.Interest:
        """The open list reads again when a request opens or closes to anyone; My Sub Requests when one of
        the user's changes."""
        if self._poll_path == routes.SUB_REQUESTS:
            return live.Interest(open_list=True)
        return live.Interest(user_id=getattr(self, "user_id", 0) or None)


class SubPickerList(PagedList, mixin=True):
    """The subs a request may name, one page at a time, found by name (``components.sub_requests.sub_picker``).

    ``sub_options`` are the select's options: the sub already chosen (kept on every page), then one page of
    subs by name. The list is read only while ``_open_picker`` turned it on. A subclass may read another list
    of subs in ``_choices`` and show a failure elsewhere in ``_picker_failed`` (by default: ``error``).
    """

    sub_options: rx.Field[list[SubChoice]] = rx.field(default_factory=list)
    _picking: bool = False
    _chosen: SubChoice | None = None

    if TYPE_CHECKING:  # the page's state is an AuthState, which reads the logged-in user, and has an error line
        error: rx.Field[str]

        async def _actor(self) -> Actor | None: ...

    async def _fetch(self, bookmark: str) -> tuple[Page | None, DomainError | None]:
        if not self._picking:
            return None, None
        return await self._choices(bookmark)

    async def _choices(
        self, bookmark: str, filters: dict[str, str] | None = None
    ) -> tuple[Page | None, DomainError | None]:
        """One page of the subs to pick from, as ``filters`` (by default ``self.filters``) find them."""
        return await run_action(subs_list.invite_choices, actor=await self._actor(),
                                filters=self.filters if filters is None else filters, bookmark=bookmark)  # fmt: skip

    def _show(self, rows: list[SubChoice], failure: DomainError | None) -> None:
        chosen = [self._chosen] if self._chosen and self._chosen not in rows else []
        self.sub_options = chosen + list(rows)
        if failure:
            self._picker_failed(failure.message)

    def _picker_failed(self, message: str) -> None:
        self.error = message

    async def _open_picker(self, picking: bool, chosen: SubChoice | None = None) -> None:
        """The picker's first page with no search (``picking``), or no picker and no options."""
        self._reset_filters()
        self._picking, self._chosen = picking, chosen if picking else None
        await self._first_page()

    async def _read_first_choices(self) -> tuple[Page | None, DomainError | None]:
        """The picker's first page with no search, read and not shown (see :meth:`_show_picker`)."""
        return await self._choices("", dict.fromkeys(self._filter_names, ""))

    def _show_picker(self, picking: bool, first: tuple[Page | None, DomainError | None] | None,
                     chosen: SubChoice | None = None, *, keep_search: bool = False) -> None:  # fmt: skip
        """As :meth:`_open_picker`, with its first page read beforehand (``first``, by :meth:`_read_first_choices`).

        ``keep_search``: a picker already open with a search typed in it stays as it is (the person's search and
        what it found), instead of going back to the first page with no search. So does a search the person sent
        while the page was still opening (it reached the server before the page's load)."""
        early, self._searched_early = self._searched_early, False
        if (keep_search or early) and picking and self._picking and any(self.filters.values()):
            return
        self._reset_filters()
        self._picking, self._chosen = picking, chosen if picking else None
        self._show_page(first if picking and first is not None else (None, None), 1)
