"""Signup, login, sessions and logout.

The browser only ever holds a random session token. The database keeps an
HMAC of it (keyed with the secret key), an expiry, and a revocation time, so
a stolen database does not hand out sessions and logout really ends one.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import hmac
import logging
import math
import secrets

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app.models import LoginAttempt, LoginSession, User, utcnow
from volley_app.services import passwords
from volley_app.services.errors import BadRequest, RateLimited, Unauthorized
from volley_app.services.permissions import Actor
from volley_app.settings import get_settings

log = logging.getLogger(__name__)

MISSING_CREDENTIALS = "Missing Username or Password"
UNAUTHORIZED = "Unauthorized"
SESSION_EXPIRED = "Your login has expired."


@dataclasses.dataclass(frozen=True)
class LoginResult:
    actor: Actor
    token: str
    expires_at: dt.datetime
    trusted: bool


def hash_token(token: str) -> str:
    key = get_settings().secret_key.encode()
    return hmac.new(key, token.encode(), hashlib.sha256).hexdigest()


def _actor(user: User, session_id: int | None = None) -> Actor:
    return Actor(
        user_id=user.id,
        username=user.username,
        roles=tuple(user.roles),
        session_id=session_id,
        first_name=user.first_name,
    )


def start_session(db: Session, user: User, *, trusted: bool, client: str = "") -> LoginResult:
    """Open a login session for ``user`` and return its one-time-visible token."""
    s = get_settings()
    now = utcnow()
    lifetime = dt.timedelta(days=s.session_days_trusted) if trusted else dt.timedelta(hours=s.session_hours_untrusted)
    token = secrets.token_urlsafe(32)
    row = LoginSession(
        user_id=user.id,
        token_hash=hash_token(token),
        trusted=trusted,
        created_at=now,
        expires_at=now + lifetime,
        last_seen_at=now,
        client_ip=(client or "")[:64],
    )
    db.add(row)
    db.flush()
    return LoginResult(actor=_actor(user, row.id), token=token, expires_at=row.expires_at, trusted=trusted)


def _check_throttle(db: Session, username: str, client: str, now: dt.datetime) -> None:
    """Refuse when this attempt (already recorded) takes an account or a client over its limit."""
    s = get_settings()
    window = dt.timedelta(minutes=s.login_window_minutes)
    for column, value, limit in (
        (LoginAttempt.username, username, s.login_max_failures_per_account),
        (LoginAttempt.client, client, s.login_max_failures_per_client),
    ):
        times = sorted(db.exec(select(LoginAttempt.at).where(column == value, LoginAttempt.at > now - window)).all())
        if len(times) > limit:
            # Enough of the oldest attempts must leave the window for this one to fit.
            wait = times[len(times) - limit - 1] + window - now
            minutes = max(1, math.ceil(wait.total_seconds() / 60))
            raise RateLimited(
                f"Too many failed login attempts. Please wait {minutes} minute{'s' if minutes != 1 else ''} and try again."
            )


def login(db: Session, *, username: object, password: object, trusted: bool = True, client: str = "") -> LoginResult:
    """Check a username and password. Unknown user and wrong password answer the same.

    The attempt is recorded and committed before the password is checked, so
    simultaneous guesses count against each other and cannot slip past the limit
    together. A refused (throttled) attempt is not counted; a success clears the
    account's record.
    """
    name = username.strip().lower() if isinstance(username, str) else ""
    secret = password if isinstance(password, str) else ""
    if not name or not secret:
        raise BadRequest(MISSING_CREDENTIALS)
    name = name[:100]
    client = (client or "unknown")[:64]
    now = utcnow()
    attempt = LoginAttempt(username=name, client=client, at=now)
    db.add(attempt)
    db.commit()
    try:
        _check_throttle(db, name, client, now)
    except RateLimited:
        db.delete(attempt)
        db.commit()
        raise

    user = db.exec(select(User).where(User.username == name)).first()
    if user is None:
        passwords.burn_time(secret)
        ok = False
    else:
        ok = passwords.verify_password(secret, user.password_hash) and user.active
    if not ok:
        log.info("login failed username=%r client=%s", name, client)
        raise Unauthorized(UNAUTHORIZED)  # the committed attempt stays, as a failure
    db.exec(sa.delete(LoginAttempt).where(LoginAttempt.username == name))
    return start_session(db, user, trusted=bool(trusted), client=client)


def resolve(db: Session, token: object) -> Actor | None:
    """The actor a session token belongs to, or None if it is unknown, expired, revoked or inactive."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    now = utcnow()
    row = db.exec(
        select(LoginSession, User)
        .join(User, User.id == LoginSession.user_id)
        .where(LoginSession.token_hash == hash_token(token))
    ).first()
    if row is None:
        return None
    session, user = row
    if session.revoked_at is not None or session.expires_at <= now or not user.active:
        return None
    if now - session.last_seen_at > dt.timedelta(minutes=5):
        session.last_seen_at = now
        db.add(session)
    return _actor(user, session.id)


def logout(db: Session, token: object) -> bool:
    """Revoke the session behind ``token``. True if one was open."""
    if not isinstance(token, str) or not token:
        return False
    result = db.exec(
        sa.update(LoginSession)
        .where(LoginSession.token_hash == hash_token(token), LoginSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    return result.rowcount > 0


def revoke_all_sessions(db: Session, user_id: int) -> int:
    """End every open session of a user (after a password change, say)."""
    result = db.exec(
        sa.update(LoginSession)
        .where(LoginSession.user_id == user_id, LoginSession.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    return result.rowcount


def purge_expired(db: Session) -> int:
    """Delete sessions long expired or revoked, and login failures past every window."""
    now = utcnow()
    cutoff = now - dt.timedelta(days=7)
    n = db.exec(
        sa.delete(LoginSession).where(sa.or_(LoginSession.expires_at < cutoff, LoginSession.revoked_at < cutoff))
    ).rowcount
    window = dt.timedelta(minutes=get_settings().login_window_minutes)
    db.exec(sa.delete(LoginAttempt).where(LoginAttempt.at < now - 2 * window))
    return n


def session_expiry(db: Session, token: str) -> dt.datetime | None:
    row = db.exec(select(LoginSession.expires_at).where(LoginSession.token_hash == hash_token(token))).first()
    return row
