"""Signup, login, sessions and logout.

The browser only ever holds a random session token. The database keeps a
keyed hash of it (``services/core/signing.py``), an expiry, and a revocation time,
so a stolen database does not hand out sessions and logout really ends one.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import math
import re
import secrets
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import (
    KnownDevice,
    LoginAttempt,
    LoginSession,
    PasswordResetToken,
    RefreshToken,
    SignInLink,
    User,
    utcnow,
)
from volley_app.services.accounts import passwords
from volley_app.services.core import signing, validation
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import BadRequest, DomainError, NotFound, RateLimited, Unauthorized
from volley_app.services.mail import mail, notices
from volley_app.settings import get_settings

T = TypeVar("T", SignInLink, PasswordResetToken)  # a table of emailed single-use links
log = logging.getLogger(__name__)

MISSING_CREDENTIALS = "Missing Username or Password"
UNAUTHORIZED = "Unauthorized"
SESSION_EXPIRED = "Your login has expired."

# When an account's failed-login ceiling holds: a right password from a client that has not failed gets a
# one-time sign-in link by email instead of a wait. A wrong one gets the same answer (and no email), so the
# answer never tells a guesser whether they were right.
SIGN_IN_LINK_LIFETIME = dt.timedelta(minutes=15)
SIGN_IN_LINKS_PER_WINDOW = 3  # emails per account per login window; more right passwords get the same answer
LINK_SENT = (
    "Too many failed logins on this account. If the password was right, we emailed you a sign-in link. "
    "It works once, for 15 minutes."
)
INVALID_SIGN_IN_LINK = "This sign-in link is invalid, used or expired. Please log in again."
# A known device: the random token a browser or API client keeps (a cookie) after a successful login.
DEVICE_DAYS = 400

# Where a browser keeps its login, for the app's pages to find it: a trusted login's token (local storage), a login
# for this tab only (session storage), the Trust This Device choice (local storage), the device token (a cookie).
BROWSER_TOKEN = "vb_session"  # noqa: S105 - a storage key, not a secret
BROWSER_TAB_TOKEN = "vb_session_tab"  # noqa: S105
BROWSER_TRUST = "vb_persist"
BROWSER_DEVICE = "vb_device"
# Where the backend listens on an origin of its own (the dev server), a login is handed to the app's origin in the
# address's fragment under this name, and kept there by the app's pages (``volley_app.LOGIN_HANDOVER``).
BROWSER_HANDOVER = "vb_login"
_DEVICE_TOKEN = re.compile(r"[A-Za-z0-9_-]{20,100}")


class SignInLinkSent(DomainError):
    """The login was not answered with a session: the account's ceiling holds, a link may have been emailed."""

    status_code = 202
    default_message = LINK_SENT


@dataclasses.dataclass(frozen=True)
class LoginResult:
    actor: Actor
    token: str
    expires_at: dt.datetime
    trusted: bool
    # This device's token (a cookie): a known device of the account from now on.
    device: str = ""


def hash_token(token: str) -> str:
    """The hash kept of a random token, under the current key (``services/core/signing.py``)."""
    return signing.digest(token)


def token_is(column: Any, token: str) -> sa.ColumnElement[bool]:
    """``column`` holds the hash of ``token``: under the current key, a fallback key, or as kept before keys
    were derived per purpose (so a key rotation logs nobody out and breaks no emailed link)."""
    return column.in_(signing.digests(token))


def _actor(user: User, session_id: int | None = None) -> Actor:
    assert user.id is not None  # a stored user
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
    assert user.id is not None  # a stored user
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


def _device_token(device: object) -> str:
    return device if isinstance(device, str) and _DEVICE_TOKEN.fullmatch(device) else ""


def _device_key(user_id: int, device: str) -> str:
    """What is hashed of a device's token: bound to the account."""
    return f"device:{user_id}:{device}"


