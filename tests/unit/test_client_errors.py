"""Errors a browser reports (anyone may send them, with any text): one escaped line each, so many a minute a client."""

from __future__ import annotations

import logging
import subprocess
import sys

import pytest
from reflex_base.event.context import EventContext

from volley_app.state import client_errors

FORGED = "boom\n2026-11-25 21:00:00 INFO volley_app.services.accounts.auth: admin logged in\r\n\u2028\x1b[31m"


@pytest.fixture(autouse=True)
def fresh_counts():
    client_errors.reset()
    yield
    client_errors.reset()


def _as_client(ip: str) -> EventContext:
    return EventContext(token=f"tab-{ip}", state_manager=None, enqueue_impl=None, router_data={"ip": ip})  # type: ignore[arg-type]


def _lines(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == client_errors.__name__]


def test_a_forged_report_is_logged_on_one_escaped_line(caplog):
    caplog.set_level(logging.INFO)
    with _as_client("203.0.113.9"):
        client_errors.frontend_exception_handler(Exception(FORGED))
    [line] = _lines(caplog)
    assert not any(ch in line for ch in "\r\n\u2028\x1b")
    assert "203.0.113.9" in line and "boom\\n2026-11-25" in line
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "\nadmin logged in" not in text and text.count("\n") == 0


def test_the_app_hands_browser_reports_to_the_one_line_logger():
    # The app module starts the backend's machinery when imported: it is looked at in a process of its own.
    check = (
        "from volley_app.volley_app import app; from volley_app.state import client_errors; "
        "assert app.frontend_exception_handler is client_errors.frontend_exception_handler"
    )
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_long_report_is_cut():
    line = client_errors.one_line("x" * 100_000)
    assert len(line) < client_errors.MAX_CHARS + 10


def test_reports_are_limited_per_client_and_another_client_is_still_heard(caplog):
    caplog.set_level(logging.INFO)
    with _as_client("203.0.113.9"):
        for n in range(client_errors.PER_CLIENT * 5):
            client_errors.frontend_exception_handler(Exception(f"flood {n}"))
    lines = _lines(caplog)
    assert len([x for x in lines if "flood" in x]) == client_errors.PER_CLIENT
    assert len([x for x in lines if "dropped" in x]) == 1
    with _as_client("198.51.100.7"):
        client_errors.frontend_exception_handler(Exception("a real error"))
    assert "a real error" in _lines(caplog)[-1]


def test_a_new_minute_hears_the_client_again(caplog, monkeypatch):
    caplog.set_level(logging.INFO)
    clock = [1000.0]
    monkeypatch.setattr(client_errors.time, "monotonic", lambda: clock[0])
    with _as_client("203.0.113.9"):
        for _ in range(client_errors.PER_CLIENT + 3):
            client_errors.frontend_exception_handler(Exception("first minute"))
        clock[0] += client_errors.WINDOW + 1
        client_errors.frontend_exception_handler(Exception("next minute"))
    assert "next minute" in _lines(caplog)[-1]
