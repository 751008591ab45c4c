"""A league's schedule as it is read: by week, a page at a time, one week or one team's games, and each game
as a page shows it (its week, its teams' names, its sets)."""

from __future__ import annotations

import datetime as dt
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Game, GameType, League, Team
from volley_app.services.core import paging, timefmt
from volley_app.services.core.actors import Actor, require_actor, require_admin
from volley_app.services.seasons import leagues, scoring
from volley_app.services.seasons.leagues import access_league


class GameRow(TypedDict):
    """A game as the pages and exports show it."""

    id: int
    league_id: int
    team1_id: int | None
    team2_id: int | None
    team1: str
    team2: str
    start_at: dt.datetime
    round: int
    match: int
    court: str
    type: str
    sets: str
    forfeit: str
    team1_game1_score: int | None
    team2_game1_score: int | None
    team1_game2_score: int | None
    team2_game2_score: int | None
    team1_game3_score: int | None
    team2_game3_score: int | None


class WeekGameRow(GameRow):
    """A game with the week of the season it is played in."""

    week: int


class ScheduleWeek(TypedDict):
    week: int
    games: list[GameRow]


class Schedule(TypedDict):
    """A league's games grouped by week."""

    league: leagues.LeagueDetail
    zone: str
    weeks: list[ScheduleWeek]


class ScheduleView(TypedDict):
    """One week of a league's schedule, or one team's games, with the weeks and teams to choose from."""

    league: leagues.LeagueDetail
    zone: str
    weeks: list[int]
    teams: list[tuple[int, str]]
    week: int | None
    team: int | None
    games: list[WeekGameRow]


class StoredGames(TypedDict):
    """Every stored game of a league (or, with no league chosen, the leagues to choose from)."""

    leagues: list[leagues.LeagueSummary]
    league: leagues.LeagueDetail | None
    games: list[GameRow]


def team_names(db: Session, league_id: int) -> dict[int, str]:
    """The league's team names by id (withdrawn and waitlisted teams too)."""
    teams = db.exec(select(Team).where(Team.league_id == league_id)).all()
    return {t.id: t.team_name for t in teams if t.id is not None}


def name(names: dict[int, str], team_id: int | None, default: str = "") -> str:
    """The name of the team with that id (``default`` when there is no such team, or no team)."""
    return names.get(team_id, default) if team_id is not None else default


def label(names: dict[int, str], team1: int | None, team2: int | None) -> str:
    """'T1 v T2' of two teams by id; no second team is a BYE."""
    return f"{name(names, team1)} v {'BYE' if team2 is None else name(names, team2)}"


def game_label(names: dict[int, str], game: Game) -> str:
    """'T1 v T2' of a saved game: a playoff game's team still to be decided is TBD, a league game's missing team a BYE."""
    if game.type == GameType.TOURNAMENT:
        return f"{name(names, game.team1_id, 'TBD')} v {name(names, game.team2_id, 'TBD')}"
    return label(names, game.team1_id, game.team2_id)


def game_dict(game: Game, names: dict[int, str]) -> GameRow:
    """A game as the pages and exports show it: its teams' names (TBD, or BYE), its sets ("21-15, 19-21") and scores."""
    assert game.id is not None  # a stored game
    sets = [
        f"{getattr(game, f1)}-{getattr(game, f2)}"
        for f1, f2 in scoring.SCORE_FIELDS
        if getattr(game, f1) is not None and getattr(game, f2) is not None
    ]
    return {
        "id": game.id,
        "league_id": game.league_id,
        "team1_id": game.team1_id,
        "team2_id": game.team2_id,
        "team1": name(names, game.team1_id, "TBD"),
        "team2": "BYE" if game.team2_id is None and game.type == GameType.LEAGUE else name(names, game.team2_id, "TBD"),
        "start_at": game.start_at,
        "round": game.round,
        "match": game.match,
        "court": game.court or "",
        "type": game.type.value,
        "sets": ", ".join(sets),
        "forfeit": name(names, game.forfeit_team_id),
        "team1_game1_score": game.team1_game1_score,
        "team2_game1_score": game.team2_game1_score,
        "team1_game2_score": game.team1_game2_score,
        "team2_game2_score": game.team2_game2_score,
        "team1_game3_score": game.team1_game3_score,
        "team2_game3_score": game.team2_game3_score,
    }


def schedule(db: Session, actor: Actor | None, league_id: object) -> Schedule:
    """The league's games grouped by week, for anyone who may read the league."""
    info = leagues.get_league(db, actor, league_id)
    league = access_league(db, actor, info["id"])
    return {"league": info, "zone": info["zone"], "weeks": by_week(db, league, info["zone"])}


def by_week(db: Session, league: League, zone: str) -> list[ScheduleWeek]:
    """The league's games grouped by week of its season (weeks counted on the venue's clock ``zone``)."""
    assert league.id is not None  # a stored league
    games = db.exec(select(Game).where(Game.league_id == league.id).order_by(col(Game.start_at), col(Game.match), col(Game.id))).all()
    names = team_names(db, league.id)
    weeks: dict[int, list[GameRow]] = {}
    for g in games:
        weeks.setdefault(week_of(league.start_at, g.start_at, zone), []).append(game_dict(g, names))
    return [{"week": w, "games": weeks[w]} for w in sorted(weeks)]


