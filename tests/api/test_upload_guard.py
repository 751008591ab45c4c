"""Uploads through the real backend (Reflex's /_upload behind the app's guard): judged before the body is read.

The request bodies are generators that count what the server pulls from them, and
every temporary file the multipart parser opens is counted too, so the tests see
how much the server read and wrote.
"""

from __future__ import annotations

import datetime as dt
import uuid

import httpx
import pytest
import starlette.formparsers
from reflex.istate.manager.token import BaseStateToken
from sqlmodel import select

from tests.factories import add_league, add_league_session, login_token, make_user
from volley_app.models import League, Role, StoredFile, utcnow
from volley_app.pages.dash.leagues.home.state import LeagueHomeState
from volley_app.settings import get_settings
from volley_app.state.uploads import body_limit

MB = 1024 * 1024
CHUNK = 64 * 1024
UPLOAD_HANDLER = f"{LeagueHomeState.get_full_name()}.upload"
PNG = b"\x89PNG\r\n\x1a\n" + b"\0" * 100


class Counted:
    """A request body of ``total`` bytes (multipart-looking), counting the bytes the server pulled."""

    def __init__(self, total: int):
        self.total = total
        self.pulled = 0

    async def __aiter__(self):
        head = b'--b\r\nContent-Disposition: form-data; name="files"; filename="x.png"\r\nContent-Type: image/png\r\n\r\n'
        self.pulled += len(head)
        yield head
        sent = len(head)
        while sent < self.total:
            piece = PNG[:8] + b"\0" * (CHUNK - 8) if sent == len(head) else b"\0" * CHUNK
            sent += len(piece)
            self.pulled += len(piece)
            yield piece


@pytest.fixture(autouse=True)
def fresh_state_store(backend):
    """A state store made in this test's event loop (a Redis client is bound to the loop that opened it)."""
    from reflex.istate.manager import StateManager

    app, _asgi = backend
    app._state_manager = StateManager.create()


@pytest.fixture
def written(monkeypatch):
    """Bytes the multipart parser wrote to its temporary files, over the test."""
    total = {"bytes": 0}

    class Counting(starlette.formparsers.SpooledTemporaryFile):
        def write(self, s):
            total["bytes"] += len(s)
            return super().write(s)

    monkeypatch.setattr(starlette.formparsers, "SpooledTemporaryFile", Counting)
    return total


@pytest.fixture
def upload_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("UPLOAD_DIR", str(tmp_path / "uploads"))
    get_settings.cache_clear()
    yield tmp_path / "uploads"
    get_settings.cache_clear()


@pytest.fixture
def world(db, upload_dir):
    svl = make_user(db, "svla", Role.SVL)
    make_user(db, "svlb", Role.SVL)
    make_user(db, "pat")
    now = utcnow()
    sid = add_league_session(db, svl, "Fall", now + dt.timedelta(days=3), now + dt.timedelta(days=80))
    lg = add_league(db, svl, sid, start=now + dt.timedelta(days=4))
    return {"db": db, "league": lg, "tokens": {name: login_token(db, name) for name in ("svla", "svlb", "pat")}}


async def _tab(app, path: str, login: str | None) -> str:
    """A browser tab on ``path`` (logged in with ``login``) as the server keeps it; returns its client token."""
    from reflex.istate.data import ReflexURL, RouterData, SessionData

    ident = str(uuid.uuid4())
    async with app.state_manager.modify_state(BaseStateToken(ident=ident, cls=LeagueHomeState)) as root:
        data = RouterData(
            session=SessionData(client_token=ident, client_ip="203.0.113.9", session_id="sid"),
            url=ReflexURL(f"http://localhost:3000{path}"),
        )

        def walk(state):
            state.router = data
            for sub in state.substates.values():
                walk(sub)

        walk(root)
        state = root.get_substate(LeagueHomeState.get_full_name().split(".")[1:])
        if login:
            state.token_trusted = login
    return ident


async def _post(asgi, body, *, token: str, handler: str = UPLOAD_HANDLER, length: int | None = None):
    headers = {"reflex-client-token": token, "reflex-event-handler": handler,
               "content-type": "multipart/form-data; boundary=b"}  # fmt: skip
    if length is not None:
        headers["content-length"] = str(length)
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.post("/_upload", content=body, headers=headers)


def _unchanged(world, upload_dir) -> None:
    db = world["db"]
    db.expire_all()
    assert db.get(League, world["league"].id).tournament_file is None
    assert not upload_dir.exists() or not any(upload_dir.iterdir())
    assert db.exec(select(StoredFile)).all() == []


async def test_50_mb_declared_is_refused_before_a_byte_is_read(backend, world, upload_dir, written):
    app, asgi = backend
    token = await _tab(app, f"/dash/leagues/{world['league'].id}", world["tokens"]["svla"])
    body = Counted(50 * MB)
    response = await _post(asgi, body, token=token, length=50 * MB)
    assert response.status_code == 413
    assert body.pulled <= CHUNK  # at most what the client pushed before the answer
    assert written["bytes"] == 0
    _unchanged(world, upload_dir)


async def test_50_mb_without_a_declared_size_is_cut_at_the_limit(backend, world, upload_dir, written):
    app, asgi = backend
    token = await _tab(app, f"/dash/leagues/{world['league'].id}", world["tokens"]["svla"])
    body = Counted(50 * MB)
    response = await _post(asgi, body, token=token)
    assert response.status_code == 413
    assert body.pulled <= body_limit() + 2 * CHUNK, f"the server read {body.pulled} bytes"
    assert written["bytes"] <= body_limit()
    _unchanged(world, upload_dir)


@pytest.mark.parametrize(
    ("who", "path", "handler"),
    [
        (None, "league", UPLOAD_HANDLER),  # nobody logged in in that tab
        ("pat", "league", UPLOAD_HANDLER),  # a player may not upload brackets
        ("svlb", "league", UPLOAD_HANDLER),  # another SVL's league
        ("svla", "/dash/leagues/999999", UPLOAD_HANDLER),  # no such league
        ("svla", "league", f"{LeagueHomeState.get_full_name()}.generate"),  # not an upload handler
        ("svla", "league", "state.no_such.handler"),
    ],
)
async def test_uploads_without_a_right_to_upload_there_are_refused_before_reading(
    backend, world, upload_dir, written, who, path, handler
):
    app, asgi = backend
    path = f"/dash/leagues/{world['league'].id}" if path == "league" else path
    token = await _tab(app, path, world["tokens"][who] if who else None)
    body = Counted(MB)
    response = await _post(asgi, body, token=token, handler=handler, length=MB)
    assert response.status_code == 403
    assert body.pulled <= CHUNK and written["bytes"] == 0
    _unchanged(world, upload_dir)


@pytest.mark.parametrize("token", ["", "not a token", "6f1c1d2e-4b1a-4c3e-9a57-0d9f2b8e7c11"])
async def test_a_forged_or_unknown_client_token_is_refused(backend, world, upload_dir, written, token):
    _app, asgi = backend
    body = Counted(MB)
    response = await _post(asgi, body, token=token, length=MB)
    assert response.status_code == 403 and written["bytes"] == 0
    _unchanged(world, upload_dir)
