"""Who is coming: each member's In / Out / Maybe for each of their team's games.

- A current member answers for one of their team's games that has not started; answering again changes the
  one answer (``game_rsvps`` is unique per game, team and member: a double click or two tabs make one row).
- The team's games page shows the games (coming first, a page at a time) with every member's answer and, per
  game, the counts against what the format puts on court (and the league's women-on-court rule): a game is
  "short" when fewer are In than the format needs, or fewer women than the rule asks. The captain (and
  co-captains) and the league's operator also see who is In by position and gender.
- A member's next games across their teams, with their own answer (the player home).
- An answer (on the page, from the home, by a reminder's link) tells the team's games pages open elsewhere, which
  read their page of games again (``services/core/live.py``).
- Reminders: ``team.rsvp_reminder_days`` days before a game, each current member who has not answered gets
  one email (``reminded_at``) with three signed one-click links (In, Out, Maybe) that need no login. A link
  works until the game starts and only while its member is still on the team.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
from typing import TypedDict

import sqlalchemy as sa
import sqlalchemy.exc
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import (
    AWAITING_APPROVAL,
    Game,
    Gender,
    League,
    MemberRole,
    Rating,
    RsvpAnswer,
    SubRequest,
    SubRequestPlace,
    Team,
    TeamMember,
    User,
    utcnow,
)
from volley_app.models.rosters import GameRsvp
from volley_app.services.core import live, paging, periodic, signing, timefmt
from volley_app.services.core.actors import Actor, load, record_id, require_actor
from volley_app.services.core.errors import BadRequest, Forbidden, Invalid, NotFound
from volley_app.services.mail import mail, notices
from volley_app.services.seasons import leagues, player_teams
from volley_app.services.teams import playoff_eligibility
from volley_app.services.teams.rosters import TEAM_NOT_FOUND

log = logging.getLogger(__name__)

ANSWERS = tuple(a.value for a in RsvpAnswer)
# The colour each answer's button takes when it is the chosen one (the pages and the server-drawn home draw them so).
ANSWER_TONES = (("In", "green"), ("Out", "red"), ("Maybe", "amber"))
GAMES_PAGE = 10  # games a page of the team's games shows
NEXT_GAMES = 5  # games "My next games" shows
SWEEP_SECONDS = 60.0
REMIND_AHEAD_MAX = 30  # days: the sweep looks this far ahead for games whose reminder is due

GAME_NOT_FOUND = "This game no longer exists"
NOT_A_MEMBER = "Only the team's members answer for its games."
NOT_TEAMS_GAME = "Your team does not play this game."
GAME_STARTED = "This game has already started: answers are closed."
TEAM_WITHDRAWN = "This team has withdrawn from the league."
BAD_ANSWER = "Answer In, Out or Maybe."
WHICH_TEAM = "Say which of your teams you answer for."
BAD_LINK = "This link is not valid. Open the team's games page to answer."
EXPIRED_LINK = "This game has started, so answers are closed."
LEFT_TEAM = "You are no longer on this team, so this link no longer works."

POSITION_NAMES = {"hitter_skill_level": "Hitter", "passer_skill_level": "Passer", "setter_skill_level": "Setter"}
_RANK = {Rating.A: 0, Rating.B: 1, Rating.C: 2, Rating.D: 3}
_LETTER = {RsvpAnswer.IN: "i", RsvpAnswer.OUT: "o", RsvpAnswer.MAYBE: "m"}
_FROM_LETTER = {v: k for k, v in _LETTER.items()}


class RsvpCell(TypedDict):
    """One member's answer for one game ("" when they have not answered)."""

    user_id: int
    name: str
    answer: str


class RsvpGame(TypedDict):
    """One game of a team with its members' answers and the counts against what the format needs."""

    game_id: int
    team_id: int
    when: str
    opponent: str
    court: str
    past: bool
    in_count: int
    subs: list[str]  # the subs who took a place on the team's sub requests for the game: they play too
    out_count: int
    maybe_count: int
    none_count: int
    needed: int
    women_in: int
    women_needed: int
    short: bool
    short_reason: str
    lacking: int  # how many more players the game needs (the most of players and women the rule still needs)
    by_position: str  # the captain's and the operator's view: "Hitter 2 · Setter 1"; "" for the others
    by_gender: str  # "Women 2 · Men 3" (same)
    mine: str  # the viewer's own answer ("" when none, or not a member)
    can_answer: bool
    cells: list[RsvpCell]


