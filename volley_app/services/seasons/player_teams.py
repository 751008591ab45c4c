"""The teams a player is on now and their games, read at once for the screens that show them: the Player home's
team cards (each team's next game and its last one, ``score_reports``) and its next games across the teams with
the player's own answer (``rsvps``).

Two statements, however many teams: the teams with their leagues, their venues and (for the cards) the id of
each team's next and last game; then those games and the player's next ones, with both teams' names, each game's
newest score report still waiting and the player's own answers (for a player on no team, the first alone).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Game, GameRsvp, League, RsvpAnswer, ScoreReport, Team, TeamMember, User
from volley_app.services.seasons.scoring import OPEN

_Venue = sa.orm.aliased(User, name="venue")
_Team1 = sa.orm.aliased(Team, name="team1")
_Team2 = sa.orm.aliased(Team, name="team2")
_Waiting = sa.orm.aliased(ScoreReport, name="waiting")


@dataclasses.dataclass(frozen=True)
class PlayerTeam:
    """One team the player is on now: a current member, the team neither withdrawn nor waitlisted, its league not
    archived (its schedule drawn or not)."""

    team: Team
    league: League
    venue: str  # the league's venue: its SVL's full name ("" without such an account)
    zone: str | None  # the venue's time zone (None: the default one)
    next_id: int | None = None  # read for the cards: its next game in its league with both teams known
    last_id: int | None = None  # read for the cards: its last game started in its league with both teams known


@dataclasses.dataclass(frozen=True)
class PlayerTeams:
    """The player's teams and the games read with them."""

    teams: list[PlayerTeam]  # by team id
    games: dict[int, Game]  # by id: the teams' next and last games (for the cards) and the player's coming ones
    names: dict[int, str]  # the names of those games' teams, by team id
    waiting: dict[int, ScoreReport]  # by game id: its newest score report waiting for an answer or the operator
    answers: dict[tuple[int, int], RsvpAnswer | None]  # the player's own answers, by (game id, team id)
    coming: list[int]  # the player's next games across their teams (a BYE is none), nearest first


def _card_game(now: dt.datetime, *, ahead: bool) -> Any:
    """The id of the team's next (``ahead``) or last game in its league with both teams known, for each team row."""
    g = sa.orm.aliased(Game, name="ahead" if ahead else "behind")
    found = select(g.id).where(
        g.league_id == League.id, sa.or_(col(g.team1_id) == col(Team.id), col(g.team2_id) == col(Team.id)),
        col(g.team1_id).is_not(None), col(g.team2_id).is_not(None),
    )  # fmt: skip
    if ahead:
        found = found.where(g.start_at > now).order_by(col(g.start_at), col(g.id))
    else:
        found = found.where(g.start_at <= now).order_by(col(g.start_at).desc(), col(g.id).desc())
    return found.limit(1).correlate(Team, League).scalar_subquery()


def _teams(db: Session, user_id: int, now: dt.datetime, *, cards: bool) -> list[PlayerTeam]:
    columns: list[Any] = [Team, League, _Venue.id, _Venue.first_name, _Venue.last_name, _Venue.time_zone]
    if cards:
        columns += [_card_game(now, ahead=True), _card_game(now, ahead=False)]
    found = db.exec(
        select(*columns)
        .join(League, col(League.id) == col(Team.league_id))
        .join(TeamMember, col(TeamMember.team_id) == col(Team.id))
        .outerjoin(_Venue, col(_Venue.id) == League.svl_id)
        .where(TeamMember.user_id == user_id, col(TeamMember.left_at).is_(None), col(Team.waitlist).is_(False),
               col(Team.withdrawn_at).is_(None), col(League.archived_at).is_(None))
        .order_by(col(Team.id))
    ).all()  # fmt: skip
    return [
        PlayerTeam(team, league, f"{first} {last}".strip() if venue_id is not None else "", zone, *card_ids)
        for team, league, venue_id, first, last, zone, *card_ids in found
    ]


def read(db: Session, user_id: int, *, now: dt.datetime, cards: bool = False, coming: int = 0) -> PlayerTeams:
    """The teams ``user_id`` is on now; with ``cards`` each one's next and last game (``now`` parts them), and the
    player's ``coming`` next games across their teams with a known opponent, nearest first."""
    teams = _teams(db, user_id, now, cards=cards)
    ids = {t.team.id for t in teams if t.team.id is not None}
    wanted: list[Any] = []
    card_ids = {i for t in teams for i in (t.next_id, t.last_id) if i is not None}
    if card_ids:
        wanted.append(col(Game.id).in_(card_ids))
    if ids and coming > 0:
        c = sa.orm.aliased(Game, name="coming")
        wanted.append(col(Game.id).in_(
            select(c.id).where(sa.or_(col(c.team1_id).in_(ids), col(c.team2_id).in_(ids)), c.start_at > now,
                               col(c.team2_id).is_not(None))
            .order_by(col(c.start_at), col(c.id)).limit(coming)
        ))  # fmt: skip
    games: dict[int, Game] = {}
    names: dict[int, str] = {}
    waiting: dict[int, ScoreReport] = {}
    answers: dict[tuple[int, int], RsvpAnswer | None] = {}
    if wanted:
        newest = (
            select(sa.func.max(ScoreReport.id))
            .where(ScoreReport.game_id == Game.id, col(ScoreReport.status).in_(OPEN))
            .correlate(Game).scalar_subquery()
        )  # fmt: skip
        columns: list[Any] = [Game, _Team1.team_name, _Team2.team_name, _Waiting, GameRsvp.team_id, GameRsvp.answer]
        found = db.exec(
            select(*columns)
            .outerjoin(_Team1, col(_Team1.id) == Game.team1_id)
            .outerjoin(_Team2, col(_Team2.id) == Game.team2_id)
            .outerjoin(_Waiting, col(_Waiting.id) == newest)
            .outerjoin(GameRsvp, sa.and_(col(GameRsvp.game_id) == Game.id, col(GameRsvp.user_id) == user_id))
            .where(sa.or_(*wanted))
        ).all()  # fmt: skip
        for game, name1, name2, report, answered_for, answer in found:
            assert game.id is not None  # a stored game
            games[game.id] = game
            for team_id, name in ((game.team1_id, name1), (game.team2_id, name2)):
                if team_id is not None and name is not None:
                    names[team_id] = name
            if report is not None:
                waiting[game.id] = report
            if answered_for is not None:
                answers[(game.id, answered_for)] = answer
    ahead = sorted(
        (g for g in games.values()
         if g.start_at > now and g.team2_id is not None and (g.team1_id in ids or g.team2_id in ids)),
        key=lambda g: (g.start_at, g.id or 0),
    )  # fmt: skip
    return PlayerTeams(teams, games, names, waiting, answers, [g.id for g in ahead[: max(coming, 0)] if g.id])
