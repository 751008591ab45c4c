"""Records and standings from results: matches, sets and points come from the games; an operator's
correction is an adjustment; the league's ranking order decides the standings.

How a standings table is ordered (the page shows it as "How standings are calculated"):

* Each league chooses one order from ``RANKINGS``. The standard order compares match win %, then
  head-to-head among the tied teams (used only when every pair of them met the same number of times),
  then set %, then point ratio (points for / points against), then fewest points allowed.
* A criterion that splits a tie into smaller groups sends each still-tied group through the whole order
  again from the top (so head-to-head is counted among just the teams still tied). Teams tied on every
  criterion are listed by name. A team with nothing decided yet counts as even (a win % and set % of
  one half, a point ratio of one): above a team that has only lost, below one that has only won.
* Only regular-season (league) games count; playoff games do not change the standings.
* A forfeit (no show after the 10 minute grace of spec section 9, or a withdrawn team's game) counts
  as a 2-0 match with both sets 21-0 (``FORFEIT_SET``): the winner gets 2 sets and 42 points, the team
  that forfeited none; the standings show the forfeits apart.
* An adjustment changes matches won and lost only (sets and points stay what the games say).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from typing import TypedDict

from sqlmodel import Session, col, select

from volley_app.models import Game, GameType, League, Ranking, StandingAdjustment, Team
from volley_app.services.core import audit, timefmt, validation
from volley_app.services.core.actors import Actor, require_actor
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import leagues, scoring
from volley_app.services.seasons.leagues import access_league

REASON_REQUIRED = "Say why the record is corrected"

FORFEIT_SET = (21, 0)
"""The score of each of the two sets a forfeit counts as (sets to 21, spec section 9)."""


def _quotient(a: int, b: int) -> tuple[bool, Fraction]:
    """a / b as a sortable key; anything over nothing ranks above every finite quotient, and nothing
    over nothing (no games yet) counts as even, 1."""
    return (b == 0 and a > 0, Fraction(a, b) if b else Fraction(1 if a == 0 else 0))


def _share(won: int, lost: int) -> Fraction:
    """won / (won + lost); a team with nothing decided yet counts as even, 1/2, between a win and a loss."""
    return Fraction(won, won + lost) if won + lost else Fraction(1, 2)


@dataclasses.dataclass
class Record:
    """A team's record: matches, sets and points from its decided league games, plus adjustments."""

    game_wins: int = 0
    game_losses: int = 0
    forfeit_wins: int = 0
    forfeit_losses: int = 0
    adj_wins: int = 0
    adj_losses: int = 0
    sets_won: int = 0
    sets_lost: int = 0
    points_for: int = 0
    points_against: int = 0
    match_points: int = 0
    reasons: list[str] = dataclasses.field(default_factory=list)

    @property
    def wins(self) -> int:
        return self.game_wins + self.adj_wins

    @property
    def losses(self) -> int:
        return self.game_losses + self.adj_losses

    @property
    def played(self) -> int:
        return self.game_wins + self.game_losses

    @property
    def win_pct(self) -> Fraction:
        return _share(self.wins, self.losses)

    @property
    def set_pct(self) -> Fraction:
        return _share(self.sets_won, self.sets_lost)

    @property
    def adjustment(self) -> str:
        """'+1 W, -1 L' (empty when the games alone make the record)."""
        parts = [f"{n:+d} {label}" for n, label in ((self.adj_wins, "W"), (self.adj_losses, "L")) if n]
        return ", ".join(parts)


def sets_of(game: Game) -> list[tuple[int, int]]:
    """The sets of a decided game as (team 1, team 2) points; a forfeit as two 21-0 sets to the winner."""
    if game.forfeit_team_id is not None:
        won, lost = FORFEIT_SET
        return [(lost, won)] * 2 if game.forfeit_team_id == game.team1_id else [(won, lost)] * 2
    return [
        (a, b)
        for a, b in ((getattr(game, f1), getattr(game, f2)) for f1, f2 in scoring.SCORE_FIELDS)
        if a is not None and b is not None
    ]


