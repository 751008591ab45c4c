"""Private uploads: content checked by magic bytes and size, stored under a server-made name.

Files are kept behind one small storage interface (``Storage``): by default the database (``stored_files``),
so every instance behind one address reads what any instance stored, with no shared disk. A file stored
before lived in ``UPLOAD_DIR``; the migration copied those it found, and one it could not see is still read
from there (``read`` falls back to the folder).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from pathlib import Path
from typing import Protocol

import sqlalchemy as sa
from sqlmodel import Session, col, select
from typing_extensions import TypeIs

from volley_app.models import StoredFile
from volley_app.services.core import signing
from volley_app.services.core.errors import Invalid
from volley_app.settings import get_settings

# Spec section 5: png, pdf, doc or jpeg. Checked by content, never by the name the browser sent.
_SIGNATURES: list[tuple[bytes, str, str]] = [
    (b"\x89PNG\r\n\x1a\n", "image/png", ".png"),
    (b"%PDF-", "application/pdf", ".pdf"),
    (b"\xff\xd8\xff", "image/jpeg", ".jpg"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "application/msword", ".doc"),
]

KINDS = "a PNG, PDF, DOC or JPEG file"


def limit_text() -> str:
    """The size limit in words: 'at most 2 MB'."""
    return f"at most {get_settings().upload_max_bytes // (1024 * 1024)} MB"


def allowed_text() -> str:
    """What may be uploaded, kinds and size: every refusal of an upload says it."""
    return f"Upload {KINDS} of {limit_text()}"


def no_file_text() -> str:
    """The refusal of an upload without exactly one file."""
    return f"Choose one file to upload: {KINDS} of {limit_text()}"


def too_large_text() -> str:
    return f"The file is too large. Upload {KINDS} of {limit_text()}"


def sniff(data: bytes) -> tuple[str, str]:
    """The (content type, extension) ``data`` really is, or Invalid when it is none of the allowed kinds."""
    for magic, content_type, ext in _SIGNATURES:
        if data.startswith(magic):
            return content_type, ext
    raise Invalid({"file": allowed_text()})


def _root() -> Path:
    """The folder files were stored in before the storage held them (``UPLOAD_DIR``)."""
    return Path(get_settings().upload_dir)


def check(data: object) -> tuple[str, str]:
    """Size and content check. Returns (content type, extension)."""
    if not isinstance(data, bytes | bytearray) or not data:
        raise Invalid({"file": no_file_text()})
    if len(data) > get_settings().upload_max_bytes:
        raise Invalid({"file": too_large_text()})
    return sniff(bytes(data))


class Storage(Protocol):
    """Where uploaded files live: written, read and removed in the caller's transaction."""

    def put(self, db: Session, name: str, data: bytes, content_type: str) -> None: ...

    def get(self, db: Session, name: str) -> bytes | None: ...

    def delete(self, db: Session, name: str) -> None: ...


class DatabaseStorage:
    """Files as rows of ``stored_files`` (PostgreSQL bytea, SQLite blob): every instance reads them."""

    def put(self, db: Session, name: str, data: bytes, content_type: str) -> None:
        db.add(StoredFile(name=name, content_type=content_type, size=len(data), data=data))
        db.flush()

    def get(self, db: Session, name: str) -> bytes | None:
        data = db.exec(select(StoredFile.data).where(StoredFile.name == name)).first()
        return bytes(data) if data is not None else None

    def delete(self, db: Session, name: str) -> None:
        db.exec(sa.delete(StoredFile).where(col(StoredFile.name) == name))


STORAGE: Storage = DatabaseStorage()


def _valid_name(name: str | None) -> TypeIs[str]:
    return name is not None and name != "" and "/" not in name and "\\" not in name and not name.startswith(".")


def store(db: Session, data: bytes, ext: str, content_type: str) -> str:
    """Keep checked ``data`` under a new random name; returns the name (never a name from a client)."""
    name = secrets.token_hex(16) + ext
    STORAGE.put(db, name, bytes(data), content_type)
    return name


def _legacy_path(name: str | None) -> Path | None:
    """A file stored in ``UPLOAD_DIR`` before files moved into the storage (None when there is none)."""
    if not _valid_name(name):
        return None
    path = _root() / name
    return path if path.is_file() else None


def read(db: Session, name: str | None) -> bytes | None:
    """The stored file's bytes (None when missing)."""
    if not _valid_name(name):
        return None
    data = STORAGE.get(db, name)
    if data is None and (path := _legacy_path(name)) is not None:
        data = path.read_bytes()
    return data


def download_name(stem: str, name: str) -> str:
    """The name a browser saves a stored file under: ``stem`` with the stored file's own extension (".pdf")."""
    return stem + Path(name).suffix


def etag(name: str) -> str:
    """A stored file's entity tag: its server-made name never changes while the file stays the same."""
    return '"' + hashlib.sha256(name.encode()).hexdigest()[:32] + '"'


# A link to a private file works for about this long (whole hours, so one link serves many page loads).
TICKET_HOURS = 2


def ticket(user_id: int, subject: str, now: dt.datetime) -> dict[str, str]:
    """The query of a link to the private file ``subject`` for ``user_id``, checked by ``ticket_holder``."""
    hour = int(now.timestamp()) // 3600
    expires = (hour + TICKET_HOURS) * 3600
    return {"u": str(user_id), "e": str(expires), "s": signing.sign(signing.FILE_LINK, user_id, subject, expires)}


def ticket_holder(query: dict[str, str], subject: str, now: dt.datetime) -> int | None:
    """The user a link to ``subject`` was made for, while it holds; None for a forged, altered or old one."""
    uid, expires, sig = query.get("u", ""), query.get("e", ""), query.get("s", "")
    if not (uid.isdigit() and expires.isdigit() and len(uid) < 12 and len(expires) < 12):
        return None
    if int(expires) < now.timestamp() or not signing.verify(signing.FILE_LINK, sig, int(uid), subject, int(expires)):
        return None
    return int(uid)


def remove(db: Session, name: str | None) -> None:
    """Forget a stored file (a replaced or deleted bracket), in the caller's transaction."""
    if not _valid_name(name):
        return
    STORAGE.delete(db, name)
    if (path := _legacy_path(name)) is not None:
        path.unlink(missing_ok=True)
