"""A sub's answer to a sub request: accept a place, decline a request made to them, or give a place up.

Rules (spec sections 2, 4, 5 and 6):

- SVLs (display status SVL) are refused; players and admins may answer.
- Accept (conditional UPDATE: of many concurrent accepts exactly one wins) sets Accepted and the recipient to the
  accepting user and emails the requestor. A sub whom the request's needs do not fit, or who plays or subs at that
  time, is refused and told why (``services/subs/eligibility.py``, the rules of the suggestions).
- Decline, by the named recipient only, sets Declined and emails the requestor; a sub who holds a place cannot
  decline, and a request with places taken opens to anyone instead of Declined.
- In a league whose operator approves its playoff subs, a place taken on a playoff game's request is held until
  the operator approves or refuses it (``services/operations/playoff_subs.py``).
- A sub who holds a place gives it up before the game ("I can't make it", :func:`withdraw`): the place reopens to the
  next sub on the invite list or to anyone, the requestor is emailed, and a withdrawal within a day of the game
  counts on the sub's record.
"""

from __future__ import annotations

import datetime as dt
import logging

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app import routes
from volley_app.models import League, SubRequest, SubRequestPlace, SubStatus, SubWithdrawal, User, utcnow
from volley_app.models.base import table_of
from volley_app.services.accounts import venues
from volley_app.services.core import timefmt
from volley_app.services.core.actors import Actor, load, record_id
from volley_app.services.core.errors import BadRequest, Forbidden, NotFound
from volley_app.services.mail import mail, notices
from volley_app.services.subs import eligibility, invites, request_rows, sub_records
from volley_app.services.subs.access import (
    SUB_REQUEST_NOT_FOUND,
    access_sub_request,
    can_view_sub_request,
    require_sub_request_actor,
)

log = logging.getLogger(__name__)

TAKEN = "This sub request has already been taken"
CANNOT_TAKE = "You cannot take this sub request"
HOLDS_PLACE = "You have a place on this sub request: to give it up, choose I can't make it"
NO_PLACE = "You have no place on this sub request"
STARTED = "The game has started: a place can be given up only before it"
OWN_REQUEST = "You cannot accept your own sub request"
MADE_TO_ANOTHER = "This sub request was made to another sub"

_table: sa.Table = table_of(SubRequest)


def _email_requestor(db: Session, req: SubRequest, actor: Actor, verb: str, kind: str) -> None:
    """Tell the requestor that a sub ``verb`` (accepted or declined) their request."""
    assert req.id is not None  # a stored request
    requestor = db.get(User, req.requestor_id)
    acting = db.get(User, actor.user_id)
    if requestor is None:
        return
    who = mail.full_name(acting) if acting else actor.username
    when = timefmt.long(req.date, venues.zone_by_name(db, req.svl))
    link = routes.sub_request_path(req.id)
    notices.notify(
        db, requestor, notices.SUB_ACCEPTED if verb == "accepted" else notices.SUB_DECLINED,
        text=f"{who} {verb} your sub request: {req.team}, {when}", link=link, mail_kind=kind,
        reply_to=acting.email if acting else None, email=("request_answered", {
            "first_name": mail.first_name(requestor), "who": who, "verb": verb, "when": when, "svl": req.svl,
            "team": req.team, "page": routes.absolute(link),
        }),
    )  # fmt: skip


def _answer(db: Session, actor: Actor, request_id: object, now: dt.datetime, *conditions, **values) -> tuple[int, bool]:
    """One conditional UPDATE of an Open, not completed request someone else made (so exactly one answer wins).

    Returns the request's id and whether the update changed it.
    """
    rid = record_id(request_id, SUB_REQUEST_NOT_FOUND)
    changed = db.connection().execute(
        sa.update(_table)
        .where(
            _table.c.id == rid,
            _table.c.status == SubStatus.OPEN.value,
            _table.c.completed.is_(False),
            _table.c.archived_at.is_(None),
            _table.c.requestor_id != actor.user_id,
            *conditions,
        )
        .values(updated_at=now, **values)
    ).rowcount
    return rid, changed == 1


def _still_there(db: Session, rid: int) -> SubRequest:
    """The request an answer missed: NotFound when it is gone or cancelled."""
    req = load(db, SubRequest, rid, SUB_REQUEST_NOT_FOUND)
    if req.archived_at is not None:
        raise NotFound(SUB_REQUEST_NOT_FOUND)
    return req


def _answered(db: Session, rid: int, actor: Actor, verb: str, kind: str) -> None:
    req = load(db, SubRequest, rid, SUB_REQUEST_NOT_FOUND)
    db.refresh(req)
    _email_requestor(db, req, actor, verb, kind)
    # an accepted request may have been open to anyone: the open list loses it
    invites.tell_changed(db, req, actor.user_id, open_list=req.status == SubStatus.ACCEPTED)
    log.info("sub request %s %s by user %s", rid, verb, actor.user_id)