def match_points(sets_won: int, sets_lost: int) -> int:
    """FIVB match points in a best of three: 3 for a 2-0 win, 2 for 2-1, 1 for losing 1-2, 0 for 0-2."""
    if sets_won > sets_lost:
        return 3 if sets_lost == 0 else 2
    return 1 if sets_won == 1 else 0


def _league_games(db: Session, ids: set[int]) -> list[Game]:
    return list(
        db.exec(
            select(Game).where(
                (col(Game.team1_id).in_(ids)) | (col(Game.team2_id).in_(ids)),
                col(Game.team2_id).is_not(None),
                Game.type == GameType.LEAGUE,
            )
        ).all()
    )


def records(db: Session, team_ids: Iterable[int], games: Sequence[Game] | None = None) -> dict[int, Record]:
    """Every listed team's record, read in two queries whatever the number of teams."""
    ids = set(team_ids)
    out = {i: Record() for i in ids}
    if not ids:
        return out
    for game in _league_games(db, ids) if games is None else games:
        winner = scoring.result(game)
        if winner is None:
            continue
        sets = sets_of(game)
        for side, team_id in ((1, game.team1_id), (2, game.team2_id)):
            rec = out.get(team_id) if team_id is not None else None
            if rec is None:
                continue
            mine = [s[side - 1] for s in sets]
            theirs = [s[2 - side] for s in sets]
            won = sum(1 for a, b in zip(mine, theirs, strict=True) if a > b)
            rec.sets_won += won
            rec.sets_lost += len(sets) - won
            rec.points_for += sum(mine)
            rec.points_against += sum(theirs)
            rec.match_points += match_points(won, len(sets) - won)
            forfeit = game.forfeit_team_id is not None
            if winner == side:
                rec.game_wins += 1
                rec.forfeit_wins += forfeit
            else:
                rec.game_losses += 1
                rec.forfeit_losses += forfeit
    for adj in db.exec(
        select(StandingAdjustment).where(col(StandingAdjustment.team_id).in_(ids)).order_by(col(StandingAdjustment.id))
    ).all():
        rec = out[adj.team_id]
        rec.adj_wins += adj.wins
        rec.adj_losses += adj.losses
        rec.reasons.append(adj.reason)
    return out


# --- ranking orders -------------------------------------------------------------------------

HEAD_TO_HEAD = "head-to-head"
Level = Fraction | int | tuple[bool, Fraction]
"""What a criterion gives a team: higher is better."""
Key = Callable[[Record], Level]

_CRITERIA: dict[str, Key] = {
    "match win %": lambda r: r.win_pct,
    "matches won": lambda r: r.wins,
    "match points": lambda r: r.match_points,
    "set %": lambda r: r.set_pct,
    "set ratio": lambda r: _quotient(r.sets_won, r.sets_lost),
    "point ratio": lambda r: _quotient(r.points_for, r.points_against),
    "point differential": lambda r: r.points_for - r.points_against,
    "fewest points allowed": lambda r: -r.points_against,
    "most points scored": lambda r: r.points_for,
}

RANKINGS: dict[Ranking, tuple[str, tuple[str, ...]]] = {
    Ranking.STANDARD: (
        "Standard: match win %, head-to-head, set %, point ratio",
        ("match win %", HEAD_TO_HEAD, "set %", "point ratio", "fewest points allowed"),
    ),
    Ranking.FIVB: (
        "FIVB: matches won, match points, set ratio, point ratio, head-to-head",
        ("matches won", "match points", "set ratio", "point ratio", HEAD_TO_HEAD),
    ),
    Ranking.SET_PERCENT: (
        "Set %: set win %, point differential, points allowed, points scored, head-to-head",
        ("set %", "point differential", "fewest points allowed", "most points scored", HEAD_TO_HEAD),
    ),
}
"""Each choice: its label on the league form, and the criteria in order (higher is better)."""