def known_device(db: Session, user_id: int, device: object) -> bool:
    """True when ``device`` (the token a device keeps) logged in to the account of ``user_id`` before."""
    token = _device_token(device)
    if not token:
        return False
    since = utcnow() - dt.timedelta(days=DEVICE_DAYS)
    found = db.exec(
        select(KnownDevice.id).where(token_is(KnownDevice.token_hash, _device_key(user_id, token)),
                                     KnownDevice.user_id == user_id, KnownDevice.last_seen_at > since)
    ).first()  # fmt: skip
    return found is not None


def remember_device(db: Session, user: User, device: object) -> str:
    """Make this device a known device of ``user`` (who just proved who they are); the token it keeps.

    A device that already holds a token keeps it (known now to this account as well); one without gets a new one.
    """
    token = _device_token(device) or secrets.token_urlsafe(32)
    assert user.id is not None  # a stored user
    digest = hash_token(_device_key(user.id, token))
    row = db.exec(select(KnownDevice).where(token_is(KnownDevice.token_hash, _device_key(user.id, token)))).first()
    if row is not None:
        row.last_seen_at, row.token_hash = utcnow(), digest  # kept under the current key from now on
        db.add(row)
        return token
    try:
        with db.begin_nested():
            db.add(KnownDevice(user_id=user.id, token_hash=digest))
    except sa.exc.IntegrityError:
        pass  # the same device, logging in twice at once: one row is enough
    return token


def _check_throttle(db: Session, attempt: LoginAttempt, *, known: bool) -> bool:
    """Refuse ``attempt`` (already recorded) when it comes too soon; True when the account's ceiling holds it.

    Three rules, each counting the other failures inside the window:

    - the account and client pair: a few failures are free, then each try waits
      twice as long as the one before (a guesser slows down; the owner is not locked out);
    - the client, over every account: a ceiling;
    - the account, from every client: a ceiling. A client that has failed on the account waits;
      one that has not is answered by email (:func:`check_credentials`), not with a wait.

    A known device of the account (``known``) is held by neither ceiling, so guessing
    from elsewhere never locks the owner out of their own device.
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

    if known:
        return False
    window = dt.timedelta(minutes=s.login_window_minutes)
    for column, value, ceiling in (
        (LoginAttempt.client, attempt.client, s.login_max_failures_per_client),
        (LoginAttempt.username, attempt.username, s.login_max_failures_per_account),
    ):
        times = sorted(db.exec(select(LoginAttempt.at).where(column == value, *recent)).all())
        if len(times) >= ceiling:
            if column is LoginAttempt.username and not pair:
                return True
            # Enough of the oldest failures must leave the window for this attempt to fit.
            raise _throttled(times[len(times) - ceiling] + window - now)
    return False


def login(
    db: Session, *, username: object, password: object, trusted: bool = True, client: str = "", device: object = ""
) -> LoginResult:
    """Check a username and password (:func:`check_credentials`) and open a browser session on a known device."""
    user = check_credentials(db, username=username, password=password, client=client, device=device)
    result = start_session(db, user, trusted=bool(trusted), client=(client or "unknown")[:64])
    return dataclasses.replace(result, device=remember_device(db, user, device))


def check_credentials(
    db: Session, *, username: object, password: object, client: str = "", device: object = ""
) -> User:
    """The user of a username and password. Unknown user and wrong password answer the same.

    The attempt is recorded and committed before the password is checked, so
    simultaneous guesses count against each other and cannot slip past the
    throttle together. A refused (throttled) attempt is not counted; a success
    clears the failures of that account from that client. ``device``: the token of
    the device logging in; a known device of the account is held by no ceiling.

    Raises SignInLinkSent when the account's ceiling holds a client that has not failed
    on it: a right password then emails a one-time sign-in link, a wrong one counts as a failure.
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
    user = db.exec(select(User).where(User.username == name)).first()
    user_id = user.id if user is not None else None
    try:
        at_ceiling = _check_throttle(db, attempt, known=user_id is not None and known_device(db, user_id, device))
    except RateLimited:
        db.delete(attempt)
        db.commit()
        raise

    if user is None:
        passwords.burn_time(secret)
        ok = False
    else:
        ok = passwords.verify_password(secret, user.password_hash) and user.active
    if not ok:
        log.info("login failed username=%r client=%s", name, client)
        if at_ceiling:
            raise SignInLinkSent()  # the same answer as a right password's; the attempt stays, as a failure
        raise Unauthorized(UNAUTHORIZED)  # the committed attempt stays, as a failure
    assert user is not None  # only a known user's password is right
    db.exec(sa.delete(LoginAttempt).where(col(LoginAttempt.username) == name, col(LoginAttempt.client) == client))
    if at_ceiling:
        _email_sign_in_link(db, user, now)
        db.commit()
        raise SignInLinkSent()
    return user


