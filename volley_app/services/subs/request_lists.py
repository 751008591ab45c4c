"""Reading sub requests: the open list, the actor's own (My Sub Requests) and one request with what its viewer may
do to it.

Rules (spec sections 2 and 4): SVLs (display status SVL) are refused; players and admins may read. The lists show the
requests not completed whose date is ahead, a page at a time, searched and filtered (text, a location, a date range on
the venues' days). Email addresses never leave the server: the rows carry none.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, TypedDict, Unpack

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import SubRequest, SubRequestPlace, SubStatus, User, utcnow
from volley_app.services.accounts import venues
from volley_app.services.core import paging, timefmt
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Invalid
from volley_app.services.subs import eligibility, invites, request_rows
from volley_app.services.subs.access import access_sub_request, require_sub_request_actor

# The filters of the request lists: free text (team, location, requestor), a location, a date range (venue days).
REQUEST_FILTERS = ("q", "venue", "date_from", "date_to")

_Requestor = sa.orm.aliased(User, name="requestor")
_Recipient = sa.orm.aliased(User, name="recipient")

# The place of the sub a request names (its mark is the request's "outcome" in lists).
_NamedPlace = sa.orm.aliased(SubRequestPlace, name="named_place")
_named_place = sa.and_(col(SubRequest.id) == _NamedPlace.request_id, col(SubRequest.recipient_id) == _NamedPlace.user_id)


def _day(value: object, field: str, label: str) -> dt.date | None:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return None
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        raise Invalid({field: f"{label} must be a date"}) from None
    if not 2000 <= day.year <= 2100:
        raise Invalid({field: f"{label} must be between the years 2000 and 2100"})
    return day


def _request_conditions(filters: dict | None) -> list[sa.ColumnElement[bool]]:
    """The WHERE of the request lists' search and filters; Invalid names a date that is not one."""
    f = filters if isinstance(filters, dict) else {}
    out: list[sa.ColumnElement[bool]] = []
    text = paging.search_text(f.get("q"))
    if text:
        out.append(paging.contains(text, col(SubRequest.team), col(SubRequest.svl), col(_Requestor.username),
                                   col(_Requestor.first_name), col(_Requestor.last_name)))
    venue = paging.search_text(f.get("venue"))
    if venue:
        out.append(paging.contains(venue, col(SubRequest.svl)))
    first = _day(f.get("date_from"), "date_from", "From")
    last = _day(f.get("date_to"), "date_to", "To")
    if first and last and last < first:
        raise Invalid({"date_to": "Choose a day on or after the first day"})
    if first:
        out.append(col(SubRequest.date) >= timefmt.day_start(first))
    if last:
        out.append(col(SubRequest.date) < timefmt.day_start(last + dt.timedelta(days=1)))
    return out


# The orders of the sub request lists: by date (the default) or latest date first.
REQUEST_ORDERS = {
    "date": paging.Order((SubRequest.date, SubRequest.id), (dt.datetime, int)),
    "-date": paging.Order((col(SubRequest.date).desc(), col(SubRequest.id).desc()), (dt.datetime, int)),
}


def _row(db: Session, req: SubRequest, now: dt.datetime) -> request_rows.SubRequestRow:
    """One request as the lists show it (its subs with a place as ``_with_place_holders`` has them)."""
    ids = {req.requestor_id} | ({req.recipient_id} if req.recipient_id else set())
    names = request_rows.person_names(db, ids)
    zones = venues.zones_by_name(db, [req.svl])
    mark = db.exec(
        select(col(_NamedPlace.outcome)).join(SubRequest, _named_place).where(col(_NamedPlace.request_id) == req.id)
    ).first()  # fmt: skip
    return request_rows.row(req, names, zones, mark, now)


def _with_place_holders(db: Session, rows: list[request_rows.SubRequestRow]) -> list[request_rows.SubRequestRow]:
    """Each row's "sub": the subs who hold its places, in the order they took them (else as ``request_rows.row``
    has it).

    Only a request for several players with a place taken is looked up: one player's sub is the one it names.
    """
    held: dict[int, list[str]] = {}
    several = [r["id"] for r in rows if r["players_needed"] > 1 and r["places_filled"]]
    if several:
        found = db.exec(
            select(SubRequestPlace.request_id, User.first_name, User.last_name, User.username)
            .join(User, col(User.id) == SubRequestPlace.user_id)
            .where(col(SubRequestPlace.request_id).in_(several))
            .order_by(col(SubRequestPlace.accepted_at), col(SubRequestPlace.id))
        ).all()  # fmt: skip
        for rid, *who in found:
            held.setdefault(rid, []).append(request_rows.person_name(*who))
    for row in rows:
        if row["id"] in held:
            row["sub"] = ", ".join(held[row["id"]])
    return rows


class ListArgs(TypedDict, total=False):
    """What a caller asks of a request list: ``filters`` (``REQUEST_FILTERS``), the page after ``bookmark``, its
    ``size``, its order (``sort``, a key of ``REQUEST_ORDERS``) and the time ``now`` that says which requests are ahead."""

    filters: dict[str, Any] | None
    bookmark: object
    size: object
    sort: object
    now: dt.datetime | None


