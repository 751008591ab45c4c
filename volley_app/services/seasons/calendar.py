"""Calendar feeds (iCalendar, RFC 5545): a league's games, a team's, and a player's own at a secret address.

A feed's address carries the reader's calendar token (``User.calendar_token``), so a phone's calendar
app subscribes without logging in; the token stands for its user, who must still be allowed to read
the league. A new token (or none) makes the old address answer 404. Each game is one event with a
stable UID (its league, week and match: the same place in a redrawn schedule updates the same event)
and its SEQUENCE (bumped whenever it moves); times carry the venue's TZID.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import secrets
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import sqlalchemy as sa
from icalendar import Calendar, Event
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import (
    Game,
    GameRsvp,
    GameType,
    League,
    RsvpAnswer,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    Team,
    TeamMember,
    User,
    utcnow,
)
from volley_app.services.accounts import venues
from volley_app.services.accounts.auth import actor_of
from volley_app.services.core import timefmt
from volley_app.services.core.actors import Actor, load, record_id, require_actor
from volley_app.services.core.errors import NotFound
from volley_app.services.seasons import leagues
from volley_app.services.seasons.leagues import access_league
from volley_app.settings import get_settings

FEED_NOT_FOUND = "No such calendar."
SUB_MINUTES = 60  # how long a sub request's event lasts (a request has a start only)
personal_feed_path, league_feed_path, team_feed_path = routes.personal_feed_path, routes.league_feed_path, routes.team_feed_path


# --- the token -------------------------------------------------------------------------------------


def _new_token() -> str:
    return secrets.token_urlsafe(32)


def _own_user(db: Session, actor: Actor | None) -> User:
    """The acting user's own row."""
    return load(db, User, require_actor(actor).user_id)


def feed_token(db: Session, actor: Actor | None) -> str:
    """The actor's calendar token, made the first time it is needed."""
    user = _own_user(db, actor)
    if user.calendar_token is None:
        user.calendar_token = _new_token()
        db.add(user)
        db.flush()
    return user.calendar_token


def my_feed(db: Session, actor: Actor | None) -> str:
    """The address path of the actor's personal feed ("" when it is off)."""
    token = _own_user(db, actor).calendar_token
    return personal_feed_path(token) if token else ""


def regenerate(db: Session, actor: Actor | None) -> str:
    """A new secret address for the actor's feeds: every address given out before answers 404."""
    user = _own_user(db, actor)
    token = user.calendar_token = _new_token()
    db.add(user)
    db.flush()
    return personal_feed_path(token)


def revoke(db: Session, actor: Actor | None) -> None:
    """Turn the actor's feeds off: every address given out answers 404 until a new one is made."""
    user = _own_user(db, actor)
    user.calendar_token = None
    db.add(user)
    db.flush()


def _reader(db: Session, token: object) -> User:
    text = token if isinstance(token, str) else ""
    if not (20 <= len(text) <= 64):
        raise NotFound(FEED_NOT_FOUND)
    user = db.exec(select(User).where(User.calendar_token == text)).first()
    if user is None or not user.active or user.archived_at is not None:
        raise NotFound(FEED_NOT_FOUND)
    return user


# --- the events ------------------------------------------------------------------------------------


def _zone(name: str | None = None) -> ZoneInfo:
    """A venue's zone (the default zone for what has no venue)."""
    return timefmt.zone_of(name)


def _host() -> str:
    return urlsplit(get_settings().public_url).hostname or "volley.invalid"


def game_uid(game: Game) -> str:
    """Stable across a redrawn schedule: a league game is its league, week and match."""
    if game.type == GameType.LEAGUE and game.round and game.match:
        return f"league-{game.league_id}-week-{game.round}-match-{game.match}@{_host()}"
    return f"game-{game.id}@{_host()}"


def _where(league: League, venue: str) -> str:
    place = ", ".join(p for p in (league.address, league.city, league.region.value if league.region else None) if p)
    return " – ".join(p for p in (venue, place) if p)


def _calendar(name: str, zone: str | None = None) -> Calendar:
    cal = Calendar()
    cal.add("prodid", "-//Volleyball leagues//Schedule//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", name)
    cal.add("x-wr-timezone", zone or timefmt.default_name())
    return cal


