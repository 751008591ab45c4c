"""Typed domain errors. Adapters turn them into the spec's messages and HTTP codes."""

from __future__ import annotations

# Shown when something fails that is not the user's doing (database down, a bug).
UNEXPECTED = "Something went wrong on our side. Please try again in a moment."


class DomainError(Exception):
    """Base of every error a service raises on purpose. ``message`` is fit to show a user; left out, it is the
    kind's ``default_message``."""

    status_code = 400
    default_message = ""

    def __init__(self, message: str | None = None):
        message = self.default_message if message is None else message
        super().__init__(message)
        self.message = message


class BadRequest(DomainError):
    status_code = 400


class NotFound(DomainError):
    status_code = 404


class Forbidden(DomainError):
    status_code = 403
    default_message = "No access"


class Unauthorized(DomainError):
    status_code = 401
    default_message = "Unauthorized"


class Invalid(DomainError):
    """Bad input. ``errors`` maps a field name to its message."""

    status_code = 422

    def __init__(self, errors: dict[str, str] | str, field: str = "form"):
        if isinstance(errors, str):
            errors = {field: errors}
        self.errors = errors
        super().__init__(next(iter(errors.values())))


class Conflict(Invalid):
    """Well-formed input that clashes with what is stored (a username already registered): 409 over HTTP."""

    status_code = 409


class UnknownRecord(Invalid):
    """A well-formed field naming a record that is not there (or not of the kind it must be): 404 over HTTP."""

    status_code = 404


class RateLimited(DomainError):
    status_code = 429
