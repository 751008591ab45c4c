"""The tabs' state in Redis, each event in two round trips: events of one tab still run one at a time, a write
needs the lock still held, a failed event lets go of the lock, and it works beside Reflex's own manager."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from reflex.istate.manager.redis import StateManagerRedis
from reflex.istate.manager.token import BaseStateToken
from reflex.utils.exceptions import LockExpiredError

from volley_app.state.auth import AuthState, SessionGuard
from volley_app.state.redis_state import StateManagerRedisTwoTrips

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis of REDIS_URL")


@pytest.fixture
async def client():
    import redis.asyncio

    client = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
    yield client
    keys = [k async for k in client.scan_iter("redis-state-test-*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


def _token() -> BaseStateToken:
    return BaseStateToken(ident=f"redis-state-test-{uuid.uuid4()}", cls=SessionGuard)


def _two_trips(client, **kw) -> StateManagerRedisTwoTrips:
    # Reflex's StateManagerRedis defines its state methods twice; a fresh mypy run reads them as abstract
    return StateManagerRedisTwoTrips(redis=client, **kw)  # type: ignore[abstract, unused-ignore]


async def _bump(manager, token: BaseStateToken, pause: float = 0.0) -> None:
    async with manager.modify_state(token) as root:
        auth = await root.get_state(AuthState)
        count = auth.user_id
        await asyncio.sleep(pause)  # another event of the tab would read the same count here without the lock
        auth.user_id = count + 1


async def _count(manager, token: BaseStateToken) -> int:
    root = await manager.get_state(token)
    return (await root.get_state(AuthState)).user_id


async def test_a_change_is_kept_and_the_lock_let_go(client):
    manager, token = _two_trips(client), _token()
    async with manager.modify_state(token) as root:
        (await root.get_state(AuthState)).username = "ben"
    assert (await (await manager.get_state(token)).get_state(AuthState)).username == "ben"
    assert not await client.exists(manager._lock_key(token))
    assert await client.ttl(token._state_key(AuthState)) > 0  # kept with the tab's expiry


async def test_events_of_one_tab_run_one_at_a_time(client):
    manager, token = _two_trips(client), _token()
    await asyncio.gather(*(_bump(manager, token, pause=0.005) for _ in range(20)))
    assert await _count(manager, token) == 20


async def test_two_instances_and_reflexs_own_manager_share_the_lock(client):
    token = _token()
    # Reflex's StateManagerRedis defines its state methods twice; a fresh mypy run reads them as abstract
    reflexs = StateManagerRedis(redis=client)  # type: ignore[abstract, unused-ignore]
    ours, other = _two_trips(client), _two_trips(client)
    await asyncio.gather(*(_bump(m, token, pause=0.003) for _ in range(8) for m in (ours, other, reflexs)))
    assert await _count(ours, token) == 24


async def test_a_write_after_the_lock_expired_is_refused_and_nothing_is_written(client):
    manager, token = _two_trips(client, lock_expiration=300, lock_warning_threshold=100), _token()
    with pytest.raises(LockExpiredError):
        async with manager.modify_state(token) as root:
            (await root.get_state(AuthState)).username = "late"
            await asyncio.sleep(0.5)
    assert (await (await manager.get_state(token)).get_state(AuthState)).username == ""


async def test_a_failed_event_lets_go_of_the_lock_and_writes_nothing(client):
    manager, token = _two_trips(client), _token()
    with pytest.raises(RuntimeError):
        async with manager.modify_state(token) as root:
            (await root.get_state(AuthState)).username = "half"
            raise RuntimeError("the handler failed")
    assert not await client.exists(manager._lock_key(token))
    await asyncio.wait_for(_bump(manager, token), timeout=2)  # the next event runs at once
    root = await manager.get_state(token)
    assert (await root.get_state(AuthState)).username == ""


async def test_an_event_waits_for_a_lock_another_instance_holds(client):
    token = _token()
    holder, waiter = _two_trips(client), _two_trips(client)
    entered = asyncio.Event()

    async def hold() -> None:
        async with holder.modify_state(token) as root:
            entered.set()
            await asyncio.sleep(0.3)
            (await root.get_state(AuthState)).user_id = 10

    task = asyncio.create_task(hold())
    await entered.wait()
    await _bump(waiter, token)  # runs after the holder's write, on what it wrote
    await task
    assert await _count(waiter, token) == 11
