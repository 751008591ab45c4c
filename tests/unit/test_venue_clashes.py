"""The leagues of one venue share its courts: a game is never placed on a court at a time another league of the
venue plays there (a move, an edit, a new game, push-a-week, a redraw, a generated schedule or bracket), and the
refusal names that game and its league. Another venue's courts and an archived league's games are no clash."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
import sqlalchemy as sa
from sqlmodel import select

from tests.factories import add_league, add_league_session, add_teams, league_world, login_token, rows
from tests.harness import call_handler, redirect_target
from volley_app.models import AuditEntry, Game, GameType, League, PlayoffSeed, SkillLevel, User, utcnow
from volley_app.pages.dash.leagues import game_edit
from volley_app.services.core import timefmt
from volley_app.services.core.errors import Invalid
from volley_app.services.seasons import clashes, games, leagues, playoffs, scheduling

MINUTE = dt.timedelta(minutes=1)
WEEK = dt.timedelta(days=7)


@pytest.fixture
def world(db):
    """SVL A's Monday C 6s (six teams T1-T6, Court 1, a game every 50 minutes from its start) with its schedule
    generated; its courts list Court 2 as well, so a game may be moved there."""
    w = league_world(db)
    lg = w["lg"]
    lg.start_at = lg.start_at.replace(second=0, microsecond=0)  # on the minute, as a form gives it
    db.add(lg)
    db.commit()
    add_teams(db, lg, 6)
    scheduling.generate(db, w["a"], lg.id)
    lg.courts = "Court 1\nCourt 2"
    db.add(lg)
    db.commit()
    w["zone"] = leagues.zone(db, lg)
    return w


def _other_league(db, w, *, start: dt.datetime, court: str, increment: int = 50, svl: str = "svla",
                  generate: bool = True, **columns) -> League:  # fmt: skip
    """Another league (Monday B 6s, four teams B1-B4, one court) of ``svl``'s venue, its schedule generated."""
    user = db.exec(select(User).where(User.username == svl)).one()
    sid = w["sid"] if svl == "svla" else add_league_session(db, user, "B fall", start - WEEK, start + 10 * WEEK)
    other = add_league(db, user, sid, start=start, increment=increment, court=court, skill_level=SkillLevel.B,
                       **columns)  # fmt: skip
    add_teams(db, other, 4, prefix="B")
    if generate:
        scheduling.generate(db, w["a"] if svl == "svla" else w["b"], other.id)
        db.commit()
    return other


def _games(db, league: League, **where) -> list[Game]:
    found = [g for g in rows(db, Game, Game.league_id == league.id) if all(getattr(g, k) == v for k, v in where.items())]
    return sorted(found, key=lambda g: (g.start_at, g.match, g.id))


def _where_they_are(db) -> list[tuple]:
    return [(g.id, g.start_at, g.court, g.sequence) for g in rows(db, Game)]


def _taken(db, other: Game, zone: str) -> str:
    """How a refusal names ``other``: its court, its teams, its league and its time."""
    names = {t: n for t, n in db.exec(sa.text("SELECT id, team_name FROM teams")).all()}
    league = db.get(League, other.league_id)
    return (f"{other.court} is taken then: {names[other.team1_id]} v {names[other.team2_id]} of "
            f"{leagues.display_name(league)} plays there at {timefmt.date_time(other.start_at, zone, labelled=True)}.")  # fmt: skip


def _courts_clear(db) -> bool:
    """No two games on one court of a venue while both are playing (each lasts its own league's time increment)."""
    games = [g for g in rows(db, Game) if g.court]
    by_id = {lg.id: lg for lg in rows(db, League)}
    for a, b in itertools.combinations(games, 2):
        la, lb = by_id[a.league_id], by_id[b.league_id]
        if la.svl_id != lb.svl_id or a.court.casefold() != b.court.casefold():
            continue
        if a.start_at < b.start_at + lb.time_increment * MINUTE and b.start_at < a.start_at + la.time_increment * MINUTE:
            return False
    return True


# --- one game: a move, an edit, a new game -----------------------------------------------------------------------


