"""Ordered invites with hold windows, and the invitation email's signed one-click answers.

The requestor gives an ordered list of subs (:func:`invite_in_order`: any ordered list of user ids, e.g.
the best suggestions first) and says what happens if nobody accepts: open the request to Anyone, or close
it. The first sub is invited (the request names them, as a targeted request does, and they are emailed)
and holds the request for a window (:func:`hold_until`):

    window = min(2 hours, a quarter of the time left before the game), at least 15 minutes,
    and never past the game's start.

A decline, or a window that passed, invites the next sub at once. A sub who accepts takes one place; with
places left the next sub is invited. When the list runs out the request opens to Anyone (notices go to the
matching subs who asked for them) or closes (Declined, or Accepted when some places were taken), as chosen.
Every step leaves its row in ``sub_invites`` (queued, invited, accepted, declined, expired, skipped, with
times; "limited" when the invitation was not sent because the daily invite limit was reached,
:func:`ratelimit.invitation`). Lapsed windows are swept every minute by the app (:func:`run_sweeper_forever`, or
``python -m volley_app.cli expire-invites``) and when the request is read (:func:`sweep_request`).

Every change to a request's invites starts by locking its row (:func:`lock_request`), the row an accept's
conditional UPDATE also writes: a sweep, a decline and an accept of the same request never interleave.

Invitation links: ``{invite}.{a|d}.{expiry}.{signature}``, signed (``services/core/signing.py``) over the invite,
its sub, the answer and the expiry (the end of the hold). A link is used once (``link_used_at``), only while
the invitation stands, and answers as the invited sub with every rule of a logged-in answer.

The sub a request names (a targeted request) gets the same one-click answers: ``r{request}.{sub}.{a|d}.{expiry}
.{signature}``, valid until the game starts and while the request is Open and names that sub (the answer
ends that, so a link answers once).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import db as dbmod
from volley_app import routes
from volley_app.models import (
    AWAITING_APPROVAL,
    NotificationPreference,
    SubInvite,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    User,
    utcnow,
)
from volley_app.models.base import table_of
from volley_app.services.accounts import venues
from volley_app.services.core import live, periodic, ratelimit, signing, timefmt
from volley_app.services.core.actors import Actor, record_id
from volley_app.services.core.errors import BadRequest, Invalid, NotFound, RateLimited
from volley_app.services.mail import mail, mail_lists, notices
from volley_app.services.subs.access import SUB_REQUEST_NOT_FOUND, access_sub_request, require_sub_request_actor

log = logging.getLogger(__name__)

QUEUED, INVITED, ACCEPTED, DECLINED, EXPIRED, SKIPPED = "queued", "invited", "accepted", "declined", "expired", "skipped"
LIMITED = "limited"  # not sent: the requestor's daily invites, or those to this sub, were used up
NOT_SENT = "Not sent"
LIMIT_REACHED = "the daily invite limit was reached"
WITHDRAWN = "withdrawn"  # accepted, then gave the place up
WAITING = (QUEUED, INVITED)
OPEN_TO_ANYONE, CLOSE = "open", "close"
IF_NOBODY = {OPEN_TO_ANYONE: "Open it to anyone", CLOSE: "Close it"}
HOLD_MAX = dt.timedelta(hours=2)
HOLD_MIN = dt.timedelta(minutes=15)
MAX_INVITES = 20
MAX_PLAYERS = 4
SWEEP_SECONDS = 60.0

BAD_LINK = "This link is not valid."
USED_LINK = "This link was already used."
EXPIRED_LINK = "This link has expired."
GONE_LINK = "This invitation is no longer open."

_requests: sa.Table = table_of(SubRequest)
_invites: sa.Table = table_of(SubInvite)


def hold_until(now: dt.datetime, start: dt.datetime) -> dt.datetime | None:
    """The end of a hold that starts ``now`` for a game at ``start`` (None: the game has started)."""
    left = start - now
    if left <= dt.timedelta(0):
        return None
    return min(now + max(HOLD_MIN, min(HOLD_MAX, left / 4)), start)


def lock_request(db: Session, request_id: int) -> SubRequest:
    """Take the request's row for this transaction (a no-op UPDATE: a row lock, a write lock on SQLite); reload it."""
    db.flush()
    db.connection().execute(
        sa.update(_requests).where(_requests.c.id == request_id).values(updated_at=_requests.c.updated_at)
    )
    req = db.get(SubRequest, request_id)
    if req is None:
        raise NotFound(SUB_REQUEST_NOT_FOUND)
    db.refresh(req)
    return req


