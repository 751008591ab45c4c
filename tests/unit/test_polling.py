"""The page poll: reloads while the tab stays on its page, one poll per tab, stops when the tab leaves."""

from __future__ import annotations

import asyncio
import time
import types

import pytest
import redis.exceptions
import sqlalchemy.exc

from volley_app.state import polling, sockets

TAB_CONNECTED = polling.tab_connected


@pytest.fixture(autouse=True)
def tabs_stay_connected(monkeypatch):
    """The fake tabs here stay connected: an app another test started in this process knows none of their sockets."""
    monkeypatch.setattr(polling, "tab_connected", lambda _state: True)


async def _until(condition, seconds: float = 30) -> None:
    """Wait until ``condition()`` holds, failing the test after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.005)


class FakeState:
    """Stands in for a background event's state proxy."""

    def __init__(self, path: str, leave_after: int = 0):
        self.leave_after = leave_after
        self.router = types.SimpleNamespace(url=types.SimpleNamespace(path=path),
                                            session=types.SimpleNamespace(client_token="tab-1"))  # fmt: skip
        self.logged_in = True
        self._poll_beat = 0.0
        self._poll_owner = ""
        self.reloads = 0
        self.down = False  # the shared state (Redis) out of reach
        self.lock = asyncio.Lock()

    async def __aenter__(self):
        if self.down:
            raise redis.exceptions.ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        await self.lock.acquire()
        return self

    async def __aexit__(self, *exc):
        self.lock.release()

    async def reload(self):
        self.reloads += 1
        if self.reloads == self.leave_after:
            self.router.url.path = "/dash/profile"  # the tab moves on


async def test_poll_reloads_until_the_tab_leaves_and_runs_once_per_tab(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    state = FakeState("/dash/subs", leave_after=3)
    first = asyncio.create_task(polling.poll_page(state, path="/dash/subs", seconds=0.01, reload=state.reload))
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    # a second poll (a browser may send the event again) returns at once
    await polling.poll_page(state, path="/dash/subs", seconds=0.01, reload=state.reload)
    await asyncio.wait_for(first, timeout=30)
    assert state.reloads == 3
    assert state._poll_beat == 0.0  # a later visit may start a new poll


async def test_a_poll_within_an_address_goes_on_below_it_and_ends_outside(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    state = FakeState("/dash")
    walk = iter(["/dash/leagues", "/dash/leagues/6/teams", "/dash/", "/dashboard", "/dash/subs"])

    async def reload_and_move():
        await state.reload()
        state.router.url.path = next(walk)

    await asyncio.wait_for(polling.poll_page(state, path="/dash", within=True, seconds=0.01, reload=reload_and_move), 30)
    assert state.reloads == 4  # read on /dash, two pages below it and /dash/ again; "/dashboard" is not below it
    assert state._poll_beat == 0.0


async def test_a_closed_tab_and_a_page_opened_elsewhere_end_the_polls_at_once(monkeypatch):
    """Where the socket server tells of closed tabs, a poll waits its whole interval without looking at its tab; the
    tab's close, or another page opened in it, wakes the polls that no longer read what it shows."""
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 10_000)
    monkeypatch.setattr(polling, "_signals", True)
    connected = {"yes": True}
    looked = []

    def tab_connected(_state):
        looked.append(1)
        return connected["yes"]

    monkeypatch.setattr(polling, "tab_connected", tab_connected)
    page, bell = FakeState("/dash/leagues"), FakeState("/dash/leagues")
    bell.router = page.router  # one tab: the page's state and the bell's see the same address
    polls = [asyncio.create_task(polling.poll_page(page, path="/dash/leagues", seconds=600, reload=page.reload)),
             asyncio.create_task(polling.poll_page(bell, path="/dash", within=True, seconds=600, reload=bell.reload))]
    await _until(lambda: len(polling._by_tab.get("tab-1", {})) == 2)
    await asyncio.sleep(0.05)
    assert looked == [] and page.reloads == bell.reloads == 0  # nobody looks at the tab while it waits
    polling.tab_opened("tab-1", "/dash/leagues")  # the same page again: nothing wakes
    polling.tab_opened("other-tab", "/dash/subs")
    await asyncio.sleep(0.05)
    assert looked == []
    page.router.url.path = "/dash/subs"
    polling.tab_opened("tab-1", "/dash/subs")
    await asyncio.wait_for(polls[0], 30)  # the leagues list's poll ends, having read nothing
    assert page.reloads == 0 and page._poll_owner == "" and not polls[1].done()
    connected["yes"] = False
    polling.tab_left("tab-1")
    await asyncio.wait_for(polls[1], 30)  # the bell's, which went on over /dash/subs, ends with the tab
    assert bell.reloads == 0 and "tab-1" not in polling._by_tab


async def test_a_poll_that_is_ending_is_not_running_while_it_waits_for_the_lock(monkeypatch):
    """A reload: the old socket's close ends the tab's poll, whose last write waits for the state's lock, which the
    page's load holds. The poll that load starts takes over at once, instead of finding the old one running and
    leaving the page with none."""
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 10_000)
    monkeypatch.setattr(polling, "_signals", True)
    connected = {"yes": True}
    monkeypatch.setattr(polling, "tab_connected", lambda _state: connected["yes"])
    state = FakeState("/dash/leagues")
    old = asyncio.create_task(polling.poll_page(state, path="/dash/leagues", seconds=600, reload=state.reload))
    await _until(lambda: state._poll_owner and "tab-1" in polling._by_tab)
    owner, beat = state._poll_owner, state._poll_beat
    await state.lock.acquire()  # the reloaded page's load runs
    connected["yes"] = False
    polling.tab_left("tab-1")
    await _until(lambda: not polling.running(owner, beat, 600, "/dash/leagues"))
    assert not old.done() and state._poll_owner == owner  # still waiting for the lock to clear its name
    state.lock.release()
    await asyncio.wait_for(old, 30)
    assert state._poll_owner == ""


