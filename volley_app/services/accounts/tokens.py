"""The REST API's tokens: a short-lived signed access token and a server-side refresh token.

- The access token is a JWT (HS256 only, signed with its own key, ``services/core/signing.py``) that lives 15 minutes and
  carries the user's id, username and roles (``UserInfo``) and the refresh family it came from.
  Each use checks that family is still open and is a login of that same user, so logout, logout everywhere and a password reset
  end the access tokens of that login at once, not only when they expire.
- The refresh token is random and opaque; the database keeps its HMAC. Each refresh replaces it
  with a new one of the same family (the login). A replaced token presented again means it was
  copied: the whole family is revoked.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets

import jwt
import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import RefreshToken, User, utcnow
from volley_app.services.accounts import auth
from volley_app.services.core import signing
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Forbidden
from volley_app.settings import get_settings

ALGORITHM = "HS256"
ACCESS_LIFETIME = dt.timedelta(minutes=15)
ACCESS_TYPE = "access"
REFRESH_COOKIE = "refresh_token"
MAX_TOKEN_LENGTH = 2000


@dataclasses.dataclass(frozen=True)
class Tokens:
    access: str
    access_expires: dt.datetime
    refresh: str
    refresh_expires: dt.datetime
    actor: Actor


class InvalidToken(Exception):
    """An access token that is not ours, altered, expired or of an ended login."""


def _decode(token: str, require: list[str]) -> dict:
    """The claims of a token signed with the current key or a fallback one (``services/core/signing.py``).

    Raises:
        jwt.PyJWTError: not one of ours, altered, expired or missing a required claim.
    """
    for key in signing.jwt_keys(signing.API_ACCESS_TOKEN):
        try:
            return jwt.decode(token, key, algorithms=[ALGORITHM], options={"require": require})
        except jwt.InvalidSignatureError:
            continue
    raise jwt.InvalidSignatureError("Signature verification failed")


def access_token(user: User, family: str, *, now: dt.datetime | None = None) -> tuple[str, dt.datetime]:
    now = now or utcnow()
    expires = now + ACCESS_LIFETIME
    claims = {
        "sub": str(user.id),
        "typ": ACCESS_TYPE,
        "fam": family,
        "iat": int(now.timestamp()),
        "exp": int(expires.timestamp()),
        "UserInfo": {"id": user.id, "username": user.username, "roles": list(user.roles)},
    }
    return jwt.encode(claims, signing.jwt_key(signing.API_ACCESS_TOKEN), algorithm=ALGORITHM), expires


def _new_refresh(db: Session, user_id: int, family: str, expires: dt.datetime) -> str:
    token = secrets.token_urlsafe(32)
    db.add(RefreshToken(user_id=user_id, token_hash=auth.hash_token(token), family=family, expires_at=expires))
    db.flush()
    return token


def issue(db: Session, actor: Actor, *, trusted: bool = True) -> Tokens:
    """A new login's tokens for ``actor`` (who just proved who they are)."""
    s = get_settings()
    user = db.get(User, actor.user_id)
    assert user is not None  # the actor just proved who they are
    lifetime = dt.timedelta(days=s.session_days_trusted) if trusted else dt.timedelta(hours=s.session_hours_untrusted)
    family = secrets.token_hex(16)
    expires = utcnow() + lifetime
    refresh = _new_refresh(db, actor.user_id, family, expires)
    access, access_expires = access_token(user, family)
    return Tokens(access, access_expires, refresh, expires, auth.actor_of(user))


def _family_open(db: Session, family: str, user_id: int, now: dt.datetime) -> bool:
    """True while ``family`` is an open login of ``user_id`` (a family of another user's login is not theirs)."""
    found = db.exec(
        select(RefreshToken.id).where(
            RefreshToken.family == family, RefreshToken.user_id == user_id,
            col(RefreshToken.revoked_at).is_(None), RefreshToken.expires_at > now,
        ).limit(1)
    ).first()
    return found is not None


def resolve_access(db: Session, token: str) -> Actor:
    """The actor of a valid access token; InvalidToken for anything else (the API answers 403)."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN_LENGTH:
        raise InvalidToken
    try:
        claims = _decode(token, ["exp", "iat", "sub", "typ", "fam"])
    except (jwt.PyJWTError, ValueError, TypeError) as exc:
        raise InvalidToken from exc
    if claims.get("typ") != ACCESS_TYPE or not isinstance(claims.get("fam"), str):
        raise InvalidToken
    try:
        user_id = int(claims["sub"])
    except (TypeError, ValueError) as exc:
        raise InvalidToken from exc
    user = db.get(User, user_id) if 0 < user_id < 2**31 else None
    if user is None or not user.active or user.archived_at is not None:
        raise InvalidToken
    if not _family_open(db, claims["fam"], user_id, utcnow()):
        raise InvalidToken
    return auth.actor_of(user)


def _revoke_family(db: Session, family: str) -> int:
    return db.exec(
        sa.update(RefreshToken)
        .where(col(RefreshToken.family) == family, col(RefreshToken.revoked_at).is_(None))
        .values(revoked_at=utcnow())
    ).rowcount


def rotate(db: Session, token: object) -> Tokens:
    """Replace a refresh token with a new one of its family, and a new access token.

    Forbidden ('Your login has expired.') when it is unknown, expired or revoked; a token already
    replaced revokes its whole family first (the revocation is committed before the refusal).
    """
    if not isinstance(token, str) or not token or len(token) > 200:
        raise Forbidden(auth.SESSION_EXPIRED)
    now = utcnow()
    taken = db.exec(
        sa.update(RefreshToken)
        .where(
            auth.token_is(RefreshToken.token_hash, token),
            col(RefreshToken.used_at).is_(None),
            col(RefreshToken.revoked_at).is_(None),
            col(RefreshToken.expires_at) > now,
        )
        .values(used_at=now)
    ).rowcount
    row = db.exec(select(RefreshToken).where(auth.token_is(RefreshToken.token_hash, token))).first()
    if row is None:
        raise Forbidden(auth.SESSION_EXPIRED)
    if not taken:
        if row.used_at is not None:
            _revoke_family(db, row.family)
            db.commit()
        raise Forbidden(auth.SESSION_EXPIRED)
    user = db.get(User, row.user_id)
    if user is None or not user.active or user.archived_at is not None:
        _revoke_family(db, row.family)
        db.commit()
        raise Forbidden(auth.SESSION_EXPIRED)
    refresh = _new_refresh(db, row.user_id, row.family, row.expires_at)
    access, access_expires = access_token(user, row.family, now=now)
    return Tokens(access, access_expires, refresh, row.expires_at, auth.actor_of(user))


def logout(db: Session, token: object) -> bool:
    """End the login (the whole family) of a refresh token. True if one was open."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return False
    row = db.exec(select(RefreshToken).where(auth.token_is(RefreshToken.token_hash, token))).first()
    return row is not None and _revoke_family(db, row.family) > 0


def logout_access(db: Session, token: str) -> bool:
    """End the login an access token belongs to (a logout that sent no refresh cookie)."""
    try:
        claims = _decode(token, ["fam", "typ"])
    except (jwt.PyJWTError, ValueError, TypeError):
        return False
    fam = claims.get("fam")
    return isinstance(fam, str) and claims.get("typ") == ACCESS_TYPE and _revoke_family(db, fam) > 0
