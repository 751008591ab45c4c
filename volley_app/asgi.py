"""Reading a request body with a cap, for the ASGI middlewares in front of the app (``api.body_limit``,
``state.uploads``): the app runs with the body counted as it streams, and is cut off at the cap."""

from __future__ import annotations

import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)


async def run_capped(app: ASGIApp, scope: Scope, receive: Receive, send: Send, *, limit: int) -> bool:
    """Run ``app`` on the request with its body cut off past ``limit`` bytes.

    Returns True when the body was cut before the app began its answer: the caller answers 413 then.
    Whatever the app says or raises about a cut body is dropped.
    """
    received, cut, started = 0, False, False

    async def counted_receive() -> Message:
        nonlocal received, cut
        if cut:
            return {"type": "http.disconnect"}
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                cut = True
                log.warning("request body cut at %s bytes (limit %s): %s", received, limit, scope.get("path", "")[:200])
                return {"type": "http.disconnect"}
        return message

    async def guarded_send(message: Message) -> None:
        nonlocal started
        if cut and not started:
            return  # what the app says about a cut body is replaced by the caller's 413
        if message["type"] == "http.response.start":
            started = True
        await send(message)

    try:
        await app(scope, counted_receive, guarded_send)
    except Exception:
        if not cut:
            raise
    return cut and not started