class MemberColumn(TypedDict):
    user_id: int
    name: str
    role: str


@dataclasses.dataclass(frozen=True)
class TeamGames:
    """The team's games page, read in one call."""

    team_id: int
    team_name: str
    league_name: str
    members: list[MemberColumn]
    games: paging.Page  # of RsvpGame
    member: bool  # the viewer answers (their own row has buttons)
    captain: bool  # the viewer sees counts by position and gender
    read_only: bool  # the league's operator or an admin who is not a member
    runs: bool  # the viewer is the team's captain or a co-captain (they find subs for a short game)


class MyGame(TypedDict):
    """One of a member's next games with their answer."""

    game_id: int
    team_id: int
    team: str
    league: str
    opponent: str
    when: str
    where: str
    mine: str
    href: str


# -- who ----------------------------------------------------------------------------------------------------------


def _name(user: User) -> str:
    return f"{user.first_name or ''} {user.last_name or ''}".strip() or user.username


def membership(db: Session, team_id: int, user_id: int) -> TeamMember | None:
    """The user's current membership of the team, or None."""
    return db.exec(
        select(TeamMember).where(TeamMember.team_id == team_id, TeamMember.user_id == user_id,
                                 col(TeamMember.left_at).is_(None))
    ).first()  # fmt: skip


def current_members(db: Session, team_id: int) -> list[tuple[TeamMember, User]]:
    """The team's current members with their accounts: the captain, co-captains, then players, by name."""
    order = sa.case((col(TeamMember.role) == MemberRole.CAPTAIN, 0), (col(TeamMember.role) == MemberRole.CO_CAPTAIN, 1),
                    else_=2)  # fmt: skip
    found = db.exec(
        select(TeamMember, User).join(User, col(User.id) == TeamMember.user_id)
        .where(TeamMember.team_id == team_id, col(TeamMember.left_at).is_(None))
        .order_by(order, col(User.first_name), col(User.last_name), col(User.id))
    ).all()  # fmt: skip
    return [(m, u) for m, u in found]


def _team(db: Session, actor: Actor, team_id: object) -> tuple[Team, League]:
    team = load(db, Team, team_id, TEAM_NOT_FOUND)
    league = db.get(League, team.league_id)
    if league is None or (league.archived_at is not None and not actor.is_admin):
        raise NotFound(TEAM_NOT_FOUND)
    return team, league


def _viewer(db: Session, actor: Actor, team: Team, league: League) -> tuple[bool, bool, bool]:
    """(member, captain view, operator) for the actor on this team; Forbidden when none."""
    assert team.id is not None  # a stored team
    member = membership(db, team.id, actor.user_id)
    operator = leagues.may_manage_league(actor, league)
    if member is None and not operator:
        raise Forbidden("Only the team's members and the league's operator see its games.")
    captain = operator or team.captain_id == actor.user_id or (
        member is not None and member.role in (MemberRole.CAPTAIN, MemberRole.CO_CAPTAIN))
    return member is not None, captain, operator


# -- positions and counts -------------------------------------------------------------------------------------------


def position(user: User) -> str:
    """The position a player is rated best at (Hitter, Passer, Setter), or "Unrated"."""
    best, name = None, "Unrated"
    for column, label in POSITION_NAMES.items():
        rating = getattr(user, column)
        if rating is not None and (best is None or _RANK[rating] < best):
            best, name = _RANK[rating], label
    return name


def needed(league: League) -> int:
    return leagues.on_court(league)


def _tally(parts: dict[str, int]) -> str:
    return " · ".join(f"{k} {v}" for k, v in parts.items() if v)


def lacking(playing: list[User], league: League) -> tuple[int, int]:
    """How many more players, and how many more women (the league's rule), a game needs with ``playing`` on court."""
    women = sum(u.gender == Gender.FEMALE for u in playing)
    return max(needed(league) - len(playing), 0), max((league.women_on_court or 0) - women, 0)


