"""Counting limits for public actions (forms, password resets), kept in the database so every worker agrees."""

from __future__ import annotations

import datetime as dt
import math

import sqlalchemy as sa
from sqlmodel import Session, func, select

from volley_app.models import RateLimitHit, utcnow
from volley_app.services.errors import RateLimited


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
        wait = times[len(times) - limit] + window - now
        minutes = max(1, math.ceil(wait.total_seconds() / 60))
        raise RateLimited(
            f"Too many requests. Please wait {minutes} minute{'s' if minutes != 1 else ''} and try again."
        )
    db.add(RateLimitHit(scope=scope, key=key, at=now))
    db.flush()


def count(db: Session, *, scope: str, key: str) -> int:
    return db.exec(select(func.count()).where(RateLimitHit.scope == scope, RateLimitHit.key == key)).one()


def purge(db: Session, older_than: dt.timedelta = dt.timedelta(days=2)) -> int:
    """Delete uses older than every window."""
    return db.exec(sa.delete(RateLimitHit).where(RateLimitHit.at < utcnow() - older_than)).rowcount
