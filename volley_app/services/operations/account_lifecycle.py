"""An account's end: deleting one, or archiving it when other people's records are tied to it (payments,
teams, venues, requests a sub answered), and an admin restoring an archived one."""

from __future__ import annotations

import logging

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import (
    LeagueSession,
    LoginSession,
    PasswordResetToken,
    Payment,
    SubPlaceRefusal,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    SubWithdrawal,
    Team,
    TeamMember,
    User,
    utcnow,
)
from volley_app.services.accounts.accounts import access_user
from volley_app.services.core import audit
from volley_app.services.core.actors import Actor, require_actor, require_admin
from volley_app.services.core.errors import Invalid
from volley_app.services.subs import sub_records

log = logging.getLogger(__name__)


def account_history(db: Session, uid: int) -> str:
    """What ties an account to other people's records ('' when nothing): payments, teams, venues, requests."""
    what = []
    if db.exec(select(Payment.id).where(Payment.user_id == uid)).first() is not None:
        what.append("payments")
    if (db.exec(select(Team.id).where(Team.captain_id == uid)).first() is not None
            or db.exec(select(TeamMember.id).where(TeamMember.user_id == uid)).first() is not None):  # fmt: skip
        what.append("teams")
    if db.exec(select(LeagueSession.id).where(LeagueSession.svl_id == uid)).first() is not None:
        what.append("league sessions")
    taken = sa.exists().where(col(SubRequestPlace.request_id) == SubRequest.id)
    involved = sa.or_(
        sa.and_(col(SubRequest.requestor_id) == uid, sa.or_(col(SubRequest.recipient_id).is_not(None), taken)),
        sa.and_(col(SubRequest.recipient_id) == uid, col(SubRequest.status) == SubStatus.ACCEPTED),
    )
    took = select(SubRequestPlace.id).where(SubRequestPlace.user_id == uid)
    gave_up = select(SubWithdrawal.id).where(SubWithdrawal.user_id == uid)  # a place they took, then gave up
    refused = select(SubPlaceRefusal.id).where(SubPlaceRefusal.user_id == uid)  # a playoff place the operator refused
    if (db.exec(select(SubRequest.id).where(involved)).first() is not None or db.exec(took).first() is not None
            or db.exec(gave_up).first() is not None or db.exec(refused).first() is not None):
        what.append("sub requests with a sub")
    return ", ".join(what)


def delete_user(db: Session, actor: Actor | None, user_id: object) -> bool:
    """Delete an account (own, or any for an admin). Returns True when the actor deleted themselves.

    An account tied to other records (payments, teams, venues, requests a sub answered) is archived
    instead: it can no longer log in, no list shows it, everything it is part of is kept, and an
    admin can restore it. Either way its logins end at once.
    """
    actor = require_actor(actor)
    user = access_user(db, actor, user_id)
    uid = user.id
    assert uid is not None  # a stored user
    tied = account_history(db, uid)
    if tied:
        _archive_user(db, actor, user, tied)
        return uid == actor.user_id
    audit.record(db, actor, action="delete", entity="user", entity_id=uid, subject_user_id=uid,
                 summary=f"Account {user.username} deleted")  # fmt: skip
    db.expunge(user)
    # Said explicitly as well as by the foreign keys' ON DELETE, so no login outlives its account.
    db.exec(sa.delete(LoginSession).where(col(LoginSession.user_id) == uid))
    db.exec(sa.delete(PasswordResetToken).where(col(PasswordResetToken.user_id) == uid))
    db.exec(sa.delete(SubRequest).where(col(SubRequest.requestor_id) == uid))
    # An invite to the deleted sub stays closed (Declined) rather than becoming open to anyone (one with places
    # taken is never Declined: its places left stay open to anyone).
    db.exec(
        sa.update(SubRequest)
        .where(col(SubRequest.recipient_id) == uid, col(SubRequest.status) == SubStatus.OPEN, col(SubRequest.places_filled) == 0)
        .values(status=SubStatus.DECLINED)
    )
    db.exec(sa.update(SubRequest).where(col(SubRequest.recipient_id) == uid).values(recipient_id=None))
    db.exec(sa.delete(User).where(col(User.id) == uid))
    db.flush()
    log.info("user %s deleted by user %s", uid, actor.user_id)
    return uid == actor.user_id


def _archive_user(db: Session, actor: Actor, user: User, tied: str) -> None:
    now = utcnow()
    user.archived_at, user.active, user.sub, user.updated_at = now, False, False, now
    db.add(user)
    db.exec(sa.delete(LoginSession).where(col(LoginSession.user_id) == user.id))
    db.exec(sa.delete(PasswordResetToken).where(col(PasswordResetToken.user_id) == user.id))
    # Their own requests nobody answered are withdrawn; an invite to them stays closed (Declined).
    withdrawn = (col(SubRequest.requestor_id) == user.id, col(SubRequest.recipient_id).is_(None), col(SubRequest.archived_at).is_(None))
    # (one for several players may have places taken: those subs' records leave it)
    holders = db.exec(select(SubRequestPlace.user_id).join(SubRequest, col(SubRequest.id) == SubRequestPlace.request_id)
                      .where(*withdrawn)).all()  # fmt: skip
    db.exec(sa.update(SubRequest).where(*withdrawn).values(archived_at=now))
    sub_records.refresh(db, holders)
    invited = (col(SubRequest.recipient_id) == user.id, col(SubRequest.status) == SubStatus.OPEN)
    db.exec(sa.update(SubRequest).where(*invited, col(SubRequest.places_filled) == 0).values(status=SubStatus.DECLINED))
    # one with places taken is never Declined: its places left are open to anyone
    db.exec(sa.update(SubRequest).where(*invited, col(SubRequest.places_filled) > 0).values(recipient_id=None))
    db.flush()
    audit.record(db, actor, action="archive", entity="user", entity_id=user.id, subject_user_id=user.id,
                 summary=f"Account {user.username} archived (it has {tied})")  # fmt: skip
    log.info("user %s archived by user %s", user.id, actor.user_id)


def restore_user(db: Session, actor: Actor | None, user_id: object) -> str:
    """Bring an archived account back (admins only): it may log in again (a password reset if forgotten)."""
    actor = require_admin(actor)
    user = access_user(db, actor, user_id)
    if user.archived_at is None:
        raise Invalid("This account is not archived")
    user.archived_at, user.active, user.updated_at = None, True, utcnow()
    db.add(user)
    db.flush()
    audit.record(db, actor, action="restore", entity="user", entity_id=user.id, subject_user_id=user.id,
                 summary=f"Account {user.username} restored")  # fmt: skip
    return user.username