async def test_the_socket_server_tells_the_polls_of_a_closed_tab(monkeypatch):
    monkeypatch.setattr(polling, "_signals", False)
    told: list[str] = []
    monkeypatch.setattr(polling, "tab_left", told.append)
    manager = sockets.TellingTokenManager()
    assert polling._signals  # from now on a poll does not look at its tab on a timer
    await manager.link_token_to_sid("tab-1", "sid-1")
    await manager.disconnect_token("tab-1", "sid-0")  # a socket the tab no longer has
    assert told == []
    await manager.link_token_to_sid("tab-1", "sid-1")
    await manager.disconnect_token("tab-1", "sid-1")
    assert told == ["tab-1"]


async def test_a_poll_started_after_its_tab_moved_on_does_not_run(monkeypatch):
    state = FakeState("/dash/subs")
    await asyncio.wait_for(polling.poll_page(state, path="/dash/leagues", seconds=600, reload=state.reload), 30)
    assert state._poll_owner == "" and state.reloads == 0


async def test_poll_stops_on_logout_without_reloading():
    state = FakeState("/dash/notes")
    state.logged_in = False
    await asyncio.wait_for(polling.poll_page(state, path="/dash/notes", seconds=0.01, reload=state.reload), 30)
    assert state.reloads == 0


async def test_poll_ends_after_the_time_limit(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 0.05)
    state = FakeState("/dash/notes/notifications")
    await asyncio.wait_for(
        polling.poll_page(state, path="/dash/notes/notifications", seconds=0.01, reload=state.reload), 30
    )
    assert state.reloads == 5


async def test_poll_ends_when_its_tab_disconnects(monkeypatch):
    monkeypatch.setattr(polling, "CHECK_SECONDS", 0.01)
    state = FakeState("/dash/subs")
    connected = {"yes": True}
    monkeypatch.setattr(polling, "tab_connected", lambda _state: connected["yes"])

    async def reload_then_close():
        await state.reload()
        if state.reloads == 2:
            connected["yes"] = False  # the tab is closed: its websocket goes

    await asyncio.wait_for(polling.poll_page(state, path="/dash/subs", seconds=0.05, reload=reload_then_close), 30)
    assert state.reloads == 2 and state._poll_beat == 0.0


def test_a_tab_is_connected_while_the_socket_server_knows_its_token(monkeypatch):
    from reflex_base.registry import RegistrationContext

    class Context:
        app = types.SimpleNamespace(event_namespace=types.SimpleNamespace(token_to_sid={"tab-1": "sid-1"}))

    monkeypatch.setattr(RegistrationContext, "get", classmethod(lambda cls: Context))
    tab = types.SimpleNamespace(router=types.SimpleNamespace(session=types.SimpleNamespace(client_token="tab-1")))
    gone = types.SimpleNamespace(router=types.SimpleNamespace(session=types.SimpleNamespace(client_token="tab-2")))
    assert TAB_CONNECTED(tab) and not TAB_CONNECTED(gone)

    # Reflex's own table of the tabs connected here, read in place (its token_to_sid copies it on every read)
    sockets = {"tab-1": types.SimpleNamespace(sid="sid-1")}
    manager = types.SimpleNamespace(token_to_socket=sockets)
    Context.app = types.SimpleNamespace(event_namespace=types.SimpleNamespace(_token_manager=manager))
    assert TAB_CONNECTED(tab) and not TAB_CONNECTED(gone)