def _list(db: Session, request_id: int) -> list[SubInvite]:
    return list(db.exec(select(SubInvite).where(SubInvite.request_id == request_id)
                     .order_by(col(SubInvite.position), col(SubInvite.id))))


def _clean_ids(db: Session, actor: Actor, req: SubRequest, sub_ids: object) -> list[int]:
    """The ordered list as user ids: each an active sub, not the requestor, not already on the request, once."""
    if isinstance(sub_ids, str):
        sub_ids = [part for part in sub_ids.replace(";", ",").split(",") if part.strip()]
    if not isinstance(sub_ids, list | tuple) or not sub_ids:
        raise Invalid({"sub_ids": "Add at least one sub to invite"})
    if len(sub_ids) > MAX_INVITES:
        raise Invalid({"sub_ids": f"Invite at most {MAX_INVITES} subs in one list"})
    ids: list[int] = []
    for value in sub_ids:
        try:
            uid = record_id(value.strip() if isinstance(value, str) else value)
        except NotFound:
            raise Invalid({"sub_ids": "Choose subs from the list"}) from None
        if uid in ids:
            raise Invalid({"sub_ids": "A sub is on the list twice"})
        ids.append(uid)
    if actor.user_id in ids or req.requestor_id in ids:
        raise Invalid({"sub_ids": "You cannot invite yourself"})
    found = {u.id: u for u in db.exec(select(User).where(col(User.id).in_(ids))).all()}
    if any(uid not in found or not found[uid].sub or not found[uid].active or found[uid].archived_at for uid in ids):
        raise Invalid({"sub_ids": "Choose active subs only"})
    placed = set(db.exec(select(SubRequestPlace.user_id).where(SubRequestPlace.request_id == req.id)).all())
    if placed & set(ids):
        raise Invalid({"sub_ids": "A sub on the list has already accepted this request"})
    return ids


def invite_in_order(
    db: Session, actor: Actor | None, request_id: object, *, sub_ids: object, if_nobody: object = OPEN_TO_ANYONE,
    now: dt.datetime | None = None,
) -> int:
    """The requestor invites ``sub_ids`` in that order (best first); the first is invited at once.

    The request must be the actor's, not completed, its game ahead, places left, and nobody invited or
    holding it now (open to Anyone, or declined). Returns how many subs are on the list.
    """
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    req = access_sub_request(db, actor, request_id, own=True)
    assert req.id is not None  # a stored request
    req = lock_request(db, req.id)
    assert req.id is not None  # a stored request
    _advance(db, req, now)
    if req.completed or req.date <= now:
        raise BadRequest("This sub request's date has passed")
    if req.places_filled >= req.players_needed or req.status == SubStatus.ACCEPTED:
        raise BadRequest("This sub request is already taken")
    if req.status == SubStatus.OPEN and req.recipient_id is not None:
        raise BadRequest("A sub is invited to this request now: wait for their answer")
    errors: dict[str, str] = {}
    then = if_nobody if isinstance(if_nobody, str) and if_nobody in IF_NOBODY else None
    if then is None:
        errors["if_nobody"] = "Choose what happens if nobody accepts"
    try:
        ids = _clean_ids(db, actor, req, sub_ids)
    except Invalid as exc:
        errors.update(exc.errors)
    if errors:
        raise Invalid(errors)
    spent = ratelimit.invites_left(db, actor.user_id, now=now)
    if spent:
        raise RateLimited(spent)
    start = max((i.position for i in _list(db, req.id)), default=-1) + 1
    for offset, uid in enumerate(ids):
        db.add(SubInvite(request_id=req.id, user_id=uid, position=start + offset, state=QUEUED, created_at=now))
    req.if_nobody = then
    req.status, req.recipient_id, req.updated_at = SubStatus.OPEN, None, now
    db.add(req)
    db.flush()
    _invite_next(db, req, now)
    log.info("sub request %s: %s subs invited in order by user %s", req.id, len(ids), actor.user_id)
    return len(ids)


# -- the cascade ---------------------------------------------------------------------------------------------


def _current(db: Session, request_id: int) -> SubInvite | None:
    return db.exec(select(SubInvite).where(SubInvite.request_id == request_id, SubInvite.state == INVITED)).first()


