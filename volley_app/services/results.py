"""Records from results: wins and losses come from the games; an operator's correction is an adjustment."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from sqlmodel import Session, select

from volley_app.models import Game, StandingAdjustment, Team
from volley_app.services import audit, leagues, scheduling, validation
from volley_app.services.errors import Invalid
from volley_app.services.permissions import Actor, access_team, require_actor

REASON_REQUIRED = "Say why the record is corrected"


@dataclasses.dataclass
class Record:
    """A team's record: from its games, plus adjustments (with their reasons)."""

    game_wins: int = 0
    game_losses: int = 0
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    adj_wins: int = 0
    adj_losses: int = 0
    reasons: list[str] = dataclasses.field(default_factory=list)

    @property
    def wins(self) -> int:
        return self.game_wins + self.adj_wins

    @property
    def losses(self) -> int:
        return self.game_losses + self.adj_losses

    @property
    def adjustment(self) -> str:
        """'+1 W, -1 L' (empty when the games alone make the record)."""
        parts = [f"{n:+d} {label}" for n, label in ((self.adj_wins, "W"), (self.adj_losses, "L")) if n]
        return ", ".join(parts)


def records(db: Session, team_ids: Iterable[int]) -> dict[int, Record]:
    """Every listed team's record, read in two queries whatever the number of teams."""
    ids = set(team_ids)
    out = {i: Record() for i in ids}
    if not ids:
        return out
    games = db.exec(
        select(Game).where((Game.team1_id.in_(ids)) | (Game.team2_id.in_(ids)), Game.team2_id.is_not(None))
    ).all()
    for game in games:
        winner = scheduling.result(game)
        if winner is None:
            continue
        win_id, lose_id = (game.team1_id, game.team2_id) if winner == 1 else (game.team2_id, game.team1_id)
        if win_id in out:
            out[win_id].game_wins += 1
            out[win_id].forfeit_wins += bool(game.forfeit_team_id)
        if lose_id in out:
            out[lose_id].game_losses += 1
            out[lose_id].forfeit_losses += bool(game.forfeit_team_id)
    for adj in db.exec(
        select(StandingAdjustment).where(StandingAdjustment.team_id.in_(ids)).order_by(StandingAdjustment.id)
    ).all():
        rec = out[adj.team_id]
        rec.adj_wins += adj.wins
        rec.adj_losses += adj.losses
        rec.reasons.append(adj.reason)
    return out


def record_of(db: Session, team: Team) -> Record:
    return records(db, [team.id])[team.id]


def correct(db: Session, actor: Actor | None, team: Team, *, wins: object, losses: object, reason: object) -> bool:
    """Make the team's shown record ``wins``-``losses`` by an adjustment with a reason (its league's SVL
    or an admin; the caller has checked that). Returns False when the record already is that."""
    target_w = validation.whole_number(wins, "wins", "Wins", 0, 999)
    target_l = validation.whole_number(losses, "losses", "Losses", 0, 999)
    rec = record_of(db, team)
    dw, dl = target_w - rec.wins, target_l - rec.losses
    if not dw and not dl:
        return False
    text = validation.optional(reason, "reason", "Reason", 300)
    if not text:
        raise Invalid({"reason": REASON_REQUIRED})
    db.add(StandingAdjustment(team_id=team.id, wins=dw, losses=dl, reason=text, created_by_id=actor.user_id))
    db.flush()
    audit.record(
        db, actor, action="adjust", entity="team", entity_id=team.id, league_id=team.league_id,
        summary=f"Record of {team.team_name} corrected to {target_w}-{target_l}: {text}",
        before={"wins": rec.wins, "losses": rec.losses}, after={"wins": target_w, "losses": target_l},
    )  # fmt: skip
    return True


def standings(db: Session, actor: Actor | None, league_id: object) -> dict:
    """The league's teams (waitlisted ones aside) by record: most wins, then fewest losses, then name.

    Each record is what the games say plus any adjustment, shown as such; a withdrawn team stays
    with its played games and is marked.
    """
    require_actor(actor)
    info = leagues.get_league(db, actor, league_id)
    teams = db.exec(select(Team).where(Team.league_id == info["id"], Team.waitlist.is_(False))).all()
    recs = records(db, [t.id for t in teams])
    rows = sorted(teams, key=lambda t: (-recs[t.id].wins, recs[t.id].losses, t.team_name.lower(), t.id))
    return {
        "league": info,
        "teams": [
            {
                "id": t.id,
                "team_name": t.team_name,
                "wins": recs[t.id].wins,
                "losses": recs[t.id].losses,
                "forfeits": recs[t.id].forfeit_losses,
                "adjustment": recs[t.id].adjustment,
                "reasons": "; ".join(recs[t.id].reasons),
                "withdrawn": t.withdrawn_at is not None,
            }
            for t in rows
        ],
    }


def team_record(db: Session, actor: Actor | None, team_id: object) -> Record:
    """One team's record for whoever may read the team."""
    return record_of(db, access_team(db, actor, team_id, manage=False))
