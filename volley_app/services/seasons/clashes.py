"""Clashes: a court holds one game at a time, a team plays one game at a time.

The leagues of one venue (one SVL) share its courts: a court name is the same court in each of them. A
team belongs to one league, so a team's clashes are within its league; a court's are across the venue.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Game, League, Team
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import leagues, schedule

MOVE_OR_CHANGE = "Choose other courts or another start time for this league, or move the game that is in the way."

# A redrawn game that would clash moves on one time increment at a time, at most this many times.
PLACE_AROUND_STEPS = 96


@dataclass(frozen=True)
class Surroundings:
    """What games of ``league`` must keep clear of, within a span of time: the league's own games and the games
    on a court of the venue's other leagues (not archived), with the names a refusal gives them."""

    league: League
    zone: timefmt.Zone
    games: list[Game]
    names: dict[int, str]  # team names by id, of every game in ``games``
    others: dict[int, League]  # the venue's other leagues with a game in ``games``

    def length(self, game: Game) -> dt.timedelta:
        """How long ``game`` holds its court: one time increment of its own league."""
        league = self.others.get(game.league_id, self.league)
        return dt.timedelta(minutes=max(1, league.time_increment))


def surroundings(
    db: Session, league: League, zone: timefmt.Zone, first: dt.datetime, last: dt.datetime
) -> Surroundings:
    """The games that may overlap a game of ``league`` starting from ``first`` to ``last``.

    Read by the games' (league, start) index: the league's own games in the span, and, through the venue's
    leagues (by SVL), theirs on a court in the span. The span reaches back by the longest game that could
    still be playing at ``first``.
    """
    own = dt.timedelta(minutes=max(1, league.time_increment))
    games = list(
        db.exec(
            select(Game).where(Game.league_id == league.id, Game.start_at > first - own, Game.start_at < last + own)
        ).all()
    )
    assert league.id is not None  # a stored league
    venue = (col(League.svl_id) == league.svl_id, col(League.id) != league.id, col(League.archived_at).is_(None))
    longest = db.exec(select(sa.func.max(League.time_increment)).where(*venue)).one()
    others: dict[int, League] = {}
    if longest is not None:
        back = dt.timedelta(minutes=max(1, longest))
        found = db.exec(
            select(Game, League)
            .join(League, col(League.id) == col(Game.league_id))
            .where(*venue, col(Game.court).is_not(None), Game.start_at > first - back, Game.start_at < last + own)
        ).all()
        games.extend(g for g, _lg in found)
        others = {lg.id: lg for _g, lg in found if lg.id is not None}
    names = schedule.team_names(db, league.id)
    elsewhere = {t for g in games if g.league_id != league.id for t in (g.team1_id, g.team2_id) if t is not None}
    if elsewhere:
        found_names = db.exec(select(col(Team.id), col(Team.team_name)).where(col(Team.id).in_(elsewhere))).all()
        names |= {i: n for i, n in found_names if i is not None}
    return Surroundings(league, zone, games, names, others)


def clash(
    around: Surroundings, *, game_id: int | None, team1: int | None, team2: int | None, start_at: dt.datetime,
    court: str | None,
) -> str:
    """Why a game (``game_id`` None: a new one) of ``team1`` v ``team2`` at ``start_at`` on ``court`` clashes with
    one of ``around``'s games: the same court at an overlapping time (in any league of the venue), or a team in two
    games at once. "" when it does not.

    A game lasts its league's time increment; a BYE (no second team, no court) is played nowhere and never clashes.
    """
    if team2 is None and not court:
        return ""
    length = dt.timedelta(minutes=max(1, around.league.time_increment))
    for other in around.games:
        bye = other.team2_id is None and not other.court
        if other.id == game_id or bye:
            continue
        if not (other.start_at < start_at + length and start_at < other.start_at + around.length(other)):
            continue
        label = schedule.game_label(around.names, other)
        at = timefmt.date_time(other.start_at, around.zone, labelled=True)
        elsewhere = around.others.get(other.league_id)
        if court and other.court and other.court.casefold() == court.casefold():
            where = f" of {leagues.display_name(elsewhere)}" if elsewhere is not None else ""
            return f"{court} is taken then: {label}{where} plays there at {at}."
        if elsewhere is not None:
            continue  # a team plays in one league only
        for team in (team1, team2):
            if team is not None and team in (other.team1_id, other.team2_id):
                return f"{schedule.name(around.names, team)} already plays then: {label} at {at}."
    return ""


def refuse_clash(db: Session, league: League, zone: timefmt.Zone, **game) -> None:
    """Refuse (under the date and time) a game placed where another plays, naming that game."""
    around = surroundings(db, league, zone, game["start_at"], game["start_at"])
    found = clash(around, **game)
    if found:
        raise Invalid({"start": found})


def clashes_in(db: Session, league: League, games: Sequence[Game]) -> str:
    """The first clash of any of ``games`` (saved) with the league's other games or a court's games of the venue's
    other leagues ("" when there is none)."""
    if not games:
        return ""
    zone = leagues.zone(db, league)
    around = surroundings(db, league, zone, min(g.start_at for g in games), max(g.start_at for g in games))
    for g in sorted(games, key=lambda g: (g.start_at, g.match, g.id or 0)):
        found = clash(around, game_id=g.id, team1=g.team1_id, team2=g.team2_id, start_at=g.start_at, court=g.court)
        if found:
            at = timefmt.date_time(g.start_at, zone, labelled=True)
            return f"{schedule.game_label(around.names, g)} at {at}: {found}"
    return ""


def clear_of_kept(db: Session, league: League, new: Sequence[Game], zone: timefmt.Zone) -> None:
    """A redrawn week's games keep clear of the games that stayed (a played week's game moved into a later
    week, a playoff or added game) and of the games on the venue's courts of its other leagues: a game that
    would clash takes the next time increment that is free."""
    if not new:
        return
    step = dt.timedelta(minutes=league.time_increment)
    last = max(g.start_at for g in new) + step * (PLACE_AROUND_STEPS + 1)
    around = surroundings(db, league, zone, min(g.start_at for g in new), last)
    fresh = {g.id for g in new}
    placed = Surroundings(league, zone, [g for g in around.games if g.id not in fresh], around.names, around.others)
    for g in sorted(new, key=lambda g: (g.start_at, g.match)):
        for _step in range(PLACE_AROUND_STEPS):
            if not clash(placed, game_id=g.id, team1=g.team1_id, team2=g.team2_id, start_at=g.start_at, court=g.court):
                break
            g.start_at = (timefmt.local(g.start_at, zone) + step).astimezone(dt.UTC)
            db.add(g)
        placed.games.append(g)
    db.flush()
