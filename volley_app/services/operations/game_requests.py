"""A short team's sub request, made from its game in one tap.

A team is short for a game when fewer of its members answered In than the format puts on court, or fewer women
than the league's gender rule needs (subs who already took a place for that game count as In: the counts are the
team's games page's, ``services/teams/rsvps.py``). Its captain or a
co-captain asks for the difference: a sub request filled in from the game (date, venue, court, team, format, the
league's skill, places = the shortfall, the gender the rule needs or that everyone out shares, the position
everyone out plays best), made for that game and team, so the league's sub rules apply to it
(``services/subs/eligibility.py``) and its subs show on the game's attendance. Also: a team still short by its
answer deadline is told, once.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import (
    Game,
    GenderNeeded,
    League,
    LeagueFormat,
    MemberRole,
    Position,
    RsvpAnswer,
    ShortTeamNotice,
    SubFormat,
    SubRequest,
    SubStatus,
    Team,
    TeamMember,
    User,
    utcnow,
)
from volley_app.services.accounts import venues
from volley_app.services.core import periodic, timefmt
from volley_app.services.core.actors import Actor, record_id
from volley_app.services.core.errors import BadRequest, Forbidden, NotFound
from volley_app.services.mail import mail, notices
from volley_app.services.subs import invites, request_changes
from volley_app.services.subs.access import require_sub_request_actor
from volley_app.services.teams import rsvps

log = logging.getLogger(__name__)

SUB_FORMAT = {LeagueFormat.DOUBLES: SubFormat.DOUBLES, LeagueFormat.QUADS: SubFormat.QUADS,
              LeagueFormat.REVERSE_QUADS: SubFormat.REVERSE_QUADS, LeagueFormat.FIVES: SubFormat.FIVES,
              LeagueFormat.SIXES: SubFormat.SIXES}  # fmt: skip
GAME_NOT_FOUND = "Game not found"
NOT_SHORT = "{team} has enough players for this game"
NOT_AHEAD = "This game has started; subs are found for games ahead"
RUNS_THE_TEAM = (MemberRole.CAPTAIN, MemberRole.CO_CAPTAIN)
# The longest a team's deadline may be: games further ahead are not looked at.
LONGEST_DEADLINE = dt.timedelta(days=14)
SWEEP_SECONDS = 60.0


@dataclasses.dataclass(frozen=True)
class Shortfall:
    """What a team lacks for a game: players, and women by the league's rule; the gender and position to ask for."""

    players: int
    women: int
    gender: GenderNeeded
    position: Position
    # the members on the roster, and how many of them (with the subs placed) play, are out, have not answered
    roster: int = 0
    playing: int = 0
    out: int = 0
    unanswered: int = 0

    @property
    def places(self) -> int:
        """How many subs to ask for (one request holds at most ``invites.MAX_PLAYERS``)."""
        return min(max(self.players, self.women), invites.MAX_PLAYERS)


def _best_position(user: User) -> Position:
    best = rsvps.position(user)
    return Position(best) if best in Position.values() else Position.ANY


def shortfall(db: Session, game: Game, team: Team, league: League, now: dt.datetime | None = None) -> Shortfall:
    """What ``team`` lacks for ``game`` at ``now``, from its members' answers and the subs already placed (as its
    games page counts it, :func:`rsvps.counted`)."""
    assert game.id is not None and team.id is not None  # stored rows
    members = [u for _m, u in rsvps.current_members(db, team.id)]
    answers = rsvps.answers_by_game(db, team.id, [game.id]).get(game.id, {})
    subs = rsvps.subs_placed(db, team.id, [game.id]).get(game.id, [])
    playing = [u for u in members if answers.get(u.id or 0) == RsvpAnswer.IN] + subs
    out = [u for u in members if answers.get(u.id or 0) == RsvpAnswer.OUT]
    players, women = rsvps.lacking(rsvps.counted(game, team, members, answers, subs, now or utcnow()), league)
    if women and women >= players:
        gender = GenderNeeded.FEMALE
    else:
        genders = {u.gender for u in out}
        shared = genders.pop() if len(genders) == 1 else None
        gender = GenderNeeded(shared.value) if shared is not None else GenderNeeded.ANY
    positions = {_best_position(u) for u in out}
    return Shortfall(players, women, gender, positions.pop() if len(positions) == 1 else Position.ANY,
                     roster=len(members), playing=len(playing), out=len(out),
                     unanswered=sum(answers.get(u.id or 0) is None for u in members))  # fmt: skip