def near(game: Game, team: Team, now: dt.datetime) -> bool:
    """The game is near for the team: its reminders have gone, or its answer deadline is close."""
    ahead = max(dt.timedelta(days=team.rsvp_reminder_days), dt.timedelta(hours=team.rsvp_deadline_hours))
    return game.start_at - now <= ahead


def counted(game: Game, team: Team, members: list[User], answers: dict[int, RsvpAnswer | None], subs: list[User],
            now: dt.datetime) -> list[User]:  # fmt: skip
    """Who a game's shortfall counts on: once the game is near, the members who said In and the subs placed;
    before then every member who has not said Out (a game is short early only when the Outs leave too few)."""
    if near(game, team, now):
        return [u for u in members if answers.get(u.id or 0) == RsvpAnswer.IN] + subs
    return [u for u in members if answers.get(u.id or 0) != RsvpAnswer.OUT] + subs


def subs_placed(db: Session, team_id: int, game_ids: list[int]) -> dict[int, list[User]]:
    """Each game's subs: who took a place on the team's sub requests for it (not cancelled), in the order taken."""
    out: dict[int, list[User]] = {g: [] for g in game_ids}
    if not game_ids:
        return out
    found = db.exec(
        select(SubRequest.game_id, User).join(SubRequestPlace, col(SubRequestPlace.request_id) == SubRequest.id)
        .join(User, col(User.id) == SubRequestPlace.user_id)
        .where(SubRequest.team_id == team_id, col(SubRequest.game_id).in_(game_ids), col(SubRequest.archived_at).is_(None))
        .order_by(col(SubRequestPlace.accepted_at), col(SubRequestPlace.id))
    ).all()  # fmt: skip
    for game_id, user in found:
        out.setdefault(game_id or 0, []).append(user)
    return out


def awaiting_approval(db: Session, team_id: int, game_ids: list[int]) -> set[tuple[int, int]]:
    """The (game, sub) places on the team's requests for those games still waiting for the operator's approval."""
    if not game_ids:
        return set()
    found = db.exec(
        select(SubRequest.game_id, SubRequestPlace.user_id).join(SubRequestPlace, col(SubRequestPlace.request_id) == SubRequest.id)
        .where(SubRequest.team_id == team_id, col(SubRequest.game_id).in_(game_ids), col(SubRequest.archived_at).is_(None),
               col(SubRequestPlace.needs_approval).is_(True), col(SubRequestPlace.approved_at).is_(None))
    ).all()  # fmt: skip
    return {(g or 0, u) for g, u in found}


@dataclasses.dataclass(frozen=True)
class Playoffs:
    """What a playoff game's row marks: the members not eligible, and the subs awaiting the operator's approval."""

    ineligible: frozenset[int] = frozenset()
    awaiting: frozenset[tuple[int, int]] = frozenset()

    @classmethod
    def read(cls, db: Session, team: Team, league: League, members: list[tuple[TeamMember, User]],
             game_ids: list[int]) -> Playoffs:  # fmt: skip
        assert team.id is not None
        found = playoff_eligibility.standings(db, league, [team.id])
        standing = {m.user_id: playoff_eligibility.standing_of(found, league, team.id, m.user_id) for m, _u in members}
        barred = frozenset(u for u, s in standing.items() if s is not None and not s.eligible)
        return cls(barred, frozenset(awaiting_approval(db, team.id, game_ids)))


