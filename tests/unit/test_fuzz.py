"""Generated input at every public state handler and every REST route.

Any connected browser can call any handler with any arguments from any page
address, and any client can send anything to the API. Hypothesis draws the
caller (nobody, a player, an SVL, an admin), the page address (its ids real or
garbage), and the arguments (text with control characters, huge and odd
numbers, dates far away, dicts and lists), and every call must:

- raise nothing and log no unexpected failure (the user would see "Something went wrong");
- answer the API with a status below 500;
- change nothing in the database when it is refused (a message shown, an error status).

The handlers and routes are found by walking the app, so a new one is covered by
itself, and one whose arguments the strategies cannot make fails here.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import inspect
import io
import logging
import os
import re
import types
import typing
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
import reflex as rx
import sqlalchemy as sa
from fastapi.routing import APIRoute
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import Session, SQLModel

from tests.conftest import clear_tables
from tests.factories import add_league, add_league_session, add_teams, login_token, make_user
from tests.harness import as_background, call, root_state, substate
from volley_app import registry
from volley_app.api.app import create_api
from volley_app.models import Role, utcnow
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import UNEXPECTED
from volley_app.services.subs import request_changes
from volley_app.state.auth import AuthState

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Tables that record tries by design (login failures, rate-limit uses): a refused try may add a row there.
TRY_RECORDS = {"login_attempts", "rate_limit_hits"}


# --- what the app offers ----------------------------------------------------------------------------------------


def _state_classes(cls=rx.State):
    yield cls
    for sub in sorted(cls.get_substates(), key=lambda c: c.get_full_name()):
        yield from _state_classes(sub)


def public_handlers() -> list[tuple[type, str]]:
    """Every (state class, handler name) of the app a browser can call."""
    registry.discover()
    found = []
    for cls in _state_classes():
        for name, handler in sorted(cls.event_handlers.items()):
            if handler.fn.__module__.startswith("volley_app."):
                found.append((cls, name))
    return found


HANDLERS = public_handlers()
API_ROUTES = [(sorted(r.methods)[0], r.path) for r in create_api().routes if isinstance(r, APIRoute)]
PAGE_ROUTES = sorted(p.route for p in registry.discover())


# --- values a browser could send ----------------------------------------------------------------------------------

NASTY_TEXT = st.sampled_from([
    "", " ", "0", "-1", "1", "2", "9" * 30, "9" * 400, "1e309", "-1e309", "nan", "inf", "1.5", "$1,000,000",
    "9999-12-31T23:59", "0001-01-01T00:00", "2030-02-30T10:00", "2030-05-01T18:00", "a\r\nb", "x\x00y", "\u202eevil",
    "<script>alert(1)</script>", "' OR 1=1 --", "true", "on", "C", "6s", "Monday", "KY", "a@b.co", "\ud800",
])  # fmt: skip
TEXT = st.one_of(NASTY_TEXT, st.text(max_size=40))
SCALAR = st.one_of(
    TEXT,
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
)
VALUE = st.recursive(SCALAR, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXT, inner, max_size=3),
                     max_leaves=6)  # fmt: skip


def _form(state_cls) -> st.SearchStrategy:
    """A submitted form: the state's own field names (and some others) with any values."""
    fields = getattr(state_cls, "_fields", None)  # a FormState names its fields; other forms (filters) do not
    own = list(fields.default_value() or ()) if fields is not None else []
    names = own + ["league", "user", "username", "password", "current_password", "website",
                                                             "role-admin", "active", "trust", "team_name", "date"]
    return st.dictionaries(st.sampled_from(names) | TEXT, VALUE, max_size=12)


def _upload(data: bytes) -> rx.UploadFile:
    return rx.UploadFile(file=io.BytesIO(data), path=Path("x.png"), size=len(data))


UPLOADS = st.lists(
    st.one_of(
        st.binary(max_size=64).map(_upload),
        st.binary(max_size=32).map(lambda b: _upload(b"\x89PNG\r\n\x1a\n" + b)),
        VALUE,
    ),
    max_size=3,
) | VALUE


def _strategy_for(state_cls, param: inspect.Parameter) -> st.SearchStrategy:
    """Arguments for one parameter; an annotation no strategy fits fails the test (cover it here)."""
    ann = param.annotation
    text = str(ann)
    if "UploadFile" in text:
        return UPLOADS
    if "dict" in text:
        return _form(state_cls) | VALUE
    if ann in (str, "str", int, "int", bool, "bool", inspect.Parameter.empty) or text in ("str", "int", "bool"):
        return VALUE
    if isinstance(ann, types.UnionType) or typing.get_origin(ann) is typing.Union:
        return VALUE
    raise AssertionError(f"no strategy for {state_cls.__name__} parameter {param.name}: {ann!r}")


