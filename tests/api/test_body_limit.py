"""Request bodies through the real backend: over the cap they are refused with 413 before a route parses them.

Bodies are generators that count what the server pulled from them; the route's service is watched,
so the tests see that nothing was parsed or handled.
"""

from __future__ import annotations

import json
import time

import httpx
import pytest

from volley_app.api.body_limit import BODY_MAX, TOO_LARGE
from volley_app.services.mail import inquiries

MB = 1024 * 1024
CHUNK = 64 * 1024


class Counted:
    """A JSON-looking body of ``total`` bytes, counting the bytes the server pulled."""

    def __init__(self, total: int):
        self.total = total
        self.pulled = 0

    async def __aiter__(self):
        head = b'{"name": "Ann", "email": "ann@example.com", "subject": "Hi", "body": "'
        self.pulled += len(head)
        yield head
        sent = len(head)
        while sent < self.total:
            self.pulled += CHUNK
            sent += CHUNK
            yield b"a" * CHUNK


@pytest.fixture
def handled(monkeypatch):
    """The contact forms the service was asked to store."""
    seen: list[dict] = []
    real = inquiries.submit

    def watch(db, **kw):
        seen.append(kw)
        return real(db, **kw)

    monkeypatch.setattr(inquiries, "submit", watch)
    return seen


async def _post(asgi, path: str, body, *, length: int | None = None, mode: str = ""):
    headers = {"content-type": "application/json"}
    if length is not None:
        headers["content-length"] = str(length)
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as client:
        return await client.post(path, content=body, headers=headers)


async def test_a_100_mb_declared_json_body_is_refused_at_once_unread(backend, db, handled):
    _app, asgi = backend
    body = Counted(100 * MB)
    began = time.monotonic()
    response = await _post(asgi, "/api/contact", body, length=100 * MB)
    assert response.status_code == 413 and response.json() == {"detail": TOO_LARGE}
    assert time.monotonic() - began < 2
    assert body.pulled <= CHUNK  # at most what the client pushed before the answer
    assert handled == []
    assert response.headers["x-content-type-options"] == "nosniff"  # the answer carries the usual headers


async def test_a_streamed_body_without_a_length_is_cut_at_the_cap(backend, db, handled):
    _app, asgi = backend
    body = Counted(20 * MB)
    response = await _post(asgi, "/api/contact", body)
    assert response.status_code == 413 and response.json() == {"detail": TOO_LARGE}
    assert body.pulled <= BODY_MAX + 2 * CHUNK
    assert handled == []


@pytest.mark.parametrize("path", ["/api/users", "/api/auth/login", "/api/newsletter", "/api/stripe/webhook",
                                  "/api/notes", "/anything-else"])  # fmt: skip
async def test_every_route_has_the_cap(backend, db, path):
    _app, asgi = backend
    response = await _post(asgi, path, Counted(2 * MB), length=2 * MB)
    assert response.status_code == 413


async def test_a_body_under_the_cap_is_handled_as_before(backend, db, handled):
    _app, asgi = backend
    form = {"name": "Ann", "email": "ann@example.com", "subject": "Hi", "body": "x" * 2000}
    response = await _post(asgi, "/api/contact", json.dumps(form).encode())
    assert response.status_code == 201, response.text
    assert len(handled) == 1
