"""Password hashing: bcrypt, cost from settings (12 by default).

bcrypt reads at most 72 bytes. Rather than silently ignore the rest, every
password is first reduced with SHA-256 (base64, 44 bytes), so every byte of a
long or non-ASCII password counts.
"""

from __future__ import annotations

import base64
import hashlib

import bcrypt

from volley_app.settings import get_settings


def _prehash(password: str) -> bytes:
    digest = hashlib.sha256(password.encode("utf-8")).digest()
    return base64.b64encode(digest)


def hash_password(password: str, rounds: int | None = None) -> str:
    rounds = rounds or get_settings().bcrypt_rounds
    return bcrypt.hashpw(_prehash(password), bcrypt.gensalt(rounds=rounds)).decode("ascii")


def verify_password(password: str, hashed: str) -> bool:
    try:
        return bcrypt.checkpw(_prehash(password), hashed.encode("ascii"))
    except ValueError:
        return False


_DUMMY: dict[int, str] = {}


def burn_time(password: str) -> None:
    """Spend the time a real check costs, so an unknown username answers as slowly as a known one."""
    rounds = get_settings().bcrypt_rounds
    if rounds not in _DUMMY:
        _DUMMY[rounds] = hash_password("dummy-password", rounds)
    verify_password(password, _DUMMY[rounds])
