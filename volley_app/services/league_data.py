"""A league's stored data: how many of its games have results, and removing an empty league."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app.models import Game, League, Team
from volley_app.services import uploads


def played_games(db: Session, league_id: int) -> int:
    """Games of the league with a score entered or decided by forfeit."""
    scored = sa.or_(
        Game.forfeit_team_id.is_not(None), Game.team1_game1_score.is_not(None), Game.team2_game1_score.is_not(None)
    )
    return db.exec(select(sa.func.count()).select_from(Game).where(Game.league_id == league_id, scored)).one()


def delete_children(db: Session, league_id: int) -> None:
    """Delete a league's games and teams (and its bracket file), then the league row."""
    row = db.get(League, league_id)
    db.exec(sa.delete(Game).where(Game.league_id == league_id))
    db.exec(sa.delete(Team).where(Team.league_id == league_id))
    if row is not None:
        file_name = row.tournament_file
        db.delete(row)
        db.flush()
        uploads.remove(db, file_name)
