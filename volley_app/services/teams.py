"""Teams as operators manage them: lists, edits by role, delete, the waitlist and Promote."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, select

from volley_app import routes
from volley_app.models import Game, League, Team, User
from volley_app.services import leagues, mail, validation
from volley_app.services.errors import Invalid, NotFound
from volley_app.services.permissions import Actor, access_team, manages_team, record_id, require_actor

NAME_CLASH = "Another team in this league has that name"


def _to_dict(t: Team, league_names: dict[int, str], captains: dict[int, str], managed: set[int]) -> dict:
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
        "can_promote": t.waitlist and t.league_id in managed,
    }


def _dicts(db: Session, actor: Actor, found: list[Team]) -> list[dict]:
    lids = {t.league_id for t in found}
    lgs = db.exec(select(League).where(League.id.in_(lids or {-1}))).all()
    names = {lg.id: leagues.display_name(lg) for lg in lgs}
    managed = {lg.id for lg in lgs if leagues.may_manage(actor, lg)}
    cids = {t.captain_id for t in found if t.captain_id}
    captains = {u.id: u.username for u in db.exec(select(User).where(User.id.in_(cids or {-1}))).all()}
    return [_to_dict(t, names, captains, managed) for t in found]


def list_teams(
    db: Session, actor: Actor | None, *, waitlist: bool | None = None, league_id: object = None
) -> list[dict]:
    """Admins: every team; SVLs: the teams of their leagues; players: the teams they captain.

    ``league_id`` (from the address, may be empty) keeps one league's teams. Each row says
    whether the actor may promote it off the waitlist (``can_promote``).
    """
    actor = require_actor(actor)
    stmt = select(Team).order_by(Team.league_id, Team.id)
    if league_id not in (None, ""):
        try:
            stmt = stmt.where(Team.league_id == record_id(league_id))
        except NotFound:
            return []
    if not actor.is_admin:
        if actor.is_svl:
            stmt = stmt.join(League, League.id == Team.league_id).where(League.svl_id == actor.user_id)
        else:
            stmt = stmt.where(Team.captain_id == actor.user_id)
    if waitlist is not None:
        stmt = stmt.where(Team.waitlist.is_(waitlist))
    return _dicts(db, actor, list(db.exec(stmt).all()))


def get_team(db: Session, actor: Actor | None, team_id: object) -> dict:
    """A team for its edit page: the league's SVL, an admin, or its captain (read only)."""
    team = access_team(db, actor, team_id, manage=False)
    out = _dicts(db, actor, [team])[0]
    out["can_manage"] = manages_team(db, actor, team)
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
    team = access_team(db, actor, team_id)
    if actor.is_admin:
        name = validation.team_name(fields.get("team_name"))
        clash = db.exec(
            select(Team.id).where(Team.league_id == team.league_id, Team.team_name == name, Team.id != team.id)
        ).first()
        if clash is not None:
            raise Invalid({"team_name": NAME_CLASH})
        team.team_name = name
        team.paid = validation.flag(fields.get("paid"))
    team.wins = _count(fields.get("wins"), "wins", "Wins")
    team.losses = _count(fields.get("losses"), "losses", "Losses")
    db.add(team)
    db.flush()
    return team


def delete_team(db: Session, actor: Actor | None, team_id: object) -> str:
    """Delete a team (the league's SVL or an admin); returns its name."""
    team = access_team(db, actor, team_id)
    name = team.team_name
    db.exec(sa.delete(Game).where(sa.or_(Game.team1_id == team.id, Game.team2_id == team.id)))
    db.delete(team)
    db.flush()
    return name


def promote(db: Session, actor: Actor | None, team_id: object) -> Team:
    """Take a team off the waitlist: waitlist false, paid true, wins and losses 0; the captain is emailed."""
    team = access_team(db, actor, team_id)
    if not team.waitlist:
        raise Invalid("This team is not on the waitlist")
    team.waitlist, team.paid, team.wins, team.losses = False, True, 0, 0
    db.add(team)
    league = db.get(League, team.league_id)
    captain = db.get(User, team.captain_id) if team.captain_id else None
    if captain is not None:
        name = leagues.display_name(league)
        link = routes.absolute(routes.league_path(league.id))
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