def _game_row(game: Game, team: Team, league: League, members: list[tuple[TeamMember, User]],
              answers: dict[int, RsvpAnswer | None], subs: list[User], names: dict[int, str], zone: str | None, *,
              viewer_id: int, member: bool, captain: bool, now: dt.datetime,
              playoffs: Playoffs = Playoffs()) -> RsvpGame:  # fmt: skip
    assert game.id is not None and team.id is not None  # stored rows
    other = game.team2_id if game.team1_id == team.id else game.team1_id
    opponent = names.get(other, "TBD") if other is not None else "BYE"
    cells: list[RsvpCell] = []
    counts = {RsvpAnswer.IN: 0, RsvpAnswer.OUT: 0, RsvpAnswer.MAYBE: 0}
    positions: dict[str, int] = {}
    playing: list[User] = []
    for _m, user in members:
        assert user.id is not None  # a stored user
        answer = answers.get(user.id)
        barred = playoff_eligibility.is_playoff(game) and user.id in playoffs.ineligible
        cells.append({"user_id": user.id, "name": _name(user) + (f" ({playoff_eligibility.NOT_ELIGIBLE})" if barred else ""),
                      "answer": answer.value if answer else ""})  # fmt: skip
        if answer is not None:
            counts[answer] += 1
        if answer == RsvpAnswer.IN:
            playing.append(user)
    for user in (*playing, *subs):
        pos = position(user)
        positions[pos] = positions.get(pos, 0) + 1
    playing += subs
    women = sum(u.gender == Gender.FEMALE for u in playing)
    men = sum(u.gender == Gender.MALE for u in playing)
    need, women_need = needed(league), league.women_on_court or 0
    more, more_women = lacking(counted(game, team, [u for _m, u in members], answers, subs, now), league)
    reasons = []
    if more:
        reasons.append(f"{more} more player{'s' if more > 1 else ''} needed")
    if more_women:
        reasons.append(f"{more_women} more wom{'e' if more_women > 1 else 'a'}n needed")
    past = game.start_at <= now
    mine = answers.get(viewer_id) if member else None
    return {
        "game_id": game.id, "team_id": team.id, "when": timefmt.date_time(game.start_at, zone, labelled=True),
        "opponent": opponent, "court": game.court or "", "past": past,
        "in_count": counts[RsvpAnswer.IN], "out_count": counts[RsvpAnswer.OUT],
        "subs": [_name(u) + (f" ({AWAITING_APPROVAL})" if (game.id, u.id) in playoffs.awaiting else "") for u in subs],
        "maybe_count": counts[RsvpAnswer.MAYBE], "none_count": len(members) - sum(counts.values()),
        "needed": need, "women_in": women, "women_needed": women_need,
        "short": bool(reasons) and other is not None and not past, "lacking": max(more, more_women),
        "short_reason": "; ".join(reasons) if other is not None and not past else "",
        "by_position": _tally(dict(sorted(positions.items()))) if captain else "",
        "by_gender": _tally({"Women": women, "Men": men}) if captain else "",
        "mine": mine.value if mine else "", "can_answer": member and not past and other is not None,
        "cells": cells,
    }  # fmt: skip


def answers_by_game(db: Session, team_id: int, game_ids: list[int]) -> dict[int, dict[int, RsvpAnswer | None]]:
    """Each game's answers by member."""
    out: dict[int, dict[int, RsvpAnswer | None]] = {g: {} for g in game_ids}
    if not game_ids:
        return out
    found = select(GameRsvp).where(GameRsvp.team_id == team_id, col(GameRsvp.game_id).in_(game_ids))
    for r in db.exec(found.execution_options(populate_existing=True)).all():  # as just written, not as cached
        out.setdefault(r.game_id, {})[r.user_id] = r.answer
    return out


def _team_names(db: Session, league_id: int) -> dict[int, str]:
    return {t.id: t.team_name for t in db.exec(select(Team).where(Team.league_id == league_id)).all() if t.id is not None}


def _plays(team_id: int) -> sa.ColumnElement[bool]:
    return sa.or_(col(Game.team1_id) == team_id, col(Game.team2_id) == team_id)


# -- reading ------------------------------------------------------------------------------------------------------


def games_page(db: Session, actor: Actor | None, *, team_id: object, bookmark: object = "", size: object = GAMES_PAGE,
               now: dt.datetime | None = None) -> paging.Page:  # fmt: skip
    """One page of the team's games, the coming ones first (nearest first), then the past ones (latest first),
    each with every current member's answer and the counts. Members, the league's operator and admins."""
    return team_games(db, actor, team_id=team_id, bookmark=bookmark, size=size, now=now).games


