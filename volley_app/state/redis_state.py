"""Reflex's Redis state manager with each event in two round trips to Redis instead of four.

With several instances, every event of a tab takes the tab's lock in Redis, reads the tab's states,
writes the ones the event changed and lets go of the lock: Reflex sends each of these as its own
command (``SET NX``, ``MGET``, a fenced ``EVAL`` write, ``GETDEL``). Here the lock and the read go in
one script, and the fenced write and the unlock in another, with the same guarantees:

- a tab's events still run one at a time across every instance (the same lock key and lock ids, so
  an instance running Reflex's own manager waits on this one and the other way round);
- a write still happens only while this event holds the lock (an expired or re-taken lock discards
  the write and raises ``LockExpiredError``, as Reflex does);
- a lock that is taken is waited for exactly as Reflex waits (keyspace notifications, then retry):
  only the uncontended path, nearly every event, is shortened.

The opportunistic lock (``REFLEX_OPLOCK_ENABLED``) keeps Reflex's own path; docs/deploy.md says why it
stays off.

In one process with no Redis (the embedded default), Reflex keeps each tab's states in files and, after every
pass of its write loop (every two seconds), lists the whole folder and reads each file's age to drop the expired
ones: with a thousand tabs open that listing was most of what the process did while nobody clicked. Here it runs
at most once every :data:`PURGE_SECONDS` (the states expire after an hour; a minute late is nothing).

Both are written against one Reflex release (:data:`REFLEX_RELEASE`, the one requirements.txt pins): under
another, :func:`install` leaves Reflex's own managers in place and says so.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import logging
import time
import uuid
from collections.abc import AsyncIterator
from typing import Any

from reflex.istate.manager import StateManager
from reflex.istate.manager.disk import StateManagerDisk
from reflex.istate.manager.redis import StateManagerRedis
from reflex.istate.manager.token import BaseStateToken
from reflex.state import BaseState
from reflex.utils.exceptions import LockExpiredError, StateSchemaMismatchError

# KEYS: the lock, then the state keys. ARGV: the lock id, the lock's expiry (ms). Takes the lock when it
# is free and then reads the states; nil (nothing read) when another event holds it.
_LOCK_AND_READ = """
if not redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then
    return nil
end
if #KEYS == 1 then
    return {}
end
return redis.call('MGET', unpack(KEYS, 2))
"""

# KEYS: the lock, then the state keys. ARGV: the lock id, the states' expiry (s), then the serialised
# states in KEYS order. Writes and lets go only while the lock is still this event's; replies with the
# lock's remaining time (ms), or nil when the lock changed hands or expired (nothing written).
_SAVE_AND_UNLOCK = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
    return nil
end
for i = 2, #KEYS do
    redis.call('SET', KEYS[i], ARGV[i + 1], 'EX', ARGV[2])
end
local left = redis.call('PTTL', KEYS[1])
redis.call('DEL', KEYS[1])
return left
"""

# KEYS: the lock. ARGV: the lock id. Lets go of the lock only while it is still this event's.
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
    return redis.call('DEL', KEYS[1])