def _skip_rest(db: Session, request_id: int, now: dt.datetime) -> None:
    db.connection().execute(
        sa.update(_invites).where(_invites.c.request_id == request_id, _invites.c.state == QUEUED)
        .values(state=SKIPPED, answered_at=now)
    )  # fmt: skip
    for loaded in list(db.identity_map.values()):
        if isinstance(loaded, SubInvite) and loaded.request_id == request_id:
            db.expire(loaded, ["state", "answered_at"])


def _advance(db: Session, req: SubRequest, now: dt.datetime) -> None:
    """With the request locked: end a lapsed hold, then invite the next sub when nobody holds the request."""
    assert req.id is not None  # a stored request
    current = _current(db, req.id)
    if current is None:
        if any(i.state == QUEUED for i in _list(db, req.id)) and req.status == SubStatus.OPEN:
            _invite_next(db, req, now)
        return
    if current.hold_until is not None and current.hold_until > now:
        return
    current.state, current.answered_at = EXPIRED, current.hold_until or now
    db.add(current)
    db.flush()
    tell_changed(db, req, current.user_id)  # the lapsed sub's page loses its Accept and Decline
    log.info("sub request %s: the hold of user %s expired", req.id, current.user_id)
    _invite_next(db, req, now)


def _invite_next(db: Session, req: SubRequest, now: dt.datetime) -> None:
    """Invite the first queued sub who can still be asked; when none is left, open or close the request."""
    assert req.id is not None  # a stored request
    if req.status == SubStatus.ACCEPTED or req.places_filled >= req.players_needed or req.completed or req.archived_at:
        _skip_rest(db, req.id, now)
        return
    until = hold_until(now, req.date)
    placed = set(db.exec(select(SubRequestPlace.user_id).where(SubRequestPlace.request_id == req.id)).all())
    for nxt in [i for i in _list(db, req.id) if i.state == QUEUED]:
        if until is None:
            break
        user = db.get(User, nxt.user_id)
        if user is None or not user.sub or not user.active or user.archived_at or user.id in placed:
            nxt.state, nxt.answered_at = SKIPPED, now
            db.add(nxt)
            continue
        if ratelimit.invitation(db, req.requestor_id, user.id, now=now):
            nxt.state, nxt.answered_at = LIMITED, now
            db.add(nxt)
            db.flush()
            log.info("sub request %s: user %s not invited, the daily invite limit was reached", req.id, user.id)
            continue
        nxt.state, nxt.invited_at, nxt.hold_until = INVITED, now, until
        req.recipient_id, req.status, req.updated_at = user.id, SubStatus.OPEN, now
        db.add_all([nxt, req])
        db.flush()
        _email_invitation(db, req, nxt, user)
        tell_changed(db, req, user.id)
        log.info("sub request %s: user %s invited until %s", req.id, user.id, until.isoformat())
        return
    _skip_rest(db, req.id, now)
    db.flush()
    if req.if_nobody is None:
        return
    if req.if_nobody == OPEN_TO_ANYONE and until is not None:
        req.recipient_id, req.status = None, SubStatus.OPEN
        outcome = "is now open to anyone"
    elif req.places_filled:
        settle_with_places(db, req)
        outcome = f"is closed with {req.places_filled} of {req.players_needed} places taken"
    else:
        req.status = SubStatus.DECLINED
        outcome = "is closed"
    req.if_nobody, req.updated_at = None, now
    db.add(req)
    db.flush()
    _email_requestor(db, req, outcome)
    tell_changed(db, req)
    if req.recipient_id is None and req.status == SubStatus.OPEN:
        open_notices(db, req)


def settle_with_places(db: Session, req: SubRequest) -> None:
    """The request is taken with the places filled so far (its list ran out, or it needs no more players):
    Accepted, naming a sub who took a place (the first to), never one who was only asked."""
    placed = list(db.exec(select(SubRequestPlace.user_id).where(SubRequestPlace.request_id == req.id)
                          .order_by(col(SubRequestPlace.accepted_at), col(SubRequestPlace.id))).all())  # fmt: skip
    req.status = SubStatus.ACCEPTED
    if req.recipient_id not in placed:
        req.recipient_id = placed[0]


