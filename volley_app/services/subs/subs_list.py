"""The list of available subs (the Subs page) and the subs a targeted request or its invite list may name.

SVLs (display status SVL) are refused, and sent to their sessions from the Subs page; players and admins may read.
A sub is shown by name, gender, ratings and record only: email addresses never leave the server.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypedDict, Unpack

import sqlalchemy as sa
from sqlmodel import Session, col

from volley_app import routes
from volley_app.models import Gender, Rating, Role, SubRequestPlace, User
from volley_app.models.base import table_of
from volley_app.services.accounts import accounts, venues
from volley_app.services.core import paging
from volley_app.services.core.actors import Actor, record_id
from volley_app.services.core.errors import NotFound
from volley_app.services.core.screens import Part, part
from volley_app.services.subs.access import access_sub_request, require_sub_request_actor

# The filters of the Subs list: a name, gender, a position and a rating (that position's, or any position's).
SUB_FILTERS = ("q", "gender", "position", "rating")
POSITIONS = {"hitter": "hitter_skill_level", "passer": "passer_skill_level", "setter": "setter_skill_level"}


def subs_elsewhere(actor: Actor | None) -> str | None:
    """The Subs list sends SVLs (display status SVL) to their sessions."""
    if actor is not None and actor.status == Role.SVL.value:
        return routes.SESSIONS
    return None


def _rating(value: Rating | None) -> str:
    return value.value if value else ""


class SubRatings(TypedDict):
    """A sub's gender and their rating at each position ("" where none is given)."""

    gender: str
    hitter: str
    passer: str
    setter: str


class SubRow(SubRatings):
    """A sub as the Subs list shows them: name, gender, ratings and record (never an email)."""

    id: int
    first_name: str
    last_name: str
    played: int
    no_shows: int


class SubChoice(TypedDict):
    """A sub as a select's option: their id as its value, their name as its label."""

    value: str
    label: str


def _sub(u: User) -> SubRow:
    """A sub as the Subs list shows them, with their record (kept on the account: ``sub_records``)."""
    assert u.id is not None  # a stored user
    return {
        "id": u.id,
        "first_name": u.first_name,
        "last_name": u.last_name,
        "gender": u.gender.value if u.gender else "",
        "hitter": _rating(u.hitter_skill_level),
        "passer": _rating(u.passer_skill_level),
        "setter": _rating(u.setter_skill_level),
        "played": u.sub_played,
        "no_shows": u.sub_no_shows,
    }


def _sub_conditions(filters: dict[str, Any] | None) -> list[sa.ColumnElement[bool]]:
    f = filters if isinstance(filters, dict) else {}
    out: list[sa.ColumnElement[bool]] = []
    text = paging.search_text(f.get("q"))
    if text:
        full = col(User.first_name) + " " + col(User.last_name)
        out.append(paging.contains(text, col(User.first_name), col(User.last_name), full))
    if gender := paging.choice(f.get("gender"), Gender.values()):
        out.append(col(User.gender) == Gender(gender))
    position = paging.choice(f.get("position"), tuple(POSITIONS))
    rating = paging.choice(f.get("rating"), Rating.values())
    columns = [getattr(User, POSITIONS[position])] if position else [getattr(User, c) for c in POSITIONS.values()]
    if rating:
        out.append(sa.or_(*[c == Rating(rating) for c in columns]))
    elif position:
        out.append(columns[0].is_not(None))
    return out


# The active subs (never an archived account), as the lists of subs by name read them.
_ACTIVE_SUBS = (col(User.sub).is_(True), col(User.active).is_(True), col(User.archived_at).is_(None))
_BY_NAME = (col(User.first_name), col(User.last_name), col(User.id))


class SubListArgs(TypedDict, total=False):
    """What a caller asks of a list of subs: ``filters`` (``SUB_FILTERS``), the page after ``bookmark``, its ``size``."""

    filters: dict[str, Any] | None
    bookmark: object
    size: object


def _by_name(db: Session, query: sa.Select, project: Callable[[Any], Any], args: SubListArgs) -> paging.Page:
    """One page of the subs ``query`` reads (ordered by ``_BY_NAME``), each row as ``project`` gives it."""
    return paging.keyset(
        db,
        query,
        kinds=(str, str, int),
        project=lambda found: [project(row) for row in found],
        bookmark=args.get("bookmark", ""),
        size=paging.page_size(args.get("size", paging.PAGE_SIZE)),
    )