def _email_sign_in_link(db: Session, user: User, now: dt.datetime) -> None:
    """Email ``user`` a one-time sign-in link (only its HMAC is kept), unless enough went out lately."""
    since = now - dt.timedelta(minutes=get_settings().login_window_minutes)
    sent = db.exec(
        select(sa.func.count()).select_from(SignInLink).where(SignInLink.user_id == user.id, SignInLink.created_at > since)
    ).one()
    if sent >= SIGN_IN_LINKS_PER_WINDOW:
        log.info("sign-in link not sent again user=%s", user.id)
        return
    token = secrets.token_urlsafe(32)
    assert user.id is not None  # a stored user
    db.add(SignInLink(user_id=user.id, token_hash=hash_token(token), created_at=now,
                      expires_at=now + SIGN_IN_LINK_LIFETIME))  # fmt: skip
    mail.queue_email(
        db, "sign_in_link", {
            "first_name": user.first_name, "username": user.username,
            "minutes": int(SIGN_IN_LINK_LIFETIME.total_seconds() // 60),
            "link": routes.absolute(routes.sign_in_path(user.id, token)),
            "forgot_password": routes.absolute(routes.FORGOT_PASSWORD),
        }, to=user.email,
    )  # fmt: skip
    db.flush()


def live_link(db: Session, model: type[T], user_id: object, token: object, now: dt.datetime, invalid: str) -> T:
    """The live row of an emailed single-use link (``model``: a table with user_id, token_hash, used_at and
    expires_at) for ``user_id`` and ``token``, or NotFound(``invalid``): one message for every failure."""
    try:
        uid = int(user_id)  # type: ignore[call-overload]  # any value: what int() refuses is NotFound
    except (TypeError, ValueError):
        raise NotFound(invalid) from None
    if not isinstance(token, str) or not (10 <= len(token) <= 200):
        raise NotFound(invalid)
    row = db.exec(select(model).where(token_is(model.token_hash, token))).first()
    if row is None or row.user_id != uid or row.used_at is not None or now >= row.expires_at:
        raise NotFound(invalid)
    return row


def use_sign_in_link(
    db: Session, *, user_id: object, token: object, trusted: bool = True, client: str = "", device: object = ""
) -> LoginResult:
    """Sign in through an emailed sign-in link: once, within its lifetime; the device becomes known.

    Raises NotFound(INVALID_SIGN_IN_LINK) for a link that is unknown, of another user, used or expired.
    """
    now = utcnow()
    row = live_link(db, SignInLink, user_id, token, now, INVALID_SIGN_IN_LINK)
    taken = db.exec(
        sa.update(SignInLink).where(col(SignInLink.id) == row.id, col(SignInLink.used_at).is_(None)).values(used_at=now)
    ).rowcount
    user = db.get(User, row.user_id)
    if taken != 1 or user is None or not user.active or user.archived_at is not None:
        raise NotFound(INVALID_SIGN_IN_LINK)
    client = (client or "unknown")[:64]
    db.exec(sa.delete(LoginAttempt).where(col(LoginAttempt.username) == user.username, col(LoginAttempt.client) == client))
    result = start_session(db, user, trusted=bool(trusted), client=client)
    return dataclasses.replace(result, device=remember_device(db, user, device))


def forgive_failures(db: Session, username: str) -> None:
    """Forget every failed login of an account (its owner proved who they are: a password reset)."""
    db.exec(sa.delete(LoginAttempt).where(col(LoginAttempt.username) == username))


def resolve(db: Session, token: object) -> Actor | None:
    """The actor a session token belongs to, or None if it is unknown, expired, revoked or inactive."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    now = utcnow()
    # The columns it needs, not the two rows as objects: every event of every open tab asks this.
    row: Any = db.connection().execute(
        sa.select(*map(col, (LoginSession.id, LoginSession.revoked_at, LoginSession.expires_at, LoginSession.last_seen_at,
                             User.id, User.username, User.roles, User.first_name, User.active)))
        .join(User, col(User.id) == LoginSession.user_id)
        .where(token_is(LoginSession.token_hash, token))
    ).first()  # fmt: skip
    if row is None:
        return None
    session_id, revoked_at, expires_at, last_seen_at, user_id, username, roles, first_name, active = row
    if revoked_at is not None or expires_at <= now or not active:
        return None
    if now - last_seen_at > dt.timedelta(minutes=5):
        db.connection().execute(sa.update(LoginSession).where(col(LoginSession.id) == session_id).values(last_seen_at=now))
    return Actor(user_id=user_id, username=username, roles=tuple(roles), session_id=session_id, first_name=first_name)


def resolve_with_unread(db: Session, token: object) -> tuple[Actor | None, int]:
    """:func:`resolve`, and how many of that user's notifications are unread (the header's bell), in one
    transaction."""
    actor = resolve(db, token)
    return actor, (notices.unread_count(db, actor.user_id) if actor is not None else 0)


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
        .where(token_is(LoginSession.token_hash, token), col(LoginSession.revoked_at).is_(None))
        .values(revoked_at=utcnow())
    )
    return result.rowcount > 0


def revoke_all_sessions(db: Session, user_id: int, *, except_session: int | None = None) -> int:
    """End every open session of a user (after a password change, say), but ``except_session`` if given.

    The REST API's logins (refresh token families, and so their access tokens) end too.
    """
    keep = [col(LoginSession.id) != except_session] if except_session is not None else []
    db.exec(
        sa.update(RefreshToken)
        .where(col(RefreshToken.user_id) == user_id, col(RefreshToken.revoked_at).is_(None))
        .values(revoked_at=utcnow())
    )
    result = db.exec(
        sa.update(LoginSession)
        .where(col(LoginSession.user_id) == user_id, col(LoginSession.revoked_at).is_(None), *keep)
        .values(revoked_at=utcnow())
    )
    return result.rowcount


def purge_expired(db: Session) -> int:
    """Delete sessions long expired or revoked, and login failures past every window."""
    now = utcnow()
    cutoff = now - dt.timedelta(days=7)
    n = db.exec(
        sa.delete(LoginSession).where(sa.or_(col(LoginSession.expires_at) < cutoff, col(LoginSession.revoked_at) < cutoff))
    ).rowcount
    db.exec(sa.delete(RefreshToken).where(sa.or_(col(RefreshToken.expires_at) < cutoff, col(RefreshToken.revoked_at) < cutoff)))
    window = dt.timedelta(minutes=get_settings().login_window_minutes)
    db.exec(sa.delete(LoginAttempt).where(col(LoginAttempt.at) < now - 2 * window))
    db.exec(sa.delete(SignInLink).where(col(SignInLink.expires_at) < cutoff))
    db.exec(sa.delete(KnownDevice).where(col(KnownDevice.last_seen_at) < now - dt.timedelta(days=DEVICE_DAYS)))
    return n


def session_expiry(db: Session, token: str) -> dt.datetime | None:
    row = db.exec(select(LoginSession.expires_at).where(token_is(LoginSession.token_hash, token))).first()
    return row


def logout_everywhere(db: Session, actor: Actor | None) -> int:
    """The actor ends every login of their account: browser sessions and REST API tokens alike."""
    if actor is None:
        raise Unauthorized()
    return revoke_all_sessions(db, actor.user_id)
