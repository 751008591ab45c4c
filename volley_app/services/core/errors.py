"""Typed domain errors. Adapters turn them into the spec's messages and HTTP codes."""

from __future__ import annotations

# Shown when something fails that is not the user's doing (database down, a bug).
UNEXPECTED = "Something went wrong on our side. Please try again in a moment."


class DomainError(Exception):
    """Base of every error a service raises on purpose. ``message`` is fit to show a user."""

    status_code = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class BadRequest(DomainError):
    status_code = 400


class NotFound(DomainError):
    status_code = 404


class Forbidden(DomainError):
    status_code = 403

    def __init__(self, message: str = "No access"):
        super().__init__(message)


class Unauthorized(DomainError):
    status_code = 401

    def __init__(self, message: str = "Unauthorized"):
        super().__init__(message)


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
