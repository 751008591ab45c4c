"""What form handlers share: running a service call and turning any failure into a message."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar

from volley_app import db
from volley_app.services.errors import UNEXPECTED, DomainError

log = logging.getLogger(__name__)

T = TypeVar("T")


async def run_action(fn: Callable[..., T], /, **kwargs: Any) -> tuple[T | None, DomainError | None]:
    """Run ``fn(db, **kwargs)`` in a transaction in a worker thread.

    Returns ``(result, None)``, or ``(None, error)`` where ``error`` is the
    service's own DomainError, or a generic one when something unexpected
    broke (logged): either way the form gets its controls back and a message.
    """
    try:
        return await db.run(fn, **kwargs), None
    except DomainError as exc:
        return None, exc
    except Exception:
        log.exception("unexpected failure in %s", getattr(fn, "__qualname__", fn))
        return None, DomainError(UNEXPECTED)
