"""A team's game-answer settings: how many days before a game its members who have not answered get a reminder
(``Team.rsvp_reminder_days``, 0: no reminder), and how many hours before a game a team still short is told
(``Team.rsvp_deadline_hours``). The team's members read them; its captain, co-captains and the league's operator
change them, and every change is in the audit log.
"""

from __future__ import annotations

from typing import TypedDict

from sqlmodel import Session

from volley_app.services.core import audit, validation
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import BadRequest, Forbidden
from volley_app.services.seasons import leagues
from volley_app.services.teams import rosters

REMINDER_DAYS = (0, 14)
DEADLINE_HOURS = (2, 168)
FIELDS = ("rsvp_reminder_days", "rsvp_deadline_hours")
MANAGE = "Only the team's captain, its co-captains or the league's operator change its settings."
REMINDER_LABEL = "Reminder days before a game"
DEADLINE_LABEL = "Answer deadline in hours before a game"


class TeamSettings(TypedDict):
    """A team's settings as its settings page and the API show them."""

    team_id: int
    team_name: str
    league_name: str
    reminder_days: int
    deadline_hours: int
    can_edit: bool  # the reader is the captain, a co-captain, the league's operator or an admin


def _shown(seat: rosters.Seat) -> TeamSettings:
    team = seat.team
    assert team.id is not None  # a stored team
    return {
        "team_id": team.id, "team_name": team.team_name, "league_name": leagues.display_name(seat.league),
        "reminder_days": team.rsvp_reminder_days, "deadline_hours": team.rsvp_deadline_hours,
        "can_edit": seat.manages and team.withdrawn_at is None,
    }  # fmt: skip


def team_settings(db: Session, actor: Actor | None, *, team_id: object) -> TeamSettings:
    """The team's settings: its members, the league's operator and admins read them."""
    return _shown(rosters.access_roster(db, actor, team_id))


def update_settings(db: Session, actor: Actor | None, *, team_id: object, reminder_days: object,
                    deadline_hours: object) -> TeamSettings:  # fmt: skip
    """The captain, a co-captain or the league's operator sets when reminders go (0 to 14 days before a game, 0:
    none) and when a short team is told (2 to 168 hours before). Both are checked before either is saved."""
    seat = rosters.access_roster(db, actor, team_id)
    if not seat.manages:
        raise Forbidden(MANAGE)
    team = seat.team
    if team.withdrawn_at is not None:
        raise BadRequest(rosters.WITHDRAWN)
    clean = validation.collect(
        rsvp_reminder_days=(validation.whole_number, reminder_days, "reminder_days", REMINDER_LABEL, *REMINDER_DAYS),
        rsvp_deadline_hours=(validation.whole_number, deadline_hours, "deadline_hours", DEADLINE_LABEL, *DEADLINE_HOURS),
    )  # fmt: skip
    before = audit.snapshot(team, FIELDS)
    team.rsvp_reminder_days, team.rsvp_deadline_hours = clean["rsvp_reminder_days"], clean["rsvp_deadline_hours"]
    audit.save_change(db, seat.actor, entity="team", row=team, before=before, fields=FIELDS, league_id=team.league_id,
                      summary=f"Team {team.team_name} answer settings changed")  # fmt: skip
    return _shown(seat)
