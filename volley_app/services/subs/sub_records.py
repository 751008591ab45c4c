"""A sub's record, kept on their account so lists and the suggestions read it without counting requests.

The record of a sub (``users.sub_played``, ``sub_no_shows``, ``sub_last_date``) is always what the places they
took say (``sub_request_places``; the sub a request names has one once they accept), over the requests not
cancelled (``archived_at`` empty):

- played: places marked "Played"; no-shows: places marked "No-show";
- last date: the date of the latest request they took a place on (None: never);
- late withdrawals: places they gave up ("I can't make it") within :data:`LATE_HOURS` hours of the game
  (``sub_withdrawals``).

Whatever changes one of those (a place taken or given up, a mark given or changed, a request cancelled or its date moved,
an account archived with its requests) calls :func:`refresh` for the subs concerned in the same transaction:
it recomputes their records from the places, so a record never drifts from its source. :func:`rebuild` does
it for every account (``python -m volley_app.cli rebuild-sub-records``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import sqlalchemy as sa
from sqlmodel import Session

from volley_app.models import SubOutcome, SubRequest, SubRequestPlace, SubWithdrawal, User
from volley_app.models.base import table_of

log = logging.getLogger(__name__)

_users: sa.Table = table_of(User)
_places: sa.Table = table_of(SubRequestPlace)
_requests: sa.Table = table_of(SubRequest)
_withdrawals: sa.Table = table_of(SubWithdrawal)
FIELDS = ("sub_played", "sub_no_shows", "sub_last_date", "sub_late_withdrawals")
LATE_HOURS = 24


def _late(user_id: sa.ColumnElement[int]) -> sa.Select:
    """How many places ``user_id`` gave up late on requests not cancelled."""
    return (
        sa.select(sa.func.count())
        .select_from(_withdrawals.join(_requests, _requests.c.id == _withdrawals.c.request_id))
        .where(_withdrawals.c.user_id == user_id, _withdrawals.c.late.is_(True), _requests.c.archived_at.is_(None))
    )


def _kept(user_id: sa.ColumnElement[int]) -> sa.Select:
    """The places ``user_id`` took on requests not cancelled (joined to their requests)."""
    return (
        sa.select()
        .select_from(_places.join(_requests, _requests.c.id == _places.c.request_id))
        .where(_places.c.user_id == user_id, _requests.c.archived_at.is_(None))
    )


def _queries(user_id: sa.ColumnElement[int]) -> dict[str, sa.Select]:
    """Each record column as a query over the places of ``user_id``."""

    def marked(value: SubOutcome) -> sa.Select:
        return _kept(user_id).add_columns(sa.func.count()).where(_places.c.outcome == value)

    return {
        "sub_played": marked(SubOutcome.PLAYED),
        "sub_no_shows": marked(SubOutcome.NO_SHOW),
        "sub_last_date": _kept(user_id).add_columns(sa.func.max(_requests.c.date)),
        "sub_late_withdrawals": _late(user_id),
    }


def _values() -> dict[str, sa.ScalarSelect]:
    """Each record column as a subquery over the places of the ``users`` row being updated."""
    return {name: query.scalar_subquery() for name, query in _queries(_users.c.id).items()}


def _expire(db: Session, ids: set[int] | None) -> None:
    """Loaded accounts read their record again."""
    for loaded in list(db.identity_map.values()):
        if isinstance(loaded, User) and (ids is None or loaded.id in ids):
            db.expire(loaded, list(FIELDS))


def refresh(db: Session, user_ids: Iterable[int | None]) -> None:
    """Recompute the records of ``user_ids`` from their places, in ``db``'s transaction.

    Their rows are locked first (in id order), so of two changes for the same sub at once the second
    recomputes after the first committed and sees its place or mark."""
    ids = sorted({int(u) for u in user_ids if u is not None})
    if not ids:
        return
    db.flush()
    conn = db.connection()
    conn.execute(sa.select(_users.c.id).where(_users.c.id.in_(ids)).order_by(_users.c.id).with_for_update())
    conn.execute(sa.update(_users).where(_users.c.id.in_(ids)).values(**_values()))
    _expire(db, set(ids))


def refresh_request(db: Session, request_id: int) -> None:
    """Recompute the records of every sub who took a place on the request (or gave one up)."""
    db.flush()
    holders = db.connection().execute(sa.select(_places.c.user_id).where(_places.c.request_id == request_id))
    gave_up = db.connection().execute(sa.select(_withdrawals.c.user_id).where(_withdrawals.c.request_id == request_id))
    refresh(db, [*holders.scalars(), *gave_up.scalars()])


def rebuild(db: Session) -> int:
    """Recompute every account's record (the CLI command, and after seeding). Returns how many changed.

    One grouped pass over the places (no query per account), then an update of the records that differ.
    Every account's row is locked first, as :func:`refresh` does, so a change committed meanwhile is counted."""
    db.flush()
    conn = db.connection()
    conn.execute(sa.select(_users.c.id).order_by(_users.c.id).with_for_update())
    counted = conn.execute(
        sa.select(
            _places.c.user_id,
            sa.func.count(sa.case((_places.c.outcome == SubOutcome.PLAYED, 1))),
            sa.func.count(sa.case((_places.c.outcome == SubOutcome.NO_SHOW, 1))),
            sa.func.max(_requests.c.date),
        )
        .select_from(_places.join(_requests, _requests.c.id == _places.c.request_id))
        .where(_requests.c.archived_at.is_(None))
        .group_by(_places.c.user_id)
    ).all()
    late: dict[object, int] = dict(conn.execute(
        sa.select(_withdrawals.c.user_id, sa.func.count())
        .select_from(_withdrawals.join(_requests, _requests.c.id == _withdrawals.c.request_id))
        .where(_withdrawals.c.late.is_(True), _requests.c.archived_at.is_(None))
        .group_by(_withdrawals.c.user_id)
    ).all())  # fmt: skip
    wanted = {uid: (played, no_shows, last) for uid, played, no_shows, last in counted}
    current = conn.execute(sa.select(_users.c.id, *[_users.c[name] for name in FIELDS])).all()
    changed = [
        {"uid": uid, "played": want[0], "no_shows": want[1], "last": want[2], "late": want[3]}
        for uid, *kept in current
        if tuple(kept) != (want := (*wanted.get(uid, (0, 0, None)), late.get(uid, 0)))
    ]
    if changed:
        conn.execute(
            sa.update(_users).where(_users.c.id == sa.bindparam("uid")).values(
                sub_played=sa.bindparam("played"), sub_no_shows=sa.bindparam("no_shows"),
                sub_last_date=sa.bindparam("last", type_=_users.c.sub_last_date.type),
                sub_late_withdrawals=sa.bindparam("late"),
            ),
            changed,
        )  # fmt: skip
    _expire(db, None)
    log.info("sub records rebuilt: %s changed", len(changed))
    return len(changed)


def record(db: Session, user_id: int) -> tuple[int, int, object]:
    """Played, no-shows and last date as recomputed now from the places (what :func:`refresh` would store)."""
    conn = db.connection()
    queries = _queries(sa.literal(user_id))
    return tuple(conn.execute(queries[name]).scalar_one() for name in FIELDS[:3])  # type: ignore[return-value]


def late_withdrawals(db: Session, user_id: int) -> int:
    """The late withdrawals as recomputed now (what :func:`refresh` would store)."""
    return db.connection().execute(_late(sa.literal(user_id))).scalar_one()