def test_a_game_moved_onto_a_court_another_league_of_the_venue_holds_is_refused_naming_that_game(world):
    db, lg, zone = world["db"], world["lg"], world["zone"]
    other = _other_league(db, world, start=lg.start_at, court="Court 2", increment=90)  # B games at +0 and +90
    first_b = _games(db, other)[0]
    game = _games(db, lg, round=1)[2]  # T? v T? at +100 on Court 1
    half_way = lg.start_at + 30 * MINUTE  # while B's first game (90 minutes long) is still on Court 2
    before = _where_they_are(db)
    audits = len(rows(db, AuditEntry))
    attempts = {
        "move": lambda: games.move_game(db, world["a"], game.id, start=timefmt.input_value(half_way, zone),
                                             court="court 2"),  # any case: the same court
        "edit": lambda: games.update_game(db, world["a"], game.id, team1=game.team1_id, team2=game.team2_id,
                                               start=timefmt.input_value(half_way, zone), court="Court 2"),
        "add": lambda: games.add_game(db, world["a"], lg.id, team1=game.team1_id, team2=game.team2_id,
                                           start=timefmt.input_value(half_way, zone), court="Court 2"),
    }  # fmt: skip
    for name, attempt in attempts.items():
        with pytest.raises(Invalid) as refused:
            attempt()
        db.rollback()
        assert refused.value.errors == {"start": _taken(db, first_b, zone)}, name
    assert _where_they_are(db) == before and len(rows(db, AuditEntry)) == audits
    free = lg.start_at + 180 * MINUTE  # B's second game is over by then
    games.move_game(db, world["a"], game.id, start=timefmt.input_value(free, zone), court="Court 2")
    db.commit()
    assert (_games(db, lg, id=game.id)[0].start_at, _games(db, lg, id=game.id)[0].court) == (free, "Court 2")


def test_another_venues_court_or_an_archived_leagues_game_is_no_clash(world):
    db, lg, zone = world["db"], world["lg"], world["zone"]
    _other_league(db, world, start=lg.start_at, court="Court 2", svl="svlb")  # the same name at another venue
    gone = _other_league(db, world, start=lg.start_at, court="Court 2")
    gone.archived_at = utcnow()
    db.add(gone)
    db.commit()
    assert _games(db, gone)[0].start_at == lg.start_at
    game = _games(db, lg, round=1)[2]
    games.move_game(db, world["a"], game.id, start=timefmt.input_value(lg.start_at, zone), court="Court 2")
    db.commit()
    assert _games(db, lg, id=game.id)[0].court == "Court 2"


async def test_the_operators_edit_form_shows_the_clash_under_the_date_and_another_venue_cannot_save_at_all(world):
    db, lg, zone = world["db"], world["lg"], world["zone"]
    other = _other_league(db, world, start=lg.start_at, court="Court 2")
    game = _games(db, lg, round=1)[2]
    form = {"team1": str(game.team1_id), "team2": str(game.team2_id), "court": "Court 2",
            "start": timefmt.input_value(lg.start_at, zone)}  # fmt: skip
    path = f"/dash/leagues/teams/schedule/{game.id}"
    before = _where_they_are(db)
    state, events = await call_handler(login_token(db, "svla"), game_edit.GameEditState, path, "save", form)
    assert state.errors["start"] == _taken(db, _games(db, other)[0], zone)
    assert redirect_target(events) is None and _where_they_are(db) == before
    elsewhere = form | {"court": "Court 1", "start": timefmt.input_value(lg.start_at - WEEK, zone)}
    state, events = await call_handler(login_token(db, "svlb"), game_edit.GameEditState, path, "save", elsewhere)
    assert state.error == "No access" and redirect_target(events) is None and _where_they_are(db) == before


# --- many games: push-a-week, a redraw, a generated schedule or bracket --------------------------------------------


def test_push_a_week_refuses_to_move_games_onto_another_leagues_court_and_moves_nothing(world):
    db, lg, zone = world["db"], world["lg"], world["zone"]
    other = _other_league(db, world, start=lg.start_at + 8 * WEEK, court="Court 1")  # the week after lg's last
    before = _where_they_are(db)
    with pytest.raises(Invalid) as refused:
        scheduling.push_week(db, world["a"], lg.id, week=8)
    db.rollback()
    message = refused.value.errors["week"]
    assert message.startswith("Moving the weeks would put two games together: ")
    assert message.endswith(_taken(db, _games(db, other)[0], zone))
    assert _where_they_are(db) == before


