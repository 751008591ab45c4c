"""The leagues anyone may see without logging in (the public ``/leagues`` pages), read for a visitor.

Listed: a league that is open (not hidden by its operator), not archived, not over (its stage not Inactive), in a
session that is neither archived nor over, run by a venue whose account is neither archived nor switched off; in
registration or running. Anything else answers "no longer exists", as for a league that never was.

What is shown is what a poster would say: the league's day, time, venue, format, skill level, price and places left,
and for a running league its standings and schedule by team name. No person is named: no captain, no roster, no
address of anyone's but the venue's.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import SelectOfScalar

from volley_app.models import League, LeagueSession, LeagueStage, SessionStatus, User, utcnow
from volley_app.services.accounts import venues
from volley_app.services.core import paging, timefmt
from volley_app.services.core.actors import load
from volley_app.services.core.errors import NotFound
from volley_app.services.seasons import fees, leagues, results, schedule
from volley_app.services.seasons.league_data import FORMAT_LABELS, display_name
from volley_app.services.teams import league_places

NOT_FOUND = leagues.LEAGUE_NOT_FOUND
REGISTRATION, RUNNING = LeagueStage.REGISTRATION.value, LeagueStage.ACTIVE.value


class PublicLeague(TypedDict):
    """A league as a visitor reads it: every value in words, but the start and end (for the page's structured data)."""

    id: int
    name: str  # "Monday C 6s"
    stage: str  # "Registration" or "Active" (running)
    venue: str
    courts: str
    where: str  # the league's address: street, city, region (blank parts left out)
    day: str
    time: str  # "6:30 PM ET"
    starts: str  # "Mon, Sep 7, 2026"
    weeks: int
    format: str
    skill_level: str
    gender: str
    price: str  # "$330 a team"
    price_detail: str  # "$300 league cost and a $30 fee"
    price_cents: int
    places: int
    places_left: int
    registration_closes: str
    registration_open: bool  # a team may still register (or join the waitlist): until the deadline, late ones too
    start_at: dt.datetime
    end_at: dt.datetime
    zone: str


class PublicStanding(TypedDict):
    rank: int
    team: str
    played: int
    wins: int
    losses: int
    win_pct: str
    withdrawn: bool


class PublicGame(TypedDict):
    date: str
    time: str
    court: str
    home: str
    away: str
    sets: str


class PublicWeek(TypedDict):
    week: int
    games: list[PublicGame]


@dataclasses.dataclass(frozen=True)
class PublicLeaguePage:
    """A league's public page: its facts; running, its standings and schedule."""

    league: PublicLeague
    running: bool
    standings: list[PublicStanding]
    weeks: list[PublicWeek]


def _listed(now: dt.datetime) -> list[sa.ColumnElement[bool]]:
    """The leagues a visitor may see (joined with their session and their venue's account)."""
    return [
        leagues.shown(), col(League.active).is_(True), col(League.stage) != LeagueStage.INACTIVE,
        col(LeagueSession.archived_at).is_(None), col(LeagueSession.status) != SessionStatus.INACTIVE,
        col(LeagueSession.end_at) >= now,
        col(User.archived_at).is_(None), col(User.active).is_(True),
    ]  # fmt: skip


def _listed_query(now: dt.datetime) -> SelectOfScalar[League]:
    return (
        select(League)
        .join(LeagueSession, col(LeagueSession.id) == League.session_id)
        .join(User, col(User.id) == League.svl_id)
        .where(*_listed(now))
    )


def _where(league: League) -> str:
    return ", ".join(p for p in (league.address, league.city, league.region.value if league.region else "") if p)


def _public(league: League, venue: str, zone: str, places: league_places.Places, now: dt.datetime) -> PublicLeague:
    assert league.id is not None  # a stored league
    price = fees.breakdown(league)
    detail = f"{fees.money(price.league_cost_cents)} league cost and a {fees.money(price.fee_cents)} fee"
    return {
        "id": league.id,
        "name": display_name(league),
        "stage": leagues.stage_at(league, now).value,
        "venue": venue,
        "courts": ", ".join(leagues.court_names(league)),
        "where": _where(league),
        "day": league.day.value,
        "time": timefmt.clock(league.start_at, zone, labelled=True),
        "starts": timefmt.day(league.start_at, zone),
        "weeks": league.number_of_weeks,
        "format": FORMAT_LABELS[league.format],
        "skill_level": league.skill_level.value,
        "gender": league.gender_requirement or "",
        "price": f"{fees.money(price.league_cost_cents + price.fee_cents)} a team",
        "price_detail": detail + (" (the league cost in cash at the venue)" if price.cash else ""),
        "price_cents": price.league_cost_cents + price.fee_cents,
        "places": places.places,
        "places_left": places.left,
        "registration_closes": timefmt.date_time(leagues.registration_closes(league), zone, labelled=True),
        "registration_open": now < leagues.registration_closes(league),
        "start_at": league.start_at,
        "end_at": league.start_at + dt.timedelta(weeks=league.number_of_weeks),
        "zone": zone,
    }


def _publics(db: Session, found: list[League], now: dt.datetime) -> list[PublicLeague]:
    """The leagues as a visitor reads them: their venues' names, zones and places read once for all."""
    svl_ids = [lg.svl_id for lg in found]
    names, zones = venues.svl_names(db, svl_ids), venues.zones(db, svl_ids)
    places = league_places.counts(db, found, now)
    return [
        _public(lg, names.get(lg.svl_id, ""), zones.get(lg.svl_id) or timefmt.default_name(), places[lg.id or 0], now)
        for lg in found
    ]


# Soonest first; the id breaks ties (keyset paging needs a unique last column).
_ORDER = paging.Order((col(League.start_at), col(League.id)), (dt.datetime, int))


def public_leagues(
    db: Session, *, bookmark: object = "", size: object = paging.PAGE_SIZE, now: dt.datetime | None = None
) -> paging.Page:
    """One page of the leagues a visitor may see, in registration or running, soonest start first."""
    now = now or utcnow()
    query = _listed_query(now).order_by(*_ORDER.columns)
    return paging.keyset(db, query, kinds=_ORDER.kinds, bookmark=bookmark, size=paging.page_size(size),
                         project=lambda found: _publics(db, [r[0] for r in found], now))  # fmt: skip


def _standing(row: results.StandingRow) -> PublicStanding:
    return {"rank": row["rank"], "team": row["team_name"], "played": row["played"], "wins": row["wins"],
            "losses": row["losses"], "win_pct": row["win_pct"], "withdrawn": row["withdrawn"]}  # fmt: skip


def _game(game: schedule.GameRow, zone: str) -> PublicGame:
    return {"date": timefmt.day(game["start_at"], zone), "time": timefmt.clock(game["start_at"], zone),
            "court": game["court"], "home": game["team1"], "away": game["team2"], "sets": game["sets"]}  # fmt: skip


def public_league(db: Session, league_id: object, *, now: dt.datetime | None = None) -> PublicLeaguePage:
    """A league's public page. Raises NotFound for an id that names no league a visitor may see."""
    now = now or utcnow()
    row = load(db, League, league_id, NOT_FOUND)
    if db.exec(_listed_query(now).where(col(League.id) == row.id)).first() is None:
        raise NotFound(NOT_FOUND)
    info = _publics(db, [row], now)[0]
    running = info["stage"] == RUNNING
    if not running:
        return PublicLeaguePage(league=info, running=False, standings=[], weeks=[])
    return PublicLeaguePage(
        league=info,
        running=True,
        standings=[_standing(r) for r in results.table(db, row)],
        weeks=[{"week": w["week"], "games": [_game(g, info["zone"]) for g in w["games"]]}
               for w in schedule.by_week(db, row, info["zone"])],  # fmt: skip
    )
