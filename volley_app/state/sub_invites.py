"""The requestor's ordered invite list on a request's page: pick subs in order, reorder, invite; the queue's progress.

The list being built lives in this tab only (ids and names); the service checks every id on submit. The subs to
pick from are found by name, one page at a time (``SubPickerList``), among those the requestor may invite.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

import reflex as rx

from volley_app import routes
from volley_app.services.core.errors import DomainError
from volley_app.services.core.paging import Page
from volley_app.services.subs import invites, matching, subs_list
from volley_app.services.subs.invites import InviteRow
from volley_app.services.subs.request_lists import SubRequestDetail
from volley_app.services.subs.subs_list import SubChoice
from volley_app.state.auth import AuthState
from volley_app.state.forms import failure_text, focus, form_values, path_arg, run_action
from volley_app.state.sub_requests import SubPickerList

QUEUE_ERROR_ID = "invite-queue-error"
INVITED = "Invitations sent in order: the first sub is invited now."
# "Best first, automatically": how many of the best suggested subs make the list.
BEST = 5


def _index(value: object, size: int) -> int | None:
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else ""
    return int(text) if text.isdigit() and int(text) < size else None


class QueueRead(TypedDict):
    """What the invite list shows of a request (None: it could not be read), and the first page of subs to pick
    from when its requestor may invite."""

    found: SubRequestDetail | None
    choices: NotRequired[tuple[Page | None, DomainError | None]]


class InviteQueueState(SubPickerList, AuthState):
    """The invite list of the request on the page: it shows the request as the page read it (``_open_queue``,
    ``_refresh_queue``), so the request is read once for the page and its list."""

    picks: rx.Field[list[SubChoice]] = rx.field(default_factory=list)
    queue: rx.Field[list[InviteRow]] = rx.field(default_factory=list)
    places: rx.Field[list[str]] = rx.field(default_factory=list)
    players: rx.Field[str] = rx.field("")
    can_invite: rx.Field[bool] = rx.field(False)
    queue_error: rx.Field[str] = rx.field("")
    queue_notice: rx.Field[str] = rx.field("")
    _keep_notice: bool = False

    async def _open_queue(
        self, found: SubRequestDetail | None, choices: tuple[Page | None, DomainError | None] | None = None
    ) -> None:
        """The list as the page opens with the request ``found`` (None: it could not be read): no subs picked yet,
        no message but the one of an invite just sent. ``choices``: the picker's first page when the page read it
        with the request (else it is read here when the requestor may invite)."""
        self.picks, self.queue_error, self._picking = [], "", False
        if not self._keep_notice:
            self.queue_notice = ""
        self._keep_notice = False
        if choices is None:
            await self._refresh_queue(found)
        else:
            self._show_queue({"found": found, "choices": choices})

    async def _refresh_queue(self, found: SubRequestDetail | None) -> None:
        """The request's invite list and places as ``found`` has them; the picker opens (a first page, no search)
        when the requestor may invite, and stays where it is while they still may."""
        self._show_queue(await self._read_queue(found))

    async def _read_queue(self, found: SubRequestDetail | None) -> QueueRead:
        """What :meth:`_refresh_queue` shows, read and not shown: it assigns nothing and needs no other state (a poll
        reads it with the state unlocked). :meth:`_show_queue` shows it."""
        got: QueueRead = {"found": found}
        if found and found["can_invite_in_order"] and not self._picking:
            got["choices"] = await self._read_first_choices()
        return got

    def _show_queue(self, got: QueueRead) -> None:
        found = got["found"]
        if not found:
            self.queue, self.places, self.players, self.can_invite = [], [], "", False
            self._show_picker(False, None)
            return
        self.queue = list(found["invite_queue"])
        self.places = list(found["places"])
        needed = found["players_needed"]
        self.players = f"{found['places_filled']} of {needed} places taken" if needed > 1 else ""
        self.can_invite = bool(found["can_invite_in_order"])
        if not self.can_invite:
            self._show_picker(False, None)
        elif not self._picking and "choices" in got:
            self._show_picker(True, got["choices"])

    async def _choices(
        self, bookmark: str, filters: dict[str, str] | None = None
    ) -> tuple[Page | None, DomainError | None]:
        return await run_action(subs_list.invite_list_choices, actor=await self._actor(),
                                request_id=path_arg(self, "request_id"), filters=self.filters if filters is None else filters,
                                bookmark=bookmark)  # fmt: skip

    def _picker_failed(self, message: str) -> None:
        self.queue_error = message

    async def _option(self, sub_id: object) -> SubChoice | None:
        """The sub ``sub_id`` as the list shows them, when the requestor may put them on this request's list."""
        option, _f = await run_action(subs_list.invite_list_choice, actor=await self._actor(),
                                      request_id=path_arg(self, "request_id"), sub_id=sub_id)  # fmt: skip
        return option

    @rx.event
    async def add_pick(self, form_data: dict | None = None):
        """Add the sub chosen in the picker to the end of the list (once); the server names them."""
        chosen = form_values(form_data, ("pick",))["pick"]
        self.queue_error = ""
        option = await self._option(chosen) if chosen else None
        if option is None:
            self.queue_error = "Choose a sub to add"
            return focus(QUEUE_ERROR_ID)
        return None if self._add(option) else focus(QUEUE_ERROR_ID)

    def _add(self, option: SubChoice) -> bool:
        """Add one sub to the end of the list; False (with the message) when it is there already or full."""
        if any(p["value"] == option["value"] for p in self.picks):
            self.queue_error = f"{option['label']} is already on the list"
            return False
        if len(self.picks) >= invites.MAX_INVITES:
            self.queue_error = f"Invite at most {invites.MAX_INVITES} subs in one list"
            return False
        self.picks = [*self.picks, option]
        return True

    @rx.event
    async def add_suggested(self, sub_id: str):
        """Add a suggested sub to the end of the list (the server names them; the invite checks them again)."""
        self.queue_error = ""
        option = await self._option(sub_id)
        if not option:
            self.queue_error = "Choose a sub to add"
        elif self._add(option):
            return None
        return focus(QUEUE_ERROR_ID)

    @rx.event
    async def add_best(self):
        """Best first, automatically: the list becomes the best suggested subs, in their ranked order."""
        self.queue_error = ""
        page, failure = await run_action(matching.suggestions, actor=await self._actor(),
                                         request_id=path_arg(self, "request_id"), size=BEST)  # fmt: skip
        if failure or page is None or not page.rows:
            self.queue_error = failure.message if failure else "No sub fits this request yet"
            return focus(QUEUE_ERROR_ID)
        self.picks = [{"value": str(r["id"]), "label": r["name"]} for r in page.rows[:BEST]]
        return None

    @rx.event
    def move_up(self, index: str):
        i = _index(index, len(self.picks))
        if i:
            picks = list(self.picks)
            picks[i - 1], picks[i] = picks[i], picks[i - 1]
            self.picks = picks

    @rx.event
    def move_down(self, index: str):
        i = _index(index, len(self.picks))
        if i is not None and i + 1 < len(self.picks):
            picks = list(self.picks)
            picks[i + 1], picks[i] = picks[i], picks[i + 1]
            self.picks = picks

    @rx.event
    def remove(self, index: str):
        i = _index(index, len(self.picks))
        if i is not None:
            self.picks = [p for n, p in enumerate(self.picks) if n != i]

    @rx.event
    async def invite(self, form_data: dict | None = None):
        """Invite the list in its order; ``if_nobody`` says what happens when nobody accepts."""
        if_nobody = form_values(form_data, ("if_nobody",))["if_nobody"]
        self.queue_error, self.queue_notice = "", ""
        _, failure = await run_action(
            invites.invite_in_order, actor=await self._actor(), request_id=path_arg(self, "request_id"),
            sub_ids=[p["value"] for p in self.picks], if_nobody=if_nobody,
        )  # fmt: skip
        if failure:
            self.queue_error = failure_text(failure)
            return focus(QUEUE_ERROR_ID)
        self.picks, self.queue_notice, self._keep_notice = [], INVITED, True
        # the whole page again: the request now names the invited sub
        return rx.redirect(routes.sub_request_path(path_arg(self, "request_id")))