def _team_and_game(db: Session, actor: Actor, game_id: object, team_id: object) -> tuple[Game, Team, League]:
    """The game and the team playing it, when the actor runs the team (its captain, a co-captain) or is an admin."""
    team = db.get(Team, record_id(team_id, "Team not found"))
    game = db.get(Game, record_id(game_id, GAME_NOT_FOUND))
    if team is None or game is None or team.id not in (game.team1_id, game.team2_id):
        raise NotFound(GAME_NOT_FOUND)
    league = db.get(League, team.league_id)
    if league is None or league.archived_at is not None or team.withdrawn_at is not None:
        raise NotFound(GAME_NOT_FOUND)
    runs = team.captain_id == actor.user_id or db.exec(
        select(TeamMember.id).where(TeamMember.team_id == team.id, TeamMember.user_id == actor.user_id,
                                    col(TeamMember.left_at).is_(None), col(TeamMember.role).in_(RUNS_THE_TEAM))
    ).first() is not None  # fmt: skip
    if not (runs or actor.is_admin):
        raise Forbidden()
    return game, team, league


def _open_request(db: Session, game_id: int, team_id: int) -> int | None:
    """The team's request for the game that still has places open, if there is one."""
    return db.exec(
        select(SubRequest.id).where(
            SubRequest.game_id == game_id, SubRequest.team_id == team_id, col(SubRequest.archived_at).is_(None),
            col(SubRequest.status) != SubStatus.ACCEPTED, col(SubRequest.completed).is_(False),
        )
    ).first()  # fmt: skip


def find_subs(db: Session, actor: Actor | None, *, game_id: object, team_id: object, now: dt.datetime | None = None) -> int:
    """Ask for the subs a short team lacks for a game: a sub request filled in from the game. Returns its id (the
    team's request for that game still open, when there is one: a second tap makes no second request)."""
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    game, team, league = _team_and_game(db, actor, game_id, team_id)
    assert game.id is not None and team.id is not None
    if game.start_at <= now:
        raise BadRequest(NOT_AHEAD)
    # the team's row locked for the rest of the transaction: two taps at once make one request
    db.execute(sa.update(Team).where(col(Team.id) == team.id).values(id=Team.id))
    existing = _open_request(db, game.id, team.id)
    if existing is not None:
        return existing
    short = shortfall(db, game, team, league, now)
    if short.places == 0:
        raise BadRequest(NOT_SHORT.format(team=team.team_name))
    other_id = game.team2_id if game.team1_id == team.id else game.team1_id
    other = db.get(Team, other_id) if other_id is not None else None
    against = f" vs {other.team_name}" if other is not None else ""
    return request_changes.create(
        db, actor, for_game=(game.id, team.id), team=team.team_name, date=game.start_at,
        svl=venues.svl_names(db, [league.svl_id]).get(league.svl_id, ""),
        court=(game.court or league.court)[: request_changes.COURT_MAX], skill_level=league.skill_level.value,
        format=SUB_FORMAT[league.format].value, players_needed=str(short.places),
        gender_needed=short.gender.value, position_needed=short.position.value,
        text=f"{team.team_name}{against}: {short.places} short.", now=now,
    )  # fmt: skip


# -- telling a short team -------------------------------------------------------------------------------------------


def _past_deadline(game: Game, team: Team, now: dt.datetime) -> bool:
    return game.start_at - dt.timedelta(hours=team.rsvp_deadline_hours) <= now < game.start_at