end
return 0
"""


class StateManagerRedisTwoTrips(StateManagerRedis):
    """Reflex's Redis state manager; an uncontended event costs two round trips (see the module)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._lock_and_read = self.redis.register_script(_LOCK_AND_READ)
        self._save_and_unlock = self.redis.register_script(_SAVE_AND_UNLOCK)
        self._unlock = self.redis.register_script(_UNLOCK)

    def _tree(self, token: BaseStateToken, classes: list[type[BaseState]], found: list[Any]) -> BaseState:
        """The tab's state tree from what Redis held for each of ``classes`` (parents first); its root."""
        tree: dict[str, BaseState] = {}
        for state_cls, data in zip(classes, found, strict=True):
            state = None
            if data is not None:
                with contextlib.suppress(StateSchemaMismatchError):
                    state = BaseState._deserialize(data=data)
            if state is None:  # not kept yet, or kept by an older version of the app: a new one
                state = state_cls(init_substates=False, _reflex_internal_init=True)
            name = state.get_full_name()
            tree[name] = state
            if state.get_parent_state() is not None:
                parent_name, _, own = name.rpartition(".")
                parent = tree[parent_name]
                parent.substates[own] = state
                state.parent_state = parent
        return tree[token.cls.get_root_state().get_full_name()]

    @contextlib.asynccontextmanager
    async def _try_modify_state(self, token, **context) -> AsyncIterator[Any]:
        if self._oplock_enabled or not isinstance(token, BaseStateToken):
            async with super()._try_modify_state(token, **context) as state:
                yield state
            return
        event = context.get("event")
        lock_key = self._lock_key(token)
        lock_id = (f"{event.name}:{uuid.uuid4().hex}" if event is not None else uuid.uuid4().hex).encode()
        classes = sorted(self._get_required_state_classes(token.cls, subclasses=True), key=lambda c: c.get_full_name())
        keys = [token._state_key(c) for c in classes]
        found = None
        if not self._n_lock_waiters(lock_key):  # nobody on this instance is queued for the tab: try at once
            found = await self._lock_and_read(keys=[lock_key, *keys], args=[lock_id, self.lock_expiration])
        if found is None:  # another event holds the tab: wait in line as Reflex does, then read
            await self._wait_lock(lock_key, lock_id)
            found = await self.redis.mget(keys) if keys else []
        settled = False
        try:
            state = self._tree(token, classes, found)
            yield state
            writes = self._collect_state_writes(token, state)
            left = await self._save_and_unlock(
                keys=[lock_key, *(key for key, _ in writes)],
                args=[lock_id, self.token_expiration, *(data for _, data in writes)],
            )
            settled = True
            if left is None:
                msg = (
                    f"Lock expired for token {token} while processing. Consider increasing "
                    f"`app.state_manager.lock_expiration` (currently {self.lock_expiration}) or use "
                    "`@rx.event(background=True)` for long-running tasks."
                    + (f" Happened in event: {event.name}" if event is not None else "")
                )
                raise LockExpiredError(msg)
        finally:
            if not settled:
                with contextlib.suppress(Exception):  # Redis away: the lock expires by itself
                    await self._unlock(keys=[lock_key], args=[lock_id])
            self._notify_next_waiter(lock_key)


class StateManagerDiskPaced(StateManagerDisk):
    """Reflex's file-backed state manager, its walk over the states folder paced (see the module's description)."""

    _purged_at: float = 0.0

    def _purge_expired_states(self) -> None:
        now = time.monotonic()
        if self._purged_at and now - self._purged_at < PURGE_SECONDS:
            return
        self._purged_at = now
        super()._purge_expired_states()


PURGE_SECONDS = 60.0
REFLEX_RELEASE = "0.10.1"
log = logging.getLogger(__name__)
_reflex_create = StateManager.create.__func__  # type: ignore[attr-defined]


def _create(cls: type[StateManager]) -> StateManager:
    """Reflex's ``StateManager.create``, with the two-round-trip manager where Reflex would use Redis, and the
    paced one where it would keep states in files."""
    manager = _reflex_create(cls)
    if type(manager) is StateManagerDisk:
        manager.__class__ = StateManagerDiskPaced  # type: ignore[type-abstract, unused-ignore]  # the same fields
        return manager
    if type(manager) is StateManagerRedis:
        if manager._lock_task is not None:  # made in a running loop: its lock subscriber is not needed
            manager._lock_task.cancel()
        # Reflex's StateManagerRedis defines its state methods twice; a fresh mypy run reads them as abstract
        return StateManagerRedisTwoTrips(  # type: ignore[abstract, unused-ignore]
            redis=manager.redis,
            token_expiration=manager.token_expiration,
            lock_expiration=manager.lock_expiration,
            lock_warning_threshold=manager.lock_warning_threshold,
        )
    return manager


def fits(release: str | None = None) -> bool:
    """Whether the Reflex installed (or ``release``) is the one these managers were written against."""
    return (release or importlib.metadata.version("reflex")) == REFLEX_RELEASE


def install() -> None:
    """Make the app use these managers (before the app is made), under the Reflex they were written for."""
    if not fits():
        log.warning("Reflex %s is not %s: its own state managers are used", importlib.metadata.version("reflex"),
                    REFLEX_RELEASE)  # fmt: skip
        return
    StateManager.create = classmethod(_create)  # type: ignore[assignment]  # Reflex types create as a plain callable
