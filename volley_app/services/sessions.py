"""League sessions (the spec's "Session"): status over time and who sees which."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from sqlmodel import Session, select

from volley_app.models import LeagueSession, Role, SessionStatus, User, utcnow
from volley_app.services.permissions import Actor, require_role


def status_at(session: LeagueSession, now: dt.datetime) -> SessionStatus:
    """Spec section 4: past the end Inactive, else past the start Active; Inactive never changes."""
    if session.status == SessionStatus.INACTIVE:
        return SessionStatus.INACTIVE
    if now > session.end_at:
        return SessionStatus.INACTIVE
    if now > session.start_at:
        return SessionStatus.ACTIVE
    return session.status


def refresh_statuses(db: Session, sessions: Iterable[LeagueSession], now: dt.datetime | None = None) -> None:
    """Save the status each shown session has reached by ``now``."""
    now = now or utcnow()
    for s in sessions:
        new = status_at(s, now)
        if new != s.status:
            s.status = new
            db.add(s)


def svl_home(db: Session, actor: Actor | None) -> list[dict]:
    """The acting SVL's own sessions in Registration or Active, by start (the SVL home list)."""
    actor = require_role(actor, Role.SVL)
    rows = db.exec(
        select(LeagueSession)
        .where(LeagueSession.svl_id == actor.user_id, LeagueSession.status != SessionStatus.INACTIVE)
        .order_by(LeagueSession.start_at, LeagueSession.id)
    ).all()
    refresh_statuses(db, rows)
    svl = db.get(User, actor.user_id)
    return [
        {
            "id": s.id,
            "name": s.name,
            "status": s.status.value,
            "start_at": s.start_at,
            "end_at": s.end_at,
            "svl_name": svl.first_name if svl else "",
        }
        for s in rows
        if s.status in (SessionStatus.REGISTRATION, SessionStatus.ACTIVE)
    ]
