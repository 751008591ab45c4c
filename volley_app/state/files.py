"""Where the browser fetches a file the backend serves (exports, brackets, calendar feeds): built from PUBLIC_URL."""

from __future__ import annotations

from volley_app import routes


def backend_address(path: str) -> str:
    """``path`` on the backend, as a full link on the app's public address (``routes.backend_absolute``)."""
    return routes.backend_absolute(path)
