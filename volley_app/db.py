"""The database engine and sessions.

Services are plain synchronous functions that take a ``Session``. Adapters
(Reflex state handlers, which are async) run them in a worker thread through
:func:`run`, so a slow query never stalls the event loop of a Reflex worker.
"""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import anyio
from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Session, create_engine

from volley_app.settings import get_settings

log = logging.getLogger(__name__)

T = TypeVar("T")


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.close()


def make_engine(url: str) -> Engine:
    """An engine for ``url`` with the settings each backend needs."""
    parsed = make_url(url)
    if parsed.drivername.startswith("sqlite"):
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 10})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if parsed.drivername in ("postgresql", "postgres"):
        url = parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=10)


@functools.cache
def get_engine() -> Engine:
    """The process-wide engine for the configured database."""
    return make_engine(get_settings().database_url)


def reset_engine() -> None:
    """Forget the cached engine (tests switch databases)."""
    if get_engine.cache_info().currsize:
        get_engine().dispose()
    get_engine.cache_clear()


@contextlib.contextmanager
def session_scope() -> Iterator[Session]:
    """A session whose work commits on success and rolls back on any error."""
    with Session(get_engine(), expire_on_commit=False) as db:
        try:
            yield db
            db.commit()
        except BaseException:
            db.rollback()
            raise


def call(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(db, *args, **kwargs)`` in one transaction."""
    with session_scope() as db:
        return fn(db, *args, **kwargs)


async def run(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn(db, *args, **kwargs)`` in one transaction, in a worker thread."""
    return await anyio.to_thread.run_sync(functools.partial(call, fn, *args, **kwargs))
