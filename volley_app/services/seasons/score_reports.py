"""Captains report scores: one captain of a game enters its score once it has started, the other captain
confirms or disputes it; a confirmed score counts; a disputed one waits for the operator, who can always
enter or correct any score. Every step is audited and emails the other party.

The rules, in one place:

* Only the captains of the game's two teams report or answer; the league's SVL or an admin settles.
* A report needs the game to have started, both teams known, no score on the game yet, and a complete
  result by the league's rules within the caps of section 9 (``scoring.clean_scores``).
* While a report waits, the reporting captain may replace it; the other captain confirms or disputes it.
* Confirming puts the score on the game (a playoff game's winner moves on, ``playoffs.apply_result``).
* The operator's entry settles every open or disputed report of the game, on the score page or the game
  edit form alike (``scoring.settle_reports``).
"""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import Game, GameType, League, ReportStatus, ScoreReport, Team, User, utcnow
from volley_app.services.core import audit, timefmt, validation
from volley_app.services.core.actors import Actor, load, require_actor
from volley_app.services.core.errors import Forbidden, Invalid, NotFound
from volley_app.services.mail import mail, notices
from volley_app.services.seasons import games, leagues, player_teams, playoffs, scoring
from volley_app.services.seasons.leagues import access_game, may_manage_league

NOT_STARTED = "A score can be reported once the game has started."
HAS_SCORE = "This game already has a score. The league's operator can correct it."
OTHER_WAITING = "The other captain reported a score: confirm or dispute it."
IN_DISPUTE = "This score is disputed: the league's operator decides it."
OWN_REPORT = "The other team's captain answers your report."
NO_WINNER = scoring.NO_WINNER
REPORT_NOT_FOUND = "Score report not found"
SCORE_KEYS = tuple(f for pair in scoring.SCORE_FIELDS for f in pair)
OPEN = scoring.OPEN


def _teams(db: Session, game: Game) -> tuple[Team | None, Team | None]:
    return (
        db.get(Team, game.team1_id) if game.team1_id else None,
        db.get(Team, game.team2_id) if game.team2_id else None,
    )


def _captain_side(db: Session, actor: Actor, game: Game) -> tuple[Team, Team]:
    """(the actor's team, the other team) when the actor captains one of the game's teams, else Forbidden."""
    t1, t2 = _teams(db, game)
    if t1 is not None and t2 is not None:
        if t1.captain_id == actor.user_id:
            return t1, t2
        if t2.captain_id == actor.user_id:
            return t2, t1
    raise Forbidden()


def _not_archived(db: Session, league_id: int) -> None:
    league = db.get(League, league_id)
    if league is None or league.archived_at is not None:
        raise Invalid(leagues.ARCHIVED)


def _open_report(db: Session, game_id: int) -> ScoreReport | None:
    return next(iter(scoring.open_reports(db, game_id)), None)


def _checked(db: Session, game: Game, scores: dict) -> dict[str, int | None]:
    """A complete result by the rules of the game's league (``scoring.clean_scores``)."""
    league = db.get(League, game.league_id) if game.type == GameType.LEAGUE else None
    return scoring.league_scores(league, scores, required=True)


def _sets_text(values: dict, *, second_first: bool = False) -> str:
    """'25-20, 22-25' in team 1's order (``second_first``: team 2's points first, as team 2 reads its result)."""
    return ", ".join(
        f"{values[b]}-{values[a]}" if second_first else f"{values[a]}-{values[b]}"
        for a, b in scoring.SCORE_FIELDS
        if values.get(a) is not None and values.get(b) is not None
    )


def _game_name(db: Session, game: Game) -> str:
    t1, t2 = _teams(db, game)
    return f"{t1.team_name if t1 else 'TBD'} v {t2.team_name if t2 else 'TBD'}"


def _captain(db: Session, team: Team) -> User | None:
    return db.get(User, team.captain_id) if team.captain_id else None


def _league(db: Session, game: Game) -> League:
    return load(db, League, game.league_id, leagues.LEAGUE_NOT_FOUND)


def _zone(db: Session, game: Game) -> str:
    """The time zone of the game's venue."""
    return leagues.zone(db, _league(db, game))


def _id(game: Game) -> int:
    assert game.id is not None  # a stored game
    return game.id