def _args_strategy(state_cls, name: str) -> st.SearchStrategy:
    fn = state_cls.event_handlers[name].fn
    params = list(inspect.signature(fn).parameters.values())[1:]
    return st.tuples(*[_strategy_for(state_cls, p) for p in params])


# --- the world they act on ----------------------------------------------------------------------------------------


def _build_world(db) -> dict:
    svl, _other = make_user(db, "svla", Role.SVL), make_user(db, "svlb", Role.SVL)
    pat, ben = make_user(db, "pat"), make_user(db, "ben", sub=True)
    make_user(db, "root", Role.ADMIN)
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4), max_teams=3)
    teams = add_teams(db, lg, 2, captain_id=pat.id)
    pat_actor = Actor(user_id=pat.id, username="pat", roles=("Player",), first_name="Pat")
    when = now + dt.timedelta(days=2)
    req = request_changes.create(db, pat_actor, team="T", date=when, svl="Gym", skill_level="C", format="6s",
                              recipient_id=ben.id)  # fmt: skip
    db.commit()
    tokens = {name: login_token(db, name) for name in ("pat", "svla", "root")}
    ids = [str(x) for x in (sid, lg.id, teams[0], req, pat.id, svl.id)]
    return {"db": db, "tokens": tokens, "ids": ids, "as_built": snapshot(db)}


@pytest.fixture(scope="module")
def _shared_world(migrated):
    """The world, built once for the module's tests."""
    clear_tables()
    with Session(migrated, expire_on_commit=False) as db:
        yield _build_world(db)
    clear_tables()


@pytest.fixture
def world(_shared_world):
    """The same world at the start of every test: a test that changed it (an accepted call writes) has it built
    anew afterwards, and the records of tries are emptied, as the examples within one test share it as they find it."""
    _shared_world["db"].expire_all()
    yield _shared_world
    db = _shared_world["db"]
    with db.get_bind().begin() as conn:
        for table in TRY_RECORDS:
            conn.execute(SQLModel.metadata.tables[table].delete())
    if snapshot(db) != _shared_world["as_built"]:
        clear_tables()
        _shared_world.update(_build_world(db))


def snapshot(db) -> dict[str, list]:
    """Every row of every table but the try records: each table's row count (one query for them all), and the
    rows of those that have any (two snapshots with the same counts and the same rows hold the same data)."""
    import volley_app.models  # noqa: F401 - every table

    tables = [t for t in SQLModel.metadata.sorted_tables if t.name not in TRY_RECORDS]
    out: dict[str, list] = {}
    with db.get_bind().connect() as conn:
        each = [sa.select(sa.func.count()).select_from(t).scalar_subquery() for t in tables]
        counts = conn.execute(sa.select(*each)).one()
        out["(row counts)"] = list(counts)
        for table, n in zip(tables, counts, strict=True):
            if n:
                cols = [c for c in table.columns if c.name not in ("last_seen_at",)]
                out[table.name] = [tuple(r) for r in conn.execute(sa.select(*cols).order_by(*table.primary_key.columns))]
    return out


class Failures(logging.Handler):
    """Collects what the app logs at ERROR: an unexpected failure the user would see as 'Something went wrong'."""

    def __init__(self):
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def failures():
    handler = Failures()
    logger = logging.getLogger("volley_app")
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


def _path(route: str, segment_values: list[str], query: dict[str, str]) -> str:
    values = iter(segment_values)
    path = re.sub(r"\[[^\]]+\]", lambda _m: quote(next(values, "1"), safe="", errors="replace"), route) or "/"
    if query:
        path += "?" + "&".join(f"{quote(k, safe='', errors='replace')}={quote(v, safe='', errors='replace')}"
                               for k, v in query.items())  # fmt: skip
    return path


def _messages(root) -> list[str]:
    """Every error message the tab's states show (the form line, the field lines)."""
    found = []

    def walk(state):
        for attr in ("error", "errors", "info_error", "restore_error"):
            value = getattr(state, attr) if attr in state.base_vars else None
            if isinstance(value, str) and value:
                found.append(value)
            elif isinstance(value, dict):
                found.extend(v for v in value.values() if isinstance(v, str) and v)
        for sub in state.substates.values():
            walk(sub)

    walk(root)
    return found


def _refused(root, before_messages: list[str]) -> bool:
    return bool(set(_messages(root)) - set(before_messages))


# --- the tests --------------------------------------------------------------------------------------------------


def test_the_snapshot_sees_a_changed_row_and_a_first_row(world):
    from volley_app.models import ContactInquiry, User

    db = world["db"]
    before = snapshot(db)
    assert snapshot(db) == before
    pat = db.exec(sa.select(User).where(User.username == "pat")).scalar_one()
    pat.first_name = "Patricia"
    db.add(pat)
    db.commit()
    changed = snapshot(db)
    assert changed != before
    db.add(ContactInquiry(email="a@example.com", name="A", body="Hello"))
    db.commit()
    assert snapshot(db) != changed


