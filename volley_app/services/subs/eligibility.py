"""Who may take a sub request: the rules of the suggested subs (``services/subs/matching.py``), and of an accept.

Each rule is a condition on ``users`` for one request (:func:`rules`), so one query lists the subs who keep
them all, or says which a sub misses and why in words (:func:`why_not`):

- requestor: not the one who made the request;
- placed: no place on this request already;
- rating: rated at the needed position at or above the request's lowest rating (position "Any": their best
  of hitter, passer and setter); a request without a lowest rating takes any sub, rated or not;
- gender: the gender the request needs (a sub with no gender given fits only "Any");
- weekday, date: free that weekday and not unavailable that day (the venue's local date of the game);
- cap: under their weekly cap of places taken (Monday to Sunday, venue dates);
- playing: not the captain of a team with a game starting within an hour of the request's time;
- subbing: no other place taken on a request within an hour;
- for a request made for a league game (``game_id``/``team_id``), the league's rules (:class:`LeagueRules`):
  teammate, not on the requesting team's roster; roster, not on another of the league's teams when the league
  says so; level, rated within the levels around the league's skill it allows. In the league's playoffs (a
  request for a game of a playoff round) a league may want its operator to approve each sub: not a refusal,
  a note (:data:`APPROVAL`) the suggestions and the accept show; the place is held until the operator says.

Suggestions apply every rule. An accept (:func:`refusal`) applies the request's needs and the sub's own
games (:data:`ACCEPT_RULES`): a sub who takes a request on a day they said they are not free has changed
their mind, which is theirs to do.
"""

from __future__ import annotations

import dataclasses
import datetime as dt

import sqlalchemy as sa
from sqlmodel import Session, col

from volley_app.models import (
    Game,
    Gender,
    GenderNeeded,
    League,
    Position,
    Rating,
    SkillLevel,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    SubUnavailableDate,
    Team,
    TeamMember,
    User,
)
from volley_app.services.accounts import venues
from volley_app.services.core import timefmt
from volley_app.services.subs import availability

BUSY_WINDOW = dt.timedelta(hours=1)
UNRATED = 9
RANK = {"A": 0, "B": 1, "C": 2, "D": 3}
LETTERS = {v: k for k, v in RANK.items()}
COLUMNS = {Position.HITTER: "hitter_skill_level", Position.PASSER: "passer_skill_level", Position.SETTER: "setter_skill_level"}
# A league's skill as a rating rank: what a sub's rating is measured against.
SKILL_RANK = {SkillLevel.A: 0, SkillLevel.B: 1, SkillLevel.C_PLUS: 2, SkillLevel.C: 2, SkillLevel.D: 3}
RULES = ("requestor", "placed", "rating", "gender", "weekday", "date", "cap", "playing", "subbing", "teammate",
         "roster", "level")  # fmt: skip
# What an accept checks: the request's needs, the league's rules, and the sub's own games and places at that time.
ACCEPT_RULES = ("rating", "gender", "playing", "subbing", "teammate", "roster", "level")
APPROVAL = "Playoff subs need the operator's approval"


@dataclasses.dataclass(frozen=True)
class LeagueRules:
    """The rules of the league a request finds subs for (its game's team's league)."""

    team_id: int
    league_id: int
    skill: SkillLevel
    others_may_sub: bool  # a player rostered on another of the league's teams may sub
    levels_below: int | None  # how many levels under the league's skill a sub may be rated (None: any)
    levels_above: int | None  # and over it
    approval: bool = False  # a playoff game of a league whose operator approves each sub

    @property
    def note(self) -> str:
        """What a sub who keeps every rule should still know ("" when nothing)."""
        return APPROVAL if self.approval else ""

    @property
    def level_range(self) -> tuple[int, int] | None:
        """The ranks a sub's rating may have (best first), or None when the league sets no bound."""
        if self.levels_below is None and self.levels_above is None:
            return None
        target = SKILL_RANK[self.skill]
        low = max(target - self.levels_above, 0) if self.levels_above is not None else 0
        return low, min(target + self.levels_below, 3) if self.levels_below is not None else 3


def league_rules(db: Session, req: SubRequest) -> LeagueRules | None:
    """The league rules that apply to ``req`` (None for a request not made for a league team)."""
    if req.team_id is None:
        return None
    playoff = sa.select(col(Game.round) > 0).where(col(Game.id) == req.game_id).scalar_subquery()
    found = db.execute(
        sa.select(col(League.id), col(League.skill_level), col(League.subs_from_other_teams),
                  col(League.sub_levels_below), col(League.sub_levels_above),
                  sa.and_(col(League.playoff_subs_approved), sa.func.coalesce(playoff, sa.false())))
        .join(Team, col(Team.league_id) == League.id).where(col(Team.id) == req.team_id)
    ).first()  # fmt: skip
    if found is None:
        return None
    return LeagueRules(req.team_id, found[0], found[1], found[2], found[3], found[4], bool(found[5]))