def _link(game: Game) -> str:
    return routes.absolute(routes.game_score_path(_id(game)))


def _new_report(game: Game, team: Team, clean: dict[str, int | None]) -> ScoreReport:
    """A report of a complete result: sets 1 and 2 are always played (``scoring.clean_scores``)."""
    assert team.id is not None  # a stored team
    first = [clean[f] for pair in scoring.SCORE_FIELDS[:2] for f in pair]
    t1g1, t2g1, t1g2, t2g2 = (score if score is not None else 0 for score in first)
    return ScoreReport(game_id=_id(game), team_id=team.id, team1_game1_score=t1g1, team2_game1_score=t2g1,
                       team1_game2_score=t1g2, team2_game2_score=t2g2)  # fmt: skip


def report(
    db: Session, actor: Actor | None, game_id: object, *, now: dt.datetime | None = None, **scores
) -> ScoreReport:
    """A captain reports their own game's score (set 1 and 2 scores for the team listed first and second)."""
    actor = require_actor(actor)
    game = access_game(db, actor, game_id)
    mine, theirs = _captain_side(db, actor, game)
    _not_archived(db, game.league_id)
    if game.start_at > (now or utcnow()):
        raise Invalid(NOT_STARTED)
    if scoring.played(game):
        raise Invalid(HAS_SCORE)
    clean = _checked(db, game, {k: scores.get(k) for k in SCORE_KEYS})
    waiting = _open_report(db, _id(game))
    if waiting is not None and waiting.status == ReportStatus.DISPUTED:
        raise Invalid(IN_DISPUTE)
    if waiting is not None and waiting.team_id != mine.id:
        raise Invalid(OTHER_WAITING)
    row = waiting or _new_report(game, mine, clean)
    before = {k: getattr(row, k) for k in SCORE_KEYS} if waiting else None
    for key, value in clean.items():
        setattr(row, key, value)
    row.reported_by_id, row.status = actor.user_id, ReportStatus.PENDING
    db.add(row)
    db.flush()
    name, sets = _game_name(db, game), _sets_text(clean)
    audit.record(
        db, actor, action="report", entity="score_report", entity_id=row.id, league_id=game.league_id,
        summary=f"Score of {name} reported by the captain of {mine.team_name}: {sets}", before=before, after=clean,
    )  # fmt: skip
    captain = _captain(db, theirs)
    if captain is not None:
        notices.notify(
            db, captain, notices.SCORE_TO_CONFIRM, link=routes.game_score_path(_id(game)),
            text=f"{mine.team_name} reported {name}: {sets}. Confirm or dispute it", email=("score_reported", {
                "first_name": mail.first_name(captain), "game": name, "team": mine.team_name, "sets": sets,
                "page": _link(game), "when": timefmt.date_time(game.start_at, _zone(db, game), labelled=True)}),
        )  # fmt: skip
    return row


CHANGED = "The reported score was changed: look at it again."


def _answerable(
    db: Session, actor: Actor | None, game_id: object, seen: object
) -> tuple[Actor, ScoreReport, Game, Team, Team]:
    """The game's waiting report when the actor captains the other team. ``seen``: the score the captain was
    shown (when given, it must still be the reported one)."""
    actor = require_actor(actor)
    game = access_game(db, actor, game_id)
    mine, theirs = _captain_side(db, actor, game)
    _not_archived(db, game.league_id)
    row = _open_report(db, _id(game))
    if row is None:
        raise NotFound(REPORT_NOT_FOUND)
    if row.status != ReportStatus.PENDING:
        raise Invalid(IN_DISPUTE)
    if row.team_id == mine.id:
        raise Invalid(OWN_REPORT)
    if isinstance(seen, str) and seen and seen != _sets_text(_report_scores(row)):
        raise Invalid(CHANGED)
    return actor, row, game, mine, theirs


def _report_scores(row: ScoreReport) -> dict[str, int | None]:
    return {k: getattr(row, k) for k in SCORE_KEYS}


def _put_on_game(db: Session, game: Game, clean: dict[str, int | None]) -> None:
    """The score counts: on the game (a playoff winner moves on)."""
    if game.type == GameType.TOURNAMENT:
        playoffs.apply_result(db, game, clean)
        return
    for key, value in clean.items():
        setattr(game, key, value)
    game.forfeit_team_id = None
    db.add(game)
    db.flush()