def team_games(db: Session, actor: Actor | None, *, team_id: object, bookmark: object = "", size: object = GAMES_PAGE,
               now: dt.datetime | None = None) -> TeamGames:  # fmt: skip
    """The team's games page: its members and one page of its games with their answers (``games_page``)."""
    actor = require_actor(actor)
    now = now or utcnow()
    team, league = _team(db, actor, team_id)
    member, captain, operator = _viewer(db, actor, team, league)
    assert team.id is not None and league.id is not None  # stored rows
    members = current_members(db, team.id)
    names = _team_names(db, league.id)
    zone = leagues.zone(db, league)
    coming = col(Game.start_at) > now
    query = (
        select(Game).where(_plays(team.id))
        .order_by(sa.case((coming, 0), else_=1), sa.case((coming, col(Game.start_at)), else_=None),
                  col(Game.start_at).desc(), col(Game.id))
    )  # fmt: skip

    def project(found: list) -> list[RsvpGame]:
        games = [r[0] for r in found]
        ids = [g.id for g in games if g.id is not None]
        answers, subs = answers_by_game(db, team.id or 0, ids), subs_placed(db, team.id or 0, ids)
        playoffs = Playoffs.read(db, team, league, members, ids) if any(map(playoff_eligibility.is_playoff, games)) else Playoffs()
        return [_game_row(g, team, league, members, answers.get(g.id or 0, {}), subs.get(g.id or 0, []), names, zone,
                          viewer_id=actor.user_id, member=member, captain=captain, now=now, playoffs=playoffs)
                for g in games]  # fmt: skip

    page = paging.offset(db, query, project=project, bookmark=bookmark, size=paging.page_size(size))
    return TeamGames(
        team_id=team.id, team_name=team.team_name, league_name=leagues.display_name(league),
        members=[{"user_id": u.id or 0, "name": _name(u), "role": m.role.value} for m, u in members],
        games=page, member=member, captain=captain, read_only=operator and not member,
        runs=team.captain_id == actor.user_id or any(
            u.id == actor.user_id and m.role in (MemberRole.CAPTAIN, MemberRole.CO_CAPTAIN) for m, u in members),
    )  # fmt: skip


def my_next_games(db: Session, actor: Actor | None, *, now: dt.datetime | None = None,
                  limit: int = NEXT_GAMES) -> list[MyGame]:  # fmt: skip
    """The actor's next games across the teams they are on now (leagues not archived, teams playing), nearest
    first, with their own answer."""
    actor = require_actor(actor)
    return my_next_games_of(player_teams.read(db, actor.user_id, now=now or utcnow(), coming=limit))


def my_next_games_of(found: player_teams.PlayerTeams) -> list[MyGame]:
    """``my_next_games`` of the teams read (``player_teams.read`` with ``coming``): its player's coming games."""
    by_id = {t.team.id: t for t in found.teams if t.team.id is not None}
    out: list[MyGame] = []
    for game_id in found.coming:
        g = found.games[game_id]
        team_id = g.team1_id if g.team1_id in by_id else g.team2_id
        assert team_id is not None
        mine = by_id[team_id]
        other = g.team2_id if team_id == g.team1_id else g.team1_id
        answer = found.answers.get((game_id, team_id))
        where = ", ".join(p for p in (mine.venue, g.court or "") if p)
        out.append({
            "game_id": game_id, "team_id": team_id, "team": mine.team.team_name,
            "league": leagues.display_name(mine.league),
            "opponent": found.names.get(other, "TBD") if other is not None else "BYE",
            "when": timefmt.date_time(g.start_at, mine.zone, labelled=True), "where": where,
            "mine": answer.value if answer else "", "href": routes.team_games_path(team_id),
        })  # fmt: skip
    return out


# -- answering ----------------------------------------------------------------------------------------------------


def _answer_value(answer: object) -> RsvpAnswer:
    text = answer.strip().casefold() if isinstance(answer, str) else ""
    for a in RsvpAnswer:
        if a.value.casefold() == text:
            return a
    raise Invalid({"answer": BAD_ANSWER}, "answer")


def _store(db: Session, game_id: int, team_id: int, user_id: int, answer: RsvpAnswer, now: dt.datetime) -> None:
    """Write the member's answer: the one row per game, team and member, made or changed (two at once: one row).
    The team's games pages open elsewhere read it again once it is committed."""
    live.team_changed(db, team_id)
    values = {"answer": answer, "answered_at": now}
    table = GameRsvp.__table__  # type: ignore[attr-defined]
    where = (table.c.game_id == game_id, table.c.team_id == team_id, table.c.user_id == user_id)
    if db.connection().execute(sa.update(table).where(*where).values(**values)).rowcount:
        return
    try:
        with db.begin_nested():
            db.connection().execute(sa.insert(table).values(game_id=game_id, team_id=team_id, user_id=user_id, **values))
    except sqlalchemy.exc.IntegrityError:  # the other click wrote it first: change it
        db.connection().execute(sa.update(table).where(*where).values(**values))