def list_subs(db: Session, actor: Actor | None, **args: Unpack[SubListArgs]) -> paging.Page:
    """One page of the active subs by name, for the Subs page: names, gender and ratings only (never an email).

    ``filters``: ``q`` a name (first, last, or both), ``gender``, ``position`` (hitter, passer, setter)
    and ``rating`` (of that position, or of any position).
    """
    require_sub_request_actor(actor)
    query = sa.select(User).where(*_ACTIVE_SUBS, *_sub_conditions(args.get("filters"))).order_by(*_BY_NAME)
    return _by_name(db, query, lambda row: _sub(row[0]), args)


def _invitable(actor: Actor, request_id: int | None = None) -> list[sa.ColumnElement[bool]]:
    """Who may be invited: active subs but the actor (and, for a request, none who holds a place on it)."""
    out = [*_ACTIVE_SUBS, col(User.id) != actor.user_id]
    if request_id is not None:
        places: sa.Table = table_of(SubRequestPlace)
        out.append(~sa.exists().where(places.c.request_id == request_id, places.c.user_id == User.id))
    return out


def _choice(uid: int, first: str, last: str) -> SubChoice:
    return {"value": str(uid), "label": f"{first} {last}".strip()}


def invite_choices(
    db: Session, actor: Actor | None, *, request_id: int | None = None, **args: Unpack[SubListArgs]
) -> paging.Page:
    """One page of the subs a targeted request may name (every active sub but the actor), as select options.

    ``filters``: ``q`` a name (first, last, or both); by name, as the Subs page lists them. ``request_id``: for
    that request, whose subs with a place are not asked again.
    """
    actor = require_sub_request_actor(actor)
    filters = args.get("filters")
    named = _sub_conditions({"q": filters.get("q")} if isinstance(filters, dict) else None)
    query = sa.select(*_BY_NAME).where(*_invitable(actor, request_id), *named).order_by(*_BY_NAME)
    return _by_name(db, query, lambda r: _choice(r[2], r[0], r[1]), args)


def invite_choice(
    db: Session, actor: Actor | None, sub_id: object, *, request_id: int | None = None
) -> SubChoice | None:
    """The select option of the sub ``sub_id`` when a targeted request (``request_id``: that one) may name them,
    else None."""
    actor = require_sub_request_actor(actor)
    try:
        uid = record_id(sub_id)
    except NotFound:
        return None
    found = db.execute(
        sa.select(*_BY_NAME).where(col(User.id) == uid, *_invitable(actor, request_id))
    ).first()
    return _choice(found[2], found[0], found[1]) if found else None


def invite_list_choices(
    db: Session, actor: Actor | None, request_id: object, **args: Unpack[SubListArgs]
) -> paging.Page:
    """One page of the subs the requestor of ``request_id`` may put on its invite list, by name (``q`` a name).

    Only the request's requestor: anyone else is refused as for the request itself.
    """
    req = access_sub_request(db, actor, request_id, own=True)
    return invite_choices(db, actor, request_id=req.id, **args)


def invite_list_choice(db: Session, actor: Actor | None, request_id: object, sub_id: object) -> SubChoice | None:
    """The option of the sub ``sub_id`` for the invite list of the actor's request ``request_id``, else None."""
    req = access_sub_request(db, actor, request_id, own=True)
    return invite_choice(db, actor, sub_id, request_id=req.id)


@dataclass(frozen=True)
class SubsScreen:
    """What the Subs page shows, read in one call."""

    is_sub: bool  # the viewer is an active sub ('View My Sub Info' or 'Become a Sub')
    subs: Part[paging.Page]  # the first page of subs, as the search asks


def subs_screen(db: Session, actor: Actor | None, *, filters: dict[str, Any] | None = None) -> SubsScreen:
    """The Subs page for ``actor``: whether they are a sub, and the first page of subs ``filters`` find."""
    flag = part(accounts.is_sub, db, actor)
    return SubsScreen(is_sub=bool(flag.value), subs=part(list_subs, db, actor, filters=filters))


@dataclass(frozen=True)
class InviteScreen:
    """What Invite a Sub shows, read in one call."""

    chosen: SubChoice | None  # the sub the address names, when a targeted request may name them
    choices: Part[paging.Page]  # the picker's first page of subs, no search
    hints: dict[str, Any]  # the time-zone hints of the request form (``venues.time_hints``)


def invite_screen(db: Session, actor: Actor | None, *, sub_id: object = "",
                  filters: dict[str, Any] | None = None) -> InviteScreen:  # fmt: skip
    """Invite a Sub for ``actor``: the sub ``sub_id`` names (if any and invitable), the first page of subs to pick
    from as ``filters`` find them, and the form's time-zone hints."""
    chosen = part(invite_choice, db, actor, sub_id=sub_id).value if sub_id else None
    return InviteScreen(chosen=chosen, choices=part(invite_choices, db, actor, filters=filters),
                        hints=venues.time_hints(db))  # fmt: skip
