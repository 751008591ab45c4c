"""Who is acting, and what their roles let them do."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from volley_app.models import Role
from volley_app.services.errors import Forbidden, Unauthorized


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
