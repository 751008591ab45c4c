"""Private uploads: content checked by magic bytes and size, stored under a server-made name."""

from __future__ import annotations

import base64
import secrets
from pathlib import Path

from volley_app.services.errors import Invalid
from volley_app.settings import get_settings

# Spec section 5: png, pdf, doc or jpeg. Checked by content, never by the name the browser sent.
_SIGNATURES: list[tuple[bytes, str, str]] = [
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
    (b"%PDF-", "application/pdf", ".pdf"),
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "application/msword", ".doc"),
]

ALLOWED_TEXT = "Upload a PNG, PDF, DOC or JPEG file"


def sniff(data: bytes) -> tuple[str, str]:
    """The (content type, extension) ``data`` really is, or Invalid when it is none of the allowed kinds."""
    for magic, content_type, ext in _SIGNATURES:
        if data.startswith(magic):
            return content_type, ext
    raise Invalid({"file": ALLOWED_TEXT})


def _root() -> Path:
    return Path(get_settings().upload_dir)


def check(data: object) -> tuple[str, str]:
    """Size and content check. Returns (content type, extension)."""
    if not isinstance(data, bytes | bytearray) or not data:
        raise Invalid({"file": "Choose a file to upload"})
    limit = get_settings().upload_max_bytes
    if len(data) > limit:
        raise Invalid({"file": f"The file is too large (at most {limit // (1024 * 1024)} MB)"})
    return sniff(bytes(data))


def store(data: bytes, ext: str) -> str:
    """Write checked ``data`` under a new random name; returns the name (never a path from a client)."""
    root = _root()
    root.mkdir(parents=True, exist_ok=True)
    name = secrets.token_hex(16) + ext
    (root / name).write_bytes(data)
    return name


def _path(name: str) -> Path | None:
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return None
    path = _root() / name
    return path if path.is_file() else None


def read_data_url(name: str | None, content_type: str | None) -> str:
    """The stored file as a data URL ("" when missing)."""
    path = _path(name or "")
    if path is None or not content_type:
        return ""
    return f"data:{content_type};base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def remove(name: str | None) -> None:
    path = _path(name or "")
    if path is not None:
        path.unlink(missing_ok=True)