def _check_answerable(db: Session, game: Game, team: Team, user_id: int, now: dt.datetime, *,
                      left: str = NOT_A_MEMBER) -> None:  # fmt: skip
    assert team.id is not None  # a stored team
    if team.id not in (game.team1_id, game.team2_id):
        raise Forbidden(NOT_TEAMS_GAME)
    if membership(db, team.id, user_id) is None:
        raise Forbidden(left)
    if team.withdrawn_at is not None:
        raise BadRequest(TEAM_WITHDRAWN)
    if game.start_at <= now:
        raise BadRequest(GAME_STARTED)


def answer(db: Session, actor: Actor | None, *, game_id: object, answer: object, team_id: object = None,
           now: dt.datetime | None = None) -> RsvpGame:  # fmt: skip
    """The actor answers In / Out / Maybe for one of their team's coming games; answers that game's row again.

    ``team_id`` may be left out when the actor is on one of the game's teams only.
    """
    actor = require_actor(actor)
    now = now or utcnow()
    value = _answer_value(answer)
    game = load(db, Game, game_id, GAME_NOT_FOUND)
    league = db.get(League, game.league_id)
    if league is None or league.archived_at is not None:
        raise NotFound(GAME_NOT_FOUND)
    sides = [t for t in (game.team1_id, game.team2_id) if t is not None]
    if team_id not in (None, ""):
        tid = record_id(team_id, TEAM_NOT_FOUND)
    else:
        mine = [t for t in sides if membership(db, t, actor.user_id) is not None]
        if len(mine) > 1:
            raise Invalid({"team_id": WHICH_TEAM}, "team_id")
        if not mine:
            in_league = db.exec(
                select(TeamMember.id).join(Team, col(Team.id) == TeamMember.team_id)
                .where(Team.league_id == game.league_id, TeamMember.user_id == actor.user_id,
                       col(TeamMember.left_at).is_(None))
            ).first()  # fmt: skip
            raise Forbidden(NOT_TEAMS_GAME if in_league is not None else NOT_A_MEMBER)
        tid = mine[0]
    team = load(db, Team, tid, TEAM_NOT_FOUND)
    _check_answerable(db, game, team, actor.user_id, now)
    assert game.id is not None and team.id is not None  # stored rows
    _store(db, game.id, team.id, actor.user_id, value, now)
    return game_row(db, actor, game, team, league, now=now)


def game_row(db: Session, actor: Actor, game: Game, team: Team, league: League, *, now: dt.datetime) -> RsvpGame:
    """One game of the team as the actor sees it on the team's games page (after an answer: only what changed)."""
    assert team.id is not None and game.id is not None and league.id is not None  # stored rows
    member, captain, _operator = _viewer(db, actor, team, league)
    members = current_members(db, team.id)
    return _game_row(game, team, league, members, answers_by_game(db, team.id, [game.id]).get(game.id, {}),
                     subs_placed(db, team.id, [game.id]).get(game.id, []), _team_names(db, league.id),
                     leagues.zone(db, league), viewer_id=actor.user_id, member=member, captain=captain, now=now,
                     playoffs=Playoffs.read(db, team, league, members, [game.id]) if playoff_eligibility.is_playoff(game)
                     else Playoffs())  # fmt: skip


def answer_of(db: Session, game_id: int, team_id: int, user_id: int) -> str:
    """A member's answer for a game ("" when none)."""
    found = db.exec(select(GameRsvp.answer).where(GameRsvp.game_id == game_id, GameRsvp.team_id == team_id,
                                                  GameRsvp.user_id == user_id)).first()  # fmt: skip
    return RsvpAnswer(found).value if found else ""


# -- one-click links ----------------------------------------------------------------------------------------------


def link_token(game: Game, team_id: int, user_id: int, answer: RsvpAnswer) -> str:
    """The token of a reminder's one-click ``answer``, good until the game starts."""
    expiry = int(game.start_at.timestamp())
    letter = _LETTER[answer]
    signature = signing.sign(signing.RSVP_ANSWER, game.id, team_id, user_id, letter, expiry)
    return f"{game.id}.{team_id}.{user_id}.{letter}.{expiry}.{signature}"