def _request_page(db: Session, base: tuple[sa.ColumnElement[bool], ...], args: ListArgs) -> paging.Page:
    """One page of the requests ``base`` picks, searched and filtered as ``args`` ask."""
    where = [*base, *_request_conditions(args.get("filters"))]
    order = paging.sort_order(args.get("sort", ""), REQUEST_ORDERS)
    query = (
        sa.select(
            SubRequest, col(_NamedPlace.outcome), col(_Requestor.first_name), col(_Requestor.last_name),
            col(_Requestor.username), col(_Recipient.first_name), col(_Recipient.last_name), col(_Recipient.username),
        )
        .join(_Requestor, col(_Requestor.id) == SubRequest.requestor_id)
        .outerjoin(_Recipient, col(_Recipient.id) == SubRequest.recipient_id)
        .outerjoin(_NamedPlace, _named_place)
        .where(*where)
        .order_by(*order.columns)
    )

    def project(found: list[Any]) -> list[request_rows.SubRequestRow]:
        zones = venues.zones_by_name(db, [req.svl for req, *_who in found])
        name = request_rows.person_name
        out = [
            request_rows.row(req, {req.requestor_id: name(*who[:3]), req.recipient_id or 0: name(*who[3:])}, zones, mark)
            for req, mark, *who in found
        ]
        return _with_place_holders(db, out)

    # The total needs no names: every request has its requestor, so the join counts only when searched by it.
    count = sa.select(col(SubRequest.id)).join(_Requestor, col(_Requestor.id) == SubRequest.requestor_id)
    if not any("requestor.username" in str(w) for w in where):
        count = sa.select(col(SubRequest.id))
    return paging.keyset(
        db, query, kinds=order.kinds, project=project, bookmark=args.get("bookmark", ""),
        size=paging.page_size(args.get("size", paging.PAGE_SIZE)), count=count.where(*where),
    )  # fmt: skip


def _ahead(now: dt.datetime | None) -> tuple[sa.ColumnElement[bool], ...]:
    """Requests the lists show: not completed, their date ahead of ``now``, not cancelled."""
    return (
        col(SubRequest.completed).is_(False),
        col(SubRequest.date) > (now or utcnow()),
        col(SubRequest.archived_at).is_(None),
    )


def list_open(db: Session, actor: Actor | None, **args: Unpack[ListArgs]) -> paging.Page:
    """One page of the requests open to Anyone and not completed, by date (home page and /dash/notes)."""
    require_sub_request_actor(actor)
    anyone = (col(SubRequest.status) == SubStatus.OPEN, col(SubRequest.recipient_id).is_(None))
    return _request_page(db, (*anyone, *_ahead(args.get("now"))), args)


def notifications(db: Session, actor: Actor | None, **args: Unpack[ListArgs]) -> paging.Page:
    """One page of the requests the actor made, was named on or took a place on, not completed, by date (My Sub Requests)."""
    actor = require_sub_request_actor(actor)
    mine = sa.or_(col(SubRequest.requestor_id) == actor.user_id, col(SubRequest.recipient_id) == actor.user_id,
                  request_rows.placed_by(actor.user_id))  # fmt: skip
    return _request_page(db, (mine, *_ahead(args.get("now"))), args)


class SubRequestDetail(request_rows.SubRequestRow):
    """One request as its page shows it: its row, with its places and invite list (its requestor's and admins'
    only: else empty), and what the viewer may do to it."""

    can_accept: bool
    places: list[str]
    invite_queue: list[invites.InviteRow]
    can_invite_in_order: bool
    can_decline: bool
    can_withdraw: bool
    can_edit: bool
    can_reopen: bool
    approval_note: str  # a playoff request whose subs the league's operator approves ("" otherwise)


def detail(
    db: Session, actor: Actor | None, request_id: object, *, now: dt.datetime | None = None
) -> SubRequestDetail:
    """One request with what the viewer may do to it (spec section 2, sub request detail)."""
    actor = require_sub_request_actor(actor)
    req = access_sub_request(db, actor, request_id)
    assert req.id is not None  # a stored request
    invites.sweep_request(db, req.id, now)
    req = access_sub_request(db, actor, req.id)
    assert req.id is not None  # a stored request
    db.refresh(req)
    now = now or utcnow()
    done = request_rows.is_completed(req, now)
    row = _row(db, req, now)
    is_requestor = req.requestor_id == actor.user_id
    live = req.status == SubStatus.OPEN and not done
    placed = invites.has_place(db, req.id, actor.user_id)
    places = invites.place_names(db, req)
    return {
        **row,
        "sub": _subs_on(db, req, places) or row["sub"],
        "can_accept": live and not is_requestor and req.recipient_id in (None, actor.user_id) and not placed,
        "places": places,
        "invite_queue": invites.queue_rows(db, req) if is_requestor or actor.is_admin else [],
        "can_invite_in_order": (
            is_requestor and not done and req.places_filled < req.players_needed
            and (req.status == SubStatus.DECLINED or (req.status == SubStatus.OPEN and req.recipient_id is None))
        ),
        "can_decline": live and req.recipient_id == actor.user_id and not is_requestor and not placed,
        "can_withdraw": placed and not done,
        "can_edit": is_requestor,
        "can_reopen": is_requestor and req.status == SubStatus.DECLINED and not done,
        "approval_note": eligibility.APPROVAL if eligibility.needs_approval(db, req) else "",
    }  # fmt: skip


def _subs_on(db: Session, req: SubRequest, places: list[str]) -> str:
    """Who the request's Sub field names when places are taken: each sub with a place, then the sub it names now
    (invited to a place left), when that is someone else; "" without places."""
    if not places:
        return ""
    named = ""
    assert req.id is not None  # a stored request
    if req.recipient_id is not None and not invites.has_place(db, req.id, req.recipient_id):
        named = f" (invited: {request_rows.person_names(db, {req.recipient_id}).get(req.recipient_id, '')})"
    return ", ".join(places) + named