def accept(db: Session, actor: Actor | None, request_id: object, *, now: dt.datetime | None = None) -> None:
    """Take a request. One conditional UPDATE decides: of concurrent accepts exactly one wins."""
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    open_to_actor = sa.or_(_table.c.recipient_id.is_(None), _table.c.recipient_id == actor.user_id)
    # One place per accept: the last place makes it Accepted (with one place needed, the first does).
    full = _table.c.places_filled + 1 >= _table.c.players_needed
    accepted = {
        "places_filled": _table.c.places_filled + 1,
        "status": sa.case((full, SubStatus.ACCEPTED.value), else_=_table.c.status),
        "recipient_id": sa.case((full, actor.user_id), else_=_table.c.recipient_id),
    }
    _fits(db, actor, request_id, now)
    rid, won = _answer(db, actor, request_id, now, _table.c.date > now, open_to_actor,
                       ~request_rows.placed_by(actor.user_id), _table.c.places_filled < _table.c.players_needed,
                       **accepted)  # fmt: skip
    if not won:
        missed = _still_there(db, rid)
        if not can_view_sub_request(actor, missed) and missed.status == SubStatus.OPEN:
            raise Forbidden()
        if missed.requestor_id == actor.user_id:
            raise Forbidden(OWN_REQUEST)
        if invites.has_place(db, rid, actor.user_id):
            raise BadRequest("You have already accepted this request")
        if missed.status != SubStatus.OPEN:
            raise BadRequest(TAKEN if missed.recipient_id != actor.user_id else "You have already answered this request")
        if missed.recipient_id not in (None, actor.user_id):
            raise Forbidden(MADE_TO_ANOTHER)
        raise BadRequest(request_rows.PASSED)
    taken = db.get(SubRequest, rid)
    held = taken is not None and eligibility.needs_approval(db, taken)  # a playoff sub the operator approves
    try:
        with db.begin_nested():
            db.add(SubRequestPlace(request_id=rid, user_id=actor.user_id, accepted_at=now, needs_approval=held))
    except sa.exc.IntegrityError:  # the same sub's second accept, a moment ago
        raise BadRequest("You have already accepted this request") from None
    sub_records.refresh(db, [actor.user_id])
    req = db.get(SubRequest, rid)
    assert req is not None  # its row was just written
    db.refresh(req)
    invites.after_accept(db, req, actor, now)
    _answered(db, rid, actor, "accepted", "accepted_request")
    if held:
        _ask_operator(db, req, actor.user_id)


def _ask_operator(db: Session, req: SubRequest, sub_id: int) -> None:
    """Email the league's operator that a playoff sub's place waits for their approval, with the page to decide."""
    rules = eligibility.league_rules(db, req)
    league = db.get(League, rules.league_id) if rules is not None else None
    operator = db.get(User, league.svl_id) if league is not None else None
    sub = db.get(User, sub_id)
    if league is None or league.id is None or operator is None or not operator.email or sub is None:
        return
    mail.queue_email(db, "playoff_sub_waiting", {
        "first_name": mail.first_name(operator), "who": mail.full_name(sub), "team": req.team,
        "when": timefmt.long(req.date, venues.zone_by_name(db, req.svl)), "svl": req.svl,
        "page": routes.absolute(routes.league_rosters_path(league.id)),
    }, to=operator.email)  # fmt: skip


def _fits(db: Session, actor: Actor, request_id: object, now: dt.datetime) -> None:
    """Refuse (BadRequest, saying why) a sub whom a request they could otherwise take does not fit: its needs,
    or their own games and places at that time. A request they could not take anyway is left to the accept's
    own answer (taken, passed, not theirs)."""
    try:
        rid = record_id(request_id, SUB_REQUEST_NOT_FOUND)
    except NotFound:
        return
    req = db.get(SubRequest, rid)
    takeable = (
        req is not None and req.status == SubStatus.OPEN and not req.completed and req.archived_at is None
        and req.date > now and req.requestor_id != actor.user_id and req.recipient_id in (None, actor.user_id)
        and req.places_filled < req.players_needed and not invites.has_place(db, rid, actor.user_id)
    )  # fmt: skip
    if req is None or not takeable:
        return
    why = eligibility.refusal(db, req, actor.user_id)
    if why:
        raise BadRequest(f"{CANNOT_TAKE}: {why}")


