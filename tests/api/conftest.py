"""The API tier's shared set-up: the whole backend as the server runs it."""

from __future__ import annotations

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