def test_a_schedule_that_would_share_a_court_with_another_league_is_not_generated(world):
    db, lg, zone = world["db"], world["lg"], world["zone"]
    other = _other_league(db, world, start=lg.start_at + 7 * WEEK, court="Court 1", generate=False)  # lg's week 8
    with pytest.raises(Invalid) as refused:
        scheduling.generate(db, world["a"], other.id)
    db.rollback()
    message = refused.value.message
    held = _games(db, lg, round=8)[0]
    assert message.startswith("The schedule would put two games together: B1 v B4 at ")
    assert _taken(db, held, zone) in message and message.endswith(clashes.MOVE_OR_CHANGE)
    assert _games(db, other) == [] and not rows(db, League, League.id == other.id)[0].schedule_generated
    other.court = "Court 3"
    db.add(other)
    db.commit()
    assert scheduling.generate(db, world["a"], other.id) == 16  # 4 teams, 2 games a week, 8 weeks
    db.commit()
    assert _courts_clear(db)


def test_a_redraw_places_its_games_around_another_leagues_games_on_a_shared_court(world):
    db, lg = world["db"], world["lg"]
    _other_league(db, world, start=lg.start_at, court="Court 2")  # B plays on Court 2 at +0 and +50 every Monday
    scheduling.redraw(db, world["a"], lg.id)  # lg now fills Court 1 and Court 2
    db.commit()
    assert _courts_clear(db)
    week = _games(db, lg, round=1)
    assert len(week) == 3 and {g.court for g in week} == {"Court 1", "Court 2"}
    on_two = next(g for g in week if g.court == "Court 2")
    assert on_two.start_at == lg.start_at + 100 * MINUTE  # the first time Court 2 is free


def test_a_bracket_that_would_share_a_court_with_another_league_is_not_generated(world):
    db, lg, zone = world["db"], world["lg"], world["zone"]
    other = _other_league(db, world, start=lg.start_at + 8 * WEEK, court="Court 1")  # lg's tournament week
    with pytest.raises(Invalid) as refused:
        playoffs.generate(db, world["a"], lg.id, early=True)
    db.rollback()
    message = refused.value.message
    assert "The bracket would put two games together: " in message
    assert _taken(db, _games(db, other)[0], zone) in message
    assert rows(db, PlayoffSeed) == [] and rows(db, Game, Game.type == GameType.TOURNAMENT) == []
    lg.court, lg.courts = "Court 3", None
    db.add(lg)
    db.commit()
    assert playoffs.generate(db, world["a"], lg.id, early=True) == 5  # 6 teams: 2 byes, 2 + 2 + 1 games
    db.commit()
    assert _courts_clear(db)


# --- read by index ------------------------------------------------------------------------------------------------


def _selects(db, fn) -> list[tuple]:
    seen: list[tuple] = []

    def record(_conn, _cursor, statement, parameters, *_args):
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    engine = db.get_bind()
    sa.event.listen(engine, "before_cursor_execute", record)
    try:
        fn()
    finally:
        sa.event.remove(engine, "before_cursor_execute", record)
    return seen


def _whole_table_reads(db, statement: str, parameters, table: str) -> list[str]:
    """The plan's steps that read all of ``table`` rather than by an index."""
    conn = db.connection()
    cursor = conn.connection.dbapi_connection.cursor()
    if conn.dialect.name == "sqlite":
        cursor.execute(f"EXPLAIN QUERY PLAN {statement}", parameters)
        steps = [row[-1] for row in cursor.fetchall()]
        return [s for s in steps if s.startswith(f"SCAN {table}")]
    cursor.execute("SET LOCAL enable_seqscan = off")  # a tiny table would be read whole anyway
    cursor.execute(f"EXPLAIN {statement}", parameters)
    return [row[0] for row in cursor.fetchall() if f"Seq Scan on {table}" in row[0]]


def test_the_venue_check_reads_games_and_leagues_by_their_indexes(world):
    db, lg, zone = world["db"], world["lg"], world["zone"]
    other = _other_league(db, world, start=lg.start_at, court="Court 2")
    game = _games(db, lg, round=1)[2]

    def refused_move():
        with pytest.raises(Invalid):
            games.move_game(db, world["a"], game.id, start=timefmt.input_value(lg.start_at, zone), court="Court 2")

    checks = [refused_move, lambda: scheduling.push_week(db, world["a"], lg.id, week=8),
              lambda: scheduling.redraw(db, world["a"], other.id)]  # fmt: skip
    for check in checks:
        statements = _selects(db, check)
        venue = [s for s in statements if "FROM games" in s[0] and "JOIN leagues" in s[0]]
        assert venue, "the venue's games were not read"
        for statement, parameters in statements:
            for table in ("games", "leagues"):
                if f"FROM {table}" in statement or f"JOIN {table}" in statement:
                    assert _whole_table_reads(db, statement, parameters, table) == [], statement
        db.rollback()
