"""Playoffs generated from the standings: a single-elimination bracket, best of three (spec section 9).

The rules, in one place:

* The operator (the league's SVL or an admin) generates the bracket once. The teams in play (not
  withdrawn, not waitlisted) are seeded by the standings, seed 1 first.
* The bracket has the next power of two of places; the places left over are byes, which go to the top
  seeds (they start in round 2). Round 1 pairs 1 v N, 2 v N-1, ... in the standard order, placed so that
  seeds 1 and 2 can meet only in the final (and 1-4, 2-3 only in the semifinals).
* Every game of every round is made at once (later rounds with their teams to be decided), in the
  tournament week (the week after the regular weeks), from the league's start time, round after round.
  A round's games fill the league's courts as the round robin does (``scheduling.placements``): with
  two courts, two games at a time, the next two one time increment later; the next round starts one
  increment after the round before it.
* The bracket's games keep clear of every other game at the venue: one on a court and time another game
  holds (of this league or another league of the venue, whose courts they share) is refused, naming it.
* A result is a best of three within the section 9 caps, entered (score or no-show) once the game has
  started, never ahead of it. Entering it puts the winner in its place in
  the next round. A result may be corrected while the next-round game it feeds has no score; once that
  game has a score, a correction is refused (correct the later game first). A correction that changes
  the winner puts the new winner in the next round.
* A forfeit (the team that did not show) decides a game as a score does: the other team moves on, under
  the same correction rule.
* A team withdrawn during the playoffs (``teams.withdraw_team``) forfeits its game still to play,
  whatever the operator chose for its league games (a bracket game is never removed): a known opponent
  moves on at once; an opponent still to be decided moves on as soon as it is placed in the game. Games
  already played keep their results.
"""

from __future__ import annotations

import datetime as dt
import math
from typing import TypedDict

from sqlmodel import Session, col, select

from volley_app.models import Game, GameType, PlayoffSeed, utcnow
from volley_app.services.core import audit
from volley_app.services.core.actors import Actor, require_actor
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import clashes, games, leagues, results, schedule, scheduling, scoring
from volley_app.services.seasons.leagues import access_game, access_league

ALREADY = "The playoff bracket for this league has already been generated."
TOO_FEW = "A playoff bracket needs at least 2 teams in play."
NOT_PLAYOFF = "This is not a playoff game."
NOT_READY = "Both teams of this game are not known yet."
NEXT_STARTED = "The next round's game already has a score: correct that game first."
NO_WINNER = scoring.NO_WINNER
NOT_STARTED = "This game has not started yet: its result is entered once it has been played."
NOT_IN_GAME = "Choose one of the two teams of this game."
CLEAR_THE_WAY = "Move the game that is in the way, or choose other courts for this league."


def seeding_order(size: int) -> list[int]:
    """The seeds in bracket order for ``size`` places (a power of two): 8 -> [1, 8, 4, 5, 2, 7, 3, 6]."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


def rounds_for(teams: int) -> int:
    return max(1, math.ceil(math.log2(teams))) if teams > 1 else 0


def round_name(round_no: int, rounds: int) -> str:
    left = rounds - round_no
    return {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(left, f"Round {round_no}")


def _games(db: Session, league_id: int) -> list[Game]:
    return list(
        db.exec(
            select(Game)
            .where(Game.league_id == league_id, Game.type == GameType.TOURNAMENT)
            .order_by(col(Game.round), col(Game.match))
        ).all()
    )


def unplayed_regular(db: Session, league_id: int) -> int:
    """How many of the league's regular-season games (BYEs aside) have no result yet."""
    games = db.exec(
        select(Game).where(Game.league_id == league_id, Game.type == GameType.LEAGUE, col(Game.team2_id).is_not(None))
    ).all()
    return sum(1 for g in games if not scoring.played(g))


def early_question(unplayed: int) -> str:
    """What the operator is asked before a bracket is generated while regular-season games wait for results."""
    if not unplayed:
        return ""
    games = "1 regular-season game has" if unplayed == 1 else f"{unplayed} regular-season games have"
    return (f"{games} no result yet. The bracket is seeded by the standings as they are now, and is not "
            "drawn again when those results come in. Generate it anyway?")  # fmt: skip


