"""Socket records in Redis: a tab that was on a killed instance keeps its token; a real copy of a tab does not."""

from __future__ import annotations

import os
import pickle

import pytest
from reflex.utils.token_manager import SocketRecord

from volley_app.state import sockets

pytestmark = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis of REDIS_URL")


@pytest.fixture
async def redis_client(monkeypatch):
    import redis.asyncio

    monkeypatch.setattr(sockets, "SILENT_SECONDS", 0.2)
    monkeypatch.setattr(sockets, "BEAT_SECONDS", 0.05)
    client = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
    yield client
    keys = [k async for k in client.scan_iter("token_manager_socket_record_sock-test-*")]
    keys += [k async for k in client.scan_iter(f"{sockets.ALIVE_PREFIX}*")]
    if keys:
        await client.delete(*keys)
    await client.aclose()


def _manager(client) -> sockets.LivenessTokenManager:
    return sockets.LivenessTokenManager(client)


async def _stop(manager) -> None:
    if manager._beat_task is not None:
        manager._beat_task.cancel()


async def test_a_tab_from_a_killed_instance_keeps_its_token(redis_client):
    dead = _manager(redis_client)
    await dead.link_token_to_sid("sock-test-tab", "sid-1")
    await _stop(dead)  # killed: no more beats, its record stays behind
    assert await redis_client.exists("token_manager_socket_record_sock-test-tab")

    survivor = _manager(redis_client)
    assert await survivor.link_token_to_sid("sock-test-tab", "sid-2") is None  # same token: its state is kept
    record = pickle.loads(await redis_client.get("token_manager_socket_record_sock-test-tab"))  # noqa: S301
    assert record.instance_id == survivor.instance_id and record.sid == "sid-2"
    await _stop(survivor)


async def test_a_copy_of_a_tab_whose_instance_lives_gets_a_new_token(redis_client):
    owner = _manager(redis_client)
    await owner.link_token_to_sid("sock-test-copied", "sid-1")
    other = _manager(redis_client)
    new_token = await other.link_token_to_sid("sock-test-copied", "sid-9")
    assert new_token is not None and new_token != "sock-test-copied"
    await _stop(owner)
    await _stop(other)


async def test_only_a_record_of_a_silent_instance_is_removed(redis_client):
    manager = _manager(redis_client)
    key = "token_manager_socket_record_sock-test-race"
    await redis_client.set(key, pickle.dumps(SocketRecord(instance_id="gone-instance", sid="old")))
    assert await manager.drop_stale_record("sock-test-race")
    # a record of a live instance stays
    await manager._beat_once()
    live = _manager(redis_client)
    await live._beat_once()
    live._ensure_beat_task()
    await redis_client.set(key, pickle.dumps(SocketRecord(instance_id=live.instance_id, sid="s")))
    assert not await manager.drop_stale_record("sock-test-race")
    await _stop(live)


async def test_a_tab_whose_disconnect_could_not_delete_its_record_keeps_its_token(redis_client):
    manager = _manager(redis_client)
    await manager.link_token_to_sid("sock-test-outage", "sid-1")
    # The tab's socket went while Redis was out of reach: the local link is gone, the record in Redis stays.
    manager.token_to_socket.pop("sock-test-outage")
    manager.sid_to_token.pop("sid-1")
    assert await redis_client.exists("token_manager_socket_record_sock-test-outage")
    assert await manager.link_token_to_sid("sock-test-outage", "sid-2") is None  # same token, same state
    await _stop(manager)


async def test_a_copy_of_a_tab_open_on_the_same_instance_gets_a_new_token(redis_client):
    manager = _manager(redis_client)
    await manager.link_token_to_sid("sock-test-twin", "sid-1")
    new_token = await manager.link_token_to_sid("sock-test-twin", "sid-2")
    assert new_token is not None and new_token != "sock-test-twin"
    await _stop(manager)


async def _disconnect_while_redis_is_out(monkeypatch, manager, token: str, sid: str) -> None:
    """The tab's socket goes while Redis takes no delete."""

    async def out_of_reach(*_keys):
        raise ConnectionError("Redis is out of reach")

    with monkeypatch.context() as m:
        m.setattr(manager.redis, "delete", out_of_reach)
        await manager.disconnect_token(token, sid)


async def test_a_tab_back_on_another_instance_after_an_outage_keeps_its_token(redis_client, monkeypatch):
    owner = _manager(redis_client)
    await owner.link_token_to_sid("sock-test-owed", "sid-1")
    await _disconnect_while_redis_is_out(monkeypatch, owner, "sock-test-owed", "sid-1")
    assert await redis_client.exists("token_manager_socket_record_sock-test-owed")
    # Redis answers again; the owner lives and beats, and owes the delete. The tab comes back on another instance:
    # it is the same tab, not a copy.
    owner._ensure_beat_task()
    other = _manager(redis_client)
    assert await other.link_token_to_sid("sock-test-owed", "sid-2") is None
    record = pickle.loads(await redis_client.get("token_manager_socket_record_sock-test-owed"))  # noqa: S301
    assert record.instance_id == other.instance_id and record.sid == "sid-2"
    await owner._beat_once()  # nothing more is owed: the other instance's record stays
    assert await redis_client.exists("token_manager_socket_record_sock-test-owed")
    await _stop(owner)
    await _stop(other)


async def test_an_owed_delete_leaves_a_record_another_instance_wrote_since(redis_client, monkeypatch):
    owner = _manager(redis_client)
    await owner.link_token_to_sid("sock-test-relinked", "sid-1")
    await _disconnect_while_redis_is_out(monkeypatch, owner, "sock-test-relinked", "sid-1")
    key = "token_manager_socket_record_sock-test-relinked"
    newer = pickle.dumps(SocketRecord(instance_id="another-instance", sid="sid-7"))
    await redis_client.set(key, newer)
    await owner._beat_once()
    assert await redis_client.get(key) == newer
    await _stop(owner)


async def test_a_closed_tab_is_told_to_its_polls(redis_client, monkeypatch):
    from volley_app.state import polling

    monkeypatch.setattr(polling, "_signals", False)
    told: list[str] = []
    monkeypatch.setattr(polling, "tab_left", told.append)
    manager = _manager(redis_client)
    assert polling._signals
    await manager.link_token_to_sid("sock-test-closed", "sid-1")
    await manager.disconnect_token("sock-test-closed", "sid-0")  # not its socket
    await manager.disconnect_token("sock-test-closed", "sid-1")
    assert told == ["sock-test-closed"]
    await _stop(manager)
