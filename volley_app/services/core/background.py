"""Where the app's background loops run (the mail and push senders, the sweeps, the reminders): ``BACKGROUND_TASKS``.

- ``here``: this process runs every loop (the embedded default: one process).
- ``one`` (the default when ``REDIS_URL`` is set): of all the instances sharing the Redis, one at a time runs them.
  It holds a lease in Redis (:data:`LEASE_KEY`, :data:`LEASE_SECONDS`) and renews it every :data:`RENEW_SECONDS`;
  the others wait. When the holder stops it gives the lease up, and another instance takes over at its next try;
  when it dies (or can no longer reach Redis) its lease runs out and another takes over within ``LEASE_SECONDS``.
  A holder that cannot renew tells its loops to stop a renewal before its lease could have run out; a run already
  under way finishes (within ``STOP_SECONDS``).
- ``off``: this process runs none (an instance that only serves pages, beside one that runs ``here``).

Each loop is safe to run twice at once anyway (an email is claimed before it is sent, a reminder is recorded in a
row unique to it); running them in one place spares the other instances the work and the database the contention.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol, cast

from volley_app.settings import get_settings

log = logging.getLogger(__name__)

LEASE_KEY = "volley:background"
LEASE_SECONDS = 15.0
RENEW_SECONDS = 5.0
# How long a loop may take to finish what it is doing once told to stop, before it is cancelled.
STOP_SECONDS = 10.0
# This process, as the lease names it.
INSTANCE = uuid.uuid4().hex

# Renew the lease only while it is still ours; give it up only if it is.
_RENEW = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end"
_RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"


class Loop(Protocol):
    def __call__(self, stop_event: asyncio.Event | None = None) -> Coroutine[Any, Any, None]: ...


def mode() -> str:
    """Where this process runs the loops: ``here``, ``one`` or ``off`` (see the module's description)."""
    return get_settings().background_mode


async def _run_loops(loops: Sequence[Loop], stop: asyncio.Event) -> None:
    """Run every loop until ``stop`` is set; then let each finish its run in progress (cancelled after STOP_SECONDS)."""
    tasks: list[asyncio.Task[None]] = [asyncio.create_task(loop(stop_event=stop), name=f"background|{getattr(loop, '__qualname__', loop)}")
             for loop in loops]  # fmt: skip
    try:
        await stop.wait()
    finally:
        stop.set()
        done, pending = await asyncio.wait(tasks, timeout=STOP_SECONDS)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)


class Lease:
    """This instance's hold on the right to run the loops, in Redis."""

    def __init__(self, url: str, *, key: str = LEASE_KEY, seconds: float = LEASE_SECONDS, owner: str = INSTANCE):
        import redis.asyncio

        self.key, self.ms, self.owner = key, int(seconds * 1000), owner
        self._redis = redis.asyncio.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)

    async def take(self) -> bool:
        return bool(await self._redis.set(self.key, self.owner, nx=True, px=self.ms))

    async def renew(self) -> bool:
        return bool(await cast(Any, self._redis).eval(_RENEW, 1, self.key, self.owner, self.ms))

    async def give_up(self) -> None:
        await cast(Any, self._redis).eval(_RELEASE, 1, self.key, self.owner)

    async def holder(self) -> str:
        value = await self._redis.get(self.key)
        return value.decode() if value else ""

    async def close(self) -> None:
        await self._redis.aclose()


async def _hold(lease: Lease, loops: Sequence[Loop], stop: asyncio.Event, renew_every: float) -> None:
    """Run the loops while the lease is ours; return once it is lost or ``stop`` is set (the loops stopped)."""
    held_until = time.monotonic() + lease.ms / 1000
    lost = False
    inner = asyncio.Event()
    running = asyncio.create_task(_run_loops(loops, inner))
    log.info("Background loops run here (instance %s holds the lease)", lease.owner[:8])
    try:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=renew_every)
            if stop.is_set():
                break
            try:
                if not await lease.renew():
                    log.warning("Background lease lost: the loops stop here")
                    lost = True
                    break
                held_until = time.monotonic() + lease.ms / 1000
            except Exception as exc:  # noqa: BLE001 - Redis out of reach: hold on while the lease surely is ours
                if time.monotonic() + renew_every >= held_until - renew_every:
                    log.warning("Background lease not renewed (%s): the loops stop here", type(exc).__name__)
                    lost = True
                    break
    finally:
        inner.set()
        await running
        if not lost:  # stopping: another instance takes over at its next try, not when the lease runs out
            with contextlib.suppress(Exception):
                await lease.give_up()


async def run_forever(loops: Sequence[Loop] = (), stop_event: asyncio.Event | None = None, *,
                      lease: Callable[[], Lease] | None = None, renew_every: float = RENEW_SECONDS) -> None:  # fmt: skip
    """The app's lifespan task: run ``loops`` where ``BACKGROUND_TASKS`` says, until cancelled or ``stop_event``."""
    stop = stop_event or asyncio.Event()
    where = mode()
    if where == "off":
        log.info("Background loops are off in this process (BACKGROUND_TASKS=off)")
        return
    if where == "here":
        await _run_loops(loops, stop)
        return
    url = get_settings().redis_url
    assert url, "BACKGROUND_TASKS=one needs REDIS_URL"
    held = (lease or (lambda: Lease(url)))()
    try:
        while not stop.is_set():
            try:
                taken = await held.take()
            except Exception as exc:  # noqa: BLE001 - Redis out of reach: try again
                log.warning("Background lease not taken (%s); trying again", type(exc).__name__)
                taken = False
            if taken:
                await _hold(held, loops, stop, renew_every)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=renew_every)
    finally:
        with contextlib.suppress(Exception):
            await held.close()
