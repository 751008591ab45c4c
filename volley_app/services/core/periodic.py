"""Work the app repeats in the background (lapsed holds, invitations, reminders): one loop for all of it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TypeVar

import anyio

log = logging.getLogger(__name__)
T = TypeVar("T")


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
