"""Teams as operators manage them: lists, edits by role, delete, the waitlist and Promote."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app.models import Game, League, Role, Team, User
from volley_app.services import leagues, mail
from volley_app.services.errors import Forbidden, Invalid, NotFound
from volley_app.services.permissions import Actor, require_actor, require_role
from volley_app.settings import get_settings

TEAM_NAME_REQUIRED = "team name required"


def _get(db: Session, team_id: object) -> Team:
    try:
        row = db.get(Team, int(team_id))
    except (TypeError, ValueError):
        row = None
    if row is None:
        raise NotFound("Team not found")
    return row


def _to_dict(t: Team, league_names: dict[int, str], captains: dict[int, str]) -> dict:
    return {
        "id": t.id,
        "team_name": t.team_name,
        "league_id": t.league_id,
        "league_name": league_names.get(t.league_id, ""),
        "captain": captains.get(t.captain_id, ""),
        "wins": t.wins,
        "losses": t.losses,
        "paid": t.paid,
        "waitlist": t.waitlist,
    }


def _dicts(db: Session, found: list[Team]) -> list[dict]:
    lids = {t.league_id for t in found}
    lgs = db.exec(select(League).where(League.id.in_(lids or {-1}))).all()
    names = {lg.id: leagues.display_name(lg) for lg in lgs}
    cids = {t.captain_id for t in found if t.captain_id}
    captains = {u.id: u.username for u in db.exec(select(User).where(User.id.in_(cids or {-1}))).all()}
    return [_to_dict(t, names, captains) for t in found]


def list_teams(db: Session, actor: Actor | None, *, waitlist: bool | None = None) -> list[dict]:
    """Admins: every team; SVLs: the teams of their leagues; players: the teams they captain."""
    actor = require_actor(actor)
    stmt = select(Team).order_by(Team.league_id, Team.id)
    if not actor.is_admin:
        if actor.is_svl:
            stmt = stmt.join(League, League.id == Team.league_id).where(League.svl_id == actor.user_id)
        else:
            stmt = stmt.where(Team.captain_id == actor.user_id)
    if waitlist is not None:
        stmt = stmt.where(Team.waitlist.is_(waitlist))
    return _dicts(db, list(db.exec(stmt).all()))


def _may_manage(db: Session, actor: Actor, team: Team) -> bool:
    league = db.get(League, team.league_id)
    return league is not None and leagues.may_manage(actor, league)


def get_team(db: Session, actor: Actor | None, team_id: object) -> dict:
    """A team for its edit page: the league's SVL, an admin, or its captain (read only)."""
    actor = require_actor(actor)
    team = _get(db, team_id)
    manage = _may_manage(db, actor, team)
    if not manage and team.captain_id != actor.user_id:
        raise Forbidden()
    out = _dicts(db, [team])[0]
    out["can_manage"] = manage
    out["can_edit_name"] = actor.is_admin
    return out


def _count(value: object, field: str, label: str) -> int:
    text = str(value).strip() if value is not None and not isinstance(value, bool) else ""
    try:
        number = int(text)
    except ValueError:
        raise Invalid({field: f"{label} must be a whole number"}) from None
    if not 0 <= number <= 999:
        raise Invalid({field: f"{label} must be between 0 and 999"})
    return number


def update_team(db: Session, actor: Actor | None, team_id: object, **fields) -> Team:
    """SVL (of the league) and admin edit wins and losses; only admins edit the name and paid."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    team = _get(db, team_id)
    if not _may_manage(db, actor, team):
        raise Forbidden()
    if actor.is_admin:
        name = fields.get("team_name")
        name = name.strip() if isinstance(name, str) else ""
        if not name:
            raise Invalid({"team_name": TEAM_NAME_REQUIRED})
        if len(name) > 100:
            raise Invalid({"team_name": "Team name must be at most 100 characters"})
        clash = db.exec(
            select(Team.id).where(Team.league_id == team.league_id, Team.team_name == name, Team.id != team.id)
        ).first()
        if clash is not None:
            raise Invalid({"team_name": "Another team in this league has that name"})
        team.team_name = name
        paid = fields.get("paid")
        team.paid = paid is True or (isinstance(paid, str) and paid.lower() in ("true", "on", "yes", "1"))
    team.wins = _count(fields.get("wins"), "wins", "Wins")
    team.losses = _count(fields.get("losses"), "losses", "Losses")
    db.add(team)
    db.flush()
    return team


def delete_team(db: Session, actor: Actor | None, team_id: object) -> str:
    """Delete a team (the league's SVL or an admin); returns its name."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    team = _get(db, team_id)
    if not _may_manage(db, actor, team):
        raise Forbidden()
    name = team.team_name
    db.exec(sa.delete(Game).where(sa.or_(Game.team1_id == team.id, Game.team2_id == team.id)))
    db.delete(team)
    db.flush()
    return name


def promote(db: Session, actor: Actor | None, team_id: object) -> Team:
    """Take a team off the waitlist: waitlist false, paid true, wins and losses 0; the captain is emailed."""
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    team = _get(db, team_id)
    if not _may_manage(db, actor, team):
        raise Forbidden()
    if not team.waitlist:
        raise Invalid("This team is not on the waitlist")
    team.waitlist, team.paid, team.wins, team.losses = False, True, 0, 0
    db.add(team)
    league = db.get(League, team.league_id)
    captain = db.get(User, team.captain_id) if team.captain_id else None
    if captain is not None:
        name = leagues.display_name(league)
        link = f"{get_settings().public_url.rstrip('/')}/dash/leagues/{league.id}"
        mail.queue(
            db,
            to=captain.email,
            subject=f"{team.team_name} is in {name}",
            body_text=(
                f"Hi {captain.first_name},\n\nA spot opened up: your team {team.team_name} has been moved "
                f"off the waitlist and into {name}.\n\nLeague details: {link}\n"
            ),
            kind="team_promoted",
        )
    db.flush()
    return team
