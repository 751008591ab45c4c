"""Live updates: a committed change of a sub request reaches the pages that show it, here and through Redis."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import threading
import time
import types

import pytest

from tests.factories import actor_of, make_user
from volley_app.models import SubRequest, utcnow
from volley_app.services.core import live
from volley_app.services.subs import request_changes, request_replies
from volley_app.settings import get_settings
from volley_app.state import polling

DAY = dt.timedelta(days=1)
REDIS_URL = os.environ.get("REDIS_URL")
needs_redis = pytest.mark.skipif(not REDIS_URL, reason="runs with REDIS_URL set (PostgreSQL + Redis tier)")


def _fields(**over) -> dict:
    when = (utcnow() + 3 * DAY).replace(microsecond=0)
    return {"team": "Net Ninjas", "date": when, "svl": "Lexington Sportsplex", "skill_level": "C", "format": "6s"} | over


@pytest.fixture
def no_redis(monkeypatch):
    """This process alone (no REDIS_URL): notices reach its own pages only."""
    monkeypatch.delenv("REDIS_URL", raising=False)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


async def _fired(*watches: live.Watch, within: float = 0.5) -> list[bool]:
    return list(await asyncio.gather(*(w.changed(within) for w in watches)))


async def test_a_notice_reaches_only_the_pages_it_concerns(no_redis):
    with (
        live.watch(live.Interest(user_id=1)) as alice,
        live.watch(live.Interest(user_id=2)) as ben,
        live.watch(live.Interest(request_id=7)) as detail,
        live.watch(live.Interest(request_id=8)) as other_detail,
        live.watch(live.Interest(open_list=True)) as open_list,
    ):
        # published from a worker thread, as a service's commit is
        thread = threading.Thread(target=live.publish, args=(live.Change(7, frozenset({1}), open_list=False),))
        thread.start()
        thread.join()
        assert await _fired(alice, ben, detail, other_detail, open_list, within=0.2) == [True, False, True, False, False]
        live.publish(live.Change(9, frozenset(), open_list=True))
        assert await _fired(alice, open_list, within=0.2) == [False, True]
    assert live.watching() == 0  # a page that stops watching leaves nothing behind


async def test_a_notice_goes_out_when_the_transaction_commits_never_on_a_rollback(db, no_redis):
    alice, ben = make_user(db, "alice"), make_user(db, "ben", sub=True)
    db.commit()
    with live.watch(live.Interest(user_id=alice.id)) as mine, live.watch(live.Interest(open_list=True)) as listed:
        rid = request_changes.create(db, actor_of(alice), **_fields())
        assert await _fired(mine, within=0.1) == [False]  # not yet committed
        db.rollback()
        assert await _fired(mine, listed, within=0.1) == [False, False]
        rid = request_changes.create(db, actor_of(alice), **_fields())
        db.commit()
        assert await _fired(mine, listed) == [True, True]
        with live.watch(live.Interest(request_id=rid)) as detail:
            request_replies.accept(db, actor_of(ben), rid)
            db.commit()
            assert await _fired(mine, listed, detail) == [True, True, True]


async def test_every_change_of_a_request_tells_the_people_it_concerns(db, no_redis):
    alice, ben, carmen, dave = (make_user(db, n, sub=n != "alice") for n in ("alice", "ben", "carmen", "dave"))
    db.commit()
    a, b = actor_of(alice), actor_of(ben)
    with (
        live.watch(live.Interest(user_id=alice.id)) as requestor,
        live.watch(live.Interest(user_id=ben.id)) as first_sub,
        live.watch(live.Interest(user_id=carmen.id)) as second_sub,
        live.watch(live.Interest(user_id=dave.id)) as bystander,
        live.watch(live.Interest(open_list=True)) as listed,
    ):
        everyone = (requestor, first_sub, second_sub, bystander, listed)

        async def step(fn) -> list[bool]:
            fn()
            db.commit()
            return await _fired(*everyone, within=0.2)

        found = {}
        assert await step(lambda: found.setdefault("id", request_changes.create(db, a, recipient_id=ben.id, **_fields()))) == [
            True, True, False, False, False]  # fmt: skip
        rid = found["id"]
        assert await step(lambda: request_replies.decline(db, b, rid)) == [True, True, False, False, False]
        # reopened to another sub: the one who declined no longer has it on their list
        assert await step(lambda: request_changes.reopen(db, a, rid, recipient_id=carmen.id)) == [
            True, True, True, False, False]  # fmt: skip
        assert await step(lambda: request_changes.update(db, a, rid, **_fields(team="Spikers"))) == [
            True, False, True, False, False]  # fmt: skip
        assert await step(lambda: request_changes.delete(db, a, rid)) == [True, False, True, False, False]
        # a request to anyone: the open lists change too
        opened = {}
        assert await step(lambda: opened.setdefault("id", request_changes.create(db, a, **_fields()))) == [
            True, False, False, False, True]  # fmt: skip
        assert await step(lambda: request_replies.accept(db, actor_of(dave), opened["id"])) == [
            True, False, False, True, True]  # fmt: skip
    assert db.get(SubRequest, opened["id"]).recipient_id == dave.id


class FakeState:
    """A background event's state proxy for a page that shows one user's requests."""

    def __init__(self, path: str, user_id: int):
        self.router = types.SimpleNamespace(url=types.SimpleNamespace(path=path))
        self.logged_in = True
        self.user_id = user_id
        self._poll_beat = 0.0
        self._poll_owner = ""
        self.reloads = 0
        self.lock = asyncio.Lock()

    async def __aenter__(self):
        await self.lock.acquire()
        return self

    async def __aexit__(self, *exc):
        self.lock.release()

    async def reload(self):
        self.reloads += 1

    def interest(self) -> live.Interest:
        return live.Interest(user_id=self.user_id)


async def _until(check, within: float) -> float:
    started = time.monotonic()
    while not check():
        assert time.monotonic() - started < within, "not in time"
        await asyncio.sleep(0.01)
    return time.monotonic() - started


async def test_a_page_reads_again_at_once_on_a_change_it_shows_not_at_the_next_interval(monkeypatch, no_redis):
    monkeypatch.setattr(polling, "CHECK_SECONDS", 0.05)
    state = FakeState("/dash/notes/notifications", user_id=5)
    poll = asyncio.create_task(polling.poll_page(state, path="/dash/notes/notifications", seconds=60,
                                                 reload=state.reload, interest=state.interest))  # fmt: skip
    await _until(lambda: live.watching() == 1, 2)
    live.publish(live.Change(3, frozenset({6}), open_list=True))  # someone else's request
    await asyncio.sleep(0.2)
    assert state.reloads == 0
    live.publish(live.Change(3, frozenset({5, 6})))
    assert await _until(lambda: state.reloads == 1, 1) < 1  # not the 60 s interval
    live.publish(live.Change(4, frozenset({5})))
    await _until(lambda: state.reloads == 2, 1)
    state.router.url.path = "/dash/profile"  # the tab moves on: the next change ends the poll, not a reload
    live.publish(live.Change(4, frozenset({5})))
    await asyncio.wait_for(poll, 5)
    assert state.reloads == 2 and live.watching() == 0


async def test_a_closed_tab_stops_watching(monkeypatch, no_redis):
    monkeypatch.setattr(polling, "CHECK_SECONDS", 0.02)
    connected = {"yes": True}
    monkeypatch.setattr(polling, "tab_connected", lambda _state: connected["yes"])
    state = FakeState("/dash/notes/notifications", user_id=5)
    poll = asyncio.create_task(polling.poll_page(state, path="/dash/notes/notifications", seconds=60,
                                                 reload=state.reload, interest=state.interest))  # fmt: skip
    await _until(lambda: live.watching() == 1, 2)
    connected["yes"] = False  # the tab's websocket goes
    await asyncio.wait_for(poll, 2)
    assert live.watching() == 0 and state.reloads == 0
    live.publish(live.Change(1, frozenset({5})))  # nothing left to wake
    assert state.reloads == 0


async def test_a_poll_for_another_request_of_the_detail_page_takes_over(monkeypatch, no_redis):
    monkeypatch.setattr(polling, "CHECK_SECONDS", 0.02)
    state = FakeState("/dash/notes/5", user_id=1)
    interest = lambda: live.Interest(request_id=int(state.router.url.path.rsplit("/", 1)[1]))  # noqa: E731
    first = asyncio.create_task(polling.poll_page(state, path="/dash/notes/[request_id]", seconds=60,
                                                  reload=state.reload, interest=interest))  # fmt: skip
    await _until(lambda: live.watching() == 1, 2)
    state.router.url.path = "/dash/notes/6"  # the tab opens another request: its load asks for a poll again
    second = asyncio.create_task(polling.poll_page(state, path="/dash/notes/[request_id]", seconds=60,
                                                   reload=state.reload, interest=interest))  # fmt: skip
    await _until(lambda: state._poll_owner.endswith("@/dash/notes/6"), 2)
    live.publish(live.Change(5, frozenset()))  # the old poll wakes, sees it was replaced and ends
    await asyncio.wait_for(first, 2)
    live.publish(live.Change(6, frozenset()))
    await _until(lambda: state.reloads == 1, 1)
    state.router.url.path = "/dash"
    live.publish(live.Change(6, frozenset()))
    await asyncio.wait_for(second, 2)
    assert state.reloads == 1


async def test_without_redis_an_unreachable_server_costs_nothing_but_the_other_instances(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # nothing listens there
    monkeypatch.setattr(live, "RETRY_FIRST_SECONDS", 0.05)
    get_settings.cache_clear()
    publisher = live._Publisher()
    monkeypatch.setattr(live, "_publisher", publisher)
    try:
        with live.watch(live.Interest(user_id=1)) as mine:
            started = time.monotonic()
            live.publish(live.Change(1, frozenset({1})))  # no exception: this process still hears it
            live.publish(live.Change(1, frozenset({1})))  # resting after the failure: not even tried
            assert time.monotonic() - started < 2
            assert await mine.changed(0.5)
            assert publisher._resting_until > time.monotonic() - 0.05
            await asyncio.sleep(0.3)
            assert live._subscriber._thread is not None and live._subscriber._thread.is_alive()  # backing off
            assert not live.subscriber_connected()
    finally:
        live._subscriber.stop()
        get_settings.cache_clear()


# -- through Redis (several instances) -----------------------------------------------------------------------------


@pytest.fixture
def redis_live():
    live._subscriber.stop()  # a subscriber of this test's Redis database
    get_settings.cache_clear()
    yield
    live._subscriber.stop()


def _other_instance(change: live.Change) -> None:
    """What another instance's commit publishes."""
    import redis

    message = change.to_json().replace(live.ORIGIN, "another-instance")
    redis.Redis.from_url(REDIS_URL).publish(live.channel(REDIS_URL), message)


