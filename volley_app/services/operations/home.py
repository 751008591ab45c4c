"""The Player home: who it sends elsewhere, and its league lists (all, in registration, current).

Also the landing page's announcement: the next league in registration, unless settings override it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import League, LeagueStage, SubRequest, SubRequestPlace, SubStatus, User, utcnow
from volley_app.services.accounts import accounts, venues
from volley_app.services.core import paging, timefmt
from volley_app.services.core.actors import Actor
from volley_app.services.core.screens import Part, part
from volley_app.services.seasons import player_teams, score_reports
from volley_app.services.seasons.leagues import display_name
from volley_app.services.subs import request_lists
from volley_app.services.subs.access import require_sub_request_actor
from volley_app.services.teams import rsvps
from volley_app.settings import get_settings

NO_LEAGUE_OPEN = "New leagues are on the way. Sign up to hear when registration opens!"


def elsewhere(actor: Actor | None) -> str | None:
    """Where the home sends someone who is not a player: admins to their profile, SVLs to their sessions."""
    if actor is None:
        return None
    if actor.is_admin:
        return routes.DASH_PROFILE
    if actor.is_svl:
        return routes.SESSIONS
    return None


# How many of a sub's own coming games the home shows (the nearest first); My Sub Requests lists them all.
HOME_COMMITMENTS = 5


def commitments(db: Session, actor: Actor | None, *, now: dt.datetime | None = None) -> list[dict[str, str]]:
    """The actor's own coming sub games, nearest first: the requests they hold a place on, or that name them
    and are Accepted, not cancelled, whose game is still ahead."""
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    placed = col(SubRequest.id).in_(select(SubRequestPlace.request_id).where(SubRequestPlace.user_id == actor.user_id))
    named = sa.and_(col(SubRequest.recipient_id) == actor.user_id, col(SubRequest.status) == SubStatus.ACCEPTED)
    found = db.exec(
        select(SubRequest).where(sa.or_(placed, named), col(SubRequest.archived_at).is_(None), SubRequest.date > now)
        .order_by(col(SubRequest.date), col(SubRequest.id)).limit(HOME_COMMITMENTS)
    ).all()  # fmt: skip
    zones = venues.zones_by_name(db, [r.svl for r in found])
    out = []
    for req in found:
        assert req.id is not None  # a stored request
        zone = zones.get(req.svl.strip().casefold())
        out.append({
            "id": str(req.id), "team": req.team, "when": timefmt.date_time(req.date, zone, labelled=True),
            "where": f"{req.svl}, {req.court}" if req.court else req.svl, "href": routes.sub_request_path(req.id),
        })  # fmt: skip
    return out


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
    live = (col(League.active).is_(True), col(League.archived_at).is_(None))
    upcoming = select(League.id).where(*live, League.start_at > now).order_by(col(League.start_at), col(League.id))
    started = select(League.id).where(*live, League.start_at <= now).order_by(col(League.start_at).desc(), col(League.id).desc())
    shown = sa.union_all(upcoming.limit(HOME_LEAGUES).subquery().select(), started.limit(HOME_LEAGUES).subquery().select())
    found = db.exec(
        select(League, User.first_name, User.last_name, User.time_zone)
        .join(User, col(User.id) == League.svl_id)
        .where(col(League.id).in_(shown))
        .order_by(col(League.start_at), col(League.id))
    ).all()
    rows = [
        {
            "id": lg.id,
            "label": league_label(lg, f"{first} {last}".strip()),
            "starts": timefmt.day(lg.start_at, zone),  # the venue's day
            "started": lg.start_at <= now,
        }
        for lg, first, last, zone in found
    ]
    return {
        "all": rows,
        "registration": [r for r in rows if not r["started"]],
        "current": [r for r in rows if r["started"]],
    }


@dataclasses.dataclass(frozen=True)
class PlayerHome:
    """What the Player home shows, read in one call."""

    open_requests: Part[paging.Page]  # the requests open to anyone, one page, as the search asks
    leagues: dict[str, list[dict]]  # home_leagues
    is_sub: bool
    team_cards: list[score_reports.TeamCard]  # per team the player is on: its next game and its last
    commitments: list[dict[str, str]]  # the player's own coming sub games
    next_games: list[rsvps.MyGame]  # the next games of the player's teams, with their own answer


def player_home(
    db: Session, actor: Actor | None, *, filters: dict | None = None, bookmark: object = "",
    now: dt.datetime | None = None,
) -> PlayerHome:  # fmt: skip
    """The Player home for ``actor``: the open requests' page ``bookmark`` found by ``filters``, the league lists,
    whether they are a sub, their teams' games (the ones they captain, and the next ones of every team they are on
    with their answer) and their own coming sub games.

    The player's teams and their games are read once for the team cards and the next games
    (``player_teams.read``)."""
    now = now or utcnow()
    open_requests = part(request_lists.list_open, db, actor, filters=filters, bookmark=bookmark, now=now)
    leagues = home_leagues(db, actor, now=now)
    player = require_sub_request_actor(actor)  # as home_leagues: the rest is read for players and admins only
    teams = player_teams.read(db, player.user_id, now=now, cards=True, coming=rsvps.NEXT_GAMES)
    return PlayerHome(
        open_requests=open_requests,
        leagues=leagues,
        is_sub=accounts.is_sub(db, player),
        team_cards=score_reports.team_cards_of(teams, player.user_id),
        commitments=commitments(db, player, now=now),
        next_games=rsvps.my_next_games_of(teams),
    )


def announcement(db: Session, *, now: dt.datetime | None = None) -> str:
    """The landing banner: the settings' text when set, else when and where the next league in registration starts.

    'The next league starts January 5th in Lexington, KY. Signups are open!' (no place when the league has none).
    """
    override = (get_settings().banner_text or "").strip()
    if override:
        return override
    now = now or utcnow()
    league = db.exec(
        select(League)
        .where(col(League.active).is_(True), League.stage == LeagueStage.REGISTRATION, League.start_at > now)
        .order_by(col(League.start_at), col(League.id))
        .limit(1)
    ).first()
    if league is None:
        return NO_LEAGUE_OPEN
    starts = timefmt.local(league.start_at, venues.zone(db, league.svl_id))
    place = ", ".join(p for p in (league.city or "", league.region.value if league.region else "") if p)
    where = f" in {place}" if place else ""
    return f"The next league starts {starts:%B} {timefmt.ordinal(starts.day)}{where}. Signups are open!"