def _game_events(db: Session, games: list[Game], *, for_team_ids: set[int] | None = None,
                 answers: Answers | None = None) -> list[Event]:
    """The games as events; with ``answers`` (the reader's own), each game of a team they are on says their
    In / Out / Maybe (or that they have not answered) and links to the team's games page, where they answer."""
    if not games:
        return []
    league_rows = {lg.id: lg for lg in db.exec(select(League).where(col(League.id).in_({g.league_id for g in games}))).all()}
    team_ids = {t for g in games for t in (g.team1_id, g.team2_id) if t is not None}
    names = {t.id: t.team_name for t in db.exec(select(Team).where(col(Team.id).in_(team_ids))).all()} if team_ids else {}
    svls = venues.svl_names(db, {lg.svl_id for lg in league_rows.values()})
    zones = venues.zones(db, {lg.svl_id for lg in league_rows.values()})
    now = utcnow()
    events = []
    for g in games:
        league = league_rows[g.league_id]
        one, two = names.get(g.team1_id, "TBD"), ("BYE" if g.team2_id is None else names.get(g.team2_id, "TBD"))
        mine = (for_team_ids or set()) & {g.team1_id, g.team2_id}
        you, answer_here = "", ""
        if mine and g.team2_id is not None:
            us = g.team1_id if g.team1_id in mine else g.team2_id
            them = two if us == g.team1_id else one
            summary = f"{names.get(us, '')} v {them}"
            if answers is not None and us is not None and us in answers.teams and g.id is not None:
                you = answers.answers.get((g.id, us)) or "not answered"
                answer_here = routes.absolute(routes.team_games_path(us))
        else:
            them, summary = "", f"{one} v {two}"
        venue = svls.get(league.svl_id, "")
        ev = Event()
        ev.add("uid", game_uid(g))
        ev.add("sequence", g.sequence)
        ev.add("dtstamp", now)
        start = g.start_at.astimezone(_zone(zones.get(league.svl_id)))  # the TZID of the game's venue
        ev.add("dtstart", start)
        ev.add("dtend", start + dt.timedelta(minutes=league.time_increment))
        ev.add("summary", f"{summary} ({leagues.display_name(league)})" + (f" (You: {you})" if you else ""))
        ev.add("location", " · ".join(p for p in (_where(league, venue), g.court) if p))
        lines = [f"{leagues.display_name(league)}, week {g.round}" if g.round else leagues.display_name(league)]
        if g.court:
            lines.append(f"Court: {g.court}")
        if them:
            lines.append(f"Opponent: {them}")
        lines.append(f"Venue: {_where(league, venue)}")
        if you:
            lines.append(f"Your answer: {you}. Answer or change it: {answer_here}")
        lines.append(routes.absolute(routes.schedule_path(league.id)))
        ev.add("description", "\n".join(lines))
        ev.add("url", routes.absolute(routes.schedule_path(league.id)))
        events.append(ev)
    return events


@dataclasses.dataclass(frozen=True)
class Answers:
    """A reader's own answers: the teams they are on now, and their In / Out / Maybe by (game, team)."""

    teams: frozenset[int]
    answers: dict[tuple[int, int], str]


def _answers(db: Session, user_id: int, team_ids: set[int], game_ids: list[int]) -> Answers:
    """The reader's answers for ``game_ids`` on the teams of ``team_ids`` they are on, in one query."""
    found = db.exec(
        select(GameRsvp.game_id, GameRsvp.team_id, GameRsvp.answer).where(
            GameRsvp.user_id == user_id, col(GameRsvp.answer).is_not(None), col(GameRsvp.game_id).in_(game_ids or [-1]),
            col(GameRsvp.team_id).in_(team_ids or {-1}))
    ).all()  # fmt: skip
    return Answers(frozenset(team_ids), {(g, t): RsvpAnswer(a).value for g, t, a in found if a is not None})


def _sub_events(db: Session, requests: list[SubRequest]) -> list[Event]:
    zones = venues.zones_by_name(db, [r.svl for r in requests])  # a request names its venue
    now = utcnow()
    out = []
    for r in requests:
        assert r.id is not None  # a stored request
        ev = Event()
        ev.add("uid", f"sub-request-{r.id}@{_host()}")
        ev.add("dtstamp", now)
        ev.add("last-modified", r.updated_at)
        start = r.date.astimezone(_zone(zones.get(r.svl.strip().casefold())))
        ev.add("dtstart", start)
        ev.add("dtend", start + dt.timedelta(minutes=SUB_MINUTES))
        ev.add("summary", f"Subbing for {r.team}")
        ev.add("location", " · ".join(p for p in (r.svl, r.court) if p))
        ev.add("description", "\n".join(p for p in (
            f"Sub for {r.team} ({r.format.value}, {r.skill_level.value})", f"Court: {r.court}" if r.court else "",
            r.text or "", routes.absolute(routes.sub_request_path(r.id)),
        ) if p))  # fmt: skip
        out.append(ev)
    return out


def _ical(name: str, events: list[Event], zone: str | None = None) -> bytes:
    cal = _calendar(name, zone)
    for ev in events:
        cal.add_component(ev)
    cal.add_missing_timezones()
    return cal.to_ical()