@needs_redis
async def test_a_change_committed_on_another_instance_reaches_the_pages_concerned_here(redis_live):
    with live.watch(live.Interest(user_id=1)) as alice, live.watch(live.Interest(user_id=2)) as ben:
        assert await asyncio.to_thread(live.subscriber_connected, 5)
        _other_instance(live.Change(3, frozenset({1})))
        assert await _fired(alice, ben, within=1) == [True, False]
        _other_instance(live.Change(3, frozenset({2}), open_list=True))
        assert await _fired(alice, ben, within=1) == [False, True]


@needs_redis
async def test_a_change_committed_here_reaches_the_other_instances_once(redis_live):
    import redis

    listener = redis.Redis.from_url(REDIS_URL).pubsub(ignore_subscribe_messages=True)
    listener.subscribe(live.channel(REDIS_URL))
    try:
        with live.watch(live.Interest(user_id=1)) as mine:
            assert await asyncio.to_thread(live.subscriber_connected, 5)
            live.publish(live.Change(3, frozenset({1, 4}), open_list=True))
            message = None
            for _ in range(50):
                message = await asyncio.to_thread(listener.get_message, timeout=0.1)
                if message:
                    break
            assert message is not None
            origin, heard = live.Change.from_json(message["data"])
            assert origin == live.ORIGIN and heard == live.Change(3, frozenset({1, 4}), open_list=True)
            assert await mine.changed(0.5)
            # this process's own notice, heard back through Redis, is not delivered a second time
            assert not await mine.changed(0.5)
    finally:
        listener.close()


