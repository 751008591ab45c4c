"""The models and the Alembic migrations agree; the migrations go down and up; timestamps are UTC-aware."""

from __future__ import annotations

import datetime as dt
import os
import re
import uuid

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url
from sqlmodel import SQLModel, select

import volley_app.models  # noqa: F401 - registers every table
from alembic import command
from tests.factories import make_user
from volley_app import db as dbmod
from volley_app.migrations import alembic_config
from volley_app.models import LoginAttempt, User, UTCDateTime
from volley_app.settings import get_settings

CONFIGURED_URL = os.environ["DATABASE_URL"]  # set by tests/conftest.py before this module is imported
ON_POSTGRES = make_url(CONFIGURED_URL).get_backend_name() == "postgresql"
TABLES = {t.name for t in SQLModel.metadata.sorted_tables}


def _norm_default(value: str | None) -> str:
    """A server default as a bare value: no parentheses, quotes or PostgreSQL cast ("''::text")."""
    text = re.sub(r"::[a-z ]+$", "", (value or "").strip())
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    return text.strip("'\"").lower()


def _defaults_differ(_ctx, _insp_col, _meta_col, inspected, _meta_default, rendered) -> bool:
    """Server defaults differ unless they are the same value (each database spells them its own way)."""
    if (inspected is None) != (rendered is None):
        return True
    return _norm_default(inspected) != _norm_default(rendered)


def _differences(conn) -> list:
    context = MigrationContext.configure(
        conn, opts={"compare_type": True, "compare_server_default": _defaults_differ}
    )
    return compare_metadata(context, SQLModel.metadata)


def _head() -> str:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


# --- the shared, migrated test database ----------------------------------------------


def test_autogenerate_finds_no_difference_between_models_and_migrations(migrated):
    with migrated.connect() as conn:
        assert _differences(conn) == []


def test_autogenerate_with_type_comparison_only_finds_nothing(migrated):
    with migrated.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        assert compare_metadata(context, SQLModel.metadata) == []


def test_the_test_database_is_at_the_single_head(migrated):
    script = ScriptDirectory.from_config(alembic_config())
    assert len(script.get_heads()) == 1
    with migrated.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == _head()


def test_the_comparison_would_notice_a_drift(migrated):
    """The check above can fail: a model column the migrations never made is reported."""
    extra = sa.MetaData()
    for table in SQLModel.metadata.sorted_tables:
        table.to_metadata(extra)
    extra.tables["users"].append_column(sa.Column("nickname", sa.String(30)))
    with migrated.connect() as conn:
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        diff = compare_metadata(context, extra)
    assert [(d[0], d[2], d[3].name) for d in diff] == [("add_column", "users", "nickname")]


def test_the_comparison_would_notice_a_changed_server_default(migrated):
    extra = sa.MetaData()
    for table in SQLModel.metadata.sorted_tables:
        table.to_metadata(extra)
    extra.tables["users"].c.last_name.server_default = sa.DefaultClause("unknown")
    extra.tables["leagues"].c.offer_hold_hours.server_default = None
    with migrated.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": _defaults_differ}
        )
        diff = compare_metadata(context, extra)
    changed = sorted((d[0][0], d[0][2], d[0][3]) for d in diff)
    assert changed == [("modify_default", "leagues", "offer_hold_hours"), ("modify_default", "users", "last_name")]


def test_timestamp_columns_are_timezone_aware_in_the_database(migrated):
    inspector = sa.inspect(migrated)
    utc_columns = [
        (t.name, c.name) for t in SQLModel.metadata.sorted_tables for c in t.columns if isinstance(c.type, UTCDateTime)
    ]
    assert ("users", "created_at") in utc_columns and ("login_sessions", "expires_at") in utc_columns
    for table, column in utc_columns:
        [reflected] = [c for c in inspector.get_columns(table) if c["name"] == column]
        assert isinstance(reflected["type"], sa.DateTime), (table, column)
        if migrated.dialect.name == "postgresql":
            assert reflected["type"].timezone is True, (table, column)


