"""A sub request as the lists show it: the people it names, what it needs in words, whether it is over, and who
holds a place on it.

- A request whose date has passed is completed: reads compute it (:func:`is_completed`), the periodic sweep saves it
  (:func:`complete_past`).
- Email addresses never leave the server: a row carries none.
"""

from __future__ import annotations

import datetime as dt
from typing import TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import (
    GenderNeeded,
    Position,
    Rating,
    SubOutcome,
    SubRequest,
    SubRequestPlace,
    SubStatus,
    User,
    utcnow,
)
from volley_app.models.base import table_of
from volley_app.services.core import timefmt

PASSED = "This sub request's date has passed"

_table: sa.Table = table_of(SubRequest)


class SubRequestRow(TypedDict):
    """A request as the lists show it: the people by name (never an email), its needs in words, its times on its
    venue's clock."""

    id: int
    requestor: str
    recipient: str
    sub: str
    status: str
    team: str
    svl: str
    court: str
    skill_level: str
    format: str
    text: str
    completed: bool
    date: dt.datetime
    date_text: str
    time_text: str
    local_input: str
    position_needed: str
    gender_needed: str
    min_rating: str
    needs: str
    outcome: str
    players_needed: int
    places_filled: int


def person_names(db: Session, ids: set[int]) -> dict[int, str]:
    """People by id as players know each other: first and last name (the username when both are empty)."""
    if not ids:
        return {}
    found = db.exec(select(col(User.id), User.first_name, User.last_name, User.username).where(col(User.id).in_(ids))).all()
    return {uid: person_name(first, last, username) for uid, first, last, username in found if uid is not None}


def person_name(first: str | None, last: str | None, username: str | None) -> str:
    """A person as players know each other: first and last name, else the username."""
    return f"{first or ''} {last or ''}".strip() or (username or "")


def _no_sub(req: SubRequest) -> str:
    """'Open' for a request open to anyone; a closed one whose sub deleted their account says so."""
    return "Open" if req.status == SubStatus.OPEN else "Deleted account"


def needs_text(position: Position | None, gender: GenderNeeded | None, rating: Rating | None) -> str:
    """What a request needs in words: "female setter, B or better"; "anyone" when it names nothing."""
    position, gender = position or Position.ANY, gender or GenderNeeded.ANY
    if position == Position.ANY and gender == GenderNeeded.ANY and rating is None:
        return "anyone"
    who = "player" if position == Position.ANY else position.value.lower()
    if gender != GenderNeeded.ANY:
        who = f"{gender.value.lower()} {who}"
    if rating is None:
        return who
    return f"{who}, {rating.value} or better" if rating != Rating.A else f"{who}, A"


def is_completed(req: SubRequest, now: dt.datetime | None = None) -> bool:
    """Whether the request is over (spec section 4: its date has passed), as of ``now``: saved by the periodic
    sweep (:func:`complete_past`), computed here so that a read writes nothing."""
    return req.completed or req.date <= (now or utcnow())


def row(
    req: SubRequest, names: dict[int, str], zones: dict[str, str] | None = None, outcome: SubOutcome | None = None,
    now: dt.datetime | None = None,
) -> SubRequestRow:
    """A request as lists show it, completed as of ``now``; its times on the clock of the venue it names
    (``zones``, by name); ``outcome``: the mark of the sub it names."""
    assert req.id is not None  # a stored request
    zone = (zones or {}).get(req.svl.strip().casefold())
    local = timefmt.local(req.date, zone)
    return {
        "id": req.id,
        "requestor": names.get(req.requestor_id, ""),
        "recipient": names.get(req.recipient_id, "") if req.recipient_id else "Anyone",
        "sub": names.get(req.recipient_id, "") if req.recipient_id else _no_sub(req),
        "status": req.status.value,
        "team": req.team,
        "svl": req.svl,
        "court": req.court or "",
        "skill_level": req.skill_level.value,
        "format": req.format.value,
        "text": req.text or "",
        "completed": is_completed(req, now),
        "date": req.date,
        "date_text": timefmt.day(req.date, zone),
        "time_text": timefmt.clock(req.date, zone, labelled=True),
        "local_input": f"{local:%Y-%m-%dT%H:%M}",
        "position_needed": (req.position_needed or Position.ANY).value,
        "gender_needed": (req.gender_needed or GenderNeeded.ANY).value,
        "min_rating": req.min_rating.value if req.min_rating else "",
        "needs": needs_text(req.position_needed, req.gender_needed, req.min_rating),
        "outcome": outcome.value if outcome else "",
        "players_needed": req.players_needed,
        "places_filled": req.places_filled,
    }


def complete_past(db: Session, *where: sa.ColumnElement[bool], now: dt.datetime | None = None) -> None:
    """Save as completed, in one UPDATE, every request ``where`` picks whose date has passed (spec section 4): the
    periodic sweep, and a change that needs it saved first. Reads compute it (:func:`is_completed`)."""
    now = now or utcnow()
    db.flush()
    db.connection().execute(
        sa.update(_table)
        .where(_table.c.completed.is_(False), _table.c.date <= now, *where)
        .values(completed=True, updated_at=now)
    )
    for loaded in list(db.identity_map.values()):
        if isinstance(loaded, SubRequest):
            db.expire(loaded, ["completed", "updated_at"])


def placed_by(user_id: int) -> sa.ColumnElement[bool]:
    """The request already has a place taken by ``user_id``."""
    places: sa.Table = table_of(SubRequestPlace)
    return sa.exists().where(places.c.request_id == _table.c.id, places.c.user_id == user_id)
