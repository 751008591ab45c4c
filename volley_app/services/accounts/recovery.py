"""Password recovery: a one-hour, single-use reset link sent by email, then a new password.

The link is ``{settings.public_url}/resetPassword/{user id}/{token}``: built from
the configured public URL, never from a request's Host header. The token is
random; only its HMAC (``auth.hash_token``) is stored, bound to the user. Using
it sets the password, marks every outstanding token of that user used, revokes
every login session, and mails a 'your password was changed' notice.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import logging
import secrets

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import PasswordResetToken, User, utcnow
from volley_app.services.accounts import auth, passwords
from volley_app.services.core import ratelimit, validation
from volley_app.services.core.errors import NotFound
from volley_app.services.mail import mail

log = logging.getLogger(__name__)

TOKEN_LIFETIME = dt.timedelta(hours=1)
CLIENT_LIMIT = 10
EMAIL_LIMIT = 3
WINDOW = dt.timedelta(hours=1)

INVALID_LINK = "This password reset link is invalid or has expired. Please ask for a new one."


@dataclasses.dataclass(frozen=True)
class ResetRequest:
    """What asking for a reset did. ``found`` is False when no account has that email."""

    found: bool
    link: str = ""


def reset_link(user_id: int, token: str) -> str:
    return routes.absolute(routes.reset_password_path(user_id, token))


def request_reset(db: Session, *, email: object, client: str, now: dt.datetime | None = None) -> ResetRequest:
    """Send a reset link to the account with ``email``, if there is one.

    Rate limited per client and per email address (both counted whether or not
    an account was found, so the limit cannot be used to probe for accounts).

    Raises:
        Invalid: the email is missing or malformed.
        RateLimited: too many requests from this client or for this address.
    """
    address = validation.email(email)
    now = now or utcnow()
    ratelimit.hit(db, scope="reset_client", key=client or "unknown", limit=CLIENT_LIMIT, window=WINDOW, now=now)
    ratelimit.hit(db, scope="reset_email", key=address, limit=EMAIL_LIMIT, window=WINDOW, now=now)
    user = db.exec(select(User).where(User.email == address, col(User.active).is_(True))).first()
    if user is None:
        log.info("password reset asked for an unknown email (client=%s)", client)
        return ResetRequest(found=False)
    assert user.id is not None  # a stored user
    token = secrets.token_urlsafe(32)
    db.add(
        PasswordResetToken(
            user_id=user.id, token_hash=auth.hash_token(token), created_at=now, expires_at=now + TOKEN_LIFETIME
        )
    )
    db.flush()
    link = reset_link(user.id, token)
    mail.queue_email(
        db, "password_reset", {"first_name": mail.first_name(user), "username": user.username, "link": link,
                               "minutes": int(TOKEN_LIFETIME.total_seconds() // 60)},
        to=user.email,
    )  # fmt: skip
    return ResetRequest(found=True, link=link)


def _token_row(db: Session, user_id: object, token: object, now: dt.datetime) -> PasswordResetToken:
    """The live token row for ``user_id`` and ``token``, or NotFound (one message for every failure)."""
    return auth.live_link(db, PasswordResetToken, user_id, token, now, INVALID_LINK)


def check_link(db: Session, *, user_id: object, token: object, now: dt.datetime | None = None) -> None:
    """Raise NotFound(INVALID_LINK) unless the link is live (so the page can say so before the form)."""
    _token_row(db, user_id, token, now or utcnow())


def reset_password(
    db: Session, *, user_id: object, token: object, password: object, now: dt.datetime | None = None
) -> User:
    """Set a new password through a reset link.

    Raises:
        Invalid: the password breaks the reset rule (spec section 5).
        NotFound: the link is unknown, tampered with, for another user, used or expired.
    """
    now = now or utcnow()
    row = _token_row(db, user_id, token, now)
    new_password = validation.reset_password(password)
    # Single use even when two tabs race: only one UPDATE finds the row unused.
    taken = db.exec(
        sa.update(PasswordResetToken)
        .where(col(PasswordResetToken.id) == row.id, col(PasswordResetToken.used_at).is_(None))
        .values(used_at=now)
    ).rowcount
    if taken != 1:
        raise NotFound(INVALID_LINK)
    user = db.get(User, row.user_id)
    if user is None or not user.active:
        raise NotFound(INVALID_LINK)
    user.password_hash = passwords.hash_password(new_password)
    db.add(user)
    db.exec(
        sa.update(PasswordResetToken)
        .where(col(PasswordResetToken.user_id) == row.user_id, col(PasswordResetToken.used_at).is_(None))
        .values(used_at=now)
    )
    auth.revoke_all_sessions(db, row.user_id)
    auth.forgive_failures(db, user.username)
    mail.queue_email(
        db, "password_changed", {"first_name": mail.first_name(user), "username": user.username,
                                 "forgot_password": routes.absolute(routes.FORGOT_PASSWORD)},
        to=user.email,
    )  # fmt: skip
    db.flush()
    return user