class LinkView(TypedDict):
    """What a one-click link answers: the game, the team, the member, the answer."""

    answer: str
    team: str
    team_id: int
    opponent: str
    when: str
    first_name: str


@dataclasses.dataclass(frozen=True)
class _Link:
    game: Game
    team: Team
    user: User
    answer: RsvpAnswer


def _read(db: Session, token: object, now: dt.datetime) -> _Link:
    parts = token.split(".") if isinstance(token, str) and len(token) < 200 else []
    if (len(parts) != 6 or not all(p.isdigit() and len(p) < 12 for p in (parts[0], parts[1], parts[2], parts[4]))
            or parts[3] not in _FROM_LETTER):  # fmt: skip
        raise NotFound(BAD_LINK)
    gid, tid, uid, letter, expiry = int(parts[0]), int(parts[1]), int(parts[2]), parts[3], int(parts[4])
    if not signing.verify(signing.RSVP_ANSWER, parts[5], gid, tid, uid, letter, expiry):
        raise NotFound(BAD_LINK)
    game, team, user = db.get(Game, gid), db.get(Team, tid), db.get(User, uid)
    if game is None or team is None or user is None:
        raise NotFound(BAD_LINK)
    if dt.datetime.fromtimestamp(expiry, dt.UTC) <= now or game.start_at <= now:
        raise BadRequest(EXPIRED_LINK)
    league = db.get(League, game.league_id)
    if league is None or league.archived_at is not None or not user.active or user.archived_at is not None:
        raise BadRequest(LEFT_TEAM)
    _check_answerable(db, game, team, uid, now, left=LEFT_TEAM)
    return _Link(game, team, user, _FROM_LETTER[letter])


def _view(db: Session, link: _Link) -> LinkView:
    game, team = link.game, link.team
    assert team.id is not None  # a stored team
    other = game.team2_id if game.team1_id == team.id else game.team1_id
    opponent = db.get(Team, other) if other is not None else None
    league = db.get(League, game.league_id)
    zone = leagues.zone(db, league) if league else None
    return {"answer": link.answer.value, "team": team.team_name, "team_id": team.id,
            "opponent": opponent.team_name if opponent else "BYE", "when": timefmt.long(game.start_at, zone),
            "first_name": mail.first_name(link.user)}  # fmt: skip


def read_link(db: Session, token: object, *, now: dt.datetime | None = None) -> LinkView:
    """What a one-click link would answer (nothing changes). NotFound: forged; BadRequest: the game started or the
    member left the team."""
    return _view(db, _read(db, token, now or utcnow()))


def answer_by_link(db: Session, token: object, *, now: dt.datetime | None = None) -> LinkView:
    """Record a one-click link's answer, without logging in, as its member (the same rules as answering on the
    page; using it again changes nothing more, another of the three links changes the answer)."""
    now = now or utcnow()
    link = _read(db, token, now)
    assert link.game.id is not None and link.team.id is not None and link.user.id is not None  # stored rows
    _store(db, link.game.id, link.team.id, link.user.id, link.answer, now)
    return _view(db, link)


# -- reminders ----------------------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Due:
    game_id: int
    team_id: int
    user_id: int


