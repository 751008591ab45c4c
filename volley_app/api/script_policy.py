"""Inline scripts allowed by their hashes, not by ``'unsafe-inline'``.

The compiled pages carry a few inline scripts (React Router's context and route modules, Reflex's
boot code). The Content-Security-Policy allows exactly those: every HTML response the backend sends
gets the SHA-256 hashes of its own inline scripts added to ``script-src``
(:class:`InlineScriptHashes`); nginx, serving the build itself, sends the hashes of every page of
the build (:func:`build_hashes`). A script injected into a page matches no hash and does not run. A 304 (the
browser's copy is current) carries no policy, so the copy keeps the one that names its scripts.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

import anyio
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_SCRIPT = re.compile(rb"<script\b([^>]*)>(.*?)</script\s*>", re.S | re.I)
_SRC = re.compile(rb"\bsrc\s*=", re.I)
_TYPE = re.compile(rb"""\btype\s*=\s*["']?([^"'\s>]*)""", re.I)
# A module a page starts itself once it has painted (``api.first_paint``): run then as an inline script, so its hash
# is allowed like the others'.
LATER_MODULE = "module-after-paint"
_JS_TYPES = {b"", b"module", b"text/javascript", b"application/javascript", LATER_MODULE.encode()}
_CSP = b"content-security-policy"
# A body whose encoding cannot be read here keeps inline scripts allowed (the page must work).
_FALLBACK = "'unsafe-inline'"


def inline_script_hashes(html: bytes) -> list[str]:
    """The CSP sources (``'sha256-…'``) of the inline scripts in ``html``, in order, each once."""
    found: list[str] = []
    for attrs, body in _SCRIPT.findall(html):
        kind = _TYPE.search(attrs)
        if _SRC.search(attrs) or (kind is not None and kind.group(1).lower() not in _JS_TYPES):
            continue
        source = f"'sha256-{base64.b64encode(hashlib.sha256(body).digest()).decode()}'"
        if source not in found:
            found.append(source)
    return found


def build_hashes(root: Path) -> list[str]:
    """The hashes of every inline script in every page of the frontend build at ``root``, sorted."""
    found: set[str] = set()
    for page in root.rglob("*.html"):
        found.update(inline_script_hashes(page.read_bytes()))
    return sorted(found)


def with_sources(policy: str, sources: Iterable[str]) -> str:
    """``policy`` with ``sources`` added to its ``script-src`` directive."""
    extra = " ".join(sources)
    if not extra:
        return policy
    parts = [p.strip() for p in policy.split(";")]
    return "; ".join(f"{p} {extra}" if p.split(" ", 1)[0] == "script-src" else p for p in parts)


def _decoded(body: bytes, encoding: bytes) -> bytes | None:
    if encoding in (b"", b"identity"):
        return body
    if encoding == b"gzip":
        try:
            return gzip.decompress(body)
        except (OSError, EOFError):
            return None
    return None


class InlineScriptHashes:
    """ASGI middleware: an HTML response's policy allows the inline scripts it carries, by hash."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        chunks: list[bytes] = []

        async def hashing_send(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start" and message.get("status") == 304:
                # Not modified: the browser keeps the page it has, and its policy with that page's hashes.
                await send({**message, "headers": [(k, v) for k, v in message.get("headers", []) if k != _CSP]})
            elif message["type"] == "http.response.start":
                headers = dict(message.get("headers", []))
                if headers.get(b"content-type", b"").startswith(b"text/html") and _CSP in headers:
                    start = message  # held until the whole page is here
                    return
                await send(message)
            elif message["type"] == "http.response.body" and start is not None:
                chunks.append(message.get("body", b""))
                if not message.get("more_body", False):
                    await self._send_page(start, b"".join(chunks), send)
            elif message["type"] == "http.response.pathsend" and start is not None:
                # A page served from its file (the prebuilt pages under make run): read, hashed, sent as a body.
                await self._send_page(start, await anyio.Path(message["path"]).read_bytes(), send)
            else:
                await send(message)

        await self.app(scope, receive, hashing_send)

    @staticmethod
    async def _send_page(start: Message, body: bytes, send: Send) -> None:
        headers = list(start.get("headers", []))
        encoding = dict(headers).get(b"content-encoding", b"").strip().lower()
        html = _decoded(body, encoding)
        sources = inline_script_hashes(html) if html is not None else [_FALLBACK]
        headers = [(k, with_sources(v.decode("latin-1"), sources).encode("latin-1") if k == _CSP else v)
                   for k, v in headers]  # fmt: skip
        await send({**start, "headers": headers})
        await send({"type": "http.response.body", "body": body})
