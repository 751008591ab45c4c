"""Who is acting, what their roles let them do, and loading a row by the id a browser sent.

Each domain package loads the objects it owns with its own ``access_<object>(db, actor, id)`` loader, built
on ``load`` and the ``require_*`` checks here: the loader turns the id into a row the actor may see
(NotFound / Forbidden otherwise), so no service loads by id by hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TypeVar

from sqlmodel import Session

from volley_app.models import Role
from volley_app.services.core.errors import Forbidden, NotFound, Unauthorized

T = TypeVar("T")


def display_status(roles: Iterable[str]) -> str:
    """Admin over SVL over Player (spec section 4)."""
    roles = set(roles)
    if Role.ADMIN.value in roles:
        return Role.ADMIN.value
    if Role.SVL.value in roles:
        return Role.SVL.value
    return Role.PLAYER.value


@dataclasses.dataclass(frozen=True)
class Actor:
    """The logged-in user an action is done for, as the server resolved it."""

    user_id: int
    username: str
    roles: tuple[str, ...]
    session_id: int | None = None
    first_name: str = ""

    @property
    def status(self) -> str:
        return display_status(self.roles)

    @property
    def is_admin(self) -> bool:
        return Role.ADMIN.value in self.roles

    @property
    def is_svl(self) -> bool:
        return Role.SVL.value in self.roles

    def has_any(self, roles: Iterable[str | Role]) -> bool:
        return bool({str(r) for r in roles} & set(self.roles))


def require_actor(actor: Actor | None) -> Actor:
    """The actor, or Unauthorized when nobody is logged in."""
    if actor is None:
        raise Unauthorized()
    return actor


def require_role(actor: Actor | None, *roles: Role) -> Actor:
    """The actor when they hold one of ``roles``; otherwise Unauthorized/Forbidden."""
    actor = require_actor(actor)
    if not actor.has_any(roles):
        raise Forbidden()
    return actor


def require_admin(actor: Actor | None) -> Actor:
    """The actor when they are an admin; otherwise Unauthorized/Forbidden."""
    return require_role(actor, Role.ADMIN)


MAX_ID = 2**31 - 1  # the largest id a PostgreSQL integer column holds


def record_id(value: object, message: str = "Not found") -> int:
    """A positive database id from whatever a browser sent ('12', 12), else NotFound(message)."""
    if isinstance(value, bool):
        raise NotFound(message)
    try:
        result = int(str(value).strip())
    except (TypeError, ValueError):
        raise NotFound(message) from None
    if result <= 0 or result > MAX_ID:
        raise NotFound(message)
    return result


def load(db: Session, model: type[T], value: object, message: str = "Not found", *, lock: bool = False) -> T:
    """The ``model`` row with the id in ``value`` (locked for update with ``lock``), or NotFound(message)."""
    row = db.get(model, record_id(value, message), with_for_update=lock or None)
    if row is None:
        raise NotFound(message)
    return row
