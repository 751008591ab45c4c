"""Where the browser fetches a private file the backend serves (a league's bracket): the backend's own address."""

from __future__ import annotations

from reflex.config import get_config


def backend_address(path: str) -> str:
    """``path`` on the backend the pages talk to (in production the same origin as the pages)."""
    return get_config().api_url.rstrip("/") + path
