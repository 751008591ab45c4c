"""The Player home: who it sends elsewhere, and its league lists (all, in registration, current)."""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app import routes
from volley_app.models import League, User, utcnow
from volley_app.services import timefmt
from volley_app.services.leagues import display_name
from volley_app.services.permissions import Actor, require_sub_request_actor


def elsewhere(actor: Actor | None) -> str | None:
    """Where the home sends someone who is not a player: admins to their profile, SVLs to their sessions."""
    if actor is None:
        return None
    if actor.is_admin:
        return routes.DASH_PROFILE
    if actor.is_svl:
        return routes.SESSIONS
    return None


def league_label(league: League, svl_name: str) -> str:
    """'Lexington Sportsplex: Monday C 6s' (the venue, then the league's display name)."""
    return f"{svl_name}: {display_name(league)}"


# How many leagues each of the home's lists shows (the nearest in time); the leagues page lists them all.
HOME_LEAGUES = 10


def home_leagues(db: Session, actor, *, now: dt.datetime | None = None) -> dict[str, list[dict]]:
    """Active leagues for the Player home, by start: ``all``, ``registration`` and ``current``.

    One query: the HOME_LEAGUES soonest to start and the HOME_LEAGUES most recently started;
    ``all`` is both, by start.
    """
    require_sub_request_actor(actor)
    now = now or utcnow()
    live = (League.active.is_(True), League.archived_at.is_(None))
    upcoming = select(League.id).where(*live, League.start_at > now).order_by(League.start_at, League.id)
    started = select(League.id).where(*live, League.start_at <= now).order_by(League.start_at.desc(), League.id.desc())
    shown = sa.union_all(upcoming.limit(HOME_LEAGUES).subquery().select(), started.limit(HOME_LEAGUES).subquery().select())
    found = db.exec(
        select(League, User.first_name, User.last_name)
        .join(User, User.id == League.svl_id)
        .where(League.id.in_(shown))
        .order_by(League.start_at, League.id)
    ).all()
    rows = [
        {
            "id": lg.id,
            "label": league_label(lg, f"{first} {last}".strip()),
            "starts": timefmt.day(lg.start_at),
            "started": lg.start_at <= now,
        }
        for lg, first, last in found
    ]
    return {
        "all": rows,
        "registration": [r for r in rows if not r["started"]],
        "current": [r for r in rows if r["started"]],
    }
