"""What the passing of time changes, saved once a minute: a session's status, a league's stage, a sub request's
completion (spec section 4), the reminders of shares of a team's fee coming due, and giving back what free agents
never placed by their league's start paid.

Reads compute these from the dates (``sessions.status_at``, ``leagues.stage_at``, ``request_rows.is_completed``)
and write nothing; this sweep saves what the dates have reached, so that the columns follow within a minute.
Safe with several instances: each saves the same values.
"""

from __future__ import annotations

import asyncio
import datetime as dt

from sqlmodel import Session

from volley_app import db as dbmod
from volley_app.models import utcnow
from volley_app.services.core import periodic
from volley_app.services.seasons import leagues, sessions
from volley_app.services.subs import request_rows
from volley_app.services.teams import free_agents, shares

SWEEP_SECONDS = 60.0


def save_reached(db: Session, now: dt.datetime | None = None) -> None:
    """Save every status, stage and completion the dates have reached by ``now``, in the caller's transaction."""
    now = now or utcnow()
    sessions.save_reached_statuses(db, now)
    leagues.save_reached_stages(db, now)
    request_rows.complete_past(db, now=now)
    shares.remind(db, now)


def sweep(now: dt.datetime | None = None) -> None:
    """One sweep, in a transaction of its own."""
    dbmod.call(lambda db: save_reached(db, now))
    free_agents.sweep(now)  # free agents still unplaced at their league's start: given back what they paid


async def run_forever(stop_event: asyncio.Event | None = None, interval: float = SWEEP_SECONDS) -> None:
    """Run :func:`sweep` every ``interval`` seconds (in a worker thread) until cancelled or stopped."""
    await periodic.every(interval, sweep, name="Clock sweep", stop_event=stop_event)
