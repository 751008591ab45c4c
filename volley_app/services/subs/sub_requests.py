"""Sub requests (the spec's "Note") and the list of available subs.

Rules (spec sections 2, 4, 5 and 6):

- SVLs (display status SVL) are refused everything here; players and admins may act.
- A request is created Open and not completed. A targeted one names an active sub,
  resolved on the server by user id, and emails that sub (receivedRequest).
- A sub's answer (accept, decline, give a place up) is ``services/subs/request_replies.py``.
- Only the requestor edits or deletes a request. A sub who was invited to it or accepted it is
  emailed when its time, place or team changes, and when it is cancelled; a cancelled request
  with a sub is archived (kept, shown nowhere), one nobody answered is deleted.
- The requestor may reopen a Declined request: to anyone, or naming another sub.
- A request whose date has passed is saved as completed when it is shown.
- Email addresses never leave the server: the projections below carry none.
"""

from __future__ import annotations

import datetime as dt
import logging

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app import routes
from volley_app.models import (
    GenderNeeded,
    Position,
    Rating,
    SkillLevel,
    SubFormat,
    SubInvite,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    User,
    utcnow,
)
from volley_app.services.accounts import venues
from volley_app.services.core import paging, ratelimit, timefmt, validation
from volley_app.services.core.actors import Actor, record_id
from volley_app.services.core.errors import BadRequest, Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.subs import invites, request_rows, sub_records
from volley_app.services.subs.access import (
    access_sub_request,
    require_sub_request_actor,
)

log = logging.getLogger(__name__)


TEAM_MAX, SVL_MAX, COURT_MAX, TEXT_MAX = 100, 200, 50, 2000

_table: sa.Table = SubRequest.__table__  # type: ignore[assignment]


# -- input --------------------------------------------------------------------------------------------------------


def _future(value: object, now: dt.datetime, zone: str | None = None) -> dt.datetime:
    when = timefmt.parse_local(value, "date", "Date", zone)
    if when <= now:
        raise Invalid({"date": "Choose a date and time in the future"})
    return when


def _players(value: object) -> int:
    """How many players a request needs: 1 to 4 (empty: 1)."""
    if value in (None, ""):
        return 1
    text = str(value).strip() if isinstance(value, str | int) and not isinstance(value, bool) else ""
    if not text.isdigit() or not 1 <= int(text) <= invites.MAX_PLAYERS:
        raise Invalid({"players_needed": f"Choose 1 to {invites.MAX_PLAYERS} players"})
    return int(text)


def _needed(value: object, enum_cls, field: str, label: str):
    """A need of the request: "Any" when left blank (a client that does not ask for needs), else one of ``enum_cls``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return enum_cls("Any")
    if not isinstance(value, str):  # a number or a list from an API client
        raise Invalid({field: f"Choose a {label.lower()}"})
    return validation.choice(value, enum_cls, field, label)


def _clean(
    *, team, date, svl, skill_level, format, court=None, text=None, players_needed=None, position_needed=None,
    gender_needed=None, min_rating=None, now: dt.datetime, zone=None,
) -> dict:  # fmt: skip
    """A request's details checked: every message at once (Invalid), or the values to store.

    The date is on the wall clock of ``zone``, the time zone of the venue the location names. The needs (position,
    gender, lowest rating at that position) are optional: blank is "Any" and no lowest rating.
    """
    clean = validation.collect(
        position_needed=(_needed, position_needed, Position, "position_needed", "Position needed"),
        gender_needed=(_needed, gender_needed, GenderNeeded, "gender_needed", "Gender needed"),
        min_rating=(validation.optional_choice, min_rating, Rating, "min_rating", "lowest rating"),
        team=(validation.name, team, "team", "Team", TEAM_MAX),
        svl=(validation.name, svl, "svl", "Location", SVL_MAX),
        date=(_future, date, now, zone),
        court=(validation.optional, court, "court", "Court", COURT_MAX),
        skill_level=(validation.choice, skill_level, SkillLevel, "skill_level", "Skill level"),
        format=(validation.choice, format, SubFormat, "format", "Format"),
        text=(validation.optional, text, "text", "Message", TEXT_MAX, True),
        players_needed=(_players, players_needed),
    )
    # the optional fields are stored as NULL when left empty
    return clean | {"court": clean["court"] or None, "text": clean["text"] or None}


ANYONE = "Anyone"


def named_recipient(db: Session, value: object) -> object:
    """Who a request is made to, as a client names them: blank or 'Anyone' (any sub: None), a sub's username, or
    their user id. A name that is no one's comes back as it was (and is refused as not an active sub)."""
    if value is None or (isinstance(value, str) and value.strip().casefold() in ("", ANYONE.casefold())):
        return None
    if isinstance(value, str):
        found = db.exec(select(User.id).where(User.username == value.strip().lower())).first()
        if found is not None:
            return found
    return value