RANKING_CHOICES = [(r.value, label) for r, (label, _c) in RANKINGS.items()]

_EXPLAIN = {
    "match win %": "match win percentage (matches won / matches played, adjustments included)",
    "matches won": "matches won (adjustments included)",
    "match points": "match points (3 for a 2-0 win, 2 for a 2-1 win, 1 for a 1-2 loss)",
    "set %": "set percentage (sets won / sets played)",
    "set ratio": "set ratio (sets won / sets lost)",
    "point ratio": "point ratio (points for / points against)",
    "point differential": "point differential (points for minus points against)",
    "fewest points allowed": "fewest points allowed",
    "most points scored": "most points scored",
    HEAD_TO_HEAD: "head-to-head: matches won among the tied teams, used only when each of them met each other "
    "the same number of times",
}


def explain(ranking: Ranking) -> list[str]:
    """The lines of "How standings are calculated" for a ranking order."""
    _label, order = RANKINGS[ranking]
    steps = [f"{i + 1}. {_EXPLAIN[c][0].upper()}{_EXPLAIN[c][1:]}" for i, c in enumerate(order)]
    return [
        *steps,
        "Teams still tied after a step go through the whole order again among themselves; teams tied on "
        "everything are listed by name.",
        f"A forfeit counts as a 2-0 match, both sets {FORFEIT_SET[0]}-{FORFEIT_SET[1]}. Adjustments change "
        "matches won and lost only. Playoff games do not count.",
        "A team with no result yet counts as even: above a team that has only lost, below one that has only won.",
    ]


def _head_to_head(group: Sequence[int], games: Sequence[Game]) -> dict[int, int] | None:
    """Matches won among ``group`` when every pair of them met equally often (at least once), else None."""
    members = set(group)
    meetings: dict[frozenset, int] = defaultdict(int)
    wins = dict.fromkeys(group, 0)
    for g in games:
        if g.team1_id in members and g.team2_id in members and g.team1_id != g.team2_id:
            winner = scoring.result(g)
            if winner is None:
                continue
            meetings[frozenset((g.team1_id, g.team2_id))] += 1
            wins[g.team1_id if winner == 1 else g.team2_id] += 1
    pairs = len(members) * (len(members) - 1) // 2
    counts = set(meetings.values())
    if len(meetings) != pairs or len(counts) != 1:
        return None
    return wins


def rank(
    team_ids: Sequence[int],
    recs: dict[int, Record],
    games: Sequence[Game],
    order: Sequence[str],
    names: dict[int, str],
) -> tuple[list[int], dict[int, str]]:
    """The teams in standings order, and for each team whose tie a step broke, that step's name."""  # fmt: skip
    broken: dict[int, str] = {}

    def by_name(group: Sequence[int]) -> list[int]:
        return sorted(group, key=lambda t: (names.get(t, "").lower(), t))

    def place(group: Sequence[int], step: int, tied: bool) -> list[int]:
        if len(group) <= 1:
            return list(group)
        if step >= len(order):
            return by_name(group)
        criterion = order[step]
        if criterion == HEAD_TO_HEAD:
            h2h = _head_to_head(group, games)
            if h2h is None:
                return place(group, step + 1, tied)
            keys: dict[int, Level] = dict(h2h)
        else:
            keys = {t: _CRITERIA[criterion](recs[t]) for t in group}
        levels = sorted(set(keys.values()), reverse=True)
        if len(levels) == 1:
            return place(group, step + 1, tied)
        if tied or step > 0:
            for t in group:
                broken[t] = criterion
        out: list[int] = []
        for level in levels:
            out += place([t for t in group if keys[t] == level], 0, True)
        return out

    return place(list(team_ids), 0, False), broken


def record_of(db: Session, team: Team) -> Record:
    assert team.id is not None  # a stored team
    return records(db, [team.id])[team.id]


