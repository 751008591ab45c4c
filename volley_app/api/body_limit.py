"""A cap on every request body the backend takes (the REST API, feeds, exports, mail links), in every mode.

In front of the routes, before any of them reads or parses a byte: a request that declares more than
:data:`BODY_MAX` bytes is answered 413 at once; one that declares nothing (chunked) is counted as it
streams and cut with a 413 at the cap. Uploads (``/_upload``) have their own, larger limit in
``state.uploads``; Reflex's event socket carries no request body.
"""

from __future__ import annotations

import json
import logging

from starlette.types import ASGIApp, Message, Receive, Scope, Send

log = logging.getLogger(__name__)

BODY_MAX = 1024 * 1024  # JSON forms and webhooks are a few kilobytes
TOO_LARGE = "The request body is too large (at most 1 MB)"


async def _too_large(send: Send) -> None:
    body = json.dumps({"detail": TOO_LARGE}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """ASGI middleware: a body over ``limit`` bytes is refused with 413 before the app parses it.

    ``exempt``: paths with their own limit (the upload endpoint).
    """

    def __init__(self, app: ASGIApp, *, limit: int = BODY_MAX, exempt: tuple[str, ...] = ()):
        self.app = app
        self.limit = limit
        self.exempt = exempt

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") in self.exempt:
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope.get("headers", []) if k.lower() == b"content-length"), None)
        if declared is not None and (not declared.strip().isdigit() or int(declared) > self.limit):
            log.warning("request body refused: %s declares %r bytes", scope.get("path", "")[:200], declared[:20])
            await _too_large(send)
            return
        received, cut, started = 0, False, False

        async def counted_receive() -> Message:
            nonlocal received, cut
            if cut:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    cut = True
                    log.warning("request body cut at %s bytes: %s", received, scope.get("path", "")[:200])
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if cut and not started:
                return  # whatever the app says about a cut body is replaced by the 413 below
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, guarded_send)
        except Exception:
            if not cut:
                raise
        if cut and not started:
            await _too_large(send)