def decline(db: Session, actor: Actor | None, request_id: object, *, now: dt.datetime | None = None) -> None:
    """The named recipient turns an Open request down (never one who holds a place on it).

    A request with places taken is not Declined: it opens to anyone for the places left."""
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    named = _table.c.recipient_id == actor.user_id
    some_taken = _table.c.places_filled > 0
    declined = {
        "status": sa.case((some_taken, SubStatus.OPEN.value), else_=SubStatus.DECLINED.value),
        "recipient_id": sa.case((some_taken, None), else_=_table.c.recipient_id),
    }
    rid, done = _answer(db, actor, request_id, now, named, ~request_rows.placed_by(actor.user_id), **declined)
    if not done:
        missed = _still_there(db, rid)
        if invites.has_place(db, rid, actor.user_id):
            raise BadRequest(HOLDS_PLACE)
        if missed.recipient_id != actor.user_id:
            raise Forbidden()
        raise BadRequest("This sub request is no longer open")
    req = db.get(SubRequest, rid)
    assert req is not None  # its row was just written
    db.refresh(req)
    invites.after_decline(db, req, actor, now)
    _answered(db, rid, actor, "declined", "declined_request")


def withdraw(db: Session, actor: Actor | None, request_id: object, *, now: dt.datetime | None = None) -> None:
    """A sub who holds a place on the request gives it up before the game ("I can't make it").

    Only that sub, for their own place: anyone else (its requestor, an admin, the sub once it is given up) is
    refused (``Forbidden``, ``NO_PLACE``). The place reopens: to the next sub on the request's invite list not
    asked yet, or to anyone. The requestor is emailed; the withdrawal is kept (``sub_withdrawals``) and, within
    ``sub_records.LATE_HOURS`` hours of the game, counts on the sub's record. A refused call changes nothing.
    """
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    req = access_sub_request(db, actor, request_id)
    assert req.id is not None  # a stored request
    req = invites.lock_request(db, req.id)
    assert req.id is not None  # a stored request
    place = db.exec(
        select(SubRequestPlace).where(SubRequestPlace.request_id == req.id, SubRequestPlace.user_id == actor.user_id)
    ).first()
    if place is None:
        raise Forbidden(NO_PLACE)
    if req.completed or req.date <= now:
        raise BadRequest(STARTED)
    late = req.date - now <= dt.timedelta(hours=sub_records.LATE_HOURS)
    db.add(SubWithdrawal(request_id=req.id, user_id=actor.user_id, accepted_at=place.accepted_at, withdrawn_at=now,
                         late=late))  # fmt: skip
    holder = free_place(db, req, place, now)
    _email_withdrawn(db, req, actor, holder)
    invites.tell_changed(db, req, actor.user_id, open_list=True)
    log.info("sub request %s: user %s gave up their place (late=%s)", req.id, actor.user_id, late)


def free_place(db: Session, req: SubRequest, place: SubRequestPlace, now: dt.datetime) -> str:
    """Take ``place`` off the (locked) request ``req`` and reopen it: to the next sub on its invite list not asked
    yet, or to anyone. Returns who may take it now (``invites.place_freed``); the caller keeps the record of why."""
    assert req.id is not None  # a stored request
    user_id = place.user_id
    db.delete(place)
    db.flush()
    req.places_filled = max(req.places_filled - 1, 0)
    if req.recipient_id is not None and (req.recipient_id == user_id or invites.has_place(db, req.id, req.recipient_id)):
        req.recipient_id = None  # it names a sub only while inviting one
    req.status, req.updated_at = SubStatus.OPEN, now
    db.add(req)
    db.flush()
    sub_records.refresh(db, [user_id])
    return invites.place_freed(db, req, user_id, now)


def reopened(holder: str) -> str:
    """Who may take a freed place, in words (``holder``: :func:`free_place`'s answer)."""
    return {
        "anyone": "The place is open to anyone again.",
        "the sub invited now": "The sub invited now may take it.",
    }.get(holder, f"The next sub on your invite list, {holder}, has been invited.")


def _email_withdrawn(db: Session, req: SubRequest, actor: Actor, holder: str) -> None:
    """Tell the requestor that a sub gave up their place, and who may take it now."""
    requestor, sub = db.get(User, req.requestor_id), db.get(User, actor.user_id)
    if requestor is None or sub is None:
        return
    assert req.id is not None  # a stored request
    now_open = reopened(holder)
    mail.queue_email(
        db, "sub_withdrew", {
            "first_name": requestor.first_name,
            "who": request_rows.person_name(sub.first_name, sub.last_name, sub.username), "now_open": now_open,
            "when": timefmt.long(req.date, venues.zone_by_name(db, req.svl)), "svl": req.svl,
            "team": req.team, "places_filled": req.places_filled, "players_needed": req.players_needed,
            "page": routes.absolute(routes.sub_request_path(req.id)),
        }, to=requestor.email, reply_to=sub.email,
    )  # fmt: skip