def correct(db: Session, actor: Actor | None, team: Team, *, wins: object, losses: object, reason: object) -> bool:
    """Make the team's shown record ``wins``-``losses`` by an adjustment with a reason (its league's SVL
    or an admin; the caller has checked that). Returns False when the record already is that."""
    actor = require_actor(actor)
    assert team.id is not None  # a stored team
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


def _pct(x: Fraction) -> str:
    return f"{float(x) * 100:.1f}%"


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else ("all" if a else "-")


class StandingRow(TypedDict):
    """A team's line of the standings."""

    id: int
    rank: int
    team_name: str
    played: int
    wins: int
    losses: int
    win_pct: str
    sets_won: int
    sets_lost: int
    set_pct: str
    points_for: int
    points_against: int
    point_ratio: str
    match_points: int
    forfeits: int
    forfeit_wins: int
    adjustment: str
    reasons: str
    withdrawn: bool
    tiebreak: str


def note_of(t: StandingRow) -> str:
    """A standings row's notes: forfeits, adjustments and the step that broke a tie."""
    return "; ".join(x for x in (
        timefmt.plural(t["forfeits"], "forfeit") if t["forfeits"] else "",
        f"won {t['forfeit_wins']} by forfeit" if t["forfeit_wins"] else "",
        f"Adjusted {t['adjustment']}: {t['reasons']}" if t["adjustment"] else "",
        f"tie broken by {t['tiebreak']}" if t["tiebreak"] else "",
    ) if x)  # fmt: skip


class Standings(TypedDict):
    """A league's standings, with its ranking order and how it is calculated."""

    league: leagues.LeagueDetail
    teams: list[StandingRow]
    ranking: str
    how: list[str]


def table(db: Session, league: League) -> list[StandingRow]:
    """The league's teams (waitlisted ones aside) in its ranking order, with their matches, sets and points.

    Each record is what the games say plus any adjustment, shown as such; a withdrawn team stays with
    its played games and is marked; ``tiebreak`` names the step that broke a team's tie.
    """
    teams = db.exec(select(Team).where(Team.league_id == league.id, col(Team.waitlist).is_(False))).all()
    by_id = {t.id: t for t in teams if t.id is not None}
    ids = set(by_id)
    games = _league_games(db, ids) if ids else []
    recs = records(db, ids, games)
    names = {i: t.team_name for i, t in by_id.items()}
    order, broken = rank(sorted(ids), recs, games, RANKINGS[league.ranking][1], names)
    rows: list[StandingRow] = []
    for place, team_id in enumerate(order, start=1):
        t, r = by_id[team_id], recs[team_id]
        rows.append({
            "id": team_id, "rank": place, "team_name": t.team_name, "played": r.played, "wins": r.wins,
            "losses": r.losses, "win_pct": _pct(r.win_pct) if r.wins + r.losses else "-", "sets_won": r.sets_won, "sets_lost": r.sets_lost,
            "set_pct": _pct(r.set_pct) if r.sets_won + r.sets_lost else "-", "points_for": r.points_for, "points_against": r.points_against,
            "point_ratio": _ratio(r.points_for, r.points_against), "match_points": r.match_points,
            "forfeits": r.forfeit_losses, "forfeit_wins": r.forfeit_wins, "adjustment": r.adjustment,
            "reasons": "; ".join(r.reasons), "withdrawn": t.withdrawn_at is not None,
            "tiebreak": broken.get(team_id, ""),
        })  # fmt: skip
    return rows


def standings(db: Session, actor: Actor | None, league_id: object) -> Standings:
    """The league's standings for anyone who may read the league, with how they are calculated."""
    require_actor(actor)
    info = leagues.get_league(db, actor, league_id)
    league = access_league(db, actor, info["id"])
    return {
        "league": info,
        "teams": table(db, league),
        "ranking": RANKINGS[league.ranking][0],
        "how": explain(league.ranking),
    }