def _active_sub(db: Session, user_id: object) -> User:
    user = db.get(User, record_id(user_id, "Choose a sub"))
    if user is None or not user.sub or not user.active:
        raise Invalid({"recipient": "Choose an active sub"})
    return user


# -- projections --------------------------------------------------------------------------------------------------


def _rows(db: Session, reqs: list[SubRequest], now: dt.datetime | None = None) -> list[dict]:
    names = request_rows.person_names(db, {r.requestor_id for r in reqs} | {r.recipient_id for r in reqs if r.recipient_id})
    zones = venues.zones_by_name(db, [r.svl for r in reqs])
    marks = dict(db.exec(
        select(_NamedPlace.request_id, _NamedPlace.outcome).join(SubRequest, _named_place)
        .where(_NamedPlace.request_id.in_([r.id for r in reqs]))
    ).all()) if reqs else {}  # fmt: skip
    now = now or utcnow()
    ordered = sorted(reqs, key=lambda r: (request_rows.is_completed(r, now), r.date, r.id))
    return [request_rows.row(r, names, zones, marks.get(r.id), now) for r in ordered]


# -- reading ------------------------------------------------------------------------------------------------------

# The filters of the request lists: free text (team, location, requestor), a location, a date range (venue days).
REQUEST_FILTERS = ("q", "venue", "date_from", "date_to")

_Requestor = sa.orm.aliased(User, name="requestor")
_Recipient = sa.orm.aliased(User, name="recipient")
# The place of the sub a request names (its mark is the request's "outcome" in lists).
_NamedPlace = sa.orm.aliased(SubRequestPlace, name="named_place")
_named_place = sa.and_(SubRequest.id == _NamedPlace.request_id, SubRequest.recipient_id == _NamedPlace.user_id)


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
        out.append(paging.contains(text, SubRequest.team, SubRequest.svl, _Requestor.username, _Requestor.first_name,
                                   _Requestor.last_name))
    venue = paging.search_text(f.get("venue"))
    if venue:
        out.append(paging.contains(venue, SubRequest.svl))
    first = _day(f.get("date_from"), "date_from", "From")
    last = _day(f.get("date_to"), "date_to", "To")
    if first and last and last < first:
        raise Invalid({"date_to": "Choose a day on or after the first day"})
    if first:
        out.append(SubRequest.date >= timefmt.day_start(first))
    if last:
        out.append(SubRequest.date < timefmt.day_start(last + dt.timedelta(days=1)))
    return out


# The orders of the sub request lists: by date (the default) or latest date first.
NOTE_ORDERS = {
    "date": paging.Order((SubRequest.date, SubRequest.id), (dt.datetime, int)),
    "-date": paging.Order((SubRequest.date.desc(), SubRequest.id.desc()), (dt.datetime, int)),
}


def _with_place_holders(db: Session, rows: list[dict]) -> list[dict]:
    """Each row's "sub": the subs who hold its places, in the order they took them (else as ``_row`` has it).

    Only a request for several players with a place taken is looked up: one player's sub is the one it names.
    """
    held: dict[int, list[str]] = {}
    several = [r["id"] for r in rows if r["players_needed"] > 1 and r["places_filled"]]
    if several:
        found = db.exec(
            select(SubRequestPlace.request_id, User.first_name, User.last_name, User.username)
            .join(User, User.id == SubRequestPlace.user_id)
            .where(SubRequestPlace.request_id.in_(several))
            .order_by(SubRequestPlace.accepted_at, SubRequestPlace.id)
        ).all()  # fmt: skip
        for rid, *who in found:
            held.setdefault(rid, []).append(request_rows.person_name(*who))
    for row in rows:
        if row["id"] in held:
            row["sub"] = ", ".join(held[row["id"]])
    return rows