def test_no_naive_datetime_column_in_the_models():
    for table in SQLModel.metadata.sorted_tables:
        for column in table.columns:
            if isinstance(column.type, sa.DateTime) and not isinstance(column.type, UTCDateTime):
                assert column.type.timezone, f"{table.name}.{column.name} is a naive DateTime"


# --- timestamps -------------------------------------------------------------------


def test_timestamps_come_back_timezone_aware_utc(db):
    india = dt.timezone(dt.timedelta(hours=5, minutes=30))
    written = dt.datetime(2026, 3, 1, 9, 15, 30, 123456, tzinfo=india)
    user = make_user(db, "tzuser", email="tz@example.com", first_name="T", last_name="Z")
    db.add(LoginAttempt(username="tzuser", client="c", at=written))
    user.created_at = written
    db.add(user)
    db.commit()

    db.expire_all()
    [attempt] = db.exec(select(LoginAttempt)).all()
    fresh = db.get(User, user.id)
    db.commit()
    for value in (attempt.at, fresh.created_at, fresh.updated_at):
        assert value.tzinfo is not None
        assert value.utcoffset() == dt.timedelta(0)
    assert attempt.at == written
    assert attempt.at.replace(tzinfo=None) == dt.datetime(2026, 3, 1, 3, 45, 30, 123456)
    assert fresh.created_at == written


def test_timestamps_are_stored_as_utc(db):
    eastern = dt.timezone(dt.timedelta(hours=-5))
    db.add(LoginAttempt(username="x", client="c", at=dt.datetime(2026, 1, 2, 20, 0, tzinfo=eastern)))
    db.commit()
    with db.get_bind().connect() as conn:
        if conn.dialect.name == "postgresql":
            raw = conn.execute(sa.text("SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI') FROM login_attempts")).scalar_one()
        else:
            raw = conn.execute(sa.text("SELECT at FROM login_attempts")).scalar_one()
    assert str(raw).startswith("2026-01-03 01:00")


def test_utc_comparisons_work_across_zones(db):
    at = dt.datetime(2026, 1, 2, 20, 0, tzinfo=dt.UTC)
    db.add(LoginAttempt(username="x", client="c", at=at))
    db.commit()
    tokyo = dt.timezone(dt.timedelta(hours=9))
    same_instant = at.astimezone(tokyo)
    assert db.exec(select(sa.func.count()).select_from(LoginAttempt).where(LoginAttempt.at == same_instant)).one() == 1
    later = (at + dt.timedelta(seconds=1)).astimezone(tokyo)
    assert db.exec(select(sa.func.count()).select_from(LoginAttempt).where(LoginAttempt.at < later)).one() == 1
    db.commit()


def test_naive_datetime_is_refused_on_write(db):
    db.add(LoginAttempt(username="x", client="c", at=dt.datetime(2026, 1, 1, 12, 0)))
    with pytest.raises(sa.exc.StatementError, match="naive datetime"):
        db.flush()
    db.rollback()
    assert db.exec(select(sa.func.count()).select_from(LoginAttempt)).one() == 0
    db.commit()


def test_naive_datetime_is_refused_in_an_update(db):
    user = make_user(db, "tzuser", email="tz@example.com", first_name="T", last_name="Z")
    user.updated_at = dt.datetime(2026, 1, 1, 12, 0)
    db.add(user)
    with pytest.raises(sa.exc.StatementError, match="naive datetime"):
        db.commit()
    db.rollback()


def test_naive_datetime_is_refused_in_a_query(db):
    with pytest.raises(sa.exc.StatementError, match="naive datetime"):
        db.exec(select(LoginAttempt).where(LoginAttempt.at > dt.datetime(2026, 1, 1))).all()
    db.rollback()


def test_the_type_refuses_naive_values_directly():
    with pytest.raises(ValueError, match="naive"):
        UTCDateTime().process_bind_param(dt.datetime(2026, 1, 1), sa.create_engine("sqlite://").dialect)


# --- down to base and up again, on a database of its own -----------------------------


