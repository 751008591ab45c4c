"""Removing a league's stored data: its games, teams, bracket file and the league row itself."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session

from volley_app.models import Game, League, Team
from volley_app.services import uploads


def delete_children(db: Session, league_id: int) -> None:
    """Delete a league's games and teams (and its bracket file), then the league row."""
    row = db.get(League, league_id)
    db.exec(sa.delete(Game).where(Game.league_id == league_id))
    db.exec(sa.delete(Team).where(Team.league_id == league_id))
    if row is not None:
        file_name = row.tournament_file
        db.delete(row)
        db.flush()
        uploads.remove(file_name)
