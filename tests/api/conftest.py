"""The API tier's shared set-up: the whole backend as the server runs it."""

from __future__ import annotations

import httpx
import pytest


@pytest.fixture(scope="session")
def backend():
    """(the Reflex app, its ASGI app with every transformer applied: the API, the upload guard, headers, host check)."""
    from reflex.environment import environment

    from volley_app.volley_app import app

    # The pages are not written out (the end-to-end tier builds them): the backend serves the API and the events as
    # a backend-only instance does.
    environment.REFLEX_SKIP_COMPILE.set(True)
    return app, app()


@pytest.fixture
async def client(backend):
    """An HTTP client of the whole backend, as a visitor at 203.0.113.9 on the app's address reaches it."""
    _app, asgi = backend
    transport = httpx.ASGITransport(app=asgi, client=("203.0.113.9", 5000))
    async with httpx.AsyncClient(transport=transport, base_url="http://localhost:3000") as c:
        yield c
