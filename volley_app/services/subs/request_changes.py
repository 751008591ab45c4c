"""The requestor's side of a sub request: create it, change its details, reopen it once declined, cancel it.

Rules (spec sections 2, 4, 5 and 6):

- SVLs (display status SVL) are refused; players and admins may ask for subs.
- A request is created Open and not completed. A targeted one names an active sub, resolved on the server by user id,
  and emails that sub (receivedRequest).
- Only the requestor edits or deletes a request. A sub who was invited to it or accepted it is emailed when its time,
  place or team changes, and when it is cancelled; a cancelled request with a sub is archived (kept, shown nowhere),
  one nobody answered is deleted.
- The requestor may reopen a Declined request: to anyone, or naming another sub.
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
    SubStatus,
    User,
    utcnow,
)
from volley_app.models.base import table_of
from volley_app.services.accounts import venues
from volley_app.services.core import ratelimit, timefmt, validation
from volley_app.services.core.actors import Actor, record_id
from volley_app.services.core.errors import BadRequest, Invalid, NotFound
from volley_app.services.mail import mail
from volley_app.services.subs import invites, request_rows, sub_records
from volley_app.services.subs.access import access_sub_request, require_sub_request_actor

log = logging.getLogger(__name__)

TEAM_MAX, SVL_MAX, COURT_MAX, TEXT_MAX = 100, 200, 50, 2000

_table: sa.Table = table_of(SubRequest)


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


def _zone(db: Session, details: dict[str, object]) -> str:
    """The time zone of the venue the details name as the location (the default zone for none)."""
    svl = details.get("svl")
    return venues.zone_by_name(db, svl if isinstance(svl, str) else "")


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


def _recipient(db: Session, actor: Actor, recipient_id: object) -> User | None:
    """The sub a request is made to (None: anyone); Invalid by the field ``recipient`` for anyone but another
    active sub."""
    if recipient_id in (None, ""):
        return None
    try:
        recipient = _active_sub(db, recipient_id)
    except (Invalid, NotFound):
        raise Invalid({"recipient": "Choose an active sub"}) from None
    if recipient.id == actor.user_id:
        raise Invalid({"recipient": "You cannot invite yourself"})
    return recipient


def create(
    db: Session, actor: Actor | None, *, recipient_id: object = None, now: dt.datetime | None = None,
    for_game: tuple[int, int] | None = None, **details: object,
) -> int:  # fmt: skip
    """Create an Open request; with ``recipient_id`` a targeted one that emails the sub. Returns its id.

    ``details``: team, date, svl, skill_level, format, and optionally court and text (see ``_clean``).
    ``for_game``: the league game and team it finds subs for (``services/operations/game_requests.py`` says which).
    """
    actor = require_sub_request_actor(actor)
    recipient_id = named_recipient(db, recipient_id)
    ratelimit.sub_invite(db, actor.user_id, recipient_id)
    now = now or utcnow()
    errors: dict[str, str] = {}
    recipient: User | None = None
    try:
        recipient = _recipient(db, actor, recipient_id)
    except Invalid as exc:
        errors.update(exc.errors)
    try:
        clean = _clean(now=now, zone=_zone(db, details), **details)
    except Invalid as exc:
        errors.update(exc.errors)
    if errors:
        raise Invalid(errors)
    req = SubRequest(
        requestor_id=actor.user_id,
        recipient_id=recipient.id if recipient else None,
        status=SubStatus.OPEN,
        completed=False,
        game_id=for_game[0] if for_game else None,
        team_id=for_game[1] if for_game else None,
        **clean,
    )
    _opened(db, req, recipient)
    log.info("sub request %s created by user %s (targeted=%s)", req.id, actor.user_id, recipient is not None)
    assert req.id is not None  # flushed
    return req.id


def _opened(db: Session, req: SubRequest, recipient: User | None, *others: int | None) -> None:
    """Save the request, open: tell the sub it names (receivedRequest, with one-click Accept and Decline, unless
    they asked to be emailed nothing), or the subs it matches when it is open to anyone; the open pages of those it
    concerns (and of ``others``) read it again."""
    db.add(req)
    db.flush()
    if recipient is not None:
        invites.email_named(db, req, recipient)
    else:
        invites.open_notices(db, req)
    invites.tell_changed(db, req, *others)


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
    recipient = _recipient(db, actor, named_recipient(db, recipient_id))
    if recipient is not None:
        assert req.id is not None and recipient.id is not None  # both stored
        if invites.has_place(db, req.id, recipient.id):
            raise Invalid({"recipient": "This sub has a place on this request already"})
        ratelimit.sub_invite(db, actor.user_id, recipient.id, now=now)
    declined_by = req.recipient_id
    req.status = SubStatus.OPEN
    req.recipient_id = recipient.id if recipient else None
    req.updated_at = now
    _opened(db, req, recipient, declined_by)
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
    assert req.id is not None  # a stored request
    details = _stored_needs(req) | details
    clean = _clean(now=now, zone=_zone(db, details), **details)
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
    assert req.id is not None  # a stored request
    sub = db.get(User, req.recipient_id)
    requestor = db.get(User, req.requestor_id)
    if sub is None or requestor is None:
        return
    mail.queue_email(
        db, template, {
            "first_name": mail.first_name(sub), "requestor": mail.full_name(requestor), "team": req.team,
            "when": timefmt.long(req.date, venues.zone_by_name(db, req.svl)), "svl": req.svl, "court": req.court,
            "page": "" if req.archived_at else routes.absolute(routes.sub_request_path(req.id)), **values,
        }, to=sub.email, reply_to=requestor.email,
    )  # fmt: skip


def delete(db: Session, actor: Actor | None, request_id: object) -> None:
    """The requestor cancels their request.

    With a sub on it (invited, or accepted) it is archived, kept and shown nowhere, and that sub is
    emailed; a request nobody answered is deleted (its id is never used again).
    """
    actor = require_sub_request_actor(actor)
    req = access_sub_request(db, actor, request_id, own=True)
    assert req.id is not None  # a stored request
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
