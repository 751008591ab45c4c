"""Where the background loops run: in this process, in none, or in one of several instances at a time (a lease in
Redis), and that two instances never both send the same message."""

from __future__ import annotations

import asyncio
import os
import time
import uuid

import pytest
from pydantic import ValidationError
from sqlmodel import select

from tests.smtp_server import SmtpSink
from volley_app.models import OutboxMessage, OutboxStatus
from volley_app.services.core import background
from volley_app.services.mail import mail
from volley_app.settings import Settings, get_settings

needs_redis = pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs the Redis of REDIS_URL")


@pytest.fixture
def where(monkeypatch):
    """Set ``BACKGROUND_TASKS`` for this test."""

    def use(value: str) -> None:
        monkeypatch.setenv("BACKGROUND_TASKS", value)
        get_settings.cache_clear()

    yield use
    monkeypatch.undo()
    get_settings.cache_clear()


class Ledger:
    """Which instances' loops are running now, and every moment two ran at once."""

    def __init__(self) -> None:
        self.running: set[str] = set()
        self.ran: list[str] = []
        self.overlaps = 0

    def loop(self, name: str):
        async def run(stop_event: asyncio.Event | None = None) -> None:
            assert stop_event is not None
            self.running.add(name)
            self.ran.append(name)
            if len(self.running) > 1:
                self.overlaps += 1
            try:
                await stop_event.wait()
            finally:
                self.running.discard(name)

        return run


async def _until(predicate, timeout: float = 5.0, what: str = "") -> None:
    ends = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > ends:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def test_the_default_is_here_alone_and_one_of_the_instances_with_redis():
    assert Settings(redis_url=None).background_mode == "here"
    assert Settings(redis_url="redis://127.0.0.1:6379/0").background_mode == "one"
    assert Settings(redis_url="redis://127.0.0.1:6379/0", background_tasks="off").background_mode == "off"
    with pytest.raises(ValidationError, match="BACKGROUND_TASKS=one needs REDIS_URL"):
        Settings(redis_url=None, background_tasks="one")


async def test_here_runs_every_loop_until_stopped(where):
    where("here")
    seen = Ledger()
    stop = asyncio.Event()
    task = asyncio.create_task(background.run_forever((seen.loop("mail"), seen.loop("sweep")), stop))
    await _until(lambda: seen.running == {"mail", "sweep"}, what="both loops")
    stop.set()
    await asyncio.wait_for(task, 5)
    assert seen.running == set()


async def test_off_runs_none(where):
    where("off")
    seen = Ledger()
    await asyncio.wait_for(background.run_forever((seen.loop("mail"),), asyncio.Event()), 5)
    assert seen.ran == []


def _lease(key: str, owner: str, seconds: float = 1.0) -> background.Lease:
    url = os.environ["REDIS_URL"]
    return background.Lease(url, key=key, seconds=seconds, owner=owner)


@needs_redis
async def test_of_two_instances_one_runs_the_loops_and_the_other_takes_over_when_it_stops(where):
    where("one")
    key = f"test:background:{uuid.uuid4().hex}"
    seen = Ledger()
    stops = {"a": asyncio.Event(), "b": asyncio.Event()}
    tasks = {
        name: asyncio.create_task(background.run_forever(
            (seen.loop(name),), stops[name], lease=lambda name=name: _lease(key, name), renew_every=0.1))
        for name in ("a", "b")
    }  # fmt: skip
    await _until(lambda: len(seen.running) == 1, what="one instance running the loops")
    await asyncio.sleep(0.5)  # several renewals: still only the one
    [first] = seen.running
    other = "b" if first == "a" else "a"
    assert seen.ran == [first]
    assert await _lease(key, "reader").holder() == first

    stops[first].set()  # the holder stops: it gives the lease up, the other takes it at its next try
    await asyncio.wait_for(tasks[first], 5)
    await _until(lambda: seen.running == {other}, timeout=1.0, what="the other instance taking over")
    assert seen.overlaps == 0

    stops[other].set()
    await asyncio.wait_for(tasks[other], 5)
    assert await _lease(key, "reader").holder() == ""


class _Unreachable(background.Lease):
    """A lease taken once, after which Redis is out of reach of this instance alone."""

    taken = False

    async def take(self) -> bool:
        if self.taken:
            raise ConnectionError("Redis out of reach")
        self.taken = await super().take()
        return self.taken

    async def renew(self) -> bool:
        raise ConnectionError("Redis out of reach")


@needs_redis
async def test_a_holder_that_cannot_renew_stops_before_its_lease_runs_out_and_another_takes_over(where):
    where("one")
    key = f"test:background:{uuid.uuid4().hex}"
    seen = Ledger()
    stop_a, stop_b = asyncio.Event(), asyncio.Event()
    a = asyncio.create_task(background.run_forever(
        (seen.loop("a"),), stop_a, lease=lambda: _Unreachable(os.environ["REDIS_URL"], key=key, seconds=1.0, owner="a"),
        renew_every=0.1))  # fmt: skip
    await _until(lambda: seen.running == {"a"}, what="a running the loops")
    b = asyncio.create_task(background.run_forever((seen.loop("b"),), stop_b, lease=lambda: _lease(key, "b"),
                                                   renew_every=0.1))  # fmt: skip
    await _until(lambda: "b" in seen.running, timeout=3.0, what="b taking over once a's lease ran out")
    assert seen.overlaps == 0, "a stopped its loops before its lease could run out"
    stop_a.set()
    stop_b.set()
    await asyncio.wait_for(asyncio.gather(a, b), 5)


@needs_redis
async def test_two_instances_handing_the_sender_over_send_each_message_once(db, where, monkeypatch):
    with SmtpSink() as sink:
        monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
        monkeypatch.setenv("SMTP_PORT", str(sink.port))
        monkeypatch.setenv("OUTBOX_INTERVAL_SECONDS", "0.05")
        where("one")
        key = f"test:background:{uuid.uuid4().hex}"
        for i in range(30):
            mail.queue(db, to=f"player{i}@example.com", subject=f"Hello {i}", body_text=f"Body {i}")
        db.commit()
        stops = {"a": asyncio.Event(), "b": asyncio.Event()}
        tasks = {name: asyncio.create_task(background.run_forever(
            (mail.run_sender_forever,), stops[name], lease=lambda name=name: _lease(key, name), renew_every=0.1))
            for name in ("a", "b")}  # fmt: skip
        await _until(lambda: len(sink.messages) >= 5, timeout=20, what="the first messages")
        holder = await _lease(key, "reader").holder()
        stops[holder].set()  # the sender's instance stops mid-way; the other goes on
        await asyncio.wait_for(tasks[holder], 15)
        await _until(lambda: len(sink.messages) >= 30, timeout=30, what="every message")
        await asyncio.sleep(0.3)
        for stop in stops.values():
            stop.set()
        await asyncio.wait_for(asyncio.gather(*tasks.values()), 15)
    assert sorted(m["Subject"] for m in sink.messages) == sorted(f"Hello {i}" for i in range(30))
    db.expire_all()
    assert {r.status for r in db.exec(select(OutboxMessage)).all()} == {OutboxStatus.SENT}
