"""Builders for the game answer tests: members on a team, a league's games, each committed."""

from __future__ import annotations

import datetime as dt

from sqlmodel import Session, col, select

from volley_app.models import Game, MemberRole, TeamMember, User, utcnow


def add_member(db: Session, team_id: int, user: User | int, role: MemberRole = MemberRole.PLAYER) -> TeamMember:
    """Put ``user`` on the team now (a current member) and commit."""
    user_id = user if isinstance(user, int) else user.id
    row = TeamMember(team_id=team_id, user_id=user_id, role=role)
    db.add(row)
    db.commit()
    return row


def remove_member(db: Session, team_id: int, user_id: int) -> None:
    """End the user's membership of the team (they left) and commit."""
    for m in db.exec(select(TeamMember).where(TeamMember.team_id == team_id, TeamMember.user_id == user_id,
                                              col(TeamMember.left_at).is_(None))):  # fmt: skip
        m.left_at = utcnow()
    db.commit()


def add_game(db: Session, league_id: int, team1: int, team2: int | None, start: dt.datetime, **columns) -> Game:
    """Add a game between two teams (``team2`` None: a bye) of the league and commit it."""
    row = Game(league_id=league_id, team1_id=team1, team2_id=team2, start_at=start, **columns)
    db.add(row)
    db.commit()
    return row
