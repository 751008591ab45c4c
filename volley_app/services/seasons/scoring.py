"""A game's scores by volleyball's rules: finished sets within their caps, a best of three or all three sets, and
who won. The operator's score settles the captains' reports of the game, wherever it is entered (the game's score
page, the game edit form or a playoff forfeit): every report still waiting or disputed is marked settled by the
operator, each one audited, and both captains are emailed the score that counts now."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import Game, GameType, League, ReportStatus, ScoreReport, Team, User, utcnow
from volley_app.services.core import audit
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Invalid
from volley_app.services.mail import mail

# (points to win, cap) per set: sets 1 and 2 to 21 capped at 23, set 3 to 15 capped at 17; win by two.
SET_RULES = ((21, 23), (21, 23), (15, 17))
ScoreKey = Literal[
    "team1_game1_score", "team2_game1_score", "team1_game2_score", "team2_game2_score", "team1_game3_score",
    "team2_game3_score",
]
SCORE_FIELDS: tuple[tuple[ScoreKey, ScoreKey], ...] = (
    ("team1_game1_score", "team2_game1_score"),
    ("team1_game2_score", "team2_game2_score"),
    ("team1_game3_score", "team2_game3_score"),
)


def played(game: Game) -> bool:
    """A game with any score entered, or decided by forfeit, is part of the record: it is never removed."""
    return game.forfeit_team_id is not None or any(getattr(game, f) is not None for pair in SCORE_FIELDS for f in pair)


def unplayed_games(db: Session, team_id: int, game_type: GameType) -> list[Game]:
    """The team's games of that type (league or playoff) with no score entered and no forfeit yet."""
    games = db.exec(
        select(Game).where(Game.type == game_type, sa.or_(col(Game.team1_id) == team_id, col(Game.team2_id) == team_id))
    ).all()
    return [game for game in games if not played(game)]


def check_set(a: int, b: int, set_index: int) -> None:
    """A finished set: to 21 (set 3: 15), win by two, capped at 23 (set 3: 17)."""
    target, cap = SET_RULES[set_index]
    label = f"Set {set_index + 1}"
    w, lo = max(a, b), min(a, b)
    if a < 0 or b < 0:
        raise Invalid({f"set{set_index + 1}": f"{label}: scores cannot be negative"})
    ok = (w == target and lo <= target - 2) or (target < w < cap and lo == w - 2) or (w == cap and lo in (cap - 2, cap - 1))
    if not ok:
        raise Invalid(
            {f"set{set_index + 1}": f"{label}: play to {target}, win by two, cap {cap} ({a}-{b} is not a final score)"}
        )


def winners_by_set(scores: Sequence[tuple[int | None, int | None]]) -> list[int]:
    """1 or 2 for each entered set."""
    return [1 if a > b else 2 for a, b in scores if a is not None and b is not None]


def result(game: Game) -> int | None:
    """1 or 2 when a team has won two sets (best of three) or the other forfeited, else None."""
    if game.team2_id is None:
        return None
    if game.forfeit_team_id is not None:
        return 2 if game.forfeit_team_id == game.team1_id else 1
    wins = winners_by_set([(getattr(game, f1), getattr(game, f2)) for f1, f2 in SCORE_FIELDS])
    if wins.count(1) >= 2:
        return 1
    if wins.count(2) >= 2:
        return 2
    return None


