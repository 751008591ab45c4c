"""Builders for the waiver tests: a team's member and a league's waiver, committed."""

from __future__ import annotations

from sqlmodel import Session

from volley_app.models.rosters import TeamMember
from volley_app.services.core.actors import Actor
from volley_app.services.teams import waivers

WAIVER_TEXT = "I play at my own risk and release the league from claims."


def add_member(db: Session, team_id: int, user_id: int) -> TeamMember:
    """``user_id`` joins ``team_id`` now (a player, a current member)."""
    row = TeamMember(team_id=team_id, user_id=user_id)
    db.add(row)
    db.commit()
    return row


def add_waiver(db: Session, operator: Actor, league_id: int, text: str = WAIVER_TEXT) -> waivers.WaiverVersion:
    """A new version of the league's waiver, saved by ``operator`` (its SVL or an admin)."""
    found = waivers.save_waiver(db, operator, league_id=league_id, text=text)
    db.commit()
    return found
