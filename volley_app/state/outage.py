"""What a browser is told when the shared state (Redis) or the database is briefly out of reach.

Reflex hands every exception an event raised to the app's backend exception
handler. For a passing outage (a connection refused or timed out, the database
gone for a moment) the person sees "try again in a moment" instead of a call to
the administrator, and the page reconnects its websocket a few seconds later:
that reconnect hydrates the page again (a page opened during the outage gets
its data then; a page already shown keeps what was typed, see ``registry``).
Anything else goes to Reflex's own handler (logged, a generic message).
"""

from __future__ import annotations

import logging

import reflex as rx
from reflex.app import default_backend_exception_handler

from volley_app.state.polling import TRANSIENT_ERRORS

log = logging.getLogger(__name__)

TRY_AGAIN = "The service is briefly unavailable. Please try again in a moment."
TOAST_ID = "service-unavailable"
RECONNECT_AFTER_MS = 3000

# Reconnects the websocket once after a pause (several failures in a row schedule one reconnect). Reflex's
# frontend drops its socket on "pagehide" and opens it again on "visibilitychange"; the reconnect sends the
# page's hydrate again.
RECONNECT_SCRIPT = (
    "if (!window.__volleyReconnect) { window.__volleyReconnect = window.setTimeout(() => {"
    " window.__volleyReconnect = null;"
    " window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));"
    " window.setTimeout(() => document.dispatchEvent(new Event('visibilitychange')), 200);"
    f" }}, {RECONNECT_AFTER_MS}); }}"
)


def is_transient(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or what caused it) is an outage of Redis or the database that may pass."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, TRANSIENT_ERRORS):
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def backend_exception_handler(exception: Exception):
    """The app's handler of exceptions in events: "try again" and a reconnect for an outage, else Reflex's."""
    if is_transient(exception):
        log.warning("An event failed while a service was out of reach: %s: %s", type(exception).__name__, exception)
        return [rx.toast.error(TRY_AGAIN, id=TOAST_ID, duration=8000), rx.call_script(RECONNECT_SCRIPT)]
    return default_backend_exception_handler(exception)