def confirm(
    db: Session, actor: Actor | None, game_id: object, *, seen: object = None, now: dt.datetime | None = None
) -> ScoreReport:
    """The other captain confirms the game's reported score: it goes on the game and counts."""
    actor, row, game, mine, theirs = _answerable(db, actor, game_id, seen)
    if scoring.played(game):
        raise Invalid(HAS_SCORE)
    clean = _report_scores(row)
    _put_on_game(db, game, clean)
    row.status, row.answered_by_id, row.answered_at = ReportStatus.CONFIRMED, actor.user_id, now or utcnow()
    db.add(row)
    db.flush()
    name, sets = _game_name(db, game), _sets_text(clean)
    audit.record(
        db, actor, action="confirm", entity="score_report", entity_id=row.id, league_id=game.league_id,
        summary=f"Score of {name} confirmed by the captain of {mine.team_name}: {sets}", after=clean,
    )  # fmt: skip
    mail.tell(db, _captain(db, theirs), "score_confirmed",
         {"game": name, "team": mine.team_name, "sets": sets, "page": _link(game)})  # fmt: skip
    return row


def dispute(
    db: Session,
    actor: Actor | None,
    game_id: object,
    *,
    note: object = None,
    seen: object = None,
    now: dt.datetime | None = None,
) -> ScoreReport:
    """The other captain disputes the game's reported score: it waits for the league's operator."""
    actor, row, game, mine, theirs = _answerable(db, actor, game_id, seen)
    text = validation.optional(note, "note", "What is wrong", 300)
    row.status, row.note = ReportStatus.DISPUTED, text or None
    row.answered_by_id, row.answered_at = actor.user_id, now or utcnow()
    db.add(row)
    db.flush()
    name, sets = _game_name(db, game), _sets_text(_report_scores(row))
    audit.record(
        db, actor, action="dispute", entity="score_report", entity_id=row.id, league_id=game.league_id,
        summary=f"Score of {name} ({sets}) disputed by the captain of {mine.team_name}" + (f": {text}" if text else ""),
    )  # fmt: skip
    values: dict[str, object] = {"game": name, "team": mine.team_name, "sets": sets, "note": text or "", "page": _link(game)}
    mail.tell(db, _captain(db, theirs), "score_disputed", values)
    league = _league(db, game)
    mail.tell(db, db.get(User, league.svl_id), "score_dispute_to_operator", values, kind="score_disputed")
    return row


def settle(db: Session, actor: Actor | None, game_id: object, **scores) -> Game:
    """The league's SVL or an admin enters or corrects the game's score; open reports of it are settled."""
    game = access_game(db, actor, game_id, manage=True)
    leagues.changeable(db, actor, game.league_id)
    before = audit.snapshot(game, games.GAME_FIELDS)
    clean = _checked(db, game, {k: scores.get(k) for k in SCORE_KEYS})
    _put_on_game(db, game, clean)
    name, sets = _game_name(db, game), _sets_text(clean)
    audit.record_change(
        db, actor, entity="game", row=game, before=before, fields=games.GAME_FIELDS, league_id=game.league_id,
        summary=f"Score of {name} entered by the operator: {sets}",
    )  # fmt: skip
    scoring.settle_reports(db, require_actor(actor), game, score=sets, tell_anyway=True)
    return game


class ScoreView(TypedDict):
    """A game's score page: the game, its score, the report waiting for an answer, and what the viewer may do."""

    game_id: int
    league_id: int
    league: str
    team1: str
    team2: str
    when: str
    type: str
    sets_rule: str
    score: str
    report_id: int | None
    report: str
    report_status: str
    report_team: str
    note: str
    can_report: bool
    can_answer: bool
    can_settle: bool
    started: bool
    form: dict[str, str]


class DisputedScore(TypedDict):
    game: str
    when: str
    reported: str
    note: str
    href: str


class TeamCard(TypedDict):
    """One of the player's teams: its next game and its last one with its result, and what waits for its captain
    (links: a captain's to the game's score page, a member's to the team's games)."""

    team: str
    team_href: str
    league: str
    next: str
    next_href: str
    last: str
    last_result: str
    last_href: str
    last_action: str