def noted(reason: str, league: LeagueRules | None) -> str:
    """A suggested sub's reason, with what the league's rules still say of them (the operator's approval)."""
    return f"{reason}; {league.note}" if league is not None and league.note else reason


def needs_approval(db: Session, req: SubRequest) -> bool:
    """A place on ``req`` waits for the league operator's approval (a playoff game of a league that wants it)."""
    league = league_rules(db, req)
    return league is not None and league.approval


def position_rank(position: Position) -> sa.ColumnElement[int]:
    """The sub's rating rank at ``position`` (their best of the three for "Any"), UNRATED when unrated."""
    if position != Position.ANY:
        return rank(getattr(User, COLUMNS[position]))
    h, p, s = (rank(getattr(User, c)) for c in COLUMNS.values())
    return sa.case((sa.and_(h <= p, h <= s), h), (p <= s, p), else_=s)


def _rostered(*where: sa.ColumnElement[bool]) -> sa.Select:
    """The current members of the teams ``where`` picks."""
    return (sa.select(col(TeamMember.user_id)).join(Team, col(Team.id) == TeamMember.team_id)
            .where(col(TeamMember.left_at).is_(None), *where))  # fmt: skip


def _league_rules(req: SubRequest, league: LeagueRules | None) -> dict[str, sa.ColumnElement[bool]]:
    if league is None:
        return {"teammate": sa.true(), "roster": sa.true(), "level": sa.true()}
    others = _rostered(col(Team.league_id) == league.league_id, col(Team.id) != league.team_id,
                       col(Team.withdrawn_at).is_(None))  # fmt: skip
    span = league.level_range
    at = position_rank(req.position_needed or Position.ANY)
    return {
        "teammate": col(User.id).not_in(_rostered(col(Team.id) == league.team_id)),
        "roster": sa.true() if league.others_may_sub else col(User.id).not_in(others),
        "level": sa.true() if span is None else sa.and_(at >= span[0], at <= span[1]),
    }


def rank(column) -> sa.ColumnElement[int]:
    """A rating as a number (A 0 ... D 3), UNRATED when there is none."""
    return sa.case(*[(column == Rating(k), v) for k, v in RANK.items()], else_=UNRATED)


def flag(condition: sa.ColumnElement[bool]) -> sa.ColumnElement[int]:
    """1 when ``condition`` holds, else 0 (a NULL never holds)."""
    return sa.case((condition, 1), else_=0)


def week_of(day: dt.date, zone: str) -> tuple[dt.datetime, dt.datetime]:
    monday = day - dt.timedelta(days=day.weekday())
    return timefmt.day_start(monday, zone), timefmt.day_start(monday + dt.timedelta(days=7), zone)


def rules(req: SubRequest, zone: str, league: LeagueRules | None = None) -> tuple[dict[str, sa.ColumnElement[bool]], sa.Subquery]:
    """Each eligibility rule as a condition on ``users`` (with the week's count joined as ``week``), by name;
    ``league``: the rules of the league the request is for (:func:`league_rules`)."""
    day = timefmt.local(req.date, zone).date()
    start, end = week_of(day, zone)
    near = (req.date - BUSY_WINDOW, req.date + BUSY_WINDOW)
    # the places taken on other requests not cancelled (every status: a request for several may still be open;
    # the status/date index reads the dates)
    on_request = col(SubRequest.id) == SubRequestPlace.request_id
    taken = (col(SubRequest.status).in_(list(SubStatus)), col(SubRequest.archived_at).is_(None),
             col(SubRequest.id) != req.id)
    week = (
        sa.select(col(SubRequestPlace.user_id).label("sub_id"), sa.func.count().label("taken"))
        .join(SubRequest, on_request)
        .where(*taken, col(SubRequest.date) >= start, col(SubRequest.date) < end)
        .group_by(col(SubRequestPlace.user_id))
        .subquery("week")
    )
    subbing = (
        sa.select(col(SubRequestPlace.user_id))
        .join(SubRequest, on_request)
        .where(*taken, col(SubRequest.date) > near[0], col(SubRequest.date) < near[1])
    )
    # the captains and members of the teams with a game then
    with_a_game = (
        sa.select(col(Team.id), col(Team.captain_id))
        .join(Game, sa.or_(col(Game.team1_id) == Team.id, col(Game.team2_id) == Team.id))
        .join(League, col(League.id) == Team.league_id)
        .where(
            col(Team.withdrawn_at).is_(None), col(Team.waitlist).is_(False), col(League.archived_at).is_(None),
            col(Game.start_at) > near[0], col(Game.start_at) < near[1],
            # the requesting team's own players are "on this team's roster", not busy with its game
            col(Team.id) != league.team_id if league else sa.true(),
        )
        .subquery("with_a_game")
    )  # fmt: skip
    playing = sa.union(
        sa.select(with_a_game.c.captain_id).where(with_a_game.c.captain_id.is_not(None)),
        sa.select(col(TeamMember.user_id)).join(with_a_game, with_a_game.c.id == TeamMember.team_id)
        .where(col(TeamMember.left_at).is_(None)),
    )  # fmt: skip
    position = req.position_needed or Position.ANY
    rating_ok: sa.ColumnElement[bool] = sa.true()
    if req.min_rating is not None:
        good = [Rating(k) for k, v in RANK.items() if v <= RANK[req.min_rating.value]]
        if position == Position.ANY:
            rating_ok = sa.or_(*[getattr(User, c).in_(good) for c in COLUMNS.values()])
        else:
            rating_ok = getattr(User, COLUMNS[position]).in_(good)
    gender = req.gender_needed or GenderNeeded.ANY
    unavailable = sa.exists().where(col(SubUnavailableDate.user_id) == User.id, col(SubUnavailableDate.day) == day)
    placed = sa.exists().where(col(SubRequestPlace.request_id) == req.id, col(SubRequestPlace.user_id) == User.id)
    rules = {
        "requestor": col(User.id) != req.requestor_id,
        "placed": ~placed,
        "rating": rating_ok,
        "gender": sa.true() if gender == GenderNeeded.ANY else col(User.gender) == Gender(gender.value),
        "weekday": col(User.sub_days).op("&")(availability.day_bit(day.weekday())) != 0,
        "date": ~unavailable,
        "cap": sa.or_(col(User.sub_weekly_cap).is_(None), sa.func.coalesce(week.c.taken, 0) < User.sub_weekly_cap),
        "playing": col(User.id).not_in(playing),
        "subbing": col(User.id).not_in(subbing),
        **_league_rules(req, league),
    }
    return rules, week