def _scratch_params() -> list[str]:
    return ["sqlite", "postgresql"] if ON_POSTGRES else ["sqlite"]


@pytest.fixture(params=_scratch_params())
def scratch_database(request, monkeypatch, tmp_path):
    """Point the app at an empty database of its own; the test database is restored afterwards."""
    created_pg = None
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'migrations.db'}"
    else:
        created_pg = f"volley_migtest_{uuid.uuid4().hex[:12]}"
        admin = dbmod.make_engine(CONFIGURED_URL).execution_options(isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(sa.text(f'CREATE DATABASE "{created_pg}"'))
        admin.dispose()
        url = make_url(CONFIGURED_URL).set(database=created_pg).render_as_string(hide_password=False)
    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    dbmod.reset_engine()
    assert get_settings().database_url == url
    try:
        yield dbmod.get_engine()
    finally:
        dbmod.reset_engine()
        monkeypatch.undo()
        get_settings.cache_clear()
        dbmod.reset_engine()
        assert str(get_settings().database_url) == CONFIGURED_URL
        if created_pg:
            admin = dbmod.make_engine(CONFIGURED_URL).execution_options(isolation_level="AUTOCOMMIT")
            with admin.connect() as conn:
                conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{created_pg}"'))
            admin.dispose()


def _tables(engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names()) - {"alembic_version"}


def test_downgrade_to_base_and_upgrade_to_head(scratch_database):
    engine = scratch_database
    cfg = alembic_config()
    assert _tables(engine) == set()

    command.upgrade(cfg, "head")
    assert _tables(engine) == TABLES
    with engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == _head()

    command.downgrade(cfg, "base")
    assert _tables(engine) == set()
    with engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() is None

    command.upgrade(cfg, "head")
    assert _tables(engine) == TABLES
    with engine.connect() as conn:
        assert MigrationContext.configure(conn).get_current_revision() == _head()
        assert _differences(conn) == []


def test_the_scratch_database_is_really_separate(scratch_database, migrated):
    assert scratch_database.url != migrated.url
    command.upgrade(alembic_config(), "head")
    command.downgrade(alembic_config(), "base")
    # The shared test database still has every table.
    assert _tables(migrated) == TABLES


# --- moving existing records: hand-kept records, payments, ids -----------------------------------

BEFORE_RECORDS = "0005"  # the revision before records came from the games


def _old_season(conn) -> dict[str, int]:
    """Rows as the demo database had them before the move: hand-kept wins and losses (one team's
    record kept by hand beyond its games), scored games, a card payment, a deleted last request."""
    now = "2026-09-01 18:00:00"
    ins = lambda sql, **kw: conn.execute(sa.text(sql), kw)  # noqa: E731
    for uid, name, roles in ((1, "lexsports", '["SVL"]'), (2, "alice", '["Player"]')):
        ins("INSERT INTO users (id, username, password_hash, roles, email, first_name, last_name, sub, active, "
            "created_at, updated_at) VALUES (:id, :u, 'x', :r, :e, 'A', 'B', false, true, :t, :t)",
            id=uid, u=name, r=roles, e=f"{name}@example.com", t=now)  # fmt: skip
    ins("INSERT INTO league_sessions (id, svl_id, name, status, start_at, end_at, created_at) "
        "VALUES (1, 1, 'Fall', 'Active', :t, :t, :t)", t=now)  # fmt: skip
    ins("INSERT INTO leagues (id, session_id, svl_id, court, start_at, number_of_weeks, time_increment, skill_level, "
        "format, day, max_teams, cost_cents, cash, stage, active, schedule_generated, created_at) VALUES "
        "(1, 1, 1, 'Court 1', :t, 8, 45, 'C', '6s', 'Monday', 8, 30000, false, 'Active', true, true, :t)", t=now)  # fmt: skip
    for tid, name, wins, losses in ((1, "Net Ninjas", 2, 0), (2, "Block Party", 1, 1), (3, "Dig Deep", 3, 2)):
        ins("INSERT INTO teams (id, league_id, captain_id, team_name, wins, losses, paid, waitlist, created_at) "
            "VALUES (:id, 1, 2, :n, :w, :l, true, false, :t)", id=tid, n=name, w=wins, l=losses, t=now)  # fmt: skip
    # Team 1 beat 2 and 3; team 2 beat 3. Team 3's 3-2 was kept by hand: its games say 0-2.
    for gid, a, b, (s1, s2) in ((1, 1, 2, (21, 15)), (2, 1, 3, (21, 10)), (3, 2, 3, (21, 19))):
        ins("INSERT INTO games (id, league_id, team1_id, team2_id, start_at, team1_game1_score, team2_game1_score, "
            "team1_game2_score, team2_game2_score, type, round, match) VALUES "
            "(:id, 1, :a, :b, :t, :s1, :s2, :s1, :s2, 'League', 1, :id)", id=gid, a=a, b=b, s1=s1, s2=s2, t=now)  # fmt: skip
    ins("INSERT INTO payments (id, league_id, team_id, user_id, team_name, amount_cents, currency, provider, status, "
        "idempotency_key, created_at, updated_at) VALUES (1, 1, 1, 2, 'Net Ninjas', 30350, 'usd', 'offline', "
        "'succeeded', 'k1', :t, :t)", t=now)  # fmt: skip
    for rid in (1, 2):
        ins("INSERT INTO sub_requests (id, requestor_id, status, svl, team, date, skill_level, format, completed, "
            "created_at, updated_at) VALUES (:id, 2, 'Open', 'Gym', 'Aces', :t, 'C', '6s', false, :t, :t)", id=rid, t=now)  # fmt: skip
    ins("DELETE FROM sub_requests WHERE id = 2")
    return {"Net Ninjas": (2, 0), "Block Party": (1, 1), "Dig Deep": (3, 2)}


def test_existing_records_move_without_loss(scratch_database):
    from volley_app.services.seasons import results

    engine = scratch_database
    cfg = alembic_config()
    command.upgrade(cfg, BEFORE_RECORDS)
    with engine.begin() as conn:
        kept = _old_season(conn)
    command.upgrade(cfg, "head")
    from sqlmodel import Session

    from volley_app.models import MemberRole, Payment, StandingAdjustment, SubRequest, Team, TeamMember

    with Session(engine) as db:
        teams = db.exec(select(Team)).all()
        recs = results.records(db, [t.id for t in teams])
        # Every record reads as it did: the games, plus the hand-kept difference as an adjustment.
        assert {t.team_name: (recs[t.id].wins, recs[t.id].losses) for t in teams} == kept
        # Every team's captain is its first member.
        captains = sorted((t.id, t.captain_id, MemberRole.CAPTAIN) for t in teams if t.captain_id)
        assert captains and sorted((m.team_id, m.user_id, m.role) for m in db.exec(select(TeamMember)).all()) == captains
        (adj,) = db.exec(select(StandingAdjustment)).all()
        assert (adj.team_id, adj.wins, adj.losses) == (3, 3, 0) and adj.reason
        (pay,) = db.exec(select(Payment)).all()
        assert (pay.league_name, pay.payer_name, pay.amount_cents) == ("Monday C 6s", "alice", 30350)
        # From now on a deleted request's id is never handed out again (ids freed before the move
        # left no trace to go by on SQLite).
        ids = []
        for _ in range(2):
            req = SubRequest(requestor_id=2, svl="Gym", team="Aces", date=dt.datetime(2027, 1, 1, tzinfo=dt.UTC),
                             skill_level="C", format="6s")  # fmt: skip
            db.add(req)
            db.commit()
            ids.append(req.id)
            db.delete(req)
            db.commit()
        assert ids[1] > ids[0] > 1
    if engine.dialect.name == "sqlite":
        with engine.connect() as conn:
            plain = [name for name, sql in conn.execute(sa.text("SELECT name, sql FROM sqlite_master WHERE type='table'"))
                     if name not in ("alembic_version", "sqlite_sequence") and "AUTOINCREMENT" not in sql]  # fmt: skip
            assert plain == []
    # And back: the hand-kept columns return with the same numbers.
    command.downgrade(cfg, BEFORE_RECORDS)
    with engine.connect() as conn:
        back = {n: (w, lo) for n, w, lo in conn.execute(sa.text("SELECT team_name, wins, losses FROM teams"))}
    assert back == kept


# --- a mark per place, and each sub's record on their account ------------------------------------------

BEFORE_SUB_RECORDS = "0020"


def test_marks_move_to_the_places_and_records_are_filled(scratch_database):
    """A request's one mark becomes its named sub's place's; a named sub whose place is missing (written before
    places existed) gets it; every record is counted from the places; and down again, the marks go back."""
    engine = scratch_database
    cfg = alembic_config()
    command.upgrade(cfg, BEFORE_SUB_RECORDS)
    day = [dt.datetime(2026, 9, d, 18, tzinfo=dt.UTC) for d in range(1, 7)]
    at = sa.bindparam("at", type_=UTCDateTime())
    with engine.begin() as conn:
        for uid in (1, 2, 3, 4):
            conn.execute(sa.text(
                "INSERT INTO users (id, username, password_hash, roles, email, first_name, last_name, sub, active, "
                "created_at, updated_at) VALUES (:id, :u, 'x', '[\"Player\"]', :e, 'A', 'B', true, true, :at, :at)"
            ).bindparams(at), {"id": uid, "u": f"u{uid}", "e": f"u{uid}@example.com", "at": day[0]})  # fmt: skip
        # id, named sub, places filled, mark, archived, the subs with a place
        requests = [(1, 2, 1, "Played", False, [2]), (2, 3, 2, "No-show", False, [4, 3]), (3, 4, 0, "Played", False, []),
                    (4, 2, 1, "Played", True, [2]), (5, 3, 1, None, False, [2])]  # fmt: skip
        for rid, named, filled, mark, archived, placed in requests:
            conn.execute(sa.text(
                "INSERT INTO sub_requests (id, requestor_id, recipient_id, status, svl, team, date, skill_level, format, "
                "completed, created_at, updated_at, outcome, places_filled, players_needed, archived_at) VALUES "
                "(:id, 1, :named, 'Accepted', 'Gym', 'Aces', :at, 'C', '6s', true, :at, :at, :mark, :filled, 2, :gone)"
            ).bindparams(at, sa.bindparam("gone", type_=UTCDateTime())),
                {"id": rid, "named": named, "at": day[rid], "mark": mark, "filled": filled,
                 "gone": day[rid] if archived else None})  # fmt: skip
            for uid in placed:
                conn.execute(sa.text("INSERT INTO sub_request_places (request_id, user_id, accepted_at) "
                                     "VALUES (:r, :u, :at)").bindparams(at), {"r": rid, "u": uid, "at": day[0]})  # fmt: skip
    command.upgrade(cfg, "head")
    from sqlmodel import Session

    from volley_app.models import SubRequest, SubRequestPlace
    from volley_app.services.subs import sub_records

    with Session(engine) as db:
        marks = {(p.request_id, p.user_id): p.outcome.value if p.outcome else None for p in db.exec(select(SubRequestPlace))}
        assert marks == {(1, 2): "Played", (2, 4): None, (2, 3): "No-show", (3, 4): "Played", (4, 2): "Played",
                         (5, 2): None}  # fmt: skip
        assert db.get(SubRequest, 3).places_filled == 1
        records = {u.id: (u.sub_played, u.sub_no_shows, u.sub_last_date) for u in db.exec(select(User))}
        assert records == {1: (0, 0, None), 2: (1, 0, day[5]), 3: (0, 1, day[2]), 4: (1, 0, day[3])}
        assert all(records[uid] == sub_records.record(db, uid) for uid in records)
    command.downgrade(cfg, BEFORE_SUB_RECORDS)
    with engine.connect() as conn:
        back = dict(conn.execute(sa.text("SELECT id, outcome FROM sub_requests")).all())
    assert back == {1: "Played", 2: "No-show", 3: "Played", 4: "Played", 5: None}
