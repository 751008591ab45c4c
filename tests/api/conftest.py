"""The API tier's shared set-up: the whole backend as the server runs it."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def backend():
    """(the Reflex app, its ASGI app with every transformer applied: the API, the upload guard, headers, host check)."""
    from volley_app.volley_app import app

    return app, app()
