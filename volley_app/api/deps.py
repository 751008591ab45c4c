"""Request dependencies: the acting user from the bearer token."""

from __future__ import annotations

from fastapi import Request

from volley_app import db
from volley_app.services import auth
from volley_app.services.permissions import Actor


def bearer_token(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def client_ip(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def current_actor(request: Request) -> Actor | None:
    """The user behind the bearer token, or None (services decide what None may do)."""
    token = bearer_token(request)
    return db.call(auth.resolve, token) if token else None
