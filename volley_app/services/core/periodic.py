"""Work the app repeats in the background (lapsed holds, invitations, reminders): one loop for all of it."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
from collections.abc import Callable, Iterable
from typing import TypeVar

import anyio
import sqlalchemy.exc
from sqlmodel import Session

from volley_app import db as dbmod

log = logging.getLogger(__name__)
T = TypeVar("T")


def each_once(due: Callable[[Session, dt.datetime], Iterable[T]], send: Callable[[Session, T, dt.datetime], bool],
              now: dt.datetime, *, what: str) -> int:
    """Send each item ``due`` lists as of ``now``, each in a transaction of its own; returns how many ``send`` sent.

    ``send`` records the item in a row that is unique per item before it queues its email, so sweeps running at once
    (several instances, the command line) send it once between them: the one that loses (IntegrityError) skips it.
    One that fails is logged, and the next sweep tries it again.
    """
    sent = 0
    for item in dbmod.call(due, now):
        try:
            sent += dbmod.call(send, item, now)
        except sqlalchemy.exc.IntegrityError:
            log.info("%s %s already sent by another sweep", what, item)
        except Exception:
            log.exception("%s %s failed; the next sweep tries again", what, item)
    return sent


async def every(
    interval: float,
    work: Callable[[], T],
    *,
    name: str,
    stop_event: asyncio.Event | None = None,
    worth_saying: Callable[[T], object] = bool,
) -> None:
    """Run ``work`` (blocking: in a worker thread) every ``interval`` seconds until cancelled or ``stop_event`` is set.

    A failed run is logged and the next interval tries again; a run whose result is ``worth_saying`` is logged.
    """
    stop = stop_event or asyncio.Event()
    log.info("%s started", name)
    try:
        while not stop.is_set():
            try:
                result = await anyio.to_thread.run_sync(work)
                if worth_saying(result):
                    log.info("%s: %s", name, result)
            except Exception:
                log.exception("%s failed; trying again in the next interval", name)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=interval)
    finally:
        log.info("%s stopped", name)
