"""One game at a time: its edit form, a change (teams, time, court, scores within volleyball's caps, spec
section 9, by the rules in ``scoring``), a move, adding one and taking an unplayed one off. Both captains are
told and each change is audited."""

from __future__ import annotations

from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Game, GameType, League, ScoreReport, Team
from volley_app.services.core import audit, timefmt
from volley_app.services.core.actors import Actor, load, require_actor
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import clashes, leagues, schedule, scheduling, scoring
from volley_app.services.seasons.leagues import access_game, access_league

MOVE_FIELDS = ("start_at", "court", "sequence")
GAME_FIELDS = ("team1_id", "team2_id", "start_at", "court", "forfeit_team_id", *(f for pair in scoring.SCORE_FIELDS for f in pair))
PLAYOFF_RESULTS = "Enter a playoff game's result or forfeit on the bracket page, where the winner moves on"
RESULTS_KEPT = "This game has a result (a score or a forfeit): results are never deleted."
REPORTED_KEPT = "A captain has reported a score for this game: answer the report instead of deleting the game."
ALREADY_ON_SCHEDULE = "This game is already on the schedule."


class TeamChoice(TypedDict):
    id: int
    name: str


class GameForm(schedule.GameRow):
    """A game for its edit form, with the league's teams and courts to choose from."""

    teams: list[TeamChoice]
    courts: list[str]
    zone: str
    sets_rule: str


def _league(db: Session, game: Game) -> League:
    return load(db, League, game.league_id, leagues.LEAGUE_NOT_FOUND)


def get_game(db: Session, actor: Actor | None, game_id: object) -> GameForm:
    """A game for its edit form (the league's SVL or an admin), with the league's teams to choose from."""
    game = access_game(db, actor, game_id, manage=True)
    names = schedule.team_names(db, game.league_id)
    league = _league(db, game)
    return {
        **schedule.game_dict(game, names),
        "teams": [{"id": i, "name": n} for i, n in sorted(names.items())],
        "courts": leagues.court_names(league),
        "zone": leagues.zone(db, league),
        "sets_rule": scoring.sets_rule(league if game.type == GameType.LEAGUE else None),
    }


def _two_teams(team1: object, team2: object, ids: set[int], unknown: str) -> tuple[int, int | None]:
    """A game's two teams from a form: ids among ``ids``; team 2 may be BYE (None); never the same team."""

    def team(value: object, field: str, label: str, bye_ok: bool) -> int | None:
        text = str(value).strip() if value is not None and not isinstance(value, bool | dict | list) else ""
        if not text:
            raise Invalid({field: f"{label} is required"})
        if bye_ok and text.lower() == "bye":
            return None
        try:
            number = int(text)
        except ValueError:
            number = -1
        if number not in ids:
            raise Invalid({field: unknown.format(label=label)})
        return number

    t1 = team(team1, "team1", "Team 1", False)
    assert t1 is not None  # team 1 is never a BYE
    t2 = team(team2, "team2", "Team 2", True)
    if t1 == t2:
        raise Invalid({"team2": "A team cannot play itself"})
    return t1, t2


