"""Answering a sub request from outside the app: the one-click Accept and Decline links of the emails, and the
notices that name a request by its date and location."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import (
    SubRequest,
    SubStatus,
    User,
    utcnow,
)
from volley_app.models.base import table_of
from volley_app.services.accounts import auth, venues
from volley_app.services.core import timefmt
from volley_app.services.core.actors import Actor, load, record_id
from volley_app.services.core.errors import BadRequest, Invalid, NotFound
from volley_app.services.subs import invites, request_replies, request_rows
from volley_app.services.subs.access import (
    SUB_REQUEST_NOT_FOUND,
    access_sub_request,
    require_sub_request_actor,
)

_table: sa.Table = table_of(SubRequest)

ANSWERED = "answered"
ALREADY_TOLD = "already told"
NOT_TARGETED = "Only a request made to one sub has an invitation"


NOTICE_AMBIGUOUS = "More than one sub request has that date and location: send its id"


def _minute(value: dt.datetime) -> dt.datetime:
    return value.replace(second=0, microsecond=0)


def _names_time(value: object, when: dt.datetime, zone: str) -> bool:
    """Whether a client's ``date`` names the time ``when`` (UTC): an ISO date-time (with an offset: that instant;
    without: UTC or the venue's wall clock), milliseconds since 1970, or the long text the emails show."""
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            return _minute(dt.datetime.fromtimestamp(value / 1000, dt.UTC)) == _minute(when)
        except (OverflowError, OSError, ValueError):
            return False
    if not isinstance(value, str) or not value.strip():
        return False
    text = value.strip()
    try:
        parsed = dt.datetime.fromisoformat(text.replace("Z", "+00:00") if text.endswith("Z") else text)
    except ValueError:
        said = " ".join(text.casefold().split())
        long = timefmt.long(when, zone)
        plain = long.rsplit(" ", 1)[0]
        return said in {v.casefold() for v in (long, plain, plain.replace(" at ", " "), long.replace(" at ", " "))}
    if parsed.tzinfo is not None:
        return _minute(parsed.astimezone(dt.UTC)) == _minute(when)
    return _minute(parsed) in (_minute(when.astimezone(dt.UTC)).replace(tzinfo=None),
                               _minute(timefmt.local(when, zone)).replace(tzinfo=None))  # fmt: skip


NOTICE_KINDS = ("accepted", "declined", "received")


def notice_request(db: Session, actor: Actor | None, *, kind: str, date: object, svl: object, team: object = None) -> int:
    """The request a notice call names by its details, as the spec's client sends them (no id): its date and
    location (and team). Only requests the caller is a party of are looked at: ``accepted``, those they may take
    (open to anyone, made to them, or with a place of theirs); ``declined``, those made to them; ``received``, those
    they made to one sub. When several match, the one the caller has just answered (or, ``received``, the open one)
    is meant. Addresses in the call are never used. Returns the request's id.

    Raises:
        NotFound: no such request of the caller's. Invalid: several match (send the id).
    """
    actor = require_sub_request_actor(actor)
    if kind not in NOTICE_KINDS or not isinstance(svl, str) or not svl.strip() or date in (None, ""):
        raise NotFound(SUB_REQUEST_NOT_FOUND)
    where = [_table.c.archived_at.is_(None), sa.func.lower(_table.c.svl) == svl.strip().lower()]
    if kind == "received":
        where += [_table.c.requestor_id == actor.user_id, _table.c.recipient_id.is_not(None)]
    elif kind == "declined":
        where += [_table.c.requestor_id != actor.user_id, _table.c.recipient_id == actor.user_id]
    else:
        where += [_table.c.requestor_id != actor.user_id,
                  sa.or_(_table.c.recipient_id.is_(None), _table.c.recipient_id == actor.user_id,
                         request_rows.placed_by(actor.user_id))]  # fmt: skip
    found = db.exec(select(SubRequest).where(*where).order_by(col(SubRequest.id))).all()
    zone = venues.zone_by_name(db, svl)
    found = [r for r in found if _names_time(date, r.date, zone)]
    if isinstance(team, str) and team.strip():
        found = [r for r in found if r.team.strip().casefold() == team.strip().casefold()]
    if len(found) > 1:
        if kind == "accepted":
            meant = [r for r in found if r.id is not None and invites.has_place(db, r.id, actor.user_id)]
        else:
            meant = [r for r in found if r.status == (SubStatus.DECLINED if kind == "declined" else SubStatus.OPEN)]
        found = meant if len(meant) == 1 else found
    if not found:
        raise NotFound(SUB_REQUEST_NOT_FOUND)
    if len(found) > 1:
        raise Invalid({"id": NOTICE_AMBIGUOUS})
    rid = found[0].id
    assert rid is not None  # a stored request
    return rid


