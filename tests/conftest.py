"""Test set-up shared by every tier.

The database is the one named by ``DATABASE_URL`` when it is set (CI sets a
PostgreSQL URL); otherwise a fresh SQLite file. A configured server that cannot
be reached fails the run: it never skips.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

# In memory where the machine has it (/dev/shm): a test database's commits need not reach a disk.
_MEMORY = Path("/dev/shm")
_TMP = Path(tempfile.mkdtemp(prefix="volley-tests-", dir=_MEMORY if os.access(_MEMORY, os.W_OK) else None))
atexit.register(shutil.rmtree, _TMP, ignore_errors=True)
os.environ.setdefault("DATABASE_URL", f"sqlite:///{_TMP / 'test.db'}")
os.environ["APP_ENV"] = "test"
os.environ.pop("FORWARDED_ALLOW_IPS", None)  # the tests read the default trusted proxies (this machine)
os.environ.setdefault("BCRYPT_ROUNDS", "4")  # fast hashes; the cost-12 default has its own test
os.environ.setdefault("OUTBOX_INTERVAL_SECONDS", "0.5")
os.environ.setdefault("VAR_DIR", str(_TMP / "var"))  # the run's own signing key, never the checkout's
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # gw0, gw1, … when the tests run in several processes


def _own_database(url: str, worker: str) -> str:
    """The worker's own database beside the one ``url`` names (the processes inherit one environment)."""
    if url.startswith("sqlite"):
        return f"{url}-{worker}"
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"{parts.path}_{worker}"))


def _own_redis_database(url: str, worker: str) -> str:
    """Redis database 8 + the worker's number on the same server (channels are per database too)."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{8 + int(worker.removeprefix('gw'))}"))


if _WORKER:
    os.environ["DATABASE_URL"] = _own_database(os.environ["DATABASE_URL"], _WORKER)
    if os.environ.get("REDIS_URL"):
        os.environ["REDIS_URL"] = _own_redis_database(os.environ["REDIS_URL"], _WORKER)


import pytest  # noqa: E402
import sqlalchemy as sa  # noqa: E402
from sqlmodel import Session, SQLModel  # noqa: E402

from volley_app import db as dbmod  # noqa: E402
from volley_app.settings import get_settings  # noqa: E402


def _reset_schema(engine: sa.Engine) -> None:
    if engine.dialect.name == "postgresql":
        with engine.begin() as conn:
            conn.execute(sa.text("DROP SCHEMA public CASCADE"))
            conn.execute(sa.text("CREATE SCHEMA public"))
    else:
        with engine.begin() as conn:
            conn.execute(sa.text("PRAGMA foreign_keys=OFF"))
            for (name,) in conn.execute(sa.text("SELECT name FROM sqlite_master WHERE type='table'")).all():
                conn.execute(sa.text(f'DROP TABLE IF EXISTS "{name}"'))


def _prepare_server_database(url: sa.URL) -> None:
    """On PostgreSQL: the database exists (a worker's own is made from the server's), and its commits
    do not wait for the disk (a test database is thrown away; the app's own settings are untouched)."""
    server = sa.create_engine(url.set(database="postgres"), isolation_level="AUTOCOMMIT")
    try:
        with server.connect() as conn:
            exists = conn.execute(sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": url.database}).first()
            if not exists:
                conn.execute(sa.text(f'CREATE DATABASE "{url.database}"'))
            conn.execute(sa.text(f'ALTER DATABASE "{url.database}" SET synchronous_commit = off'))
    except Exception as exc:  # a configured database that is down is a failure, not a skip
        pytest.exit(f"database server of {url!r} is unreachable: {exc}", returncode=3)
    finally:
        server.dispose()


def migrate_fresh() -> None:
    """Drop everything in the test database and apply every migration."""
    from volley_app.migrations import upgrade_to_head

    get_settings.cache_clear()
    dbmod.reset_engine()
    engine = dbmod.get_engine()
    if engine.dialect.name == "postgresql":
        _prepare_server_database(engine.url)
        dbmod.reset_engine()
        engine = dbmod.get_engine()
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT 1"))
    except Exception as exc:  # a configured database that is down is a failure, not a skip
        pytest.exit(f"database {engine.url!r} is unreachable: {exc}", returncode=3)
    _reset_schema(engine)
    upgrade_to_head()


def clear_tables() -> None:
    """Delete every row, leaving the migrated schema."""
    import volley_app.models  # noqa: F401

    engine = dbmod.get_engine()
    tables = list(reversed(SQLModel.metadata.sorted_tables))
    # One query asks which tables hold a row (a test fills a few of them), whoever wrote them: this process, the app
    # it runs, or another process on the same database.
    filled = sa.union_all(*[sa.select(sa.literal(i)).where(sa.exists(sa.select(sa.literal(1)).select_from(t)))
                            for i, t in enumerate(tables)])  # fmt: skip
    with engine.begin() as conn:
        holding = {i for (i,) in conn.execute(filled)}
        # DELETE, child tables first: on a few rows it is twenty times faster than TRUNCATE on PostgreSQL.
        # Ids go on counting, on both databases (SQLite's AUTOINCREMENT never reuses one).
        for i, t in enumerate(tables):
            if i in holding:
                conn.execute(t.delete())


def check_redis() -> None:
    """When REDIS_URL is set (CI), Reflex state lives there: it must answer."""
    url = os.environ.get("REDIS_URL")
    if not url:
        return
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=3).ping()
    except Exception as exc:
        pytest.exit(f"REDIS_URL {url!r} is unreachable: {exc}", returncode=3)


@pytest.fixture(scope="session")
def migrated():
    check_redis()
    migrate_fresh()
    yield dbmod.get_engine()


@pytest.fixture
def db(migrated):
    """A real session on the migrated test database; every table is emptied afterwards."""
    with Session(migrated, expire_on_commit=False) as session:
        yield session
    clear_tables()


@pytest.fixture
def settings():
    return get_settings()


@pytest.fixture
def stripe_env(monkeypatch):
    """Stripe configured, its API answered by a local stand-in server (tests/stripe_standin.py)."""
    from tests.stripe_standin import StripeStandIn

    with StripeStandIn() as server:
        monkeypatch.setenv("STRIPE_SECRET_KEY", "sk_test_standin")
        monkeypatch.setenv("STRIPE_PUBLISHABLE_KEY", "pk_test_standin")
        monkeypatch.setenv("STRIPE_WEBHOOK_SECRET", "whsec_standin")
        monkeypatch.setenv("STRIPE_API_BASE", server.url)
        get_settings.cache_clear()
        yield server
    get_settings.cache_clear()


@pytest.fixture
def keys(monkeypatch):
    """Set ``SECRET_KEY`` and ``SECRET_KEY_FALLBACKS``: ``keys(current, *fallbacks)``; restored afterwards."""

    def use(current: str, *fallbacks: str) -> None:
        monkeypatch.setenv("SECRET_KEY", current)
        monkeypatch.setenv("SECRET_KEY_FALLBACKS", ",".join(fallbacks))
        get_settings.cache_clear()

    yield use
    monkeypatch.undo()
    get_settings.cache_clear()


@pytest.fixture
def push_service(monkeypatch):
    """A browser's push service, stood in for locally (tests/push_standin.py); the app may post to it."""
    from tests.push_standin import PushStandIn

    with PushStandIn() as stand_in:
        monkeypatch.setenv("PUSH_SERVICE_HOSTS", "127.0.0.1")
        get_settings.cache_clear()
        yield stand_in
    get_settings.cache_clear()
