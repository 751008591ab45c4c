"""Request dependencies: the acting user from the bearer token."""

from __future__ import annotations

from fastapi import Request
from sqlmodel import Session

from volley_app import db
from volley_app.services.accounts import auth, tokens
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Forbidden

INVALID_TOKEN = "Your access token is not valid or has expired."  # noqa: S105 - a message


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def _resolve(db_session: Session, token: str) -> Actor | None:
    if token.count(".") == 2:
        try:
            return tokens.resolve_access(db_session, token)
        except tokens.InvalidToken:
            return None
    return auth.resolve(db_session, token)  # a browser session's token


def current_actor(request: Request) -> Actor | None:
    """The user behind the bearer token, or None when no token was sent (services decide what None may do).

    A token that was sent but is not valid (altered, expired, of an ended login, a refresh token)
    answers 403: the spec's clients then refresh and retry once.
    """
    token = bearer_token(request)
    if not token:
        return None
    actor = db.call(_resolve, token)
    if actor is None:
        raise Forbidden(INVALID_TOKEN)
    return actor
