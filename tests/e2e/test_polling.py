"""A list that refreshes on a timer polls only while its tab is open: closing the tab ends the tab's poll."""

from __future__ import annotations

import threading
import time

import pytest

from tests.e2e.helpers import make_user, open_as
from volley_app.state import polling


@pytest.fixture
def running_polls(monkeypatch):
    """How many page polls run in the app right now (the app runs in this process)."""
    count = {"now": 0, "started": 0}
    lock = threading.Lock()
    real = polling.poll_page

    async def counted(*args, **kwargs):
        with lock:
            count["now"] += 1
            count["started"] += 1
        try:
            await real(*args, **kwargs)
        finally:
            with lock:
                count["now"] -= 1

    monkeypatch.setattr(polling, "poll_page", counted)
    return count


def _until(check, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return check()


def test_closing_a_tab_ends_its_poll_and_an_open_tab_keeps_its_own(new_page, running_polls):
    make_user("anna", first_name="Anna")
    make_user("bea", first_name="Bea")
    stays = new_page()
    open_as(stays, "bea", "/dash/subs")  # refreshed every minute while shown
    assert _until(lambda: running_polls["now"] == 1, 20)

    closing = new_page()
    open_as(closing, "anna", "/dash/subs")
    assert _until(lambda: running_polls["now"] == 2, 20)

    closing.close()
    # The poll notices its tab's websocket is gone while it waits: long before its next refresh (60 s).
    assert _until(lambda: running_polls["now"] == 1, 5 * polling.CHECK_SECONDS + 5)
    time.sleep(2 * polling.CHECK_SECONDS)
    assert running_polls["now"] == 1 and running_polls["started"] == 2  # the open tab's poll runs on