def games_page(
    db: Session, actor: Actor | None, *, league_id: object = None, bookmark: object = "", size: object = paging.PAGE_SIZE
) -> paging.Page:
    """One page of the games the actor may see, by time, each with its week.

    With ``league_id``: that league's games (anyone who may read the league). Without: an admin every game of a
    league that is not archived, an SVL the games of their own leagues, anyone else the games of their teams.
    """
    actor = require_actor(actor)
    where: list[sa.ColumnElement[bool]] = []
    if league_id not in (None, ""):
        where.append(col(Game.league_id) == access_league(db, actor, league_id).id)
    else:
        where.append(col(League.archived_at).is_(None))
        if actor.is_svl and not actor.is_admin:
            where.append(col(League.svl_id) == actor.user_id)
        elif not actor.is_admin:
            mine = select(col(Team.id)).where(Team.captain_id == actor.user_id, col(Team.withdrawn_at).is_(None))
            where.append(sa.or_(col(Game.team1_id).in_(mine), col(Game.team2_id).in_(mine)))
    query = (
        select(Game).join(League, col(League.id) == col(Game.league_id)).where(*where)
        .order_by(col(Game.start_at), col(Game.id))
    )  # fmt: skip

    def project(found: list[Any]) -> list[WeekGameRow]:
        games: list[Game] = [r[0] for r in found]
        league_ids = {g.league_id for g in games}
        rows = db.exec(select(League).where(col(League.id).in_(league_ids))).all() if league_ids else []
        by_id = {lg.id: lg for lg in rows}
        zones = {lg.id: leagues.zone(db, lg) for lg in rows}
        teams = db.exec(select(Team).where(col(Team.league_id).in_(league_ids))).all()
        names = {t.id: t.team_name for t in teams if t.id is not None}
        return [{**game_dict(g, names), "week": week_of(by_id[g.league_id].start_at, g.start_at, zones[g.league_id])}
                for g in games]  # fmt: skip

    return paging.keyset(db, query, kinds=(dt.datetime, int), project=project, bookmark=bookmark,
                         size=paging.page_size(size))  # fmt: skip


def schedule_view(
    db: Session, actor: Actor | None, league_id: object, *, week: object = None, team: object = None,
    now: dt.datetime | None = None,
) -> ScheduleView:
    """One week of the league's schedule, or one team's games (anyone who may read the league).

    Without a week or team: the week of the next game (the last week once the season is over).
    Returns the league, the venue's time zone (``zone``, the games' times are the venue's), the weeks
    there are, the teams to choose from, and the games shown.
    """
    info = leagues.get_league(db, actor, league_id)
    league = access_league(db, actor, info["id"])
    zone: str = info["zone"]
    names = team_names(db, info["id"])
    starts = db.exec(select(Game.start_at).where(Game.league_id == league.id)).all()
    weeks = sorted({week_of(league.start_at, s, zone) for s in starts})
    out: ScheduleView = {"league": info, "zone": zone, "weeks": weeks,
                         "teams": sorted(names.items(), key=lambda p: p[1].casefold()),
                         "week": None, "team": None, "games": []}  # fmt: skip
    stmt = select(Game).where(Game.league_id == league.id).order_by(col(Game.start_at), col(Game.match), col(Game.id))
    team_id = _int_or_none(team)
    if team_id is not None and team_id in names:
        out["team"] = team_id
        games = db.exec(stmt.where(sa.or_(col(Game.team1_id) == team_id, col(Game.team2_id) == team_id))).all()
        out["games"] = [{**game_dict(g, names), "week": week_of(league.start_at, g.start_at, zone)} for g in games]
        return out
    if not weeks:
        return out
    chosen = _int_or_none(week)
    if chosen is None or chosen not in weeks:
        now = now or dt.datetime.now(dt.UTC)
        upcoming = [week_of(league.start_at, s, zone) for s in starts if s >= now - dt.timedelta(hours=3)]
        chosen = min(upcoming) if upcoming else weeks[-1]
    first = timefmt.day_start(timefmt.local(league.start_at, zone).date() + dt.timedelta(days=7 * (chosen - 1)), zone)
    last = first + dt.timedelta(days=7, hours=2)
    games = db.exec(stmt.where(Game.start_at >= first - dt.timedelta(hours=2), Game.start_at < last)).all()
    out["week"] = chosen
    out["games"] = [
        {**game_dict(g, names), "week": chosen} for g in games if week_of(league.start_at, g.start_at, zone) == chosen
    ]
    return out


def _int_or_none(value: object) -> int | None:
    try:
        return int(str(value).strip()) if value not in (None, "") and not isinstance(value, bool) else None
    except ValueError:
        return None


def week_of(season_start: dt.datetime, when: dt.datetime, zone: timefmt.Zone = None) -> int:
    """Week number of a game counted from the season start: the first 7 days are week 1, and so on."""
    # the venue's calendar days (DST-proof)
    days = (timefmt.local(when, zone).date() - timefmt.local(season_start, zone).date()).days
    return max(1, days // 7 + 1)


def stored_games(db: Session, actor: Actor | None, league_id: object = None) -> StoredGames:
    """Admins only: every game of a league as stored, with round and match (a check of the generator).

    Without ``league_id``: the leagues to choose from.
    """
    require_admin(actor)
    if league_id in (None, ""):
        return {"leagues": leagues.list_leagues(db, actor), "league": None, "games": []}
    found = schedule(db, actor, league_id)
    return {"leagues": [], "league": found["league"], "games": [g for w in found["weeks"] for g in w["games"]]}