def _request_page(db: Session, where: list, *, bookmark: object, size: object, sort: object = "") -> paging.Page:
    order = paging.sort_order(sort, NOTE_ORDERS)
    query = (
        select(
            SubRequest, _NamedPlace.outcome, _Requestor.first_name, _Requestor.last_name, _Requestor.username,
            _Recipient.first_name, _Recipient.last_name, _Recipient.username,
        )
        .join(_Requestor, _Requestor.id == SubRequest.requestor_id)
        .outerjoin(_Recipient, _Recipient.id == SubRequest.recipient_id)
        .outerjoin(_NamedPlace, _named_place)
        .where(*where)
        .order_by(*order.columns)
    )

    def project(found: list) -> list[dict]:
        zones = venues.zones_by_name(db, [req.svl for req, *_who in found])
        out = [
            request_rows.row(req, {req.requestor_id: request_rows.person_name(*who[:3]), req.recipient_id or 0: request_rows.person_name(*who[3:])}, zones, mark)
            for req, mark, *who in found
        ]
        return _with_place_holders(db, out)

    # The total needs no names: every request has its requestor, so the join counts only when searched by it.
    count = sa.select(SubRequest.id).join(_Requestor, _Requestor.id == SubRequest.requestor_id)
    if not any("requestor.username" in str(w) for w in where):
        count = sa.select(SubRequest.id)
    return paging.keyset(
        db, query, kinds=order.kinds, project=project, bookmark=bookmark, size=paging.page_size(size),
        count=count.where(*where),
    )  # fmt: skip


def list_open(
    db: Session,
    actor: Actor | None,
    *,
    filters: dict | None = None,
    bookmark: object = "",
    size: object = paging.PAGE_SIZE,
    now: dt.datetime | None = None,
    sort: object = "",
) -> paging.Page:
    """One page of the requests open to Anyone and not completed, by date (home page and /dash/notes)."""
    require_sub_request_actor(actor)
    where = _request_conditions(filters)
    now = now or utcnow()
    base = (
        SubRequest.status == SubStatus.OPEN,
        SubRequest.recipient_id.is_(None),
        SubRequest.completed.is_(False),
        SubRequest.date > now,
        SubRequest.archived_at.is_(None),
    )
    return _request_page(db, [*base, *where], bookmark=bookmark, size=size, sort=sort)


def notifications(
    db: Session,
    actor: Actor | None,
    *,
    filters: dict | None = None,
    bookmark: object = "",
    size: object = paging.PAGE_SIZE,
    now: dt.datetime | None = None,
    sort: object = "",
) -> paging.Page:
    """One page of the requests the actor made, was named on or took a place on, not completed, by date (My Sub Requests)."""
    actor = require_sub_request_actor(actor)
    where = _request_conditions(filters)
    now = now or utcnow()
    mine = sa.or_(SubRequest.requestor_id == actor.user_id, SubRequest.recipient_id == actor.user_id,
                  request_rows.placed_by(actor.user_id))  # fmt: skip
    base = (mine, SubRequest.completed.is_(False), SubRequest.date > now, SubRequest.archived_at.is_(None))
    return _request_page(db, [*base, *where], bookmark=bookmark, size=size, sort=sort)


def detail(db: Session, actor: Actor | None, request_id: object, *, now: dt.datetime | None = None) -> dict:
    """One request with what the viewer may do to it (spec section 2, sub request detail)."""
    actor = require_sub_request_actor(actor)
    req = access_sub_request(db, actor, request_id)
    invites.sweep_request(db, req.id, now)
    req = access_sub_request(db, actor, req.id)
    db.refresh(req)
    now = now or utcnow()
    done = request_rows.is_completed(req, now)
    row = _rows(db, [req], now)[0]
    is_requestor = req.requestor_id == actor.user_id
    live = req.status == SubStatus.OPEN and not done
    placed = invites.has_place(db, req.id, actor.user_id)
    row["can_accept"] = live and not is_requestor and req.recipient_id in (None, actor.user_id) and not placed
    row["places"] = invites.place_names(db, req)
    row["sub"] = _subs_on(db, req, row["places"]) or row["sub"]
    row["invite_queue"] = invites.queue_rows(db, req) if is_requestor or actor.is_admin else []
    row["can_invite_in_order"] = (
        is_requestor and not done and req.places_filled < req.players_needed
        and (req.status == SubStatus.DECLINED or (req.status == SubStatus.OPEN and req.recipient_id is None))
    )  # fmt: skip
    row["can_decline"] = live and req.recipient_id == actor.user_id and not is_requestor and not placed
    row["can_withdraw"] = placed and not done
    row["can_edit"] = is_requestor
    row["can_reopen"] = is_requestor and req.status == SubStatus.DECLINED and not done
    return row


