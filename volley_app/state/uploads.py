"""Uploads are judged before their body is read.

Reflex's upload endpoint (``/_upload``) stores the whole multipart body before
the handler runs. :class:`UploadGuard` sits in front of it and refuses, before
reading a byte of the body:

- a declared size over the limit (413), or a body without one that grows past
  it: the stream is cut there and the request answered 413;
- a request whose tab has no valid login, whose handler is unknown or is not an
  upload handler, or whose user may not upload there (403).

A state whose handler takes files says who may upload with an async
``_may_upload(self) -> bool`` (it runs with the tab's state, its URL and login);
a handler whose state has none takes no upload at all.
"""

from __future__ import annotations

import json
import logging
import re

from starlette.types import ASGIApp, Receive, Scope, Send

from volley_app.asgi import run_capped
from volley_app.services.core import uploads
from volley_app.settings import get_settings

log = logging.getLogger(__name__)

UPLOAD_PATH = "/_upload"
# Room for the multipart framing around the one file (boundaries, part headers, the handler's bound args).
MULTIPART_ALLOWANCE = 16 * 1024
_CLIENT_TOKEN = re.compile(r"[0-9a-fA-F-]{8,64}")


def body_limit() -> int:
    """The most bytes an upload request may carry."""
    return get_settings().upload_max_bytes + MULTIPART_ALLOWANCE


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"detail": message}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})  # fmt: skip
    await send({"type": "http.response.body", "body": body})


async def may_upload(client_token: str, handler_name: str) -> bool:
    """Whether the tab ``client_token`` may send files to ``handler_name``, judged by the handler's state."""
    from reflex.istate.manager.token import BaseStateToken
    from reflex_base.event import resolve_upload_handler_param
    from reflex_base.registry import RegistrationContext
    from reflex_base.utils.exceptions import UploadTypeError, UploadValueError

    if not _CLIENT_TOKEN.fullmatch(client_token or ""):
        return False
    context = RegistrationContext.get()
    registered = context.event_handlers.get(handler_name or "")
    if registered is None or not registered.states:
        return False
    try:
        resolve_upload_handler_param(registered.handler)  # it takes a list of files
    except (UploadTypeError, UploadValueError):
        return False
    state_cls = registered.states[-1]
    check = getattr(state_cls, "_may_upload", None)
    if check is None:
        return False
    manager = context.app.state_manager
    root = await manager.get_state(BaseStateToken(ident=client_token, cls=state_cls))
    state = root.get_substate(state_cls.get_full_name().split(".")[1:])
    may_upload = getattr(state, "_may_upload", None)
    return may_upload is not None and bool(await may_upload())


class UploadGuard:
    """ASGI middleware in front of ``/_upload``: size and permission first, the body only after."""

    def __init__(self, app: ASGIApp, *, path: str = UPLOAD_PATH):
        self.app = app
        self.path = path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("path") != self.path or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        limit = body_limit()
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        declared = headers.get("content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _answer(send, 413, uploads.too_large_text())
            return
        try:
            allowed = await may_upload(headers.get("reflex-client-token", ""), headers.get("reflex-event-handler", ""))
        except Exception:
            log.exception("upload permission check failed")
            allowed = False
        if not allowed:
            await _answer(send, 403, "Unauthorized")
            return

        if await run_capped(self.app, scope, receive, send, limit=limit):
            await _answer(send, 413, "The file is too large")