@needs_redis
async def test_junk_on_the_channel_is_ignored(redis_live):
    import redis

    with live.watch(live.Interest(user_id=1)) as mine:
        assert await asyncio.to_thread(live.subscriber_connected, 5)
        client = redis.Redis.from_url(REDIS_URL)
        for junk in ("not json", "[1, 2]", '{"u": ["x"]}'):
            client.publish(live.channel(REDIS_URL), junk)
        _other_instance(live.Change(3, frozenset({1})))
        assert await mine.changed(1)
        assert live._subscriber._thread.is_alive()


# -- the pages: what each one watches ------------------------------------------------------------------------------


async def test_each_request_page_watches_what_it_shows(db, no_redis):
    from tests.factories import player_world
    from tests.harness import call, page_state
    from volley_app.pages.dash.sub_requests.detail import SubRequestState
    from volley_app.pages.dash.sub_requests.my_requests import NotificationsState
    from volley_app.pages.dash.sub_requests.open_list import SubRequestListState
    from volley_app.state.auth import SessionGuard

    w = player_world(db)
    alice, rid = w["tokens"]["alice"], w["requests"]["open"]
    _root, mine = page_state(NotificationsState, "/dash/notes/notifications", alice)
    await call((await mine.get_state(SessionGuard)).dash_guard)  # the page's session check: who is watching
    assert mine._live_interest() == live.Interest(user_id=w["ids"]["alice"])
    _root, listed = page_state(SubRequestListState, "/dash/notes", alice)
    assert listed._live_interest() == live.Interest(open_list=True)
    _root, detail = page_state(SubRequestState, f"/dash/notes/{rid}", alice)
    assert detail._live_interest() == live.Interest(request_id=rid)
    _root, junk = page_state(SubRequestState, "/dash/notes/not-a-number", alice)
    assert junk._live_interest() is None


