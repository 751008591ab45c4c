"""A sub request's page (/dash/notes/{id}), read in one call: the request, what its forms and panels show.

The request as the viewer may see it; when they may reopen it, the first page of subs to reopen it to; when they may
edit it, the time-zone hints of its form; their calendar feed when they sub on it; when its requestor may invite in
order, the first page of subs for the invite list; its suggested subs (the first page); its Played / No-show marks.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlmodel import Session

from volley_app.services.accounts import venues
from volley_app.services.core.actors import Actor
from volley_app.services.core.paging import Page
from volley_app.services.core.screens import Part, part
from volley_app.services.seasons import calendar
from volley_app.services.subs import matching, request_lists, subs_list
from volley_app.services.subs.matching import Outcomes
from volley_app.services.subs.request_lists import SubRequestDetail

# The suggested subs shown a page at a time.
SUGGESTIONS_PAGE = 10


@dataclass(frozen=True)
class RequestPage:
    """What a sub request's page shows, read in one call (a part None: the viewer may not do what it is for)."""

    detail: Part[SubRequestDetail]
    reopen_choices: Part[Page] | None  # the subs to reopen it to, first page, no search (when it may be reopened)
    hints: dict | None  # the edit form's time-zone hints (when the viewer may edit it)
    feed: str | None  # the viewer's calendar feed path, when they sub on it ("" or None otherwise)
    queue_choices: Part[Page] | None  # the subs for its invite list, first page, no search (when they may invite)
    suggestions: Part[Page]  # the suggested subs who may take it, first page
    outcome: Outcomes | None  # the Played / No-show marks (None: the viewer may not mark)


def request_page(db: Session, actor: Actor | None, request_id: object) -> RequestPage:
    """The page of the request ``request_id`` as ``actor`` sees it."""
    found = part(request_lists.detail, db, actor, request_id=request_id)
    r = found.value
    no_search = {"q": ""}
    return RequestPage(
        detail=found,
        reopen_choices=part(subs_list.invite_choices, db, actor, filters=no_search) if r and r["can_reopen"] else None,
        hints=venues.time_hints(db) if r and r["can_edit"] else None,
        feed=part(calendar.accepted_request_feed, db, actor, request_id=request_id).value if r else None,
        queue_choices=(part(subs_list.invite_list_choices, db, actor, request_id=request_id, filters=no_search)
                       if r and r["can_invite_in_order"] else None),  # fmt: skip
        suggestions=part(matching.suggestions, db, actor, request_id=request_id, show="eligible",
                         size=SUGGESTIONS_PAGE),  # fmt: skip
        outcome=part(matching.outcome_info, db, actor, request_id=request_id).value,
    )
