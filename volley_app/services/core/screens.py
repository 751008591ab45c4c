"""A screen read in one call: each part of what a page shows, with the failure that part met.

A page's load makes one service call (one transaction, one hop to a worker thread): the screen's service reads
every part with :func:`part`, so a part refused (a search the list refuses, a record this viewer may not see)
carries its own message, and the other parts are still read and shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlmodel import Session

from volley_app.services.core.errors import DomainError

T = TypeVar("T")


@dataclass(frozen=True)
class Part(Generic[T]):
    """One part of a screen: what was read, or (``value`` None) the failure that part met."""

    value: T | None
    failure: DomainError | None = None


def part(read: Callable[..., T], db: Session, actor: Any, **args: Any) -> Part[T]:
    """``read(db, actor, **args)`` as one part of a screen: a refusal is the part's own."""
    try:
        return Part(read(db, actor, **args))
    except DomainError as failure:
        return Part(None, failure)
