"""Who may play a league's playoff games: a rostered player with at least the league's ``playoff_min_games``
regular-season games of that team played.

A game counts as played by a member when it is a regular-season game (a league game of round 0 against
another team) with a result, as the standings count it (``scoring.result``: two sets won, or a forfeit the
team did not give), and the member answered In for it (the RSVP grid's attendance). Unanswered, Out and Maybe
answers and games with no result do not count. One query reads every listed team's counts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Game, GameRsvp, GameType, League, RsvpAnswer
from volley_app.services.seasons import scoring

NOT_ELIGIBLE = "Not eligible"


@dataclasses.dataclass(frozen=True)
class Standing:
    """A member's regular-season games played for their team against what the league needs for its playoffs."""

    played: int
    needed: int

    @property
    def eligible(self) -> bool:
        return self.played >= self.needed

    @property
    def reason(self) -> str:
        said = f"{self.played} of {self.needed} regular-season game{'s' if self.needed != 1 else ''} played"
        return said if self.eligible else f"{said}: not eligible for playoffs"


def is_playoff(game: Game) -> bool:
    """A playoff game (a round of the bracket), not a regular-season one."""
    return game.round > 0


def regular_season(game: Game) -> bool:
    """A regular-season game against another team."""
    return game.type == GameType.LEAGUE and game.round == 0 and game.team2_id is not None


def _counted(game: Game, team_id: int) -> bool:
    return regular_season(game) and scoring.result(game) is not None and game.forfeit_team_id != team_id


def played(db: Session, team_ids: Iterable[int]) -> dict[tuple[int, int], int]:
    """How many regular-season games each member of the teams ``team_ids`` played for them, by (team, member):
    one query whatever the number of teams and members."""
    ids = sorted(set(team_ids))
    out: dict[tuple[int, int], int] = {}
    if not ids:
        return out
    found = db.exec(
        select(GameRsvp.team_id, GameRsvp.user_id, Game)
        .join(Game, col(Game.id) == GameRsvp.game_id)
        .where(col(GameRsvp.team_id).in_(ids), GameRsvp.answer == RsvpAnswer.IN, Game.type == GameType.LEAGUE,
               Game.round == 0, col(Game.team2_id).is_not(None),
               sa.or_(col(Game.team1_id) == GameRsvp.team_id, col(Game.team2_id) == GameRsvp.team_id))
    ).all()  # fmt: skip
    for team_id, user_id, game in found:
        if _counted(game, team_id):
            out[(team_id, user_id)] = out.get((team_id, user_id), 0) + 1
    return out


def standings(db: Session, league: League, team_ids: Iterable[int]) -> dict[tuple[int, int], Standing] | None:
    """Each member's standing for the league's playoffs, by (team, member) (a member with no game played has
    none: :func:`standing_of`); None when the league sets no minimum."""
    if league.playoff_min_games is None:
        return None
    needed = league.playoff_min_games
    return {key: Standing(n, needed) for key, n in played(db, team_ids).items()}


def standing_of(found: dict[tuple[int, int], Standing] | None, league: League, team_id: int, user_id: int) -> Standing | None:
    """The member's standing from :func:`standings` (0 played when not listed); None without a minimum."""
    if found is None or league.playoff_min_games is None:
        return None
    return found.get((team_id, user_id)) or Standing(0, league.playoff_min_games)