def place_freed(db: Session, req: SubRequest, user_id: int, now: dt.datetime) -> str:
    """The sub ``user_id`` gave up their place (the request is locked, Open again): their invitation says so; the
    next sub on the invite list who was not asked yet is invited (a sub invited now keeps the request); with nobody
    left there it is open to anyone. Returns who holds the request now, in words."""
    assert req.id is not None  # a stored request
    db.connection().execute(
        sa.update(_invites).where(_invites.c.request_id == req.id, _invites.c.user_id == user_id,
                                  _invites.c.state == ACCEPTED)
        .values(state=WITHDRAWN, answered_at=now)
    )  # fmt: skip
    _reread(db, req.id)
    if _current(db, req.id) is not None:
        return "the sub invited now"
    db.connection().execute(
        sa.update(_invites).where(_invites.c.request_id == req.id, _invites.c.state == SKIPPED,
                                  _invites.c.invited_at.is_(None))
        .values(state=QUEUED, answered_at=None)
    )  # fmt: skip
    _reread(db, req.id)
    if any(i.state == QUEUED for i in _list(db, req.id)):
        req.if_nobody = OPEN_TO_ANYONE  # when the list runs out again, anyone may take it
        _invite_next(db, req, now)
        invited = _current(db, req.id)
        if invited is not None:
            user = db.get(User, invited.user_id)
            return f"{user.first_name} {user.last_name}".strip() if user else "the next sub on your invite list"
        return "anyone"
    req.recipient_id, req.status, req.updated_at = None, SubStatus.OPEN, now
    db.add(req)
    db.flush()
    open_notices(db, req)
    return "anyone"


def _reread(db: Session, request_id: int) -> None:
    """The request's invitations loaded in this session read their state again (after an UPDATE of them)."""
    for loaded in list(db.identity_map.values()):
        if isinstance(loaded, SubInvite) and loaded.request_id == request_id:
            db.expire(loaded, ["state", "answered_at"])


def tell_changed(db: Session, req: SubRequest, *others: int | None, open_list: bool = False) -> None:
    """Once committed, the open pages of the requestor, the sub named or holding the request, the subs with a place
    on it and ``others`` read it again (and the open list, when the request is or was open to anyone)."""
    assert req.id is not None  # a stored request
    open_list = open_list or req.recipient_id is None
    users = (req.requestor_id, req.recipient_id, *place_holders(db, req.id), *others)
    live.request_changed(db, req.id, users, open_list=open_list)


def end_list(db: Session, req: SubRequest, now: dt.datetime) -> None:
    """The request is cancelled: nobody on its list is asked any more (the invited sub's hold ends too)."""
    db.connection().execute(
        sa.update(_invites).where(_invites.c.request_id == req.id, _invites.c.state.in_(WAITING))
        .values(state=SKIPPED, answered_at=now)
    )  # fmt: skip
    for loaded in list(db.identity_map.values()):
        if isinstance(loaded, SubInvite) and loaded.request_id == req.id:
            db.expire(loaded, ["state", "answered_at"])


def sweep_request(db: Session, request_id: int, now: dt.datetime | None = None) -> None:
    """Pass a lapsed hold of this request on (when it has one): the request is read, so it is up to date."""
    lapsed = db.exec(
        select(SubInvite.id).where(SubInvite.request_id == request_id, SubInvite.state == INVITED,
                                   col(SubInvite.hold_until) <= (now or utcnow()))
    ).first()  # fmt: skip
    if lapsed is not None:
        _advance(db, lock_request(db, request_id), now or utcnow())


def after_accept(db: Session, req: SubRequest, actor: Actor, now: dt.datetime) -> None:
    """A sub took a place (the request's row is already written, so locked): record it, then move the list on."""
    assert req.id is not None  # a stored request
    invite = db.exec(
        select(SubInvite).where(SubInvite.request_id == req.id, SubInvite.user_id == actor.user_id,
                                SubInvite.state == INVITED)
    ).first()  # fmt: skip
    if invite is not None:
        invite.state, invite.answered_at = ACCEPTED, now
        db.add(invite)
        db.flush()
        _invite_next(db, req, now)
    elif req.status == SubStatus.OPEN and req.recipient_id == actor.user_id and not any(
        i.state in WAITING for i in _list(db, req.id)
    ):
        # A sub named on a request for several players took one place: the others are open to anyone.
        req.recipient_id = None
        db.add(req)
    if req.places_filled >= req.players_needed:
        _skip_rest(db, req.id, now)
    db.flush()


