"""Which instance holds a tab's websocket, when several share Redis: a killed instance's records are stale.

Reflex keeps, per tab, a record in Redis naming the instance (one server process)
that holds the tab's websocket; a tab connecting while another instance holds
its record is taken for a copy of the tab (a duplicated browser tab) and gets a
new client token, that is a new, empty state. An instance that is killed leaves
its records behind (for an hour), so every tab that was on it would reconnect
to an empty state: logged out, the form it was typing gone.

Here each instance also beats a short-lived key in Redis every ``BEAT_SECONDS``.
When a tab connects and its record names another instance, that instance is
asked whether it is alive: a record of an instance that has stopped beating is
stale and removed, and the tab keeps its token and its state. A real copy of a
tab (the other instance beats on) still gets a new token. So does a record of
this very instance for a tab it no longer has a socket for: left behind when the
tab's disconnect could not delete it (Redis was briefly out of reach).

A disconnect whose delete Redis did not take is owed: the instance deletes the
record (if it still holds what it wrote) on its first beat once Redis answers
again. So a tab that comes back on another instance after an outage is not taken
for a copy: that instance waits ``SILENT_SECONDS`` (more than a beat) to learn
whether the record's owner lives, and by then a live owner has deleted it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import pickle
import time
from typing import TYPE_CHECKING

from reflex.utils import prerequisites
from reflex.utils.tasks import ensure_task
from reflex.utils.token_manager import LocalTokenManager, RedisTokenManager, TokenManager

from volley_app.state import polling

if TYPE_CHECKING:
    from redis.asyncio import Redis

log = logging.getLogger(__name__)

ALIVE_PREFIX = "volley_instance_alive_"
BEAT_SECONDS = 1.0
# An instance whose key did not change for this long (or has expired) is gone.
SILENT_SECONDS = 1.3
ALIVE_TTL_SECONDS = 5

# Deletes a key only while it still holds the value read (another instance may have just linked the tab).
_DELETE_IF_SAME = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def alive_key(instance_id: str) -> str:
    return f"{ALIVE_PREFIX}{instance_id}"


class TellingTokenManager(LocalTokenManager):
    """Reflex's token manager of one process, which tells the tab's polls here that it closed (``polling``)."""

    def __init__(self) -> None:
        super().__init__()
        polling.signals_on()

    async def disconnect_token(self, token: str, sid: str) -> None:
        record = self.token_to_socket.get(token)
        await LocalTokenManager.disconnect_token(self, token, sid)
        if record is not None and record.sid == sid:
            polling.tab_left(token)


class LivenessTokenManager(RedisTokenManager):
    """Reflex's Redis token manager, with a heartbeat per instance and stale records of dead instances dropped."""

    _beat_task: asyncio.Task | None = None

    def __init__(self, redis: Redis):
        super().__init__(redis)
        polling.signals_on()
        self._owed_deletes: dict[str, bytes] = {}  # token -> the record this instance wrote and could not delete

    async def _beat_once(self) -> None:
        await self.redis.set(alive_key(self.instance_id), repr(time.time()), ex=ALIVE_TTL_SECONDS)
        for token, raw in list(self._owed_deletes.items()):
            # redis-py types eval for its sync client too
            await self.redis.eval(_DELETE_IF_SAME, 1, self._get_redis_key(token), raw)  # type: ignore[misc]
            self._owed_deletes.pop(token, None)

    async def disconnect_token(self, token: str, sid: str) -> None:
        """Reflex's disconnect (the local link, then the record in Redis); a delete Redis does not take is owed."""
        record = self.token_to_socket.get(token)
        if record is None or record.sid != sid or record.instance_id != self.instance_id:
            return
        await LocalTokenManager.disconnect_token(self, token, sid)
        polling.tab_left(token)
        try:
            await self.redis.delete(self._get_redis_key(token))
        except Exception as exc:
            log.warning("A closed tab's socket record is deleted once Redis answers again: %s", exc)
            self._owed_deletes[token] = pickle.dumps(record)

    async def _beat_forever(self) -> None:
        while True:
            try:
                await self._beat_once()
            except Exception as exc:  # Redis away for a moment: beat again on the next round
                log.warning("Instance heartbeat not written: %s", exc)
            await asyncio.sleep(BEAT_SECONDS)

    def _ensure_beat_task(self) -> None:
        ensure_task(owner=self, task_attribute="_beat_task", coro_function=self._beat_forever,
                    suppress_exceptions=[Exception])  # fmt: skip

    async def instance_alive(self, instance_id: str) -> bool:
        """Whether ``instance_id`` beats: its key exists and changes within ``SILENT_SECONDS``."""
        first = await self.redis.get(alive_key(instance_id))
        if first is None:
            return False
        await asyncio.sleep(SILENT_SECONDS)
        second = await self.redis.get(alive_key(instance_id))
        return second is not None and second != first

    async def drop_stale_record(self, token: str) -> bool:
        """Remove the tab's record when it names another instance that no longer beats; True if removed."""
        key = self._get_redis_key(token)
        raw = await self.redis.get(key)
        if not raw:
            return False
        try:
            record = pickle.loads(raw)  # noqa: S301 - Reflex's own record, in the app's own Redis
        except Exception:
            return False
        owner = getattr(record, "instance_id", None)
        if not owner:
            return False
        if owner == self.instance_id:
            # This instance's own record, for a tab with no socket here: its disconnect could not delete the
            # record (Redis was out of reach then). A copy of a tab open here has its socket here and keeps it.
            if token in self.token_to_socket:
                return False
        elif await self.instance_alive(owner):
            return False
        # redis-py types eval for its sync client too
        removed = bool(await self.redis.eval(_DELETE_IF_SAME, 1, key, raw))  # type: ignore[misc]
        if removed:
            log.info("A tab reconnected; its socket record (of instance %s, no longer linked) was stale", owner)
        return removed

    async def link_token_to_sid(self, token: str, sid: str) -> str | None:
        if self._beat_task is None:
            with contextlib.suppress(Exception):
                await self._beat_once()
        self._ensure_beat_task()
        self._owed_deletes.pop(token, None)  # the tab is back here: its record is written anew
        local = self.token_to_socket.get(token)
        if local is None or local.sid != sid:
            try:
                await self.drop_stale_record(token)
            except Exception as exc:  # Reflex's own check decides
                log.warning("Could not check the socket record of a reconnecting tab: %s", exc)
        return await super().link_token_to_sid(token, sid)


def _create(cls: type[TokenManager]) -> TokenManager:
    """Reflex's ``TokenManager.create``, giving the liveness-checking manager where Redis holds the state."""
    if prerequisites.check_redis_used():
        client = prerequisites.get_redis()
        if client is not None:
            return LivenessTokenManager(client)
    return TellingTokenManager()


def install() -> None:
    """Make the app's socket server use :class:`LivenessTokenManager` (call before the app starts serving)."""
    TokenManager.create = classmethod(_create)  # type: ignore[assignment]  # Reflex types create as a plain callable