def _score(value: object, field: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise Invalid({field: "Scores must be numbers"})
    try:
        number = int(str(value).strip())
    except ValueError:
        raise Invalid({field: "Scores must be numbers"}) from None
    if not 0 <= number <= 99:
        raise Invalid({field: "Scores must be numbers"})
    return number


BEST_OF_THREE = None


ALL_THREE = 3


NO_WINNER = "Enter a finished best of three: a team must win two sets."


SPLIT_NEEDS_SET3 = "Sets 1 and 2 are split: enter set 3, which decides the match."


ALL_SETS = "This league plays all 3 sets: enter the score of each set."


RESULT_KEPT = "This game has a result: correct the scores, results are never deleted."


def clean_scores(raw: dict, sets_to_play: int | None = BEST_OF_THREE, *, required: bool = False) -> dict[str, int | None]:
    """The six scores of a complete result by the league's rules, or none at all (unless ``required``).

    Each set is numeric, both scores or neither, and finished within its caps (``check_set``); the sets are
    entered in order. A best of three (``sets_to_play`` None) ends when a team has won two sets: set 3 is
    played only after a split and is then required. A league that plays all three sets (3) needs all three.
    A result that stops short is refused with the reason, so every saved score counts in the standings.
    """
    clean: dict[str, int | None] = {f: _score(raw.get(f), f) for pair in SCORE_FIELDS for f in pair}
    pairs = [(clean[f1], clean[f2]) for f1, f2 in SCORE_FIELDS]
    for i, (a, b) in enumerate(pairs):
        if (a is None) != (b is None):
            raise Invalid({f"set{i + 1}": f"Set {i + 1}: enter both scores or neither"})
        if a is not None and b is not None:
            check_set(a, b, i)
    entered = [i for i, (a, _b) in enumerate(pairs) if a is not None]
    if not entered:
        if required:
            raise Invalid({"set1": ALL_SETS if sets_to_play == ALL_THREE else NO_WINNER})
        return clean
    if entered != list(range(len(entered))):
        missing = next(i for i in range(3) if i not in entered)
        raise Invalid({f"set{missing + 1}": f"Enter set {missing + 1} before set {entered[-1] + 1}"})
    wins = winners_by_set(pairs)
    if sets_to_play == ALL_THREE:
        if len(wins) < 3:
            raise Invalid({f"set{len(wins) + 1}": ALL_SETS})
        return clean
    if len(wins) == 3 and wins[0] == wins[1]:
        raise Invalid({"set3": "Set 3 is played only when sets 1 and 2 are split"})
    if len(wins) == 2 and wins[0] != wins[1]:
        raise Invalid({"set3": SPLIT_NEEDS_SET3})
    if len(wins) == 1:
        raise Invalid({"set2": NO_WINNER})
    return clean


def sets_rule(league: League | None) -> str:
    """The scoring rule a form shows for a game of ``league`` (None: a playoff game, a best of three)."""
    caps = "Sets 1 and 2 go to 21 (cap 23), set 3 to 15 (cap 17); win by two."
    if league is not None and league.sets_to_play == ALL_THREE:
        return f"{caps} This league plays all 3 sets."
    return f"{caps} Set 3 only after a 1-1 split: leave it empty after a 2-0."


def league_scores(league: League | None, raw: dict, *, required: bool = False) -> dict[str, int | None]:
    """``clean_scores`` by the rules of the game's league (a playoff game is always a best of three)."""
    return clean_scores(raw, league.sets_to_play if league is not None else BEST_OF_THREE, required=required)


# --- the operator's score settles the captains' reports ---------------------------------------

OPEN = (ReportStatus.PENDING, ReportStatus.DISPUTED)


def open_reports(db: Session, game_id: int) -> list[ScoreReport]:
    """The game's reports waiting for an answer or for the operator, newest first."""
    return list(
        db.exec(
            select(ScoreReport)
            .where(ScoreReport.game_id == game_id, col(ScoreReport.status).in_(OPEN))
            .order_by(col(ScoreReport.id).desc())
        ).all()
    )


def settle_reports(db: Session, actor: Actor, game: Game, *, score: str, tell_anyway: bool = False) -> int:
    """After the operator (checked by the caller) entered ``score`` on ``game``: settle its open reports.

    Both captains are emailed when a report was settled, or always with ``tell_anyway``. Returns how many
    reports were settled.
    """
    assert game.id is not None  # a stored game
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