def test_every_handler_and_route_is_fuzzed():
    """The walk finds the app's handlers and routes (so a new one is in the lists below by itself)."""
    names = {f"{cls.__name__}.{name}" for cls, name in HANDLERS}
    assert {"SignupState.signup", "LeagueHomeState.upload", "EditUserState.save"} <= names
    assert len(HANDLERS) >= 100
    assert {("POST", "/api/auth"), ("POST", "/api/users"), ("GET", "/api/users/me")} <= set(API_ROUTES)
    for cls, name in HANDLERS:
        _args_strategy(cls, name)  # every parameter has a strategy


@pytest.mark.parametrize(("state_cls", "name"), HANDLERS, ids=[f"{c.__name__}.{n}" for c, n in HANDLERS])
def test_handler_takes_anything(world, failures, state_cls, name):
    db = world["db"]
    ids = world["ids"]

    @FUZZ
    @given(
        who=st.sampled_from([None, "pat", "svla", "root"]),
        route=st.sampled_from(PAGE_ROUTES),
        segments=st.lists(st.sampled_from(ids) | TEXT, min_size=2, max_size=2),
        query=st.dictionaries(st.sampled_from(["league", "team", "next", "session", "x"]), TEXT, max_size=2),
        args=_args_strategy(state_cls, name),
    )
    def run(who, route, segments, query, args):
        root = root_state(_path(route, segments, query))
        state = substate(root, state_cls)
        if who:
            substate(root, AuthState).token_trusted = world["tokens"][who]
        before_messages = _messages(root)
        before = snapshot(db)
        failures.records.clear()
        event = state_cls.event_handlers[name]

        async def run_it():
            if not event.is_background:
                return await call(getattr(state, name), *args)
            if hasattr(state, "_reload") and name == "poll":
                # The page poll runs the state's reload on a timer: that is what input reaches.
                return await call(state._reload, *args)
            async with as_background(root, state) as (proxy, _manager):  # as Reflex runs it
                return await call(functools.partial(event.fn, proxy), *args)

        try:
            asyncio.run(run_it())
        except Exception as exc:  # the assertion says which
            raise AssertionError(f"{state_cls.__name__}.{name}{args!r} as {who} at {route} raised {exc!r}") from exc
        logged = [r.getMessage() for r in failures.records]
        assert not logged, f"{state_cls.__name__}.{name}{args!r} as {who}: unexpected failure logged: {logged}"
        assert UNEXPECTED not in _messages(root)
        if _refused(root, before_messages):
            assert snapshot(db) == before, f"{state_cls.__name__}.{name}{args!r} as {who} was refused but changed data"

    run()


JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2**70), max_value=2**70),
              st.floats(allow_nan=False, allow_infinity=False), TEXT.filter(lambda t: "\ud800" not in t)),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=8,
)  # fmt: skip
API_BODY = st.one_of(
    st.fixed_dictionaries({}, optional={k: JSON for k in ("username", "password", "email", "firstName", "lastName",
                                                           "region", "trusted", "type", "data", "id")}),
    JSON,
)  # fmt: skip


@pytest.mark.parametrize(("method", "path"), API_ROUTES, ids=[f"{m} {p}" for m, p in API_ROUTES])
def test_route_takes_anything(world, failures, method, path):
    db = world["db"]
    api = create_api()

    @FUZZ
    @given(
        who=st.sampled_from([None, "pat", "svla", "root", "garbage"]),
        body=API_BODY,
        raw=st.one_of(st.none(), st.binary(max_size=200)),
        signature=st.one_of(st.none(), TEXT.filter(lambda t: t.isascii() and "\x00" not in t and "\r" not in t
                                                   and "\n" not in t)),
    )  # fmt: skip
    def run(who, body, raw, signature):
        headers = {}
        if who == "garbage":
            headers["authorization"] = "Bearer " + "x" * 300
        elif who:
            headers["authorization"] = f"Bearer {world['tokens'][who]}"
        if signature is not None:
            headers["stripe-signature"] = signature

        async def send():
            transport = httpx.ASGITransport(app=api, client=("198.51.100.7", 5000))
            async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
                if raw is not None:
                    return await client.request(method, path, content=raw, headers=headers)
                return await client.request(method, path, json=body, headers=headers)

        before = snapshot(db)
        failures.records.clear()
        response = asyncio.run(send())
        assert response.status_code < 500, (method, path, body, raw, response.text)
        assert not failures.records, [r.getMessage() for r in failures.records]
        if response.status_code >= 400:
            assert snapshot(db) == before, f"{method} {path} answered {response.status_code} but changed data"

    run()
