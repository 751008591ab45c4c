"""What has been archived instead of deleted, for admins to look through and restore."""

from __future__ import annotations

from sqlmodel import Session, select

from volley_app import routes
from volley_app.models import League, LeagueSession, SubRequest, User
from volley_app.services import accounts, leagues, sessions, timefmt, venues
from volley_app.services.errors import Invalid
from volley_app.services.permissions import Actor, require_admin

SHOWN = 100  # newest first; older ones stay kept (and listed in the audit log)

KINDS = {"session": sessions.restore_session, "league": leagues.restore_league, "user": accounts.restore_user}


def archived(db: Session, actor: Actor | None) -> dict[str, list[dict]]:
    """The newest archived sessions, leagues, accounts and cancelled sub requests (admins only)."""
    require_admin(actor)
    found_sessions = db.exec(
        select(LeagueSession).where(LeagueSession.archived_at.is_not(None)).order_by(LeagueSession.archived_at.desc())
        .limit(SHOWN)
    ).all()  # fmt: skip
    found_leagues = db.exec(
        select(League).where(League.archived_at.is_not(None)).order_by(League.archived_at.desc()).limit(SHOWN)
    ).all()
    found_users = db.exec(
        select(User).where(User.archived_at.is_not(None)).order_by(User.archived_at.desc()).limit(SHOWN)
    ).all()
    found_requests = db.exec(
        select(SubRequest).where(SubRequest.archived_at.is_not(None)).order_by(SubRequest.archived_at.desc())
        .limit(SHOWN)
    ).all()  # fmt: skip
    svls = venues.svl_names(db, [s.svl_id for s in found_sessions] + [lg.svl_id for lg in found_leagues])
    names = {
        u.id: u.username
        for u in db.exec(select(User).where(User.id.in_({r.requestor_id for r in found_requests} or {-1}))).all()
    }
    return {
        "sessions": [
            {"kind": "session", "id": s.id, "name": s.name, "owner": svls.get(s.svl_id, ""),
             "archived": timefmt.date_time(s.archived_at), "href": routes.session_path(s.id)}
            for s in found_sessions
        ],
        "leagues": [
            {"kind": "league", "id": lg.id, "name": leagues.display_name(lg), "owner": svls.get(lg.svl_id, ""),
             "archived": timefmt.date_time(lg.archived_at), "href": routes.league_path(lg.id)}
            for lg in found_leagues
        ],
        "users": [
            {"kind": "user", "id": u.id, "name": u.username, "owner": f"{u.first_name} {u.last_name}".strip(),
             "archived": timefmt.date_time(u.archived_at), "href": routes.user_path(u.id)}
            for u in found_users
        ],
        "requests": [
            {"kind": "request", "id": r.id, "name": f"{r.team}, {timefmt.date_time(r.date)}",
             "owner": names.get(r.requestor_id, ""), "archived": timefmt.date_time(r.archived_at), "href": ""}
            for r in found_requests
        ],
    }  # fmt: skip


def restore(db: Session, actor: Actor | None, *, kind: object, record_id: object) -> str:
    """Restore one archived session, league or account (admins only); returns its name."""
    require_admin(actor)
    action = KINDS.get(kind) if isinstance(kind, str) else None
    if action is None:
        raise Invalid("Only sessions, leagues and accounts can be restored")
    return action(db, actor, record_id)