async def test_the_request_page_reads_again_and_keeps_the_edit_form_unless_the_request_changed(db, no_redis):
    from tests.factories import actor_of, player_world, rows
    from tests.harness import call, page_state
    from volley_app.models import User
    from volley_app.pages.dash.sub_requests.detail import SubRequestState

    w = player_world(db)
    rid = w["requests"]["open"]
    _root, detail = page_state(SubRequestState, f"/dash/notes/{rid}", w["tokens"]["alice"])
    await call(detail.load)
    assert detail.note["status"] == "Open"
    key = detail.form_key
    ben = rows(db, User, User.username == "ben")[0]
    request_replies.accept(db, actor_of(ben), rid)
    db.commit()
    await detail._reload()
    assert detail.note["status"] == "Accepted" and detail.note["sub"] == "Ben Tester"
    assert detail.form_key == key  # what the requestor may be typing in the edit form stays
    request_changes.update(db, actor_of(rows(db, User, User.username == "alice")[0]), rid, **_fields(team="Spikers"))
    db.commit()
    await detail._reload()
    assert detail.record["team"] == "Spikers" and detail.form_key == key + 1  # the form shows the new details


async def test_a_savepoint_neither_sends_nor_drops_its_transactions_notices(db, no_redis):
    with live.watch(live.Interest(team_id=5)) as team:
        live.team_changed(db, 5)
        with db.begin_nested():
            pass
        assert await _fired(team, within=0.05) == [False]  # the transaction goes on
        with pytest.raises(ValueError), db.begin_nested():
            raise ValueError
        db.commit()
        assert await _fired(team) == [True]


def test_a_notice_of_tables_goes_through_redis_whole():
    change = live.Change(tables=frozenset({"leagues", "league_sessions"}))
    assert live.Change.from_json(change.to_json()) == (live.ORIGIN, change)
    assert change.concerns(live.Interest(tables=frozenset({"leagues"})))
    assert not change.concerns(live.Interest(tables=frozenset({"teams"})))
    assert not live.Interest(tables=frozenset({"teams"})).empty


