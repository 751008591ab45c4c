"""A league's stored data: its name in words, how many of its games have results, removing an empty league,
and telling its captains when it is archived."""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import Game, League, LeagueFormat, Team, User
from volley_app.services.core import uploads
from volley_app.services.mail import mail

FORMAT_LABELS = {
    LeagueFormat.DOUBLES: "Doubles",
    LeagueFormat.QUADS: "Quads",
    LeagueFormat.FIVES: "5s",
    LeagueFormat.SIXES: "6s",
    LeagueFormat.REVERSE_QUADS: "Reverse Quads",
}


def display_name(league: League) -> str:
    """'Monday C 6s': day, skill level and format (used in lists and the delete confirmation)."""
    return f"{league.day.value} {league.skill_level.value} {FORMAT_LABELS[league.format]}"


def played_games(db: Session, league_id: int) -> int:
    """Games of the league with a score entered or decided by forfeit."""
    scored = sa.or_(
        col(Game.forfeit_team_id).is_not(None),
        col(Game.team1_game1_score).is_not(None),
        col(Game.team2_game1_score).is_not(None),
    )
    return db.exec(select(sa.func.count()).select_from(Game).where(Game.league_id == league_id, scored)).one()


def delete_children(db: Session, league_id: int) -> None:
    """Delete a league's games and teams (and its bracket file), then the league row."""
    row = db.get(League, league_id)
    db.exec(sa.delete(Game).where(col(Game.league_id) == league_id))
    db.exec(sa.delete(Team).where(col(Team.league_id) == league_id))
    if row is not None:
        file_name = row.tournament_file
        db.delete(row)
        db.flush()
        uploads.remove(db, file_name)


PAYMENTS_KEPT = "Their payments stay on record; nothing is refunded by archiving."


def archive_notes(paid: list[str], teams: int, *, separator: str = "; ") -> str:
    """The end of an archive confirmation: the paid teams, whose payments are kept, and that captains are emailed."""
    notes = f" Paid teams: {separator.join(paid)}. {PAYMENTS_KEPT}" if paid else ""
    if teams:
        notes += " Each team's captain is emailed that the league is archived."
    return notes


def paid_teams(db: Session, league_id: int) -> list[str]:
    """The league's paid teams in words for the archive confirmation: 'Net Ninjas (captain Ana Diaz)'."""
    rows = db.exec(
        select(Team, User)
        .join(User, col(User.id) == Team.captain_id, isouter=True)
        .where(Team.league_id == league_id, col(Team.paid).is_(True), col(Team.withdrawn_at).is_(None))
        .order_by(col(Team.team_name), col(Team.id))
    ).all()
    out = []
    for team, captain in rows:
        who = f"{captain.first_name} {captain.last_name}".strip() if captain is not None else ""
        out.append(f"{team.team_name} (captain {who})" if who else f"{team.team_name} (no captain)")
    return out


def tell_captains_archived(db: Session, league: League) -> int:
    """Email each captain of the league's teams once that it was archived; returns how many were queued.

    A paid team's captain is told the payment stays on record. Sent through the outbox in the
    archiving transaction, so nobody is told of an archive that did not happen.
    """
    teams = db.exec(
        select(Team).where(Team.league_id == league.id, col(Team.withdrawn_at).is_(None)).order_by(col(Team.id))
    ).all()
    by_captain: dict[int, list[Team]] = {}
    for t in teams:
        if t.captain_id:
            by_captain.setdefault(t.captain_id, []).append(t)
    if not by_captain:
        return 0
    users = db.exec(select(User).where(col(User.id).in_(by_captain), col(User.active).is_(True))).all()
    name = display_name(league)
    link = routes.absolute(routes.PLAYER_LEAGUES)
    queued = 0
    for user in users:
        if not user.email:
            continue
        assert user.id is not None  # a stored user
        paid = [t.team_name for t in by_captain[user.id] if t.paid]
        mail.queue_email(db, "league_archived", {"first_name": user.first_name or user.username, "league": name,
                                                 "paid_teams": paid, "page": link}, to=user.email)  # fmt: skip
        queued += 1
    return queued
