"""The operator's score settles the captains' reports of the game, wherever it is entered (the game's score
page or the game edit form): every report of the game still waiting or disputed is marked settled by the
operator, each one audited, and both captains are emailed the score that counts now."""

from __future__ import annotations

from sqlmodel import Session, select

from volley_app import routes
from volley_app.models import Game, ReportStatus, ScoreReport, Team, User, utcnow
from volley_app.services.core import audit
from volley_app.services.core.actors import Actor
from volley_app.services.mail import mail

OPEN = (ReportStatus.PENDING, ReportStatus.DISPUTED)


def open_reports(db: Session, game_id: int) -> list[ScoreReport]:
    """The game's reports waiting for an answer or for the operator, newest first."""
    return list(
        db.exec(
            select(ScoreReport)
            .where(ScoreReport.game_id == game_id, ScoreReport.status.in_(OPEN))
            .order_by(ScoreReport.id.desc())
        ).all()
    )


def settle_reports(db: Session, actor: Actor, game: Game, *, score: str, tell_anyway: bool = False) -> int:
    """After the operator (checked by the caller) entered ``score`` on ``game``: settle its open reports.

    Both captains are emailed when a report was settled, or always with ``tell_anyway``. Returns how many
    reports were settled.
    """
    teams = [db.get(Team, t) if t else None for t in (game.team1_id, game.team2_id)]
    name = " v ".join(t.team_name if t else "TBD" for t in teams)
    rows = open_reports(db, game.id)
    for row in rows:
        was = row.status.value
        row.status, row.answered_by_id, row.answered_at = ReportStatus.SETTLED, actor.user_id, utcnow()
        db.add(row)
        audit.record(
            db, actor, action="settle", entity="score_report", entity_id=row.id, league_id=game.league_id,
            summary=f"Score report of {name} ({was}) settled by the operator's score: {score}",
            before={"status": was}, after={"status": ReportStatus.SETTLED.value},
        )  # fmt: skip
    db.flush()
    if rows or tell_anyway:
        page = routes.absolute(routes.game_score_path(game.id))
        for team in teams:
            captain = db.get(User, team.captain_id) if team is not None and team.captain_id else None
            if captain is not None and captain.email:
                mail.queue_email(db, "score_settled", {"first_name": mail.first_name(captain), "game": name,
                                                       "score": score, "page": page}, to=captain.email)  # fmt: skip
    return len(rows)
