"""The page poll: reloads while the tab stays on its page, one poll per tab, stops when the tab leaves."""

from __future__ import annotations

import asyncio
import types

from volley_app.state import polling


class FakeState:
    """Stands in for a background event's state proxy."""

    def __init__(self, path: str, leave_after: int = 0):
        self.leave_after = leave_after
        self.router = types.SimpleNamespace(url=types.SimpleNamespace(path=path))
        self.logged_in = True
        self._poll_beat = 0.0
        self.reloads = 0
        self.lock = asyncio.Lock()

    async def __aenter__(self):
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
    assert polling.tab_connected(tab) and not polling.tab_connected(gone)