def due(db: Session, now: dt.datetime) -> list[Due]:
    """Every reminder whose day has come: for each game starting within its team's ``rsvp_reminder_days``, each
    current member with no answer who has not been reminded."""
    games = db.exec(
        select(Game).join(League, col(League.id) == Game.league_id)
        .where(Game.start_at > now, Game.start_at <= now + dt.timedelta(days=REMIND_AHEAD_MAX),
               col(Game.team2_id).is_not(None), col(League.archived_at).is_(None))
        .order_by(col(Game.start_at), col(Game.id))
    ).all()  # fmt: skip
    team_ids = {t for g in games for t in (g.team1_id, g.team2_id) if t is not None}
    if not team_ids:
        return []
    teams = {t.id: t for t in db.exec(select(Team).where(col(Team.id).in_(team_ids), col(Team.withdrawn_at).is_(None),
                                                         col(Team.waitlist).is_(False))).all()}  # fmt: skip
    members: dict[int, list[int]] = {}
    for m in db.exec(select(TeamMember).where(col(TeamMember.team_id).in_(set(teams)), col(TeamMember.left_at).is_(None))
                     .order_by(col(TeamMember.id))).all():  # fmt: skip
        members.setdefault(m.team_id, []).append(m.user_id)
    done = {(r.game_id, r.team_id, r.user_id) for r in db.exec(
        select(GameRsvp).where(col(GameRsvp.game_id).in_([g.id for g in games]),
                               sa.or_(col(GameRsvp.answer).is_not(None), col(GameRsvp.reminded_at).is_not(None)))
    ).all()}  # fmt: skip
    out: list[Due] = []
    for g in games:
        assert g.id is not None  # a stored game
        for tid in (g.team1_id, g.team2_id):
            team = teams.get(tid)
            if team is None or team.id is None or g.start_at - dt.timedelta(days=team.rsvp_reminder_days) > now:
                continue
            out += [Due(g.id, team.id, u) for u in members.get(team.id, []) if (g.id, team.id, u) not in done]
    return out


def send_one(db: Session, reminder: Due, now: dt.datetime) -> bool:
    """Mark one reminder sent and queue its email, in ``db``'s transaction; False when no longer due (answered,
    reminded by another sweep, left the team, the game moved or started)."""
    game, team, user = db.get(Game, reminder.game_id), db.get(Team, reminder.team_id), db.get(User, reminder.user_id)
    if game is None or team is None or user is None or not user.email or user.archived_at is not None:
        return False
    if game.start_at <= now or game.start_at - dt.timedelta(days=team.rsvp_reminder_days) > now:
        return False
    if team.withdrawn_at is not None or membership(db, reminder.team_id, reminder.user_id) is None:
        return False
    table = GameRsvp.__table__  # type: ignore[attr-defined]
    where = (table.c.game_id == reminder.game_id, table.c.team_id == reminder.team_id,
             table.c.user_id == reminder.user_id)  # fmt: skip
    existing = db.connection().execute(sa.select(table.c.id).where(*where)).first()
    if existing is not None:
        marked = db.connection().execute(
            sa.update(table).where(*where, table.c.answer.is_(None), table.c.reminded_at.is_(None)).values(reminded_at=now)
        ).rowcount  # fmt: skip
        if marked != 1:
            return False
    else:
        with db.begin_nested():  # IntegrityError: another sweep wrote it first (and sent it)
            db.connection().execute(sa.insert(table).values(game_id=reminder.game_id, team_id=reminder.team_id,
                                                            user_id=reminder.user_id, reminded_at=now))  # fmt: skip
    view = _view(db, _Link(game, team, user, RsvpAnswer.IN))
    links = {f"answer_{a.value.lower()}": routes.backend_absolute(routes.rsvp_answer_path(
        link_token(game, reminder.team_id, reminder.user_id, a))) for a in RsvpAnswer}  # fmt: skip
    court = f", {game.court}" if game.court else ""
    link = routes.team_games_path(reminder.team_id)
    notices.notify(db, user, notices.RSVP_REMINDER, link=link, email=("game_rsvp_reminder", {
        "first_name": view["first_name"], "team": view["team"], "opponent": view["opponent"], "when": view["when"],
        "court": court, **links, "page": routes.absolute(link),
    }), text=f"{view['team']} vs {view['opponent']}, {view['when']}: are you playing?",
        actions=[{"action": "in", "title": "I'm in", "url": links["answer_in"], "post": True},
                 {"action": "out", "title": "I'm out", "url": links["answer_out"], "post": True}])  # fmt: skip
    return True


def send_reminders(now: dt.datetime | None = None) -> int:
    """Send every reminder that is due, each in its own transaction; returns how many this call sent. Safe on
    several instances at once: a reminder another sweep recorded first is skipped."""
    return periodic.each_once(due, send_one, now or utcnow(), what="game reminder")


async def run_forever(stop_event: asyncio.Event | None = None, interval: float = SWEEP_SECONDS) -> None:
    """Run :func:`send_reminders` every ``interval`` seconds (in a worker thread) until cancelled or stopped."""
    await periodic.every(interval, send_reminders, name="Game answer reminders", stop_event=stop_event)