class CaptainGame(TypedDict):
    """A game of a captain's team, with its score or what waits."""

    game: str
    when: str
    status: str
    kind: str
    href: str


def _team_name(db: Session, team_id: int) -> str:
    team = db.get(Team, team_id)
    return team.team_name if team is not None else ""


def game_view(db: Session, actor: Actor | None, game_id: object, *, now: dt.datetime | None = None) -> ScoreView:
    """A game's score page for anyone who may read its league: the score, the waiting report, and what this
    user may do (report, confirm or dispute, settle)."""
    actor = require_actor(actor)
    game = access_game(db, actor, game_id)
    league = _league(db, game)
    t1, t2 = _teams(db, game)
    mine = None
    if t1 is not None and t2 is not None:
        mine = next((t for t in (t1, t2) if t.captain_id == actor.user_id), None)
    waiting = _open_report(db, _id(game))
    started = game.start_at <= (now or utcnow())
    open_league = league.archived_at is None
    played = scoring.played(game)
    manage = may_manage_league(actor, league) and open_league and t1 is not None and t2 is not None
    waiting_by_me = waiting is not None and mine is not None and waiting.team_id == mine.id
    return {
        "game_id": _id(game), "league_id": game.league_id, "league": leagues.display_name(league),
        "team1": t1.team_name if t1 else "TBD", "team2": t2.team_name if t2 else "TBD",
        "when": timefmt.date_time(game.start_at, leagues.zone(db, league), labelled=True), "type": game.type.value,
        "sets_rule": scoring.sets_rule(league if game.type == GameType.LEAGUE else None),
        "score": _sets_text({k: getattr(game, k) for k in SCORE_KEYS}) if not game.forfeit_team_id else "Forfeit",
        "report_id": waiting.id if waiting else None,
        "report": _sets_text(_report_scores(waiting)) if waiting else "",
        "report_status": waiting.status.value if waiting else "",
        "report_team": _team_name(db, waiting.team_id) if waiting else "",
        "note": (waiting.note or "") if waiting else "",
        "can_report": bool(mine) and open_league and started and not played
        and (waiting is None or waiting_by_me and waiting.status == ReportStatus.PENDING),
        "can_answer": bool(mine) and open_league and not played and waiting is not None
        and waiting.status == ReportStatus.PENDING and not waiting_by_me,
        "can_settle": manage,
        "started": started,
        "form": {k: ("" if getattr(waiting or game, k) is None else str(getattr(waiting or game, k))) for k in SCORE_KEYS},
    }  # fmt: skip


def disputed(db: Session, actor: Actor | None, league_id: object) -> list[DisputedScore]:
    """The league's disputed scores for its SVL or an admin (the league home lists them)."""
    league = leagues.managed(db, actor, league_id)
    rows = db.exec(
        select(ScoreReport, Game)
        .join(Game, col(Game.id) == col(ScoreReport.game_id))
        .where(Game.league_id == league.id, ScoreReport.status == ReportStatus.DISPUTED)
        .order_by(col(Game.start_at))
    ).all()
    zone = leagues.zone(db, league)
    return [
        {"game": _game_name(db, g), "when": timefmt.date_time(g.start_at, zone, labelled=True), "reported": _sets_text(_report_scores(r)),
         "note": r.note or "", "href": routes.game_score_path(_id(g))}
        for r, g in rows
    ]  # fmt: skip


def team_cards(db: Session, actor: Actor | None, *, now: dt.datetime | None = None) -> list[TeamCard]:
    """For each team the player is on (leagues in play): its next game and its last one with its result, and for
    the teams they captain what waits for them (a score to report, confirm or dispute)."""
    actor = require_actor(actor)
    return team_cards_of(player_teams.read(db, actor.user_id, now=now or utcnow(), cards=True), actor.user_id)


def _named(names: dict[int, str], game: Game) -> str:
    return f"{names.get(game.team1_id or 0, 'TBD')} v {names.get(game.team2_id or 0, 'TBD')}"