def best(row, position: Position) -> tuple[str, str]:
    """The position named in the reason and the sub's rating there ("" when unrated)."""
    ratings = {p: getattr(row, c) for p, c in COLUMNS.items()}
    if position != Position.ANY:
        r = ratings[position]
        return position.value, r.value if r else ""
    rated = [(RANK[r.value], p) for p, r in ratings.items() if r]
    if not rated:
        return "Player", ""
    _, p = min(rated, key=lambda t: (t[0], list(COLUMNS).index(t[1])))
    return p.value, ratings[p].value


def why_not(row, req: SubRequest, zone: str, league: LeagueRules | None = None) -> str:
    """Why a sub is not suggested (or may not take the request), every rule they miss, in words.

    ``row``: the sub's ratings and gender, and ``ok_<rule>`` 0 for each rule missed (a rule not read counts as kept)."""
    day = timefmt.local(req.date, zone)
    position = req.position_needed or Position.ANY
    out: list[str] = []
    missed = {name for name in RULES if not getattr(row, f"ok_{name}", 1)}
    if "requestor" in missed:
        out.append("made this request")
    if "placed" in missed:
        out.append("has a place on this request already")
    if "rating" in missed:
        where, rating = best(row, position)
        at = "at any position" if position == Position.ANY else f"at {where.lower()}"
        rated = f"rated {rating} {at}" if rating else f"not rated {at}"
        out.append(f"{rated} (needs {req.min_rating.value if req.min_rating else ''} or better)")
    if "gender" in missed:
        out.append(f"not {(req.gender_needed or GenderNeeded.ANY).value.lower()}" if row.gender else "gender not given")
    if "weekday" in missed:
        out.append(f"not free {day:%A}s")
    if "date" in missed:
        out.append(f"unavailable on {day:%b} {day.day}")
    if "cap" in missed:
        out.append(f"at their weekly cap ({row.taken} of {row.sub_weekly_cap})")
    if "playing" in missed:
        out.append("playing at that time")
    if "subbing" in missed:
        out.append("subbing another game at that time")
    if "teammate" in missed:
        out.append("on this team's roster")
    if "roster" in missed:
        out.append("rostered on another team in this league")
    if "level" in missed and league is not None and league.level_range is not None:
        where, rating = best(row, position)
        low, high = league.level_range
        takes = LETTERS[low] if low == high else f"{LETTERS[low]} to {LETTERS[high]}"
        rated = f"rated {rating}" if rating else "not rated"
        out.append(f"{rated}{'' if position == Position.ANY else ' at ' + where.lower()} (this league takes {takes})")
    return "; ".join(out)


def refusal(db: Session, req: SubRequest, user_id: int, names: tuple[str, ...] = ACCEPT_RULES) -> str:
    """Why the user ``user_id`` may not take ``req`` by the rules ``names``, in words ("" when they may)."""
    zone = venues.zone_by_name(db, req.svl)
    league = league_rules(db, req)
    found, _week = rules(req, zone, league)
    columns = (User.gender, *[getattr(User, c) for c in COLUMNS.values()])
    row = db.execute(
        sa.select(*columns, *[flag(found[name]).label(f"ok_{name}") for name in names]).where(col(User.id) == user_id)
    ).first()
    if row is None:
        return "not an active sub"
    return why_not(row, req, zone, league)