def after_decline(db: Session, req: SubRequest, actor: Actor, now: dt.datetime) -> bool:
    """The invited sub said no (the request's row is already written): the next is invited. False: no list."""
    invite = db.exec(
        select(SubInvite).where(SubInvite.request_id == req.id, SubInvite.user_id == actor.user_id,
                                SubInvite.state == INVITED)
    ).first()  # fmt: skip
    if invite is None:
        return False
    invite.state, invite.answered_at = DECLINED, now
    db.add(invite)
    req.status = SubStatus.OPEN
    db.add(req)
    db.flush()
    _invite_next(db, req, now)
    return True


@dataclasses.dataclass
class Sweep:
    expired: int = 0


def _to_sweep(now: dt.datetime) -> list[int]:
    def find(db: Session) -> list[int]:
        lapsed = select(SubInvite.request_id).where(SubInvite.state == INVITED, col(SubInvite.hold_until) <= now)
        return list(db.exec(lapsed.distinct()).all())

    return dbmod.call(find)


def expire_invites(now: dt.datetime | None = None) -> Sweep:
    """Pass every lapsed hold on to the next sub: one transaction per request, each under its request's lock."""
    report = Sweep()
    for request_id in _to_sweep(now or utcnow()):
        try:
            dbmod.call(lambda db, rid=request_id: sweep_request(db, rid, now or utcnow()))
            report.expired += 1
        except Exception:
            log.exception("sweeping the invites of sub request %s failed; the next sweep tries again", request_id)
    return report


async def run_sweeper_forever(stop_event: asyncio.Event | None = None, interval: float = SWEEP_SECONDS) -> None:
    """Run :func:`expire_invites` every ``interval`` seconds (in a worker thread) until cancelled or stopped."""
    await periodic.every(interval, expire_invites, name="Invite sweeper", stop_event=stop_event,
                         worth_saying=lambda r: r.expired)  # fmt: skip

# -- what the requestor sees ---------------------------------------------------------------------------------


class InviteRow(TypedDict):
    """One sub on a request's invite list as its requestor sees it: who, their state in words, when (until when
    they hold it, when they answered), their place in the order (from 1)."""

    name: str
    state: str
    when: str
    position: str


def queue_rows(db: Session, req: SubRequest) -> list[InviteRow]:
    """The request's invite list in order: who, their state, and until when the invited one holds it."""
    rows = db.exec(
        select(SubInvite, User.first_name, User.last_name, User.username)
        .join(User, col(User.id) == SubInvite.user_id)
        .where(SubInvite.request_id == req.id)
        .order_by(col(SubInvite.position), col(SubInvite.id))
    ).all()
    out: list[InviteRow] = []
    for invite, first, last, username in rows:
        when = {
            INVITED: f"holds it until {timefmt.long(invite.hold_until)}" if invite.hold_until else "",
            QUEUED: "waiting for their turn",
            LIMITED: LIMIT_REACHED,
        }.get(invite.state, timefmt.long(invite.answered_at) if invite.answered_at else "")
        state = NOT_SENT if invite.state == LIMITED else invite.state.capitalize()
        out.append({"name": f"{first or ''} {last or ''}".strip() or username, "state": state,
                    "when": when, "position": str(invite.position + 1)})  # fmt: skip
    return out


def place_names(db: Session, req: SubRequest) -> list[str]:
    """The subs who accepted a place, in the order they did."""
    awaiting = sa.and_(col(SubRequestPlace.needs_approval), col(SubRequestPlace.approved_at).is_(None))
    rows = db.exec(
        select(User.first_name, User.last_name, User.username, awaiting)
        .join(SubRequestPlace, col(SubRequestPlace.user_id) == User.id)
        .where(SubRequestPlace.request_id == req.id).order_by(col(SubRequestPlace.accepted_at), col(SubRequestPlace.id))
    ).all()  # fmt: skip
    return [(f"{f or ''} {la or ''}".strip() or u) + (f" ({AWAITING_APPROVAL})" if held else "") for f, la, u, held in rows]


def place_holders(db: Session, request_id: int) -> list[int]:
    """The users who hold a place on the request."""
    return list(db.exec(select(SubRequestPlace.user_id).where(SubRequestPlace.request_id == request_id)).all())


def has_place(db: Session, request_id: int, user_id: int) -> bool:
    found = select(SubRequestPlace.id).where(SubRequestPlace.request_id == request_id, SubRequestPlace.user_id == user_id)
    return db.exec(found).first() is not None


# -- emails --------------------------------------------------------------------------------------------------