def generate(db: Session, actor: Actor | None, league_id: object, *, early: object = False) -> int:
    """Make the bracket from the standings (the league's SVL or an admin). Returns how many games were made.

    While regular-season games have no result, the operator is asked first: refused unless ``early`` is true.
    """
    league = leagues.changeable(db, actor, league_id)
    assert league.id is not None  # a stored league
    if _games(db, league.id):
        raise Invalid(ALREADY)
    if early is not True and (question := early_question(unplayed_regular(db, league.id))):
        raise Invalid(question)
    playing = set(scheduling.playing_team_ids(db, league.id))
    seeds = [row["id"] for row in results.table(db, league) if row["id"] in playing]
    if len(seeds) < 2:
        raise Invalid(TOO_FEW)
    rounds = rounds_for(len(seeds))
    size = 2**rounds
    order = seeding_order(size)
    team_of = dict(enumerate(seeds, start=1))
    for number, team_id in team_of.items():
        db.add(PlayoffSeed(league_id=league.id, team_id=team_id, seed=number))
    made: dict[tuple[int, int], Game] = {}
    byes: list[tuple[int, int]] = []  # (round 1 match, seed with the bye)
    courts = leagues.court_names(league)
    zone = leagues.zone(db, league)
    first_slot = 0
    for round_no in range(1, rounds + 1):
        games: list[Game] = []
        for match in range(1, size // 2**round_no + 1):
            game = Game(league_id=league.id, type=GameType.TOURNAMENT, round=round_no, match=match)
            if round_no == 1:
                high, low = order[2 * match - 2], order[2 * match - 1]
                if low > len(seeds):
                    byes.append((match, high))
                    continue
                game.team1_id, game.team2_id = team_of[high], team_of[low]
            games.append(game)
        places = scheduling.placements([(g.match, g.match) for g in games], courts)
        for game, (at, court) in zip(games, places, strict=True):
            game.court = court
            game.start_at = scheduling.slot(
                league.start_at, league.number_of_weeks, first_slot + at, league.time_increment, zone
            )
            made[(game.round, game.match)] = game
            db.add(game)
        first_slot += max((at for at, _court in places), default=-1) + 1
    for match, seed in byes:
        _set_side(made[(2, (match + 1) // 2)], match, team_of[seed])
    db.flush()
    if found := clashes.clashes_in(db, league, list(made.values())):
        raise Invalid(f"The bracket would put two games together: {found} {CLEAR_THE_WAY}")
    names = schedule.team_names(db, league.id)
    audit.record(
        db, actor, action="generate", entity="bracket", entity_id=league.id, league_id=league.id,
        summary=f"Playoff bracket generated for {leagues.display_name(league)}: {len(seeds)} teams, {len(made)} games",
        after={"seeds": [f"{n}. {names[t]}" for n, t in team_of.items()]},
    )  # fmt: skip
    return len(made)


def _set_side(game: Game, feeder_match: int, team_id: int | None) -> None:
    """Put a team in the place the feeder game's winner takes: team 1 from an odd match, team 2 from an even."""
    if feeder_match % 2:
        game.team1_id = team_id
    else:
        game.team2_id = team_id


def _game_at(db: Session, league_id: int, round_no: int, match: int) -> Game | None:
    return db.exec(
        select(Game).where(
            Game.league_id == league_id, Game.type == GameType.TOURNAMENT, Game.round == round_no, Game.match == match
        )
    ).first()


def next_game(db: Session, game: Game) -> Game | None:
    """The game the winner of ``game`` plays next (None after the final)."""
    return _game_at(db, game.league_id, game.round + 1, (game.match + 1) // 2)


def _decided(game: Game) -> bool:
    """A game whose result stands: a score, or a forfeit with both teams known (a withdrawn team's forfeit
    waiting for its opponent is not decided yet)."""
    return scoring.played(game) and game.team1_id is not None and game.team2_id is not None


def _following(db: Session, game: Game) -> Game | None:
    """The next game, when ``game``'s result may still change: both teams known and the next game undecided."""
    if game.team1_id is None or game.team2_id is None:
        raise Invalid(NOT_READY)
    following = next_game(db, game)
    if following is not None and _decided(following):
        raise Invalid(NEXT_STARTED)
    return following


def _advance(db: Session, game: Game, following: Game | None) -> None:
    """Put ``game``'s winner in its place in the next game; a next game its other team forfeited by
    withdrawing is then decided too, and its winner moves on in turn."""
    db.add(game)
    if following is None:
        db.flush()
        return
    winner = scoring.result(game)
    _set_side(following, game.match, game.team1_id if winner == 1 else game.team2_id)
    db.add(following)
    db.flush()
    if following.forfeit_team_id is not None and following.team1_id is not None and following.team2_id is not None:
        _advance(db, following, next_game(db, following))


def apply_result(db: Session, game: Game, clean: dict[str, int | None]) -> Game | None:
    """Store a checked best-of-three score on a playoff game and put its winner in the next round.

    Refused when the next game already has a score. Returns the next game (None after the final).
    The caller checked who may do this and records it in the audit log.
    """
    _started(game)
    following = _following(db, game)
    sets = scoring.winners_by_set([(clean[f1], clean[f2]) for f1, f2 in scoring.SCORE_FIELDS])
    if max(sets.count(1), sets.count(2)) < 2:
        raise Invalid({"set2": NO_WINNER})
    for key, value in clean.items():
        setattr(game, key, value)
    game.forfeit_team_id = None
    _advance(db, game, following)
    return following


def _started(game: Game, now: dt.datetime | None = None) -> None:
    """A result (score or no-show) is entered once the game has started, never ahead of it."""
    if game.start_at > (now or utcnow()):
        raise Invalid(NOT_STARTED)


def apply_forfeit(db: Session, game: Game, team_id: int) -> Game | None:
    """``team_id`` did not play ``game`` (a playoff game): the other team wins and moves on, as a score would.
    Same correction rule as a score. Returns the next game. The caller checked who may do this and audits it."""
    following = _following(db, game)
    if team_id not in (game.team1_id, game.team2_id):
        raise Invalid({"team": NOT_IN_GAME})
    for key in (f for pair in scoring.SCORE_FIELDS for f in pair):
        setattr(game, key, None)
    game.forfeit_team_id = team_id
    _advance(db, game, following)
    return following


def withdraw_from_bracket(db: Session, team_id: int) -> int:
    """A team withdrawn during the playoffs forfeits its game still to play (how many: 0 or 1). Known opponent:
    it wins now and moves on. Opponent still to be decided: the game waits, forfeited, and whoever arrives
    moves on at once. The caller (``teams.withdraw_team``) checked who may do this and audits it."""
    games = scoring.unplayed_games(db, team_id, GameType.TOURNAMENT)
    for game in games:
        if game.team1_id is None or game.team2_id is None:
            game.forfeit_team_id = team_id
            db.add(game)
            db.flush()
        else:
            apply_forfeit(db, game, team_id)
    return len(games)


def record_forfeit(db: Session, actor: Actor | None, game_id: object, *, team: object) -> Game:
    """Record that ``team`` did not show for a playoff game (the league's SVL or an admin): the other team
    moves on. Audited; open score reports of the game are settled."""
    game = access_game(db, actor, game_id, manage=True)
    leagues.changeable(db, actor, game.league_id)
    if game.type != GameType.TOURNAMENT:
        raise Invalid(NOT_PLAYOFF)
    try:
        team_id = int(str(team).strip())
    except ValueError:
        team_id = -1
    _started(game)
    before = audit.snapshot(game, games.GAME_FIELDS)
    apply_forfeit(db, game, team_id)
    names = schedule.team_names(db, game.league_id)
    label = f"{schedule.name(names, game.team1_id)} v {schedule.name(names, game.team2_id)}"
    audit.record_change(
        db, actor, entity="game", row=game, before=before, fields=games.GAME_FIELDS, league_id=game.league_id,
        summary=f"Playoff game {label}: {names.get(team_id, '')} forfeited",
    )  # fmt: skip
    scoring.settle_reports(db, require_actor(actor), game, score=f"{names.get(team_id, '')} forfeited")
    return game


def record_result(db: Session, actor: Actor | None, game_id: object, **scores) -> Game:
    """Enter or correct a playoff game's score (the league's SVL or an admin); the winner moves on. Audited."""
    game = access_game(db, actor, game_id, manage=True)
    leagues.changeable(db, actor, game.league_id)
    if game.type != GameType.TOURNAMENT:
        raise Invalid(NOT_PLAYOFF)
    before = audit.snapshot(game, games.GAME_FIELDS)
    clean = scoring.clean_scores(scores, required=True)
    apply_result(db, game, clean)
    names = schedule.team_names(db, game.league_id)
    winner = schedule.name(names, game.team1_id if scoring.result(game) == 1 else game.team2_id)
    audit.record_change(
        db, actor, entity="game", row=game, before=before, fields=games.GAME_FIELDS, league_id=game.league_id,
        summary=f"Playoff result {schedule.name(names, game.team1_id)} v {schedule.name(names, game.team2_id)}: {winner} wins",
    )  # fmt: skip
    return game


class BracketGame(schedule.GameRow):
    """A playoff game as the bracket shows it: each team with its seed, the winner (1 or 2; 0 while undecided),
    and whether the operator may enter its result."""

    winner: int
    can_enter: bool


class BracketRound(TypedDict):
    round: int
    name: str
    games: list[BracketGame]


class Bracket(TypedDict):
    """A league's playoff bracket: its rounds, its champion, the seeds with a bye, and what the operator may do."""

    league: leagues.LeagueDetail
    generated: bool
    rounds: list[BracketRound]
    champion: str
    can_generate: bool
    can_manage: bool
    early_question: str
    byes: list[str]


def bracket(db: Session, actor: Actor | None, league_id: object) -> Bracket:
    """The generated bracket for anyone who may read the league: rounds of games with seeds, and the champion."""
    league = access_league(db, actor, league_id)
    assert league.id is not None  # a stored league
    games = _games(db, league.id)
    names = schedule.team_names(db, league.id)
    seeds = {s.team_id: s.seed for s in db.exec(select(PlayoffSeed).where(PlayoffSeed.league_id == league.id)).all()}
    rounds = max((g.round for g in games), default=0)
    manage = leagues.may_manage(actor, league) and league.archived_at is None

    def side(team_id: int | None) -> str:
        return f"({seeds.get(team_id, '')}) {names.get(team_id, '')}" if team_id is not None else "To be decided"

    out: list[BracketRound] = []
    for round_no in range(1, rounds + 1):
        shown: list[BracketGame] = []
        for g in (g for g in games if g.round == round_no):
            winner = scoring.result(g) if _decided(g) else None
            following = next_game(db, g)
            ready = g.team1_id is not None and g.team2_id is not None
            shown.append({
                **schedule.game_dict(g, names), "team1": side(g.team1_id), "team2": side(g.team2_id),
                "winner": winner or 0, "can_enter": manage and ready
                and not (following is not None and _decided(following)),
                "forfeit": schedule.name(names, g.forfeit_team_id) if g.forfeit_team_id else "",
            })  # fmt: skip
        out.append({"round": round_no, "name": round_name(round_no, rounds), "games": shown})
    final = next((g for g in games if g.round == rounds), None)
    champion = ""
    if final is not None and _decided(final):
        champion = schedule.name(names, final.team1_id if scoring.result(final) == 1 else final.team2_id)
    byes = sorted(
        (s, t)
        for t, s in seeds.items()
        if t not in {x for g in games if g.round == 1 for x in (g.team1_id, g.team2_id)}
    )
    return {
        "league": leagues.get_league(db, actor, league.id), "generated": bool(games), "rounds": out,
        "champion": champion, "can_generate": manage and not games, "can_manage": manage,
        "early_question": early_question(unplayed_regular(db, league.id)) if manage and not games else "",
        "byes": [f"({s}) {names.get(t, '')}" for s, t in byes],
    }  # fmt: skip


def generated(db: Session, actor: Actor | None, league_id: object) -> bool:
    """Whether the league has a generated bracket, for anyone who may read the league."""
    league = access_league(db, actor, league_id)
    return bool(db.exec(select(Game.id).where(Game.league_id == league.id, Game.type == GameType.TOURNAMENT)).first())