async def test_a_commit_that_writes_a_tracked_table_tells_the_lists_that_show_it(db, no_redis):
    import sqlalchemy as sa

    from tests.factories import add_league, league_world
    from volley_app.models import League
    from volley_app.services.mail import mail

    w = league_world(db)
    leagues = live.track("leagues")
    heard: list[live.Change] = []
    stop = live.listen(heard.append)
    try:
        with live.watch(live.Interest(tables=leagues)) as page:
            league = add_league(db, w["svla"], w["sid"], court="Court 9")  # the ORM's insert, committed
            assert await _fired(page, within=0.2) == [True]

            db.execute(sa.update(League).where(League.id == league.id).values(court="Court 8"))
            db.rollback()  # never committed: nobody told
            assert await _fired(page, within=0.2) == [False]

            db.execute(sa.update(League).where(League.id == league.id).values(court="Court 7"))
            db.commit()  # an UPDATE run through the session
            assert await _fired(page, within=0.2) == [True]

            heard.clear()
            mail.queue(db, to="ann@example.com", subject="Hello", body_text="Hi")
            db.commit()  # a table no page lists: nothing published
            assert await _fired(page, within=0.2) == [False]
            assert [c for c in heard if c.tables] == []
    finally:
        stop()


class ListState(FakeState):
    """A background event's state proxy for a page that lists the rows of a tracked table."""

    def interest(self) -> live.Interest:
        return live.Interest(tables=frozenset({"leagues"}))


def _list_poll() -> tuple[ListState, asyncio.Task]:
    """The leagues list's poll of one tab, every 50 ms."""
    state = ListState("/dash/leagues", user_id=5)
    poll = asyncio.create_task(polling.poll_page(state, path="/dash/leagues", seconds=0.05, reload=state.reload,
                                                 interest=state.interest))  # fmt: skip
    return state, poll


async def test_a_list_that_hears_of_its_changes_reads_on_a_change_and_not_on_every_round(monkeypatch, no_redis):
    monkeypatch.setattr(polling, "CHECK_SECONDS", 0.02)
    monkeypatch.setattr(polling, "REFRESH_SECONDS", 1.0)
    state, poll = _list_poll()
    await _until(lambda: state.reloads == 1, 1)  # the first round reads: a change before the poll began told nobody
    await asyncio.sleep(0.5)  # ten rounds of the timer
    assert state.reloads == 1, "a round that heard of no change read the page"
    live.publish(live.Change(tables=frozenset({"leagues"})))
    assert await _until(lambda: state.reloads == 2, 0.5) < 0.5
    await _until(lambda: state.reloads == 3, 2)  # what changes with the clock alone: read every REFRESH_SECONDS
    state.router.url.path = "/dash/profile"
    live.publish(live.Change(tables=frozenset({"leagues"})))
    await asyncio.wait_for(poll, 5)
    assert state.reloads == 3


async def test_a_list_reads_on_every_round_while_the_notices_of_other_instances_cannot_reach_it(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")  # several instances, and the subscriber down
    get_settings.cache_clear()
    monkeypatch.setattr(live, "subscriber_connected", lambda timeout=0.0: False)
    monkeypatch.setattr(live._subscriber, "ensure_running", lambda: None)
    monkeypatch.setattr(polling, "CHECK_SECONDS", 0.02)
    try:
        state, poll = _list_poll()
        await _until(lambda: state.reloads >= 4, 2)
        state.router.url.path = "/dash/profile"
        await asyncio.wait_for(poll, 5)
    finally:
        get_settings.cache_clear()


async def test_a_list_that_hears_nothing_still_ends_soon_after_its_tab_left(monkeypatch, no_redis):
    monkeypatch.setattr(polling, "CHECK_SECONDS", 0.02)
    monkeypatch.setattr(polling, "STILL_HERE_SECONDS", 0.2)
    state, poll = _list_poll()
    await _until(lambda: state.reloads == 1, 1)
    state.router.url.path = "/dash/profile"  # nothing changes, nothing is read: the check under the lock sees it
    await asyncio.wait_for(poll, 1)
    assert state.reloads == 1
