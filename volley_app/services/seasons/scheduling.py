"""Drawing a league's schedule (spec section 4): the round robin's weeks on the league's courts, the unplayed
weeks drawn again after teams change, a week pushed for a holiday; the captains are told by email."""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable, Sequence

from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import Game, GameType, League, Team, User
from volley_app.services.core import audit, timefmt
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Invalid
from volley_app.services.mail import mail, notices
from volley_app.services.seasons import clashes, leagues, schedule, scoring
from volley_app.services.seasons.leagues import access_league

NOT_ENOUGH_TEAMS = "A schedule needs at least 2 teams (waitlisted teams do not count)."
ALREADY_GENERATED = "The schedule for this league has already been generated."


def pairings(team_ids: Sequence[int], weeks: int) -> list[list[tuple[int, int | None]]]:
    """Round robin: each week pairs the first team with the last, the second with the one before, ...

    Between weeks the teams rotate. With an even count the first team stays and the others turn
    (the circle method); with an odd count the whole line turns by one, so the middle team meets
    itself: a BYE (``None``), and each team sits out once a cycle. Either way every pair meets once
    per ``n - 1`` (even) or ``n`` (odd) weeks; longer seasons start the cycle again.
    """
    order = list(team_ids)
    n = len(order)
    out: list[list[tuple[int, int | None]]] = []
    for _week in range(weeks):
        week: list[tuple[int, int | None]] = []
        for i in range(math.ceil(n / 2)):
            a, b = order[i], order[n - 1 - i]
            week.append((a, None) if a == b else (a, b))
        out.append(week)
        if n % 2 == 0:
            order = [order[0], order[-1], *order[1:-1]]
        else:
            order = [*order[1:], order[0]]
    return out


def slot(
    season_start: dt.datetime, week_index: int, match_index: int, increment: int, zone: timefmt.Zone = None
) -> dt.datetime:
    """When a game starts: 7 days a week and ``increment`` minutes a match after the season start.

    Counted on the venue's wall clock (``zone``), so a 6:30 PM league stays at 6:30 PM across a DST change.
    """
    at = timefmt.local(season_start, zone) + dt.timedelta(days=7 * week_index, minutes=increment * match_index)
    return at.astimezone(dt.UTC)


