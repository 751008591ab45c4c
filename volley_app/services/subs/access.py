"""Loading a sub request by the id a browser sent, for those who may see it."""

from __future__ import annotations

from sqlmodel import Session, select

from volley_app.models import Role, SubRequest, SubRequestPlace, SubStatus
from volley_app.services.core.actors import Actor, load, require_actor
from volley_app.services.core.errors import Forbidden, NotFound

SUB_REQUEST_NOT_FOUND = "This sub request no longer exists"


def require_sub_request_actor(actor: Actor | None) -> Actor:
    """Players and admins; SVLs (display status SVL) and anonymous callers are refused."""
    actor = require_actor(actor)
    if not actor.has_any((Role.PLAYER, Role.ADMIN)) or actor.status == Role.SVL.value:
        raise Forbidden()
    return actor


def can_view_sub_request(actor: Actor, req: SubRequest) -> bool:
    """Admins, the requestor and the named sub see a request; everyone else only an open one open to anyone."""
    if actor.is_admin or actor.user_id in (req.requestor_id, req.recipient_id):
        return True
    return req.recipient_id is None and req.status == SubStatus.OPEN


SUB_REQUEST_TAKEN = "This request was taken"


def access_sub_request(db: Session, actor: Actor | None, value: object, *, own: bool = False) -> SubRequest:
    """The sub request with the id in ``value`` when the actor may see it (``own``: only its requestor).

    Raises:
        Unauthorized / Forbidden: no actor, an SVL, or a request the actor may not see or change.
        NotFound: no such request.
    """
    actor = require_sub_request_actor(actor)
    req = load(db, SubRequest, value, SUB_REQUEST_NOT_FOUND)
    if req.archived_at is not None:
        raise NotFound(SUB_REQUEST_NOT_FOUND)
    allowed = req.requestor_id == actor.user_id if own else can_view_sub_request(actor, req)
    if not allowed and not own:  # a sub who took one of its places
        placed = select(SubRequestPlace.id).where(SubRequestPlace.request_id == req.id,
                                                  SubRequestPlace.user_id == actor.user_id)  # fmt: skip
        allowed = db.exec(placed).first() is not None
    if not allowed:
        if not own and req.status != SubStatus.OPEN:
            raise Forbidden(SUB_REQUEST_TAKEN)  # full or closed: someone else's now, and says so
        raise Forbidden()
    return req