async def test_the_heartbeat_is_wall_clock_time_and_names_this_instance(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    state = FakeState("/dash/subs")
    beats = []

    async def reload():
        beats.append((state._poll_beat, state._poll_owner))
        state.reloads += 1
        if state.reloads == 2:
            state.router.url.path = "/dash"

    before = time.time()
    await asyncio.wait_for(polling.poll_page(state, path="/dash/subs", seconds=0.01, reload=reload), 30)
    assert all(before <= beat <= time.time() for beat, _ in beats)  # comparable on any host
    assert all(owner.startswith(polling.INSTANCE_ID + "/") for _, owner in beats)


async def test_a_poll_started_where_the_tab_now_is_takes_over_from_another_instance(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    state = FakeState("/dash/notes/notifications")
    reloads = {"a": 0, "b": 0}

    def counting(name):
        async def reload():
            reloads[name] += 1
            if reloads["b"] == 3:
                state.router.url.path = "/dash"

        return reload

    monkeypatch.setattr(polling, "INSTANCE_ID", "instance-a")
    a = asyncio.create_task(polling.poll_page(state, path=state.router.url.path, seconds=0.02, reload=counting("a")))
    await _until(lambda: reloads["a"] >= 2)
    # The tab's websocket moved to instance b; the page asks for its poll there: b takes over at once, a ends.
    monkeypatch.setattr(polling, "INSTANCE_ID", "instance-b")
    b = asyncio.create_task(polling.poll_page(state, path=state.router.url.path, seconds=0.02, reload=counting("b")))
    await asyncio.wait_for(asyncio.gather(a, b), 30)
    assert reloads["b"] == 3 and reloads["a"] <= 3
    assert state._poll_owner == "" and state._poll_beat == 0.0


async def test_a_poll_restarts_after_a_graceful_stop_of_the_instance_that_ran_it(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    state = FakeState("/dash/notes/notifications", leave_after=0)
    monkeypatch.setattr(polling, "INSTANCE_ID", "stopped-instance")
    running = asyncio.create_task(polling.poll_page(state, path="/dash/notes/notifications", seconds=0.05,
                                                    reload=state.reload))  # fmt: skip
    await _until(lambda: state._poll_owner)
    running.cancel()  # SIGTERM: the instance's tasks are cancelled, the fresh heartbeat stays in the state
    await asyncio.gather(running, return_exceptions=True)
    assert state._poll_owner.startswith("stopped-instance/") and time.time() - state._poll_beat < 0.1

    monkeypatch.setattr(polling, "INSTANCE_ID", "surviving-instance")
    state.leave_after = state.reloads + 2
    await asyncio.wait_for(polling.poll_page(state, path="/dash/notes/notifications", seconds=0.05,
                                             reload=state.reload), 30)  # fmt: skip
    assert state.reloads == state.leave_after


async def test_a_redis_outage_pauses_the_poll_with_backoff_then_it_goes_on(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    monkeypatch.setattr(polling, "RETRY_FIRST_SECONDS", 0.01)
    monkeypatch.setattr(polling, "RETRY_MAX_SECONDS", 0.04)
    pauses: list[float] = []
    sleep, wait = asyncio.sleep, polling._wait

    async def recording_wait(state, seconds, watch=None):
        pauses.append(seconds)
        return await wait(state, seconds, watch)

    monkeypatch.setattr(polling, "_wait", recording_wait)
    state = FakeState("/dash/subs", leave_after=4)

    async def reload():
        await state.reload()
        if state.reloads == 2:
            state.down = True  # Redis goes away for a few rounds

    async def bring_back():
        while len(pauses) < 6:
            await sleep(0.005)
        state.down = False

    back = asyncio.create_task(bring_back())
    await asyncio.wait_for(polling.poll_page(state, path="/dash/subs", seconds=0.03, reload=reload), 30)
    await back
    assert state.reloads == 4  # resumed after the outage and ran to the end
    retry_pauses = [p for p in pauses if p != 0.03]
    assert retry_pauses[:3] == [0.01, 0.02, 0.04] and max(pauses) == 0.04


async def test_a_database_blip_in_a_round_is_retried(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    monkeypatch.setattr(polling, "RETRY_FIRST_SECONDS", 0.01)
    state = FakeState("/dash/subs", leave_after=3)
    failures = {"left": 2}

    async def reload():
        if failures["left"]:
            failures["left"] -= 1
            raise sqlalchemy.exc.OperationalError("SELECT 1", {}, Exception("server closed the connection"))
        await state.reload()

    await asyncio.wait_for(polling.poll_page(state, path="/dash/subs", seconds=0.01, reload=reload), 30)
    assert state.reloads == 3 and failures["left"] == 0


async def test_a_poll_is_not_started_twice_on_one_instance_while_it_beats(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    state = FakeState("/dash/subs")
    state._poll_owner, state._poll_beat = f"{polling.INSTANCE_ID}/running", time.time()
    monkeypatch.setattr(polling, "_running", {state._poll_owner})
    await polling.poll_page(state, path="/dash/subs", seconds=10, reload=state.reload)
    assert state.reloads == 0 and state._poll_owner == f"{polling.INSTANCE_ID}/running"


async def test_a_poll_cancelled_with_its_page_load_is_replaced_by_the_next_one_at_once(monkeypatch):
    """A reload cancels the page's load chain, its poll included, before the cleanup runs: the beat stays fresh,
    yet the poll the reload starts takes over (and hears of changes) instead of trusting that beat."""
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    state = FakeState("/dash/notes/7", leave_after=0)
    old = asyncio.create_task(polling.poll_page(state, path="/dash/notes/[request_id]", seconds=60, reload=state.reload))
    await _until(lambda: state._poll_owner)
    first_owner = state._poll_owner
    old.cancel()
    await asyncio.gather(old, return_exceptions=True)
    assert state._poll_owner == first_owner and time.time() - state._poll_beat < 1  # left behind by the cancel
    state.leave_after = 1
    new = asyncio.create_task(polling.poll_page(state, path="/dash/notes/[request_id]", seconds=60, reload=state.reload,
                                                interest=lambda: polling.live.Interest(request_id=7)))  # fmt: skip
    deadline = time.monotonic() + 10
    while state._poll_owner == first_owner:
        assert time.monotonic() < deadline, "the reload's poll trusted the cancelled poll's beat"
        await asyncio.sleep(0.005)
    assert polling.live.watching() == 1
    polling.live.publish(polling.live.Change(request_id=7))  # a change of the request: read at once, not in 60 s
    deadline = time.monotonic() + 10
    while state.reloads < 1:
        assert time.monotonic() < deadline, "the change was not heard"
        await asyncio.sleep(0.005)
    polling.live.publish(polling.live.Change(request_id=7))  # the tab has left since: the poll ends
    await asyncio.wait_for(new, 10)
    assert state.reloads == 1 and polling.live.watching() == 0 and state._poll_owner == ""


async def test_a_round_reads_with_the_state_unlocked_and_only_assigns_under_the_lock(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 0.03)
    state = FakeState("/dash/subs")
    seen: list[tuple[str, bool]] = []

    async def read():  # the database work
        seen.append(("read", state.lock.locked()))

        def assign():
            seen.append(("assign", state.lock.locked()))
            state.reloads += 1

            async def read_more():  # what the assignment found it needs next (another state's rows)
                seen.append(("read", state.lock.locked()))
                return lambda: seen.append(("assign", state.lock.locked()))

            return read_more

        return assign

    await asyncio.wait_for(polling.poll_page(state, path="/dash/subs", seconds=0.01, reload=read), 30)
    assert state.reloads == 3
    assert seen == [("read", False), ("assign", True), ("read", False), ("assign", True)] * 3


async def test_what_a_round_read_is_not_assigned_once_the_tab_has_left(monkeypatch):
    monkeypatch.setattr(polling, "MAX_POLL_SECONDS", 1000)
    state = FakeState("/dash/subs")

    async def read():
        state.router.url.path = "/dash/profile"  # the tab moves on while the round reads
        return state.reload

    await asyncio.wait_for(polling.poll_page(state, path="/dash/subs", seconds=0.01, reload=read), 30)
    assert state.reloads == 0 and state._poll_owner == ""
