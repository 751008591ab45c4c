"""Errors a browser reports about itself (Reflex's ``handle_frontend_exception``), logged safely.

Any connected tab, logged in or not, may send such a report with any text. So each report is
logged on one line with its text escaped (a newline or other control character in it cannot start
a forged log line), cut to a few kilobytes, and counted: a client (its address, else its tab)
gets :data:`PER_CLIENT` reports a minute into the log, and the whole process :data:`PER_PROCESS`;
the rest are dropped, with one warning per client and minute saying so.
"""

from __future__ import annotations

import collections
import json
import logging
import threading
import time

from reflex_base.event.context import EventContext

log = logging.getLogger(__name__)

WINDOW = 60.0  # seconds
PER_CLIENT = 10
PER_PROCESS = 200
MAX_CHARS = 4000
_MAX_CLIENTS = 10_000  # clients remembered at once; past that the oldest window is forgotten early

_lock = threading.Lock()
_window_start = 0.0
_counts: dict[str, int] = collections.defaultdict(int)
_total = 0


def one_line(value: object, limit: int = MAX_CHARS) -> str:
    """``value`` as one escaped line: a JSON string (control characters, line and paragraph separators and
    quotes escaped), at most ``limit`` characters of the original."""
    text = str(value)
    cut = len(text) > limit
    return json.dumps(text[:limit] + ("…" if cut else ""), ensure_ascii=True)


def _client() -> str:
    """Who sent the event being handled: their address, else their tab's token ("socket" outside an event)."""
    try:
        ctx = EventContext.get()
    except LookupError:
        return "socket"
    data = ctx.router_data or {}
    return str(data.get("ip") or "") or f"tab:{ctx.token}"


def _admit(client: str, now: float) -> bool | None:
    """True: log it; None: drop it, saying so once; False: drop it quietly."""
    global _window_start, _total
    with _lock:
        if now - _window_start >= WINDOW or len(_counts) >= _MAX_CLIENTS:
            _window_start, _total = now, 0
            _counts.clear()
        _counts[client] += 1
        if _counts[client] <= PER_CLIENT and _total < PER_PROCESS:
            _total += 1
            return True
        return None if _counts[client] == PER_CLIENT + 1 else False


def frontend_exception_handler(exception: Exception) -> None:
    """The app's handler of errors a browser reports: one escaped, bounded line per report, so many a minute."""
    client = _client()
    admitted = _admit(client, time.monotonic())
    if admitted:
        log.error("frontend error reported by %s: %s", one_line(client, 200), one_line(exception))
    elif admitted is None:
        log.warning("frontend error reports from %s dropped: more than %s a minute", one_line(client, 200), PER_CLIENT)


def reset() -> None:
    """Forget every count (tests)."""
    global _window_start, _total
    with _lock:
        _counts.clear()
        _window_start, _total = 0.0, 0