def placements(week: Sequence[tuple[int, int | None]], courts: Sequence[str]) -> list[tuple[int, str | None]]:
    """Where each of a week's matches goes: (time slot, court). Matches fill the courts, then the next slot.

    Two courts: the first two matches at the first time, the next two one increment later, and so on.
    A BYE is played nowhere (no court); it keeps the slot of its place in the week.
    """
    k = max(1, len(courts))
    return [(i // k, None if b is None else courts[i % k]) for i, (_a, b) in enumerate(week)]


def generate(db: Session, actor: Actor | None, league_id: object) -> int:
    """Create the league's games once (its SVL or an admin). Returns how many games were made."""
    league = access_league(db, actor, league_id, manage=True)
    assert league.id is not None  # a stored league
    if league.schedule_generated:
        raise Invalid(ALREADY_GENERATED)
    if len(playing_team_ids(db, league.id)) < 2:
        raise Invalid(NOT_ENOUGH_TEAMS)
    made = _make_weeks(db, league, first_week=1)
    if found := clashes.clashes_in(db, league, made):
        raise Invalid(f"The schedule would put two games together: {found} {clashes.MOVE_OR_CHANGE}")
    league.schedule_generated = True
    league.active = True
    db.add(league)
    db.flush()
    audit.record(
        db, actor, action="generate", entity="schedule", entity_id=league.id, league_id=league.id,
        summary=f"Schedule generated for {leagues.display_name(league)}: {len(made)} games",
    )  # fmt: skip
    return len(made)


def playing_team_ids(db: Session, league_id: int) -> list[int]:
    """The teams in the league's play: not on the waitlist, not withdrawn (in the order they joined)."""
    found = db.exec(
        select(col(Team.id))
        .where(Team.league_id == league_id, col(Team.waitlist).is_(False), col(Team.withdrawn_at).is_(None))
        .order_by(col(Team.id))
    ).all()
    return [i for i in found if i is not None]


def _make_weeks(db: Session, league: League, first_week: int) -> list[Game]:
    """Add the round robin's games for weeks ``first_week``..the last, with the teams playing now (returned)."""
    assert league.id is not None  # a stored league
    made: list[Game] = []
    courts = leagues.court_names(league)
    zone = leagues.zone(db, league)
    weeks = pairings(playing_team_ids(db, league.id), league.number_of_weeks)
    for week_index, week in enumerate(weeks):
        if week_index + 1 < first_week:
            continue
        for match_index, ((a, b), (at, court)) in enumerate(zip(week, placements(week, courts), strict=True)):
            game = Game(
                league_id=league.id, team1_id=a, team2_id=b, type=GameType.LEAGUE, round=week_index + 1,
                match=match_index + 1, court=court, start_at=slot(league.start_at, week_index, at, league.time_increment, zone),
            )  # fmt: skip
            db.add(game)
            made.append(game)
    db.flush()
    return made


def regenerate_unplayed(db: Session, league: League, actor: Actor | None = None) -> int:
    """After teams change: the weeks not yet played are drawn again with the teams playing now.

    Every week up to the last one with a played game stays as it is; the later weeks' games (none
    of them played) are replaced. A game that takes the place (week and match) of one it replaces
    keeps its calendar identity and counts one more move when it differs. The captains of the
    teams in the new weeks are emailed and the change is audited. Returns how many games the new
    weeks have. Nothing happens before the schedule was generated.
    """
    if not league.schedule_generated:
        return 0
    assert league.id is not None  # a stored league
    games = db.exec(select(Game).where(Game.league_id == league.id, Game.type == GameType.LEAGUE)).all()
    last_played = max((g.round for g in games if scoring.played(g)), default=0)
    replaced: dict[tuple[int, int], Game] = {}
    for g in games:
        if g.round > last_played and not scoring.played(g) and g.type == GameType.LEAGUE:
            replaced[(g.round, g.match)] = g
            db.delete(g)
    db.flush()
    made = 0
    if len(playing_team_ids(db, league.id)) >= 2:
        made = len(_make_weeks(db, league, first_week=last_played + 1))
    new = db.exec(select(Game).where(Game.league_id == league.id, Game.round > last_played)).all()
    kept_clear = [g for g in new if g.type == GameType.LEAGUE and not scoring.played(g)]
    clashes.clear_of_kept(db, league, kept_clear, leagues.zone(db, league))
    for g in new:
        old = replaced.get((g.round, g.match))
        if old is not None:
            same = (old.team1_id, old.team2_id, old.start_at, old.court) == (g.team1_id, g.team2_id, g.start_at, g.court)
            g.sequence = old.sequence if same else old.sequence + 1
            db.add(g)
    db.flush()
    if replaced or made:
        name = leagues.display_name(league)
        audit.record(
            db, actor, action="regenerate", entity="schedule", entity_id=league.id, league_id=league.id,
            summary=f"Schedule of {name} redrawn from week {last_played + 1}: {made} games",
            after={"from_week": last_played + 1, "games": made},
        )  # fmt: skip
        teams = {t for g in new for t in (g.team1_id, g.team2_id) if t is not None}
        tell_captains(db, teams, "schedule_changed", {"league": name, "week": last_played + 1}, league_id=league.id,
                      text=f"{name}: the games from week {last_played + 1} on were drawn again")  # fmt: skip
    return made


NOT_GENERATED = "The schedule has not been generated yet."


def redraw(db: Session, actor: Actor | None, league_id: object) -> int:
    """The operator redraws the unplayed weeks (after changing the courts, times or teams). Returns the games made."""
    league = access_league(db, actor, league_id, manage=True)
    if league.archived_at is not None:
        raise Invalid(leagues.ARCHIVED)
    if not league.schedule_generated:
        raise Invalid(NOT_GENERATED)
    return regenerate_unplayed(db, league, actor)


def tell_captains(
    db: Session, team_ids: Iterable[int | None], template: str, values: dict[str, object], *, league_id: int,
    text: str, kind: str | None = None,
) -> int:  # fmt: skip
    """Tell the captains of ``team_ids`` (each person once) of a schedule change: ``text`` in the app, the email
    ``template`` with ``values`` through the outbox; the template is given each captain's ``first_name`` and the
    schedule's address (``page``) too. Returns how many were told."""
    ids = {t for t in team_ids if t is not None}
    if not ids:
        return 0
    captains = db.exec(
        select(User)
        .where(col(User.id).in_(select(col(Team.captain_id)).where(col(Team.id).in_(ids))))
        .order_by(col(User.id))
    ).all()  # each person once, however many of the teams they captain
    link = routes.schedule_path(league_id)
    for user in captains:
        notices.notify(db, user, notices.SCHEDULE_CHANGE, link=link, text=text, mail_kind=kind, email=(
            template, {**values, "first_name": mail.first_name(user), "page": routes.absolute(link)}))  # fmt: skip
    return len(captains)


NOTHING_TO_PUSH = "That week has no games to move."
PLAYED_LATER = "Games from that week on have been played: they stay where they were played."


def push_week(db: Session, actor: Actor | None, league_id: object, *, week: object) -> int:
    """A holiday: the games of ``week`` and every later week move a week later (the league's SVL or an admin).

    Times keep the venue's wall clock (6:30 PM stays 6:30 PM across a DST change). Every captain
    with a moved game is told once; audited. Returns how many games moved.
    """
    league = access_league(db, actor, league_id, manage=True)
    assert league.id is not None  # a stored league
    if league.archived_at is not None:
        raise Invalid(leagues.ARCHIVED)
    number = validation_week(week)
    games = db.exec(select(Game).where(Game.league_id == league.id)).all()
    zone = leagues.zone(db, league)
    moving = [g for g in games if schedule.week_of(league.start_at, g.start_at, zone) >= number]
    if not moving:
        raise Invalid({"week": NOTHING_TO_PUSH})
    if any(scoring.played(g) for g in moving):
        raise Invalid({"week": PLAYED_LATER})
    for g in moving:
        g.start_at = (timefmt.local(g.start_at, zone) + dt.timedelta(days=7)).astimezone(dt.UTC)
        g.sequence += 1
        db.add(g)
    db.flush()
    if found := clashes.clashes_in(db, league, moving):
        raise Invalid({"week": f"Moving the weeks would put two games together: {found}"})
    name = leagues.display_name(league)
    audit.record(
        db, actor, action="push", entity="schedule", entity_id=league.id, league_id=league.id,
        summary=f"Week {number} of {name} and every later week moved a week later ({len(moving)} games)",
        after={"week": number, "games": len(moving)},
    )  # fmt: skip
    first = min(moving, key=lambda g: g.start_at)
    tell_captains(
        db, {t for g in moving for t in (g.team1_id, g.team2_id)}, "week_pushed",
        {"league": name, "week": number, "next_day": timefmt.day(first.start_at, zone)}, league_id=league.id,
        text=f"{name}: the games of week {number} on move a week later",
    )  # fmt: skip
    return len(moving)


def validation_week(value: object) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        number = 0
    if not 1 <= number <= 200:
        raise Invalid({"week": "Choose a week of the schedule"})
    return number