def _league_games(db: Session, stmt) -> list[Game]:
    return list(db.exec(stmt.order_by(col(Game.start_at), col(Game.match), col(Game.id))).all())


def league_feed(db: Session, token: object, league_id: object) -> bytes:
    """Every game of a league, for the token's user when they may read the league."""
    user = _reader(db, token)
    try:
        league = access_league(db, actor_of(user), league_id)
    except Exception as exc:  # any refusal looks the same from outside: no such calendar
        raise NotFound(FEED_NOT_FOUND) from exc
    games = _league_games(db, select(Game).where(Game.league_id == league.id))
    return _ical(leagues.display_name(league), _game_events(db, games), leagues.zone(db, league))


def team_feed(db: Session, token: object, team_id: object) -> bytes:
    """One team's games, for the token's user when they may read its league."""
    user = _reader(db, token)
    try:
        team = load(db, Team, team_id, FEED_NOT_FOUND)
        league = access_league(db, actor_of(user), team.league_id)
    except Exception as exc:
        raise NotFound(FEED_NOT_FOUND) from exc
    assert team.id is not None  # a stored team
    games = _league_games(db, select(Game).where(sa.or_(col(Game.team1_id) == team.id, col(Game.team2_id) == team.id)))
    return _ical(f"{team.team_name} ({leagues.display_name(league)})", _game_events(db, games, for_team_ids={team.id}),
                 leagues.zone(db, league))


def personal_feed(db: Session, token: object) -> bytes:
    """The token's user's own calendar: the games of the teams they captain or are on (with their own answer), and
    the sub requests they took a place on."""
    user = _reader(db, token)
    assert user.id is not None  # a stored user
    member = select(TeamMember.team_id).where(TeamMember.user_id == user.id, col(TeamMember.left_at).is_(None))
    teams = db.exec(
        select(Team.id, col(Team.id).in_(member))  # each team, and whether they are on it (not only its captain)
        .join(League, col(League.id) == Team.league_id)
        .where(sa.or_(col(Team.captain_id) == user.id, col(Team.id).in_(member)), col(Team.waitlist).is_(False),
               col(Team.withdrawn_at).is_(None), col(League.archived_at).is_(None))
    ).all()  # fmt: skip
    team_ids = {t for t, _on in teams if t is not None}
    games = (
        _league_games(db, select(Game).where(sa.or_(col(Game.team1_id).in_(team_ids), col(Game.team2_id).in_(team_ids))))
        if team_ids else []
    )  # fmt: skip
    answers = _answers(db, user.id, {t for t, on in teams if t is not None and on}, [g.id for g in games if g.id is not None])
    subs = db.exec(
        select(SubRequest).where(_subbing(user.id), col(SubRequest.archived_at).is_(None)).order_by(col(SubRequest.date), col(SubRequest.id))
    ).all()
    name = f"{user.first_name}'s volleyball"
    return _ical(name, [*_game_events(db, games, for_team_ids=team_ids, answers=answers), *_sub_events(db, list(subs))])


def feed_links(db: Session, actor: Actor | None, *, league_id: object = None, team_id: object = None) -> dict[str, str]:
    """Address paths to subscribe to: the league's (when given), the team's (when given), the actor's own."""
    actor = require_actor(actor)
    token = feed_token(db, actor)
    out = {"mine": personal_feed_path(token)}
    if league_id not in (None, ""):
        league = access_league(db, actor, league_id)
        assert league.id is not None  # a stored league
        out["league"] = league_feed_path(token, league.id)
    if team_id not in (None, ""):
        team = load(db, Team, team_id, "No such team.")
        access_league(db, actor, team.league_id)
        assert team.id is not None  # a stored team
        out["team"] = team_feed_path(token, team.id)
    return out


def accepted_request_feed(db: Session, actor: Actor | None, request_id: object) -> str:
    """The actor's own feed path when they sub on that request (its event is there); else ""."""
    actor = require_actor(actor)
    rid = record_id(request_id, "Sub request not found")
    found = select(SubRequest.id).where(SubRequest.id == rid, _subbing(actor.user_id), col(SubRequest.archived_at).is_(None))
    if db.exec(found).first() is None:
        return ""
    return personal_feed_path(feed_token(db, actor))


def _subbing(user_id: int) -> sa.ColumnElement[bool]:
    """The requests ``user_id`` subs on: a place taken (on a request for several players too) or named and accepted."""
    placed = col(SubRequest.id).in_(select(SubRequestPlace.request_id).where(SubRequestPlace.user_id == user_id))
    return sa.or_(placed, sa.and_(col(SubRequest.recipient_id) == user_id, col(SubRequest.status) == SubStatus.ACCEPTED))