def _subs_on(db: Session, req: SubRequest, places: list[str]) -> str:
    """Who the request's Sub field names when places are taken: each sub with a place, then the sub it names now
    (invited to a place left), when that is someone else; "" without places."""
    if not places:
        return ""
    named = ""
    if req.recipient_id is not None and not invites.has_place(db, req.id, req.recipient_id):
        named = f" (invited: {request_rows.person_names(db, {req.recipient_id}).get(req.recipient_id, '')})"
    return ", ".join(places) + named


# -- changing -----------------------------------------------------------------------------------------------------


def create(
    db: Session, actor: Actor | None, *, recipient_id: object = None, now: dt.datetime | None = None, **details: object
) -> int:
    """Create an Open request; with ``recipient_id`` a targeted one that emails the sub. Returns its id.

    ``details``: team, date, svl, skill_level, format, and optionally court and text (see ``_clean``).
    """
    actor = require_sub_request_actor(actor)
    recipient_id = named_recipient(db, recipient_id)
    ratelimit.sub_invite(db, actor.user_id, recipient_id)
    now = now or utcnow()
    errors: dict[str, str] = {}
    recipient: User | None = None
    if recipient_id not in (None, ""):
        try:
            recipient = _active_sub(db, recipient_id)
            if recipient.id == actor.user_id:
                errors["recipient"] = "You cannot invite yourself"
        except (Invalid, NotFound):
            errors["recipient"] = "Choose an active sub"
    try:
        clean = _clean(now=now, zone=venues.zone_by_name(db, details.get("svl")), **details)
    except Invalid as exc:
        errors.update(exc.errors)
    if errors:
        raise Invalid(errors)
    req = SubRequest(
        requestor_id=actor.user_id,
        recipient_id=recipient.id if recipient else None,
        status=SubStatus.OPEN,
        completed=False,
        **clean,
    )
    db.add(req)
    db.flush()
    if recipient is not None:
        _email_invited(db, req, actor, recipient)
    else:
        invites.open_notices(db, req)
    invites.tell_changed(db, req)
    log.info("sub request %s created by user %s (targeted=%s)", req.id, actor.user_id, recipient is not None)
    return req.id


def _email_invited(db: Session, req: SubRequest, actor: Actor, recipient: User) -> None:
    """Tell the sub named on a request (receivedRequest), with one-click Accept and Decline, unless they asked
    to be emailed nothing."""
    invites.email_named(db, req, recipient)


def reopen(
    db: Session, actor: Actor | None, request_id: object, *, recipient_id: object = None, now: dt.datetime | None = None
) -> None:
    """The requestor opens a Declined request again: to anyone, or to another sub (who is emailed).

    Only a declined request that is not completed and whose date is still ahead; status Open again.
    """
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    req = access_sub_request(db, actor, request_id, own=True)
    request_rows.complete_past(db, _table.c.id == req.id, now=now)
    if req.status != SubStatus.DECLINED or req.completed:
        raise BadRequest(request_rows.PASSED if req.completed else "Only a declined sub request can be reopened")
    recipient: User | None = None
    recipient_id = named_recipient(db, recipient_id)
    if recipient_id not in (None, ""):
        try:
            recipient = _active_sub(db, recipient_id)
        except (Invalid, NotFound):
            raise Invalid({"recipient": "Choose an active sub"}) from None
        if recipient.id == actor.user_id:
            raise Invalid({"recipient": "You cannot invite yourself"})
        if invites.has_place(db, req.id, recipient.id):
            raise Invalid({"recipient": "This sub has a place on this request already"})
        ratelimit.sub_invite(db, actor.user_id, recipient.id, now=now)
    declined_by = req.recipient_id
    req.status = SubStatus.OPEN
    req.recipient_id = recipient.id if recipient else None
    req.updated_at = now
    db.add(req)
    db.flush()
    if recipient is not None:
        _email_invited(db, req, actor, recipient)
    else:
        invites.open_notices(db, req)
    invites.tell_changed(db, req, declined_by)
    log.info("sub request %s reopened by user %s (targeted=%s)", req.id, actor.user_id, recipient is not None)