def _details(db: Session, req: SubRequest) -> dict[str, object]:
    """What an email shows of a request (``templates/email/_request_details.jinja``)."""
    return {
        "when": timefmt.long(req.date, venues.zone_by_name(db, req.svl)), "svl": req.svl, "team": req.team,
        "court": req.court, "skill_level": req.skill_level.value, "format": req.format.value,
        "players_needed": req.players_needed, "places_filled": req.places_filled, "text": req.text,
    }  # fmt: skip


def _send_invitation(db: Session, req: SubRequest, sub: User, tokens: tuple[str, str], held_until: str | None) -> None:
    """A sub's invitation: the notification, and its email (unless they asked for none) with the request, until when
    it is held (None: no hold), one-click Accept and Decline."""
    assert req.id is not None  # a stored request
    requestor = db.get(User, req.requestor_id)
    accept, decline = (routes.backend_absolute(routes.invite_answer_path(t)) for t in tokens)
    who = mail.full_name(requestor) if requestor else "A player"
    details = _details(db, req)
    link = routes.sub_request_path(req.id)
    notices.notify(
        db, sub, notices.SUB_INVITATION, text=f"{who} invites you to sub: {details['team']}, {details['when']}",
        link=link, reply_to=requestor.email if requestor else None, email=("received_request", {
            "who": who, "first_name": mail.first_name(sub), "request": details, "held_until": held_until,
            "accept": accept, "decline": decline, "page": routes.absolute(link),
        }),
        actions=[{"action": "accept", "title": "Accept", "url": accept, "post": True},
                 {"action": "decline", "title": "Decline", "url": decline, "post": True}],
    )  # fmt: skip


def _email_invitation(db: Session, req: SubRequest, invite: SubInvite, sub: User) -> None:
    """Tell the invited sub (by email unless they asked for none): the request, the hold, one-click Accept and
    Decline."""
    until = timefmt.long(invite.hold_until, venues.zone_by_name(db, req.svl)) if invite.hold_until else ""
    _send_invitation(db, req, sub, (link_token(invite, "accept"), link_token(invite, "decline")), until)


def email_named(db: Session, req: SubRequest, sub: User) -> None:
    """Tell the sub a request names (by email unless they asked for none): the request, one-click Accept and Decline
    that stand until the game starts or the sub no longer holds the request."""
    assert sub.id is not None  # a stored user
    _send_invitation(db, req, sub, (named_token(req, sub.id, "accept"), named_token(req, sub.id, "decline")), None)


def _email_requestor(db: Session, req: SubRequest, outcome: str) -> None:
    """Tell the requestor that nobody on the invite list accepted, and what became of the request (``outcome``)."""
    assert req.id is not None  # a stored request
    requestor = db.get(User, req.requestor_id)
    if requestor is None:
        return
    mail.queue_email(
        db, "invite_list_ended", {"first_name": mail.first_name(requestor), "request": _details(db, req),
                                  "outcome": outcome, "page": routes.absolute(routes.sub_request_path(req.id))},
        to=requestor.email,
    )  # fmt: skip


def open_notices(db: Session, req: SubRequest) -> int:
    """Tell every active sub who asked for open requests (their preference) and whom it matches of the open request
    (its email is bulk mail)."""
    assert req.id is not None  # a stored request
    levels = mail_lists.matching_levels(req.skill_level)
    rated = sa.or_(col(User.hitter_skill_level).in_(levels), col(User.passer_skill_level).in_(levels),
                   col(User.setter_skill_level).in_(levels))  # fmt: skip
    asked = select(col(NotificationPreference.user_id)).where(NotificationPreference.kind == notices.OPEN_REQUEST,
                                                              col(NotificationPreference.email).is_(True))  # fmt: skip
    subs = db.exec(
        select(User).where(col(User.sub).is_(True), col(User.active).is_(True), col(User.archived_at).is_(None),
                           col(User.id).in_(asked), User.id != req.requestor_id, rated).order_by(col(User.id))
    ).all()  # fmt: skip
    link = routes.sub_request_path(req.id)
    details, day = _details(db, req), timefmt.day(req.date)
    sent = 0
    for sub in subs:
        if not mail_lists.matches(sub, req.skill_level, req.format):
            continue
        off = mail_lists.unsubscribe_url(sub, mail_lists.OPEN_NOTICES)
        notices.notify(db, sub, notices.OPEN_REQUEST, text=f"{details['team']}, {details['when']}, {req.svl}",
                       link=link, unsubscribe=off, email=("open_request", {
                           "first_name": mail.first_name(sub), "request": details, "day": day,
                           "page": routes.absolute(link), "unsubscribe": off}))  # fmt: skip
        sent += 1
    return sent


