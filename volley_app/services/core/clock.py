"""Values that move with the clock (a session's status, a league's stage), saved as they are shown."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable
from typing import Any

from sqlmodel import Session

from volley_app.models import utcnow


def save_reached(db: Session, rows: Iterable[Any], field: str, reached: Callable[[Any, dt.datetime], Any],
                 now: dt.datetime | None = None) -> None:  # fmt: skip
    """Save on each row the value its ``field`` has reached by ``now`` (``reached(row, now)``), where it changed."""
    now = now or utcnow()
    for row in rows:
        value = reached(row, now)
        if value != getattr(row, field):
            setattr(row, field, value)
            db.add(row)