def update(
    db: Session, actor: Actor | None, request_id: object, *, now: dt.datetime | None = None, **details: object
) -> None:
    """The requestor changes the details of their request (status and recipient stay); ``details`` as for ``create``.

    A need (``NEEDS``) that ``details`` leaves out stays as it is.
    """
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    req = access_sub_request(db, actor, request_id, own=True)
    details = _stored_needs(req) | details
    clean = _clean(now=now, zone=venues.zone_by_name(db, details.get("svl")), **details)
    if clean["players_needed"] < req.places_filled:
        raise Invalid({"players_needed": f"{req.places_filled} subs have already accepted"})
    before = {k: getattr(req, k) for k in _TOLD}
    for key, value in clean.items():
        setattr(req, key, value)
    req.completed = False
    req.updated_at = now
    if req.status == SubStatus.OPEN and req.places_filled and req.places_filled >= req.players_needed:
        invites.settle_with_places(db, req)  # fewer players needed: the places taken fill it
        invites.end_list(db, req, now)  # nobody more is asked
    db.add(req)
    db.flush()
    if before["date"] != req.date:  # the last time its subs subbed may move
        sub_records.refresh_request(db, req.id)
    changes = [label for key, label in _TOLD.items() if before[key] != getattr(req, key)]
    invites.tell_changed(db, req)
    if changes:
        _email_sub(db, req, "request_changed", changes=changes)


# What the team needs: how many players, the position, the gender, the lowest rating at that position.
NEEDS = ("players_needed", "position_needed", "gender_needed", "min_rating")


def _stored_needs(req: SubRequest) -> dict[str, object]:
    """A request's needs as ``update`` takes them."""
    return {
        "players_needed": req.players_needed,
        "position_needed": (req.position_needed or Position.ANY).value,
        "gender_needed": (req.gender_needed or GenderNeeded.ANY).value,
        "min_rating": req.min_rating.value if req.min_rating else None,
    }


# What a sub who said yes (or was asked) is told about when it changes.
_TOLD = {"date": "date and time", "svl": "location", "court": "court", "team": "team"}


def _email_sub(db: Session, req: SubRequest, template: str, **values: object) -> None:
    """Tell the sub who accepted the request, or the one it names while still Open, what the requestor did
    (``template``: request_changed, with the ``changes``, or request_cancelled)."""
    if req.recipient_id is None or req.status == SubStatus.DECLINED:
        return
    sub = db.get(User, req.recipient_id)
    requestor = db.get(User, req.requestor_id)
    if sub is None or requestor is None:
        return
    mail.queue_email(
        db, template, {
            "first_name": mail.first_name(sub), "requestor": mail.full_name(requestor), "team": req.team,
            "when": timefmt.long(req.date, venues.zone_by_name(db, req.svl)), "svl": req.svl, "court": req.court,
            "page": "" if req.archived_at else routes.absolute(routes.note_path(req.id)), **values,
        }, to=sub.email, reply_to=requestor.email,
    )  # fmt: skip


def delete(db: Session, actor: Actor | None, request_id: object) -> None:
    """The requestor cancels their request.

    With a sub on it (invited, or accepted) it is archived, kept and shown nowhere, and that sub is
    emailed; a request nobody answered is deleted (its id is never used again).
    """
    actor = require_sub_request_actor(actor)
    req = access_sub_request(db, actor, request_id, own=True)
    invited = db.exec(select(SubInvite.id).where(SubInvite.request_id == req.id)).first() is not None
    if req.places_filled or invited:  # accepted places or an invite list: kept, shown nowhere
        req.archived_at = req.updated_at = utcnow()
        db.add(req)
        db.flush()
        sub_records.refresh_request(db, req.id)  # a cancelled request leaves its subs' records
        invites.end_list(db, req, req.archived_at)
        if req.recipient_id is not None and req.status != SubStatus.DECLINED:
            _email_sub(db, req, "request_cancelled")
        invites.tell_changed(db, req, open_list=True)
        log.info("sub request %s cancelled by user %s (archived)", req.id, actor.user_id)
        return
    if req.recipient_id is not None and req.status != SubStatus.DECLINED:
        req.archived_at = req.updated_at = utcnow()
        db.add(req)
        db.flush()
        _email_sub(db, req, "request_cancelled")
        invites.tell_changed(db, req)
        log.info("sub request %s cancelled by user %s (archived)", req.id, actor.user_id)
        return
    invites.tell_changed(db, req)
    db.delete(req)
    db.flush()
    log.info("sub request %s deleted by user %s", req.id, actor.user_id)


# -- answers from the invitation email ----------------------------------------------------------------------------