def team_cards_of(found: player_teams.PlayerTeams, viewer_id: int) -> list[TeamCard]:
    """``team_cards`` of the teams read (``player_teams.read`` with ``cards``) for their player ``viewer_id``."""
    out: list[TeamCard] = []
    for mine in found.teams:
        team, league = mine.team, mine.league
        if not league.schedule_generated:
            continue
        assert team.id is not None  # a stored team
        captain = team.captain_id == viewer_id
        nxt = found.games.get(mine.next_id) if mine.next_id is not None else None
        last = found.games.get(mine.last_id) if mine.last_id is not None else None
        games_href = routes.team_games_path(team.id)
        card: TeamCard = {"team": team.team_name, "team_href": routes.team_path(team.id),
                          "league": leagues.display_name(league), "next": "", "next_href": "", "last": "",
                          "last_result": "", "last_href": "", "last_action": ""}  # fmt: skip
        if nxt is not None:
            card["next"] = f"{_named(found.names, nxt)}, {timefmt.date_time(nxt.start_at, mine.zone, labelled=True)}"
            card["next_href"] = routes.game_score_path(_id(nxt)) if captain else games_href
        if last is not None:
            card["last"] = f"{_named(found.names, last)}, {timefmt.date_time(last.start_at, mine.zone, labelled=True)}"
            card["last_href"] = routes.game_score_path(_id(last)) if captain else games_href
            waiting = found.waiting.get(_id(last))
            if scoring.played(last):
                won = scoring.result(last)
                side = 1 if last.team1_id == team.id else 2
                scores = {k: getattr(last, k) for k in SCORE_KEYS}  # the player's own team's points first
                card["last_result"] = ("Won " if won == side else "Lost " if won else "") + (
                    "by forfeit" if last.forfeit_team_id else _sets_text(scores, second_first=side == 2)
                )
            elif waiting is None:
                card["last_result"] = "No score yet"
                card["last_action"] = "Report the score" if captain else ""
            elif waiting.status == ReportStatus.DISPUTED:
                card["last_result"] = "Disputed: the operator decides"
            elif waiting.team_id == team.id:
                card["last_result"] = f"Reported {_sets_text(_report_scores(waiting))}: waiting for the other captain"
            else:
                card["last_result"] = f"Reported {_sets_text(_report_scores(waiting))} by the other captain"
                card["last_action"] = "Confirm or dispute" if captain else ""
        out.append(card)
    return out


def my_games(db: Session, actor: Actor | None, league_id: object, *, now: dt.datetime | None = None) -> list[CaptainGame]:
    """The games of the teams this user captains in the league, in time order, each with its score or what
    waits (the league home shows them first to their captains)."""
    actor = require_actor(actor)
    league = leagues.get_league(db, actor, league_id)
    now = now or utcnow()
    team_ids = list(
        db.exec(select(col(Team.id)).where(Team.league_id == league["id"], Team.captain_id == actor.user_id)).all()
    )
    if not team_ids:
        return []
    games = db.exec(
        select(Game)
        .where(Game.league_id == league["id"], (col(Game.team1_id).in_(team_ids)) | (col(Game.team2_id).in_(team_ids)))
        .order_by(col(Game.start_at), col(Game.match))
    ).all()
    waiting = {
        r.game_id: r
        for r in db.exec(
            select(ScoreReport).where(col(ScoreReport.game_id).in_([g.id for g in games]), col(ScoreReport.status).in_(OPEN))
        ).all()
    }
    out: list[CaptainGame] = []
    for g in games:
        if scoring.played(g):
            status = "Forfeit" if g.forfeit_team_id else _sets_text({k: getattr(g, k) for k in SCORE_KEYS})
        elif g.id in waiting:
            status = (
                "Disputed" if waiting[g.id].status == ReportStatus.DISPUTED else "Reported, waiting to be confirmed"
            )
        elif g.team1_id is None or g.team2_id is None:
            status = "BYE" if g.type == GameType.LEAGUE and g.team1_id is not None else "To be decided"
        else:
            status = "Report the score" if g.start_at <= now else "Upcoming"
        name = _game_name(db, g)
        if g.team2_id is None and g.type == GameType.LEAGUE:
            name = name.removesuffix(" v TBD") + " (BYE)"
        out.append({"game": name, "when": timefmt.date_time(g.start_at, league["zone"], labelled=True), "status": status,
                    "kind": "Playoff" if g.type == GameType.TOURNAMENT else "League",
                    "href": routes.game_score_path(_id(g))})  # fmt: skip
    return out
