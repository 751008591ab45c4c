"""Counting limits on actions that cost us or someone else (forms, signups, resets, invites, waitlists).

Kept in the database, so every worker agrees. The limits of each action are named here, one place.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import math

import sqlalchemy as sa
from sqlmodel import Session, col, func, select

from volley_app.models import RateLimitHit, Team, utcnow
from volley_app.services.core.errors import RateLimited


@dataclasses.dataclass(frozen=True)
class Limit:
    scope: str
    limit: int
    window: dt.timedelta


# Accounts created from one client in an hour: a household or a gym's wifi signs up a few people.
SIGNUP = Limit("signup", 10, dt.timedelta(hours=1))
# Signups answered "already taken" per client: what an address-probing script learns from, held to this pace.
SIGNUP_TAKEN = Limit("signup_taken", 10, dt.timedelta(hours=1))
# Signup tries of any outcome per client in a few minutes: a person fixing typos stays far below, a script does not.
SIGNUP_TRIES = Limit("signup_try", 30, dt.timedelta(minutes=10))
# Every invitation of a sub (targeted, reopened, suggested, or a step of an invite list) emails another person.
INVITES_PER_REQUESTOR = Limit("invite_requestor", 10, dt.timedelta(days=1))
INVITES_PER_SUB = Limit("invite_sub", 2, dt.timedelta(days=1))
# Every invitation to join a team emails an address: so many a day per inviter, and per inviter and address.
TEAM_INVITES_PER_INVITER = Limit("team_invite", 20, dt.timedelta(days=1))
TEAM_INVITES_PER_ADDRESS = Limit("team_invite_address", 2, dt.timedelta(days=1))
# Teams one player may have on one league's waitlist at a time.
WAITLIST_PER_PLAYER = 2


def hit(db: Session, *, scope: str, key: str, limit: int, window: dt.timedelta, now: dt.datetime | None = None) -> None:
    """Count one use of ``scope`` by ``key``, or raise RateLimited when ``limit`` uses already fall in ``window``.

    The use is added in the caller's transaction: an action that fails and rolls back is not counted.

    Raises:
        RateLimited: with a message saying how many minutes to wait.
    """
    now = now or utcnow()
    key = (key or "unknown")[:254]
    since = now - window
    times = sorted(
        db.exec(
            select(RateLimitHit.at).where(RateLimitHit.scope == scope, RateLimitHit.key == key, RateLimitHit.at > since)
        )
    )
    if len(times) >= limit:
        raise RateLimited(_wait_message(times[len(times) - limit], window, now))
    db.add(RateLimitHit(scope=scope, key=key, at=now))
    db.flush()


def _wait_message(oldest: dt.datetime, window: dt.timedelta, now: dt.datetime) -> str:
    wait = oldest + window - now
    minutes = max(1, math.ceil(wait.total_seconds() / 60))
    if minutes >= 120:
        hours = math.ceil(minutes / 60)
        return f"Too many requests. Please wait {hours} hours and try again."
    return f"Too many requests. Please wait {minutes} minute{'s' if minutes != 1 else ''} and try again."


def use(db: Session, rule: Limit, key: str, *, now: dt.datetime | None = None) -> None:
    """Count one use of ``rule`` by ``key`` in the caller's transaction (a failed action is not counted).

    Raises:
        RateLimited: when the window already holds ``rule.limit`` uses.
    """
    hit(db, scope=rule.scope, key=key, limit=rule.limit, window=rule.window, now=now)


def use_committed(db: Session, rule: Limit, key: str, *, now: dt.datetime | None = None) -> int:
    """Count one try of ``rule`` by ``key`` whatever comes of it: recorded and committed before the action runs.

    For actions whose failures tell something (a signup that finds an address taken), so
    failing tries count too. Simultaneous tries see each other: the use is written
    first, then counted, so a burst cannot slip past the limit together.

    Returns:
        The id of the use, kept.

    Raises:
        RateLimited: when the window already holds ``rule.limit`` other tries (this one is then not kept).
    """
    now = now or utcnow()
    key = (key or "unknown")[:254]
    row = RateLimitHit(scope=rule.scope, key=key, at=now)
    db.add(row)
    db.commit()
    times = sorted(
        db.exec(
            select(RateLimitHit.at).where(
                RateLimitHit.scope == rule.scope,
                RateLimitHit.key == key,
                col(RateLimitHit.at) > now - rule.window,
                col(RateLimitHit.id) != row.id,
            )
        )
    )
    if len(times) >= rule.limit:
        db.delete(row)
        db.commit()
        raise RateLimited(_wait_message(times[len(times) - rule.limit], rule.window, now))
    assert row.id is not None  # committed
    return row.id


def count(db: Session, *, scope: str, key: str) -> int:
    return db.exec(select(func.count()).where(RateLimitHit.scope == scope, RateLimitHit.key == key)).one()


def purge(db: Session, older_than: dt.timedelta = dt.timedelta(days=2)) -> int:
    """Delete uses older than every window."""
    return db.exec(sa.delete(RateLimitHit).where(col(RateLimitHit.at) < utcnow() - older_than)).rowcount


def signup(db: Session, client: str) -> int:
    """A signup try from ``client``, before its form is looked at: a burst of tries, too many "already taken"
    answers, or too many accounts created lately is refused. The try counts as an account until
    :func:`signup_refused` says it created none. Returns the id of that use.

    Raises:
        RateLimited: with the wait.
    """
    use_committed(db, SIGNUP_TRIES, client)
    why = _refusal(db, SIGNUP_TAKEN, client or "unknown", utcnow())
    if why:
        raise RateLimited(why)
    return use_committed(db, SIGNUP, client)


def signup_refused(db: Session, client: str, use_id: int, *, taken: bool) -> None:
    """The signup try ``use_id`` was refused (a typo, or an address taken): it created no account, so it no
    longer counts as one; an "already taken" answer counts against probing. Rolls back the caller's
    transaction and commits this."""
    db.rollback()
    db.exec(sa.delete(RateLimitHit).where(col(RateLimitHit.id) == use_id))
    if taken:
        db.add(RateLimitHit(scope=SIGNUP_TAKEN.scope, key=(client or "unknown")[:254], at=utcnow()))
    db.commit()


def _refusal(db: Session, rule: Limit, key: str, now: dt.datetime) -> str:
    """Why one more use of ``rule`` by ``key`` is refused now ("" when it is not)."""
    times = sorted(
        db.exec(
            select(RateLimitHit.at).where(
                RateLimitHit.scope == rule.scope, RateLimitHit.key == key[:254], RateLimitHit.at > now - rule.window
            )
        )
    )
    return _wait_message(times[len(times) - rule.limit], rule.window, now) if len(times) >= rule.limit else ""


def invites_left(db: Session, requestor_id: int, *, now: dt.datetime | None = None) -> str:
    """Why ``requestor_id`` may invite nobody more today ("" when they may); counts nothing."""
    return _refusal(db, INVITES_PER_REQUESTOR, str(requestor_id), now or utcnow())


def invitation(db: Session, requestor_id: int, sub_id: object, *, now: dt.datetime | None = None) -> str:
    """Count one invitation of ``sub_id`` by ``requestor_id``, or say why it may not be sent ("" when counted).

    Every way of inviting a sub (a targeted request, a reopened one, a suggestion, each step of an
    ordered invite list) emails a person, so each counts here: so many a day per requestor, and per
    requestor and sub. Counted in the caller's transaction; a refusal counts nothing.
    """
    now = now or utcnow()
    keys = ((INVITES_PER_REQUESTOR, str(requestor_id)), (INVITES_PER_SUB, f"{requestor_id}:{str(sub_id)[:50]}"))
    for rule, key in keys:
        why = _refusal(db, rule, key, now)
        if why:
            return why
    for rule, key in keys:
        db.add(RateLimitHit(scope=rule.scope, key=key, at=now))
    db.flush()
    return ""


def sub_invite(db: Session, requestor_id: int, recipient_id: object, *, now: dt.datetime | None = None) -> None:
    """A targeted sub invite (it emails the sub), counted by :func:`invitation`.

    Raises:
        RateLimited: the requestor's daily invites, or those to this sub, are used up.
    """
    if recipient_id in (None, ""):
        return
    why = invitation(db, requestor_id, recipient_id, now=now)
    if why:
        raise RateLimited(why)


def team_invitation(db: Session, inviter_id: int, email: str, *, now: dt.datetime | None = None) -> None:
    """Count one team invitation emailed to ``email`` by ``inviter_id`` (in the caller's transaction).

    Raises:
        RateLimited: the inviter's invitations of the day, or those to this address, are used up.
    """
    now = now or utcnow()
    keys = ((TEAM_INVITES_PER_INVITER, str(inviter_id)), (TEAM_INVITES_PER_ADDRESS, f"{inviter_id}:{email[:200]}"))
    for rule, key in keys:
        if why := _refusal(db, rule, key, now):
            raise RateLimited(why)
    for rule, key in keys:
        db.add(RateLimitHit(scope=rule.scope, key=key, at=now))
    db.flush()


def waitlist_entry(db: Session, captain_id: int, league_id: int) -> None:
    """One more team of ``captain_id`` on the waitlist of ``league_id``, unless they already have the most allowed."""
    held = db.exec(
        select(func.count()).where(Team.league_id == league_id, Team.captain_id == captain_id, col(Team.waitlist).is_(True))
    ).one()
    if held >= WAITLIST_PER_PLAYER:
        raise RateLimited(f"You already have {held} teams on this league's waitlist.")