def update_game(
    db: Session, actor: Actor | None, game_id: object, *, team1: object, team2: object, start: object, **scores
) -> Game:
    """Edit a game (the league's SVL or an admin). Records follow, as they come from the results."""
    game = access_game(db, actor, game_id, manage=True)
    actor = require_actor(actor)
    league = _league(db, game)
    zone = leagues.zone(db, league)
    before = audit.snapshot(game, GAME_FIELDS)
    was = _where(game, zone)
    before_teams = (game.team1_id, game.team2_id)
    court = pick_court(league, scores.pop("court", None), game.court)
    ids = {t.id for t in db.exec(select(Team).where(Team.league_id == game.league_id)).all() if t.id is not None}

    t1, t2 = _two_teams(team1, team2, ids, "Choose a team of this league for {label}")
    start_at = timefmt.parse_local(start, "start", "Date and time", zone)
    clean = scoring.league_scores(league if game.type == GameType.LEAGUE else None, scores)
    if t2 is None and any(v is not None for v in clean.values()):
        raise Invalid({"team2": "A BYE has no scores"})
    if scoring.played(game) and not any(v is not None for v in clean.values()) and (
        game.forfeit_team_id is None or game.forfeit_team_id not in (t1, t2)
    ):
        raise Invalid({"team1_game1_score": scoring.RESULT_KEPT})  # clearing a result would make the game deletable
    court = court if t2 is not None else None
    if game.type == GameType.TOURNAMENT and (
        (t1, t2) != before_teams or any(getattr(game, k) != v for k, v in clean.items())
    ):
        raise Invalid({"team1_game1_score": PLAYOFF_RESULTS})
    moved = (game.team1_id, game.team2_id, game.start_at, game.court) != (t1, t2, start_at, court)
    if moved:
        clashes.refuse_clash(db, league, zone, game_id=game.id, team1=t1, team2=t2, start_at=start_at, court=court)
        game.sequence += 1  # calendars replace the event
    game.team1_id, game.team2_id, game.start_at, game.court = t1, t2, start_at, court
    if any(v is not None for v in clean.values()) or game.forfeit_team_id not in (t1, t2):
        game.forfeit_team_id = None  # scores entered (or the forfeiting team replaced): played after all
    for key, value in clean.items():
        setattr(game, key, value)
    db.add(game)
    db.flush()
    names = schedule.team_names(db, game.league_id)
    audit.record_change(
        db, actor, entity="game", row=game, before=before, fields=GAME_FIELDS, league_id=game.league_id,
        summary=f"Game {schedule.label(names, t1, t2)} (week {game.round}) changed",
    )  # fmt: skip
    if scoring.played(game):  # the operator's score settles the captains' open reports
        score = f"{schedule.name(names, game.forfeit_team_id)} forfeited" if game.forfeit_team_id else schedule.game_dict(game, names)["sets"]
        scoring.settle_reports(db, actor, game, score=score)
    if moved:
        label = schedule.label(names, t1, t2)
        scheduling.tell_captains(
            db, {*before_teams, t1, t2}, "game_changed",
            {"game": label, "start": timefmt.date_time(game.start_at, zone, labelled=True), "now_where": _where(game, zone),
             "was": was}, league_id=game.league_id, kind="game_moved",
            text=f"{label} moved to {timefmt.date_time(game.start_at, zone, labelled=True)}",
        )  # fmt: skip
    return game


def _where(game: Game, zone: timefmt.Zone = None) -> str:
    return f"{timefmt.long(game.start_at, zone)}{f' on {game.court}' if game.court else ''}"


def pick_court(league: League, value: object, current: str | None) -> str | None:
    """One of the league's courts by name (any case); blank keeps ``current``."""
    text = " ".join(value.split()) if isinstance(value, str) else ""
    if not text:
        return current
    courts = leagues.court_names(league)
    by_name = {c.casefold(): c for c in courts}
    if text.casefold() not in by_name:
        raise Invalid({"court": f"Choose one of this league's courts: {', '.join(courts)}"})
    return by_name[text.casefold()]


def move_game(db: Session, actor: Actor | None, game_id: object, *, start: object, court: object = None) -> Game:
    """Move one game to another date, time or court (the league's SVL or an admin); both captains are told.

    A played game stays where it was played. The court is one of the league's (blank: the court it had).
    """
    game = access_game(db, actor, game_id, manage=True)
    league = _league(db, game)
    if scoring.played(game):
        raise Invalid("A played game stays where it was played.")
    zone = leagues.zone(db, league)
    start_at = timefmt.parse_local(start, "start", "Date and time", zone)
    new_court = pick_court(league, court, game.court)
    if (start_at, new_court) == (game.start_at, game.court):
        return game
    clashes.refuse_clash(db, league, zone, game_id=game.id, team1=game.team1_id, team2=game.team2_id,
                         start_at=start_at, court=new_court if game.team2_id is not None else None)  # fmt: skip
    before = audit.snapshot(game, MOVE_FIELDS)
    was = _where(game, zone)
    game.start_at, game.court = start_at, (new_court if game.team2_id is not None else None)
    game.sequence += 1
    db.add(game)
    db.flush()
    names = schedule.team_names(db, game.league_id)
    label = schedule.label(names, game.team1_id, game.team2_id)
    audit.record_change(
        db, actor, entity="game", row=game, before=before, fields=MOVE_FIELDS, league_id=game.league_id,
        summary=f"Game {label} (week {game.round}) moved to {_where(game, zone)}",
    )  # fmt: skip
    scheduling.tell_captains(
        db, (game.team1_id, game.team2_id), "game_moved",
        {"game": label, "start": timefmt.date_time(game.start_at, zone, labelled=True), "now_where": _where(game, zone),
         "was": was, "league": leagues.display_name(league)}, league_id=game.league_id,
        text=f"{label} moved to {timefmt.date_time(game.start_at, zone, labelled=True)}",
    )  # fmt: skip
    return game


def _game_type(value: object) -> GameType:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        return GameType.LEAGUE
    by_name = {t.value.casefold(): t for t in GameType}
    if text.casefold() not in by_name:
        raise Invalid({"type": f"Choose one of: {', '.join(t.value for t in GameType)}"})
    return by_name[text.casefold()]


