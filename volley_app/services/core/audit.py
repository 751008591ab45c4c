"""The audit log: every operator and admin change, with who, when, and the values before and after."""

from __future__ import annotations

import datetime as dt
import enum
from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import AuditEntry, User
from volley_app.services.core import timefmt
from volley_app.services.core.actors import Actor, record_id, require_admin
from volley_app.services.core.errors import NotFound

PAGE_SIZE = 50


def _plain(value: Any) -> Any:
    """A value as JSON keeps it: dates as ISO text, enums as their value."""
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def snapshot(row: Any, fields: Iterable[str]) -> dict:
    """The named fields of ``row`` as plain values (what an entry stores before and after)."""
    return {f: _plain(getattr(row, f)) for f in fields}


def changed(before: dict, after: dict) -> list[str]:
    """The fields whose value differs."""
    return [k for k in after if before.get(k) != after.get(k)]


def record(
    db: Session,
    actor: Actor | None,
    *,
    action: str,
    entity: str,
    entity_id: int | None,
    summary: str,
    before: dict | None = None,
    after: dict | None = None,
    league_id: int | None = None,
    subject_user_id: int | None = None,
) -> AuditEntry:
    """Add one entry in the caller's transaction (so it exists exactly when the change does)."""
    entry = AuditEntry(
        actor_id=actor.user_id if actor else None,
        actor_name=actor.username if actor else "system",
        action=action,
        entity=entity,
        entity_id=entity_id,
        summary=summary[:300],
        before=before,
        after=after,
        league_id=league_id,
        subject_user_id=subject_user_id,
    )
    db.add(entry)
    db.flush()
    return entry


def record_change(
    db: Session, actor: Actor | None, *, entity: str, row: Any, before: dict, fields: Iterable[str], summary: str,
    league_id: int | None = None, subject_user_id: int | None = None, extra: dict | None = None,
) -> AuditEntry | None:  # fmt: skip
    """Record an update of ``row`` when any of ``fields`` (or ``extra`` values) changed; only the changed
    values are kept."""
    after = snapshot(row, fields) | (extra or {})
    keys = changed(before, after)
    if not keys:
        return None
    return record(
        db, actor, action="update", entity=entity, entity_id=row.id, summary=f"{summary}: {', '.join(keys)}",
        before={k: before.get(k) for k in keys}, after={k: after[k] for k in keys}, league_id=league_id,
        subject_user_id=subject_user_id,
    )  # fmt: skip


def save_change(db: Session, actor: Actor | None, *, row: Any, **change: Any) -> AuditEntry | None:
    """Write the updated ``row`` (its id and defaults as stored) and record what changed, as :func:`record_change`."""
    db.add(row)
    db.flush()
    return record_change(db, actor, row=row, **change)


def _optional_id(value: object) -> int | None:
    if value in (None, ""):
        return None
    try:
        return record_id(value)
    except NotFound:
        return -1


def entries(
    db: Session, actor: Actor | None, *, league_id: object = None, user: object = None, before_id: object = None,
    limit: int = PAGE_SIZE,
) -> dict:  # fmt: skip
    """Admins: the newest entries first, filtered by league id and/or by a user (by username, as
    the one who acted or the one acted on). ``before_id`` continues after the last shown entry."""
    require_admin(actor)
    stmt = select(AuditEntry).order_by(col(AuditEntry.id).desc())
    league = _optional_id(league_id)
    if league is not None:
        stmt = stmt.where(AuditEntry.league_id == league)
    name = str(user or "").strip().lower()
    if name:
        uid = db.exec(select(User.id).where(User.username == name)).first()
        stmt = stmt.where(
            sa.or_(col(AuditEntry.actor_name) == name, col(AuditEntry.subject_user_id) == (uid if uid is not None else -1))
        )
    after = _optional_id(before_id)
    if after is not None:
        stmt = stmt.where(col(AuditEntry.id) < after)
    rows = db.exec(stmt.limit(limit + 1)).all()
    shown = rows[:limit]
    return {
        "entries": [
            {
                "id": e.id,
                "at": timefmt.date_time(e.at),
                "actor": e.actor_name,
                "action": e.action,
                "entity": e.entity,
                "entity_id": e.entity_id or 0,
                "league_id": e.league_id or 0,
                "summary": e.summary,
                "before": _describe(e.before),
                "after": _describe(e.after),
            }
            for e in shown
        ],
        "more": len(rows) > limit,
        "next_before": shown[-1].id if shown and len(rows) > limit else 0,
    }


def _describe(values: dict | None) -> str:
    if not values:
        return ""
    return "; ".join(f"{k}: {'' if v is None else v}" for k, v in values.items())