def answer_notice(
    db: Session, actor: Actor | None, request_id: object, *, accepted: bool, now: dt.datetime | None = None
) -> str:
    """A sub's answer as the spec's client sends it (its accept or decline call, then the email call).

    The answer is made and the requestor emailed (a message the server composes) once: the same
    sub asking again after their answer stands changes nothing and says so (``ALREADY_TOLD``).
    Anyone else is refused as :func:`accept` and :func:`decline` refuse them.
    """
    actor = require_sub_request_actor(actor)
    rid = record_id(request_id, SUB_REQUEST_NOT_FOUND)
    req = db.get(SubRequest, rid)
    status = SubStatus.ACCEPTED if accepted else SubStatus.DECLINED
    if req is not None and req.archived_at is None and req.recipient_id == actor.user_id and req.status == status:
        return ALREADY_TOLD
    if req is not None and req.archived_at is None and accepted and invites.has_place(db, rid, actor.user_id):
        return ALREADY_TOLD  # one of several places, taken a moment ago
    (request_replies.accept if accepted else request_replies.decline)(db, actor, rid, now=now)
    return ANSWERED


def invitation_notice(db: Session, actor: Actor | None, request_id: object) -> str:
    """The requestor's check that the sub named on their open request was invited: the invitation is
    emailed when the request is made (or reopened to them), so nothing is sent twice."""
    actor = require_sub_request_actor(actor)
    req = access_sub_request(db, actor, request_id, own=True)
    if req.recipient_id is None or req.status != SubStatus.OPEN:
        raise BadRequest(NOT_TARGETED)
    return ALREADY_TOLD


def read_answer_link(db: Session, token: object, *, now: dt.datetime | None = None) -> dict:
    """What an invitation link would do (nothing changes): the answer, the request, the sub it answers for.

    Raises NotFound (a forged link, or another invite's) or BadRequest (expired, used, no longer open).
    """
    link = invites.read_link(db, token, now or utcnow())
    req = load(db, SubRequest, link.request_id, SUB_REQUEST_NOT_FOUND)
    return {"action": link.action, "request_id": req.id, "team": req.team, "date": timefmt.long(req.date),
            "svl": req.svl}  # fmt: skip


def answer_by_link(db: Session, token: object, *, now: dt.datetime | None = None) -> dict:
    """Answer an invitation from its email link, without logging in, as the invited sub.

    Every rule of :func:`accept` and :func:`decline` holds; the link is used once. A refused answer
    changes nothing (not even the link) and raises as they do.
    """
    now = now or utcnow()
    link = invites.read_link(db, token, now)
    sub = db.get(User, link.user_id)
    if sub is None or not sub.active or sub.archived_at is not None:
        raise BadRequest(invites.GONE_LINK)
    actor = auth.actor_of(sub)
    with db.begin_nested():
        invites.use_link(db, link, now)
        reply = request_replies.accept if link.action == "accept" else request_replies.decline
        reply(db, actor, link.request_id, now=now)
    return {"action": link.action, "request_id": link.request_id}