# -- signed answers ------------------------------------------------------------------------------------------

_ACTIONS = {"a": "accept", "d": "decline"}


def link_token(invite: SubInvite, action: str) -> str:
    """The token of an invitation's one-click ``action`` ("accept" or "decline"), valid until the hold ends."""
    expiry = int((invite.hold_until or utcnow()).timestamp())
    signature = signing.sign(signing.INVITE_ANSWER, invite.id, invite.user_id, action, expiry)
    return f"{invite.id}.{action[0]}.{expiry}.{signature}"


def named_token(req: SubRequest, user_id: int, action: str) -> str:
    """The token of the one-click ``action`` of the sub a request names, valid until the game starts."""
    expiry = int(req.date.timestamp())
    signature = signing.sign(signing.NAMED_ANSWER, req.id, user_id, action, expiry)
    return f"r{req.id}.{user_id}.{action[0]}.{expiry}.{signature}"


@dataclasses.dataclass
class Link:
    """What a link answers: the request, for whom, accept or decline; ``invite`` for an ordered list's invitation."""

    invite: SubInvite | None
    action: str
    expiry: dt.datetime
    request_id: int = 0
    user_id: int = 0


def _read_named(db: Session, parts: list[str], now: dt.datetime) -> Link:
    """A link of the sub a request names (``r{request}.{user}.{a|d}.{expiry}.{signature}``)."""
    if (len(parts) != 5 or not parts[0][1:].isdigit() or not parts[1].isdigit() or parts[2] not in _ACTIONS
            or not parts[3].isdigit()):  # fmt: skip
        raise NotFound(BAD_LINK)
    rid, uid, action, expiry = int(parts[0][1:]), int(parts[1]), _ACTIONS[parts[2]], int(parts[3])
    if not signing.verify(signing.NAMED_ANSWER, parts[4], rid, uid, action, expiry):
        raise NotFound(BAD_LINK)
    req = db.get(SubRequest, rid)
    if req is None:
        raise NotFound(BAD_LINK)
    until = dt.datetime.fromtimestamp(expiry, dt.UTC)
    if until <= now:
        raise BadRequest(EXPIRED_LINK)
    if req.archived_at is not None or req.completed or req.status != SubStatus.OPEN or req.recipient_id != uid:
        raise BadRequest(GONE_LINK)
    return Link(None, action, until, rid, uid)


def read_link(db: Session, token: object, now: dt.datetime | None = None) -> Link:
    """The invitation a token answers, when it is ours, unexpired, unused and the invitation stands.

    Raises NotFound (forged, or another invite's), BadRequest (expired, used, or no longer open).
    """
    parts = token.split(".") if isinstance(token, str) and len(token) < 200 else []
    if parts and parts[0].startswith("r"):
        return _read_named(db, parts, now or utcnow())
    if len(parts) != 4 or not parts[0].isdigit() or parts[1] not in _ACTIONS or not parts[2].isdigit():
        raise NotFound(BAD_LINK)
    invite = db.get(SubInvite, int(parts[0]))
    action, expiry = _ACTIONS[parts[1]], int(parts[2])
    if invite is None or not signing.verify(signing.INVITE_ANSWER, parts[3], invite.id, invite.user_id, action, expiry):
        raise NotFound(BAD_LINK)
    if invite.link_used_at is not None:
        raise BadRequest(USED_LINK)
    until = dt.datetime.fromtimestamp(expiry, dt.UTC)
    if until <= (now or utcnow()):
        raise BadRequest(EXPIRED_LINK)
    if invite.state != INVITED:
        raise BadRequest(GONE_LINK)
    return Link(invite, action, until, invite.request_id, invite.user_id)


def use_link(db: Session, link: Link, now: dt.datetime) -> None:
    """Mark the link used; of two uses at once exactly one gets through (BadRequest for the other).

    A named sub's link is used up by its answer: the request no longer names them as Open.
    """
    if link.invite is None:
        return
    used = db.connection().execute(
        sa.update(_invites).where(_invites.c.id == link.invite.id, _invites.c.link_used_at.is_(None))
        .values(link_used_at=now)
    ).rowcount  # fmt: skip
    if used != 1:
        raise BadRequest(USED_LINK)
