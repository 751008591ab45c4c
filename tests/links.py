"""Every link a message carries, and those that leave the app's public address (PUBLIC_URL)."""

from __future__ import annotations

import re
from email.message import EmailMessage
from urllib.parse import urlsplit

# Addresses people type into what they send (a newsletter section's link): the documentation domains tests
# use for that (RFC 2606). Every other link of a message is one the app built, and must be on PUBLIC_URL.
WRITTEN = frozenset({"example.com", "www.example.com", "example.org", "example.net"})

_LINK = re.compile(r"""(?:https?|webcal)://[^\s"'<>)\]]+""", re.IGNORECASE)


def links(*texts: str | None) -> list[str]:
    """The absolute web links in ``texts`` (bodies, headers), in order."""
    return [m.group(0).rstrip(".,;") for text in texts if text for m in _LINK.finditer(text)]


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def foreign(found: list[str], public_url: str) -> list[str]:
    """The links of ``found`` the app built whose origin is not ``public_url``'s."""
    home = origin(public_url)
    return [u for u in found if origin(u) != home and (urlsplit(u).hostname or "").lower() not in WRITTEN]


def message_links(message: EmailMessage) -> list[str]:
    """Every link of a delivered message: its text and HTML bodies and its List-Unsubscribe header."""
    texts = [str(message.get("List-Unsubscribe", ""))]
    for part in message.walk():
        if part.get_content_type() in ("text/plain", "text/html"):
            texts.append(part.get_content())
    return links(*texts)


def outbox_links(row) -> list[str]:
    """Every link of an outbox row (``OutboxMessage``): bodies and List-Unsubscribe."""
    return links(row.body_text, row.body_html, row.list_unsubscribe)