def _position(value: object, field: str, label: str) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    try:
        number = int(str(value).strip()) if not isinstance(value, bool | float) else 0
    except ValueError:
        number = 0
    if not 1 <= number <= 200:
        raise Invalid({field: f"{label} must be a whole number from 1 to 200"})
    return number


def add_game(
    db: Session, actor: Actor | None, league_id: object, *, team1: object, team2: object, start: object,
    game_type: object = None, round_number: object = None, match: object = None, court: object = None,
) -> Game:
    """Add one game to a league's schedule (its SVL or an admin); both captains are told; audited.

    The teams are playing teams of the league (team 2 may be BYE). The round is the game's week unless
    given; the match is the next free one of its round unless given. The same game twice is refused.
    """
    league = access_league(db, actor, league_id, manage=True)
    assert league.id is not None  # a stored league
    if league.archived_at is not None:
        raise Invalid(leagues.ARCHIVED)
    ids = set(scheduling.playing_team_ids(db, league.id))

    t1, t2 = _two_teams(team1, team2, ids, "Choose a team playing in this league for {label}")
    zone = leagues.zone(db, league)
    start_at = timefmt.parse_local(start, "start", "Date and time", zone)
    kind = _game_type(game_type)
    week = _position(round_number, "round", "Round") or schedule.week_of(league.start_at, start_at, zone)
    number = _position(match, "match", "Match")
    chosen_court = pick_court(league, court, None) if t2 is not None else None
    same = db.exec(
        select(Game.id).where(Game.league_id == league.id, Game.team1_id == t1, Game.start_at == start_at,
                              col(Game.team2_id).is_(None) if t2 is None else col(Game.team2_id) == t2)
    ).first()  # fmt: skip
    if same is not None:
        raise Invalid({"start": ALREADY_ON_SCHEDULE})
    clashes.refuse_clash(db, league, zone, game_id=None, team1=t1, team2=t2, start_at=start_at, court=chosen_court)
    if number is None:
        last = db.exec(select(sa.func.max(Game.match)).where(Game.league_id == league.id, Game.round == week)).one()
        number = (last or 0) + 1
    game = Game(league_id=league.id, team1_id=t1, team2_id=t2, start_at=start_at, type=kind, round=week,
                match=number, court=chosen_court)  # fmt: skip
    db.add(game)
    db.flush()
    names = schedule.team_names(db, league.id)
    label = schedule.label(names, t1, t2)
    audit.record(
        db, actor, action="create", entity="game", entity_id=game.id, league_id=league.id,
        summary=f"Game {label} (week {week}) added to {leagues.display_name(league)} at {_where(game, zone)}",
        after=audit.snapshot(game, (*MOVE_FIELDS, "team1_id", "team2_id", "round", "match")),
    )  # fmt: skip
    scheduling.tell_captains(
        db, (t1, t2), "game_added",
        {"game": label, "start": timefmt.date_time(game.start_at, zone, labelled=True), "where": _where(game, zone),
         "league": leagues.display_name(league)}, league_id=league.id,
        text=f"{label} added: {timefmt.date_time(game.start_at, zone, labelled=True)}",
    )  # fmt: skip
    return game


def delete_game(db: Session, actor: Actor | None, game_id: object) -> str:
    """Take an unplayed game off the schedule (the league's SVL or an admin); both captains are told; audited.

    A game with a score or a forfeit is part of the record and is refused.
    """
    game = access_game(db, actor, game_id, manage=True)
    if scoring.played(game):
        raise Invalid(RESULTS_KEPT)
    if db.exec(select(ScoreReport.id).where(ScoreReport.game_id == game.id)).first() is not None:
        raise Invalid(REPORTED_KEPT)
    league = _league(db, game)
    names = schedule.team_names(db, game.league_id)
    label = schedule.label(names, game.team1_id, game.team2_id)
    was = _where(game, leagues.zone(db, league))
    before = audit.snapshot(game, (*MOVE_FIELDS, "team1_id", "team2_id", "round", "match"))
    teams_told = (game.team1_id, game.team2_id)
    gid, league_id = game.id, game.league_id
    db.delete(game)
    db.flush()
    audit.record(
        db, actor, action="delete", entity="game", entity_id=gid, league_id=league_id, before=before,
        summary=f"Game {label} (week {before['round']}) at {was} taken off the schedule of {leagues.display_name(league)}",
    )  # fmt: skip
    scheduling.tell_captains(db, teams_told, "game_cancelled",
                             {"game": label, "was": was, "league": leagues.display_name(league)},
                             league_id=league_id, text=f"{label} cancelled (was {was})")  # fmt: skip
    return "Game deleted."
