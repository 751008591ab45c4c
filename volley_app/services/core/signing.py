"""Every signature the app makes, and every keyed hash of a token it stores, in one place.

Each use has a *purpose* (the constants below) and its own key, derived from ``SECRET_KEY`` with the
purpose as salt: a signature made for one purpose never verifies for another, whatever its fields.

- :func:`sign` / :func:`verify`: a link's signature over its fields (an unsubscribe link, a one-click
  answer, a file link): 40 hex characters of an HMAC-SHA256.
- :func:`digest` / :func:`digests`: the keyed hash kept of a random token (a login session, a refresh
  token, a sign-in or password reset link, a known device), looked up by :func:`digests`.
- :func:`jwt_key` / :func:`jwt_keys`: the keys of the REST API's access tokens.

Key rotation: set ``SECRET_KEY`` to a new key and list the old ones in ``SECRET_KEY_FALLBACKS`` (comma
separated). Everything is signed and hashed with the current key; what an old key signed still verifies
and is still found until that key leaves the list.

Links and tokens made before keys were derived per purpose were signed with ``SECRET_KEY`` itself over
``"<prefix>:<field>:<field>..."`` (the prefix said what they were for). Those still verify, under the
current key and each fallback, so links already in people's mailboxes keep working.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json

from volley_app.settings import get_settings

# -- purposes: one key each -------------------------------------------------------------------------------------

NEWSLETTER_UNSUBSCRIBE = "newsletter-unsubscribe"  # a newsletter subscriber's unsubscribe link
LIST_UNSUBSCRIBE = "list-unsubscribe"  # a user's one-click unsubscribe from a bulk list
INVITE_ANSWER = "invite-answer"  # an invitation's one-click Accept or Decline
NAMED_ANSWER = "named-answer"  # the one-click answers of the sub a request names
TEAM_INVITATION = "team-invitation"  # an invitation's link to join a team
RSVP_ANSWER = "rsvp-answer"  # a game reminder's one-click In, Out or Maybe
SHARE_PAY = "share-pay"  # a rostered player's link to pay their share of the team's fee
FILE_LINK = "file-link"  # a short-lived link to a private file or an export
STORED_TOKEN = "stored-token"  # noqa: S105 - the hash kept of a random token (sessions, emailed links, devices)
API_ACCESS_TOKEN = "api-access-token"  # noqa: S105 - the REST API's signed access tokens (JWT)

PURPOSES = (
    NEWSLETTER_UNSUBSCRIBE,
    LIST_UNSUBSCRIBE,
    INVITE_ANSWER,
    NAMED_ANSWER,
    TEAM_INVITATION,
    RSVP_ANSWER,
    SHARE_PAY,
    FILE_LINK,
    STORED_TOKEN,
    API_ACCESS_TOKEN,
)

# What the message of a purpose's link began with when SECRET_KEY signed it directly.
_LEGACY_PREFIX = {
    NEWSLETTER_UNSUBSCRIBE: "unsubscribe",
    LIST_UNSUBSCRIBE: "list-unsubscribe",
    INVITE_ANSWER: "invite-answer",
    NAMED_ANSWER: "named-answer",
    FILE_LINK: "file",
}

SIGNATURE_LENGTH = 40  # hex characters of a link's signature


def secrets_in_use() -> list[str]:
    """The current key, then each fallback key (``SECRET_KEY_FALLBACKS``), without repeats."""
    s = get_settings()
    out: list[str] = []
    for key in (s.secret_key, *s.secret_key_fallbacks):
        if key and key not in out:
            out.append(key)
    return out


def _check(purpose: str) -> None:
    if purpose not in PURPOSES:
        raise ValueError(f"unknown signing purpose {purpose!r}")


@functools.lru_cache(maxsize=64)
def _derive(secret: str, purpose: str) -> bytes:
    """The key of ``purpose`` under ``secret``: an HMAC of the purpose (the salt) keyed with the secret."""
    return hmac.new(secret.encode(), f"volley_app.signing:{purpose}".encode(), hashlib.sha256).digest()


def _message(fields: tuple[object, ...]) -> bytes:
    """The signed bytes of ``fields``: a JSON list of their text, so no field can run into the next."""
    return json.dumps([str(f) for f in fields], ensure_ascii=False, separators=(",", ":")).encode()


def _mac(key: bytes, message: bytes) -> str:
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def _legacy_message(purpose: str, fields: tuple[object, ...]) -> bytes:
    return ":".join([_LEGACY_PREFIX[purpose], *(str(f) for f in fields)]).encode()


# -- link signatures --------------------------------------------------------------------------------------------


def sign(purpose: str, *fields: object) -> str:
    """The signature of ``fields`` for ``purpose``, with the current key (40 hex characters)."""
    _check(purpose)
    return _mac(_derive(secrets_in_use()[0], purpose), _message(fields))[:SIGNATURE_LENGTH]


def verify(purpose: str, signature: object, *fields: object) -> bool:
    """True when ``signature`` is the signature of ``fields`` for ``purpose``.

    Under the current key or a fallback key, and in the form links had before keys were derived per
    purpose. Compared in constant time; anything but an ASCII string of the right length is refused.
    """
    _check(purpose)
    if not isinstance(signature, str) or len(signature) != SIGNATURE_LENGTH or not signature.isascii():
        return False
    message = _message(fields)
    legacy = _legacy_message(purpose, fields) if purpose in _LEGACY_PREFIX else None
    ok = False
    for secret in secrets_in_use():
        ok |= hmac.compare_digest(signature, _mac(_derive(secret, purpose), message)[:SIGNATURE_LENGTH])
        if legacy is not None:
            ok |= hmac.compare_digest(signature, _mac(secret.encode(), legacy)[:SIGNATURE_LENGTH])
    return ok


# -- hashes of stored tokens ------------------------------------------------------------------------------------


def digest(token: str, purpose: str = STORED_TOKEN) -> str:
    """The hash to store of ``token`` (64 hex characters), with the current key."""
    _check(purpose)
    return _mac(_derive(secrets_in_use()[0], purpose), token.encode())


def digests(token: str, purpose: str = STORED_TOKEN) -> list[str]:
    """Every hash ``token`` may be stored under: the current key's first, then the fallbacks', then the
    hashes kept before keys were derived per purpose. Look a token up with ``column.in_(digests(token))``."""
    _check(purpose)
    out = [_mac(_derive(secret, purpose), token.encode()) for secret in secrets_in_use()]
    if purpose == STORED_TOKEN:  # kept as the key's own HMAC of the token
        out += [_mac(secret.encode(), token.encode()) for secret in secrets_in_use()]
    return list(dict.fromkeys(out))


# -- keys of signed tokens --------------------------------------------------------------------------------------


def jwt_key(purpose: str = API_ACCESS_TOKEN) -> bytes:
    """The key that signs a new token of ``purpose`` (HS256)."""
    _check(purpose)
    return _derive(secrets_in_use()[0], purpose)


def jwt_keys(purpose: str = API_ACCESS_TOKEN) -> list[bytes]:
    """Every key a token of ``purpose`` may have been signed with: current, fallbacks, then the keys themselves
    (the tokens signed before keys were derived per purpose)."""
    _check(purpose)
    keys = secrets_in_use()
    legacy = [k.encode() for k in keys] if purpose == API_ACCESS_TOKEN else []
    return [*(_derive(k, purpose) for k in keys), *legacy]
