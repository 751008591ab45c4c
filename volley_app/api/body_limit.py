"""A cap on every request body the backend takes (the REST API, feeds, exports, mail links), in every mode.

In front of the routes, before any of them reads or parses a byte: a request that declares more than
:data:`BODY_MAX` bytes is answered 413 at once; one that declares nothing (chunked) is counted as it
streams and cut with a 413 at the cap. Uploads (``/_upload``) have their own, larger limit in
``state.uploads``; Reflex's event socket carries no request body.
"""

from __future__ import annotations

import json
import logging

from starlette.types import ASGIApp, Receive, Scope, Send

from volley_app.asgi import run_capped

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
        if await run_capped(self.app, scope, receive, send, limit=self.limit):
            await _too_large(send)
