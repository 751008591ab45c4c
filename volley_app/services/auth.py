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

from volley_app.models import LoginAttempt, LoginSession, RefreshToken, User, utcnow
from volley_app.services import passwords, validation
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


def actor_of(user: User) -> Actor:
    """The actor of ``user`` outside a browser session (the REST API's tokens)."""
    return _actor(user)


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


def failure_delay(failures: int) -> dt.timedelta:
    """How long one account-and-client pair waits after ``failures`` recent failures: none at first, then doubling."""
    s = get_settings()
    if failures < s.login_free_failures:
        return dt.timedelta(0)
    seconds = 2 ** min(failures - s.login_free_failures + 1, 20)
    return dt.timedelta(seconds=min(seconds, s.login_max_delay_seconds))


def _wait_text(wait: dt.timedelta) -> str:
    seconds = max(1, math.ceil(wait.total_seconds()))
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _throttled(wait: dt.timedelta) -> RateLimited:
    return RateLimited(f"Too many failed login attempts. Please wait {_wait_text(wait)} and try again.")


def known_client(db: Session, username: str, client: str) -> bool:
    """True when ``client`` has logged in to ``username`` before (a session of it, open or ended, came from there)."""
    found = db.exec(
        select(LoginSession.id)
        .join(User, User.id == LoginSession.user_id)
        .where(User.username == username, LoginSession.client_ip == client)
        .limit(1)
    ).first()
    return found is not None


def _check_throttle(db: Session, attempt: LoginAttempt) -> None:
    """Refuse ``attempt`` (already recorded) when it comes too soon.

    Three rules, each counting the other failures inside the window:

    - the account and client pair: a few failures are free, then each try waits
      twice as long as the one before (a guesser slows down; the owner is not locked out);
    - the account, from every client, and the client, over every account: a ceiling,
      which a client that logged in to this account before is exempt from, so
      guessing from elsewhere never locks the owner out of their own device.
    """
    s = get_settings()
    now = attempt.at
    since = now - dt.timedelta(minutes=s.login_window_minutes)
    recent = (LoginAttempt.at > since, LoginAttempt.id != attempt.id)

    pair = sorted(
        db.exec(
            select(LoginAttempt.at).where(
                LoginAttempt.username == attempt.username, LoginAttempt.client == attempt.client, *recent
            )
        ).all()
    )
    if pair:
        wait = pair[-1] + failure_delay(len(pair)) - now
        if wait > dt.timedelta(0):
            raise _throttled(wait)

    if known_client(db, attempt.username, attempt.client):
        return
    window = dt.timedelta(minutes=s.login_window_minutes)
    for column, value, ceiling in (
        (LoginAttempt.username, attempt.username, s.login_max_failures_per_account),
        (LoginAttempt.client, attempt.client, s.login_max_failures_per_client),
    ):
        times = sorted(db.exec(select(LoginAttempt.at).where(column == value, *recent)).all())
        if len(times) >= ceiling:
            # Enough of the oldest failures must leave the window for this attempt to fit.
            raise _throttled(times[len(times) - ceiling] + window - now)


def login(db: Session, *, username: object, password: object, trusted: bool = True, client: str = "") -> LoginResult:
    """Check a username and password (:func:`check_credentials`) and open a browser session."""
    user = check_credentials(db, username=username, password=password, client=client)
    return start_session(db, user, trusted=bool(trusted), client=(client or "unknown")[:64])


def check_credentials(db: Session, *, username: object, password: object, client: str = "") -> User:
    """The user of a username and password. Unknown user and wrong password answer the same.

    The attempt is recorded and committed before the password is checked, so
    simultaneous guesses count against each other and cannot slip past the
    throttle together. A refused (throttled) attempt is not counted; a success
    clears the failures of that account from that client.
    """
    name = username.strip().lower() if isinstance(username, str) else ""
    secret = password if isinstance(password, str) else ""
    if not name or not secret:
        raise BadRequest(MISSING_CREDENTIALS)
    client = (client or "unknown")[:64]
    if len(name) > 100 or len(secret) > 1000 or validation.has_control_chars(name + secret + client):
        raise Unauthorized(UNAUTHORIZED)  # no account has such a name or password: nothing to count
    now = utcnow()
    attempt = LoginAttempt(username=name, client=client, at=now)
    db.add(attempt)
    db.commit()
    try:
        _check_throttle(db, attempt)
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
    db.exec(sa.delete(LoginAttempt).where(LoginAttempt.username == name, LoginAttempt.client == client))
    return user


def forgive_failures(db: Session, username: str) -> None:
    """Forget every failed login of an account (its owner proved who they are: a password reset)."""
    db.exec(sa.delete(LoginAttempt).where(LoginAttempt.username == username))


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


def holder(db: Session, user_id: int) -> Actor | None:
    """The actor a signed link was made for, while that user may still log in (active, not archived)."""
    user = db.get(User, user_id)
    if user is None or not user.active or user.archived_at is not None:
        return None
    return _actor(user)


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


def revoke_all_sessions(db: Session, user_id: int, *, except_session: int | None = None) -> int:
    """End every open session of a user (after a password change, say), but ``except_session`` if given.

    The REST API's logins (refresh token families, and so their access tokens) end too.
    """
    keep = [LoginSession.id != except_session] if except_session is not None else []
    db.exec(
        sa.update(RefreshToken)
        .where(RefreshToken.user_id == user_id, RefreshToken.revoked_at.is_(None))
        .values(revoked_at=utcnow())
    )
    result = db.exec(
        sa.update(LoginSession)
        .where(LoginSession.user_id == user_id, LoginSession.revoked_at.is_(None), *keep)
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
    db.exec(sa.delete(RefreshToken).where(sa.or_(RefreshToken.expires_at < cutoff, RefreshToken.revoked_at < cutoff)))
    window = dt.timedelta(minutes=get_settings().login_window_minutes)
    db.exec(sa.delete(LoginAttempt).where(LoginAttempt.at < now - 2 * window))
    return n


def session_expiry(db: Session, token: str) -> dt.datetime | None:
    row = db.exec(select(LoginSession.expires_at).where(LoginSession.token_hash == hash_token(token))).first()
    return row


def logout_everywhere(db: Session, actor: Actor | None) -> int:
    """The actor ends every login of their account: browser sessions and REST API tokens alike."""
    if actor is None:
        raise Unauthorized()
    return revoke_all_sessions(db, actor.user_id)
