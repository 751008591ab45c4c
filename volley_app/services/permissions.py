"""Who is acting, what their roles let them do, and loading the objects they act on."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import TypeVar

from sqlmodel import Session, select

from volley_app.models import (
    Game,
    League,
    LeagueSession,
    Payment,
    Role,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    Team,
    User,
)
from volley_app.services.errors import Forbidden, NotFound, Unauthorized

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


# --- loading one object by the id a browser sent ------------------------------------------------
# Each ``access_<object>(db, actor, id)`` loader below turns the id into a row the
# actor may see (NotFound / Forbidden otherwise), so no service loads by id by hand.

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


def load(db: Session, model: type[T], value: object, message: str = "Not found") -> T:
    """The ``model`` row with the id in ``value``, or NotFound(message)."""
    row = db.get(model, record_id(value, message))
    if row is None:
        raise NotFound(message)
    return row


# --- accounts ---------------------------------------------------------------------------------

USER_NOT_FOUND = "User not found"


def access_user(db: Session, actor: Actor | None, user_id: object) -> User:
    """The user ``user_id`` when the actor may see and change them: themselves, or anyone for an admin.

    Raises:
        Unauthorized: nobody is logged in.
        Forbidden: another user's record and the actor is not an admin (said before whether it exists).
        NotFound: no such user.
    """
    actor = require_actor(actor)
    uid = record_id(user_id, USER_NOT_FOUND)
    if uid != actor.user_id and not actor.is_admin:
        raise Forbidden()
    return load(db, User, uid, USER_NOT_FOUND)


# --- sub requests -----------------------------------------------------------------------------

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



# --- league sessions ----------------------------------------------------------------------------

SESSION_NOT_FOUND = "This session no longer exists"


def access_session(db: Session, actor: Actor | None, session_id: object) -> LeagueSession:
    """The session when the actor manages it (its SVL or an admin); else Unauthorized / Forbidden / NotFound.

    An archived session exists only for admins (who may restore it).
    """
    actor = require_role(actor, Role.SVL, Role.ADMIN)
    row = load(db, LeagueSession, session_id, SESSION_NOT_FOUND)
    if not actor.is_admin and row.svl_id != actor.user_id:
        raise Forbidden()
    if row.archived_at is not None and not actor.is_admin:
        raise NotFound(SESSION_NOT_FOUND)
    return row


# --- leagues and games --------------------------------------------------------------------------

LEAGUE_NOT_FOUND = "This league no longer exists"
GAME_NOT_FOUND = "This game no longer exists"


def may_manage_league(actor: Actor | None, league: League) -> bool:
    """A league is managed by its own SVL and by admins."""
    return actor is not None and (actor.is_admin or (actor.is_svl and league.svl_id == actor.user_id))


def access_league(db: Session, actor: Actor | None, league_id: object, *, manage: bool = False) -> League:
    """The league with that id for this actor.

    To read it: anyone logged in, but an inactive league only for those who manage it (NotFound for the
    others). With ``manage``: only its SVL or an admin (Unauthorized / Forbidden otherwise). An archived
    league exists only for admins (who may see its payments and restore it).
    """
    if manage:
        actor = require_role(actor, Role.SVL, Role.ADMIN)
        row = load(db, League, league_id, LEAGUE_NOT_FOUND)
        if not may_manage_league(actor, row):
            raise Forbidden()
    else:
        actor = require_actor(actor)
        row = load(db, League, league_id, LEAGUE_NOT_FOUND)
        if not row.active and not may_manage_league(actor, row):
            raise NotFound(LEAGUE_NOT_FOUND)
    if row.archived_at is not None and not actor.is_admin:
        raise NotFound(LEAGUE_NOT_FOUND)
    return row


def access_game(db: Session, actor: Actor | None, game_id: object, *, manage: bool = False) -> Game:
    """The game with that id when the actor may read (``manage``: change) its league."""
    game = load(db, Game, game_id, GAME_NOT_FOUND)
    access_league(db, actor, game.league_id, manage=manage)
    return game



# --- teams and payments -------------------------------------------------------------------------

TEAM_NOT_FOUND = "This team no longer exists"
PAYMENT_NOT_FOUND = "Registration not found"


def manages_team(db: Session, actor: Actor, team: Team) -> bool:
    """True when the actor manages the team's league: an admin, or the league's own SVL."""
    if actor.is_admin:
        return True
    league = db.get(League, team.league_id)
    return league is not None and actor.is_svl and league.svl_id == actor.user_id


def access_team(db: Session, actor: Actor | None, team_id: object, *, manage: bool = True) -> Team:
    """The team when the actor manages its league (its SVL or an admin).

    With ``manage=False`` its captain may have it too (to read it). Else Unauthorized / Forbidden / NotFound.
    """
    actor = require_role(actor, Role.SVL, Role.ADMIN) if manage else require_actor(actor)
    team = load(db, Team, team_id, TEAM_NOT_FOUND)
    if not (manages_team(db, actor, team) or (not manage and team.captain_id == actor.user_id)):
        raise Forbidden()
    league = db.get(League, team.league_id)
    if league is not None and league.archived_at is not None and not actor.is_admin:
        raise NotFound(TEAM_NOT_FOUND)
    return team


def access_payment(db: Session, actor: Actor | None, payment_id: object, *, lock: bool = False) -> Payment:
    """The actor's own registration payment (locked for update with ``lock``); else Unauthorized / Forbidden / NotFound."""
    actor = require_actor(actor)
    stmt = select(Payment).where(Payment.id == record_id(payment_id, PAYMENT_NOT_FOUND))
    if lock:
        stmt = stmt.with_for_update()
    row = db.exec(stmt).first()
    if row is None:
        raise NotFound(PAYMENT_NOT_FOUND)
    if row.user_id != actor.user_id:
        raise Forbidden()
    return row