def short_due(db: Session, now: dt.datetime) -> list[tuple[int, int]]:
    """The (game, team) pairs past the team's answer deadline, not yet told, whose team has a full roster and is
    short of players (a team still building its roster is not told its game is short)."""
    told = sa.exists().where(col(ShortTeamNotice.game_id) == Game.id, col(ShortTeamNotice.team_id) == Team.id)
    found = db.exec(
        select(Game, Team, League)
        .join(Team, sa.or_(col(Team.id) == Game.team1_id, col(Team.id) == Game.team2_id))
        .join(League, col(League.id) == Team.league_id)
        .where(col(Game.start_at) > now, col(Game.start_at) <= now + LONGEST_DEADLINE, col(Team.withdrawn_at).is_(None),
               col(Team.waitlist).is_(False), col(League.archived_at).is_(None), ~told)
        .order_by(col(Game.start_at), col(Game.id), col(Team.id))
    ).all()  # fmt: skip
    due: list[tuple[int, int]] = []
    for game, team, league in found:
        assert game.id is not None and team.id is not None  # stored rows
        if not _past_deadline(game, team, now):
            continue
        short = shortfall(db, game, team, league, now)
        if short.roster >= rsvps.needed(league) and short.places:
            due.append((game.id, team.id))
    return due


def tell_short(db: Session, game_id: int, team_id: int, now: dt.datetime) -> bool:
    """Email the team's captain and co-captains that it is short for the game, and record it, in ``db``'s
    transaction; False when it is no longer due.

    Raises:
        IntegrityError: another sweep told the team first (its transaction sent the email).
    """
    game, team = db.get(Game, game_id), db.get(Team, team_id)
    league = db.get(League, team.league_id) if team is not None else None
    if game is None or team is None or league is None or not _past_deadline(game, team, now):
        return False
    short = shortfall(db, game, team, league, now)
    if not short.places:
        return False
    db.add(ShortTeamNotice(game_id=game_id, team_id=team_id, players=short.places, sent_at=now))
    db.flush()  # the unique row: a second sweep stops here
    runners = db.exec(
        select(User).join(TeamMember, col(TeamMember.user_id) == User.id)
        .where(TeamMember.team_id == team_id, col(TeamMember.left_at).is_(None), col(TeamMember.role).in_(RUNS_THE_TEAM))
    ).all()  # fmt: skip
    captain = db.get(User, team.captain_id) if team.captain_id else None
    people = {u.id: u for u in (*runners, *([captain] if captain else []))}
    other_id = game.team2_id if game.team1_id == team_id else game.team1_id
    other = db.get(Team, other_id) if other_id is not None else None
    zone = venues.zone(db, league.svl_id)
    for user in people.values():
        if not user.active:
            continue
        link = routes.team_games_path(team_id)
        values = {
            "first_name": mail.first_name(user), "team": team.team_name, "places": short.places,
            "against": f" (vs {other.team_name})" if other else "", "when": timefmt.long(game.start_at, zone),
            "day": timefmt.day(game.start_at, zone), "playing": short.playing, "out": short.out,
            "unanswered": short.unanswered, "page": routes.absolute(link),
        }  # fmt: skip
        notices.notify(db, user, notices.TEAM_SHORT, link=link, email=("team_short", values),
                       text=f"{team.team_name} is {short.places} short for {values['when']}: find subs")  # fmt: skip
    log.info("team %s told it is %s short for game %s", team_id, short.places, game_id)
    return True


def tell_short_teams(now: dt.datetime | None = None) -> int:
    """Tell every team now short past its deadline, each in its own transaction; returns how many were told.
    Safe on several instances at once: a team another sweep told first is skipped."""
    return periodic.each_once(short_due, lambda db, pair, at: tell_short(db, *pair, at), now or utcnow(),
                              what="short team notice (game, team)")


async def run_forever(stop_event: asyncio.Event | None = None, interval: float = SWEEP_SECONDS) -> None:
    """Run :func:`tell_short_teams` every ``interval`` seconds (in a worker thread) until cancelled or stopped."""
    await periodic.every(interval, tell_short_teams, name="Short teams", stop_event=stop_event)
