"""Suggested subs for a sub request: who may take it, best fit first, and why; and a sub's record after games.

Eligible (every rule, one SQL query over the users, each rule a column so an excluded sub says why; the rules
live in ``services/subs/eligibility.py``, where an accept reads them too):

1. an active sub (``sub`` ticked, account active, not archived) — others are never listed;
2. not the requestor, and no place on the request already;
3. rated at the needed position at or above the request's lowest rating (position "Any": their best of
   hitter, passer and setter); a request without a lowest rating takes any sub, rated or not;
4. the gender the request needs (a sub with no gender given fits only "Any");
5. free that weekday (the venue's local date of the game; ``users.sub_days``, a bit per weekday);
6. not on one of their unavailable dates (``sub_unavailable_dates``) that day;
7. under their weekly cap: fewer requests they took a place on that week (Monday to Sunday, venue dates) than
   the cap;
8. not playing then: not the captain of a team with a game starting within an hour of the request's time;
9. not subbing then: no other request they took a place on within an hour.

Ranked (ties broken by the next key, the last one unique, so the order is stable):

1. rating fit at the needed position: with a lowest rating, the closest at or above it first (a B for
   "B or better" before an A); without one, the closest to the request's skill level (C+ counts as C),
   unrated subs last;
2. reliability: games marked played minus no-shows, highest first;
3. least recently subbed first (the latest date of a request they took a place on; never subbed first), to
   spread the work;
4. first name, last name, then id.

Each row carries its reason in words ("Setter B, free Thursdays, 12 played, 0 no-shows, last subbed
Nov 2"). Only the requestor of the request and admins see its suggestions. Pages are read by position
(``paging.offset`` style): the total comes from the same query (a window count).

A sub's record (played, no-shows, last subbed) is kept on their account (``services/subs/sub_records.py``), so the
ranking reads no requests. After the game the requestor marks each sub who took a place "Played" or "No-show"
(``mark_outcome``, one mark per place): from the game's time until ``OUTCOME_DAYS`` days after it, changeable
in that time, every mark audited.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any, TypedDict

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Position, SubOutcome, SubRequest, SubRequestPlace, SubStatus, User, utcnow
from volley_app.models.base import table_of
from volley_app.services.accounts import venues
from volley_app.services.core import audit, paging, ratelimit, timefmt
from volley_app.services.core.actors import Actor, record_id
from volley_app.services.core.errors import BadRequest, Forbidden, Invalid, NotFound
from volley_app.services.subs import eligibility, invites, request_rows, sub_records
from volley_app.services.subs.access import access_sub_request, require_sub_request_actor
from volley_app.services.subs.subs_list import SubRatings

log = logging.getLogger(__name__)

OUTCOME_DAYS = 7
NOT_OPEN = "Suggestions are for a sub request that is still open"
NOT_PLACED = "Only a sub who took a place on this sub request can be marked"
LISTS = ("eligible", "ineligible")

_sub_requests: sa.Table = table_of(SubRequest)
# The eligibility rules and their words are the accept's too (services/subs/eligibility.py).
_RANK, _COLUMNS, UNRATED = eligibility.RANK, eligibility.COLUMNS, eligibility.UNRATED
_rank, _flag, _rules = eligibility.rank, eligibility.flag, eligibility.rules
_best, _why_not = eligibility.best, eligibility.why_not


# -- the query ----------------------------------------------------------------------------------------------------


def _fit(req: SubRequest) -> sa.ColumnElement[int]:
    """How far the sub's rating at the needed position is from what the request asks (0 best)."""
    rank = eligibility.position_rank(req.position_needed or Position.ANY)
    if req.min_rating is not None:
        return _RANK[req.min_rating.value] - rank
    target = eligibility.SKILL_RANK[req.skill_level]
    return sa.case((rank == UNRATED, UNRATED), (rank >= target, rank - target), else_=target - rank)


_PEOPLE = (
    *(col(c) for c in (User.id, User.first_name, User.last_name, User.username, User.gender, User.hitter_skill_level,
                       User.passer_skill_level, User.setter_skill_level, User.sub_days, User.sub_weekly_cap)),
    # the record kept on the account (services/subs/sub_records.py): no request is read for it
    col(User.sub_played).label("played"), col(User.sub_no_shows).label("no_shows"),
    col(User.sub_last_date).label("last_date"), col(User.sub_late_withdrawals).label("late_withdrawals"),
)  # fmt: skip


def _query(req: SubRequest, which: str, zone: str, league: eligibility.LeagueRules | None,
           only: int | None = None) -> sa.Select:  # fmt: skip
    """The page query of ``which`` list, ordered, each row with the list's total (a window count).

    Eligible: the rules filter the subs, ranked by their records (kept on ``users``). Ineligible: by name, a
    flag per rule."""
    rules, week = _rules(req, zone, league)
    base: list[sa.ColumnElement[bool]] = [col(User.sub).is_(True), col(User.active).is_(True), col(User.archived_at).is_(None)]
    if only is not None:
        base.append(col(User.id) == only)
    taken = sa.func.coalesce(week.c.taken, 0).label("taken")
    total = sa.func.count().over().label("total")
    if which == "eligible":
        query = (
            sa.select(*_PEOPLE, taken, total)
            .select_from(User)
            .outerjoin(week, week.c.sub_id == User.id)
            .where(*base, *rules.values())
            .order_by(_fit(req), (col(User.sub_played) - col(User.sub_no_shows)).desc(),
                      col(User.sub_last_date).asc().nulls_first(), col(User.first_name), col(User.last_name),
                      col(User.id))
        )  # fmt: skip
    else:
        where = [*base, sa.or_(*[_flag(rule) == 0 for rule in rules.values()])]
        flags = [_flag(rule).label(f"ok_{name}") for name, rule in rules.items()]
        query = (
            sa.select(*_PEOPLE, taken, total, *flags)
            .select_from(User)
            .outerjoin(week, week.c.sub_id == User.id)
            .where(*where)
            .order_by(col(User.first_name), col(User.last_name), col(User.id))
        )
    return query


# -- words --------------------------------------------------------------------------------------------------------


def _reason(row, req: SubRequest, zone: str) -> str:
    position, rating = _best(row, req.position_needed or Position.ANY)
    day = timefmt.local(req.date, zone)
    parts = [f"{position} {rating}" if rating else f"{position}, not rated",
             f"free {day:%A}s", f"{row.played} played", timefmt.plural(row.no_shows, "no-show")]  # fmt: skip
    if row.late_withdrawals:
        parts.append(timefmt.plural(row.late_withdrawals, "late withdrawal"))
    if row.last_date is not None:
        last = timefmt.local(row.last_date, zone)
        parts.append(f"last subbed {last:%b} {last.day}")
    else:
        parts.append("never subbed")
    if row.sub_weekly_cap is not None:
        parts.append(f"{row.taken} of {row.sub_weekly_cap} this week")
    return ", ".join(parts)


class SuggestionRow(SubRatings):
    """A sub as a request's suggestions show them: name, gender, ratings, record, and why they fit or why not
    (never an email)."""

    id: int
    name: str
    played: int
    no_shows: int
    eligible: bool
    reason: str


def _project(row: Any, req: SubRequest, which: str, zone: str, league: eligibility.LeagueRules | None) -> SuggestionRow:
    name = request_rows.person_name(row.first_name, row.last_name, row.username)
    return {
        "id": row.id,
        "name": name,
        "gender": row.gender.value if row.gender else "",
        "hitter": row.hitter_skill_level.value if row.hitter_skill_level else "",
        "passer": row.passer_skill_level.value if row.passer_skill_level else "",
        "setter": row.setter_skill_level.value if row.setter_skill_level else "",
        "played": row.played,
        "no_shows": row.no_shows,
        "eligible": which == "eligible",
        "reason": eligibility.noted(_reason(row, req, zone), league) if which == "eligible"
        else _why_not(row, req, zone, league),
    }


# -- reading ------------------------------------------------------------------------------------------------------


def _own_open(db: Session, actor: Actor | None, request_id: object, now: dt.datetime) -> tuple[Actor, SubRequest]:
    """The request when the actor is its requestor (or an admin) and it may still take a sub."""
    actor = require_sub_request_actor(actor)
    req = access_sub_request(db, actor, request_id)
    if req.requestor_id != actor.user_id and not actor.is_admin:
        raise Forbidden()
    if req.status == SubStatus.ACCEPTED or req.completed or req.date <= now:  # (a read: the lists save "completed")
        raise BadRequest(NOT_OPEN)
    return actor, req


def suggestions(
    db: Session,
    actor: Actor | None,
    request_id: object,
    *,
    show: object = "eligible",
    bookmark: object = "",
    size: object = paging.PAGE_SIZE,
    now: dt.datetime | None = None,
) -> paging.Page:
    """One page of the subs for a request: ``show`` "eligible" (ranked, with reasons) or "ineligible" (by
    name, each with why not). Only the requestor and admins; the request must be open and ahead."""
    now = now or utcnow()
    acting, req = _own_open(db, actor, request_id, now)
    which = show if isinstance(show, str) and show in LISTS else "eligible"
    per = paging.page_size(size)
    start = int(bookmark) if isinstance(bookmark, str) and bookmark.isdigit() and len(bookmark) < 10 else 0
    start = start // per * per
    zone = venues.zone_by_name(db, req.svl)  # the request's day and week are the venue's
    league = eligibility.league_rules(db, req)
    query = _query(req, which, zone, league)
    found = db.execute(query.limit(per).offset(start)).all()
    if not found and start:  # past the end (the list shrank): its first page
        start = 0
        found = db.execute(query.limit(per)).all()
    total = found[0].total if found else 0
    return paging.Page(
        rows=[_project(r, req, which, zone, league) for r in found],
        total=total,
        next=str(start + per) if start + per < total else "",
        previous=str(max(start - per, 0)) if start > 0 else "",
        here=str(start) if start else "",
        size=per,
        extra={
            "needs": request_rows.needs_text(req.position_needed, req.gender_needed, req.min_rating),
            # an invite names one sub: not while one invited has not answered yet
            "can_invite": req.requestor_id == acting.user_id and not (req.status == SubStatus.OPEN and req.recipient_id is not None),
        },
    )


def check(db: Session, req: SubRequest, sub_id: int) -> str:
    """Why the sub ``sub_id`` may not take ``req`` ("" when they may)."""
    zone = venues.zone_by_name(db, req.svl)
    league = eligibility.league_rules(db, req)
    if db.execute(_query(req, "eligible", zone, league, only=sub_id)).first() is not None:
        return ""
    row = db.execute(_query(req, "ineligible", zone, league, only=sub_id)).first()
    return _why_not(row, req, zone, league) if row is not None else "not an active sub"


# -- changing -----------------------------------------------------------------------------------------------------


def invite(
    db: Session, actor: Actor | None, request_id: object, *, sub_id: object, now: dt.datetime | None = None
) -> None:
    """The requestor invites one suggested sub to their request (the spec's targeted invite): the request,
    open to anyone or declined, names that sub and emails them. The sub must be eligible now."""
    now = now or utcnow()
    actor, req = _own_open(db, actor, request_id, now)
    if req.requestor_id != actor.user_id:
        raise Forbidden()
    if req.status == SubStatus.OPEN and req.recipient_id is not None:
        raise BadRequest("This sub request is waiting for the invited sub's answer")
    uid = record_id(sub_id, "Choose a sub")
    why = check(db, req, uid)
    if why:
        raise Invalid({"sub": f"This sub cannot take it: {why}"})
    ratelimit.sub_invite(db, actor.user_id, uid, now=now)
    free = sa.or_(
        sa.and_(_sub_requests.c.status == SubStatus.OPEN.value, _sub_requests.c.recipient_id.is_(None)),
        _sub_requests.c.status == SubStatus.DECLINED.value,
    )
    changed = db.connection().execute(
        sa.update(_sub_requests)
        .where(_sub_requests.c.id == req.id, _sub_requests.c.archived_at.is_(None), free)
        .values(status=SubStatus.OPEN.value, recipient_id=uid, updated_at=now)
    ).rowcount
    if changed != 1:  # taken or invited a moment ago (a double click)
        raise BadRequest("This sub request is no longer open to invite")
    db.refresh(req)
    sub = db.get(User, uid)
    assert sub is not None  # checked above: an active sub
    invites.email_named(db, req, sub)
    invites.tell_changed(db, req, open_list=True)  # it leaves the open list; the invited sub's pages show it
    log.info("sub request %s: user %s invited sub %s from the suggestions", req.id, actor.user_id, uid)


def _places(db: Session, req: SubRequest) -> list[tuple[SubRequestPlace, User]]:
    """The places taken on the request and their subs, in the order they were taken."""
    return list(db.exec(
        select(SubRequestPlace, User).join(User, col(User.id) == SubRequestPlace.user_id)
        .where(SubRequestPlace.request_id == req.id)
        .order_by(col(SubRequestPlace.accepted_at), col(SubRequestPlace.id))
    ).all())  # fmt: skip


class MarkedSub(TypedDict):
    """A sub who took a place on a request, and their mark ("" until the requestor marks them)."""

    id: int
    name: str
    outcome: str


class Outcomes(TypedDict):
    """For the requestor after the game: whether they may mark the subs now, and each sub with their mark."""

    can_mark: bool
    subs: list[MarkedSub]


def outcome_info(
    db: Session, actor: Actor | None, request_id: object, *, now: dt.datetime | None = None
) -> Outcomes:
    """For the requestor: whether they may mark the subs now, and each sub who took a place with their mark."""
    actor = require_sub_request_actor(actor)
    req = access_sub_request(db, actor, request_id, own=True)
    subs: list[MarkedSub] = [
        {"id": sub.id, "name": request_rows.person_name(sub.first_name, sub.last_name, sub.username),
         "outcome": place.outcome.value if place.outcome else ""}
        for place, sub in _places(db, req) if sub.id is not None
    ]  # fmt: skip
    return {"can_mark": bool(subs) and can_mark(req, actor, now or utcnow()), "subs": subs}


def can_mark(req: SubRequest, actor: Actor, now: dt.datetime) -> bool:
    """Whether the actor may mark how the subs who took places did: the requestor, after the game, for a while."""
    return (
        req.requestor_id == actor.user_id
        and req.archived_at is None
        and req.date <= now <= req.date + dt.timedelta(days=OUTCOME_DAYS)
    )


def mark_outcome(
    db: Session, actor: Actor | None, request_id: object, *, sub_id: object, outcome: object,
    now: dt.datetime | None = None,
) -> None:
    """The requestor says one sub who took a place on the request played or did not show (changeable for
    ``OUTCOME_DAYS`` days after the game; audited, naming the sub). The sub's record follows at once."""
    actor = require_sub_request_actor(actor)
    now = now or utcnow()
    req = access_sub_request(db, actor, request_id, own=True)
    try:
        value = SubOutcome(outcome) if isinstance(outcome, str) else None
    except ValueError:
        value = None
    if value is None:
        raise Invalid({"outcome": "Choose Played or No-show"})
    try:
        uid = record_id(sub_id, NOT_PLACED)
    except NotFound:
        raise BadRequest(NOT_PLACED) from None
    place = db.exec(
        select(SubRequestPlace).where(SubRequestPlace.request_id == req.id, SubRequestPlace.user_id == uid)
    ).first()
    if place is None:
        raise BadRequest(NOT_PLACED)
    if now < req.date:
        raise BadRequest("Mark how the sub did after the game")
    if now > req.date + dt.timedelta(days=OUTCOME_DAYS):
        raise BadRequest(f"A sub can be marked for {OUTCOME_DAYS} days after the game")
    before = place.outcome.value if place.outcome else None
    if before == value.value:
        return
    place.outcome, place.outcome_at = value, now
    req.updated_at = now
    db.add_all([place, req])
    db.flush()
    sub_records.refresh(db, [uid])
    invites.tell_changed(db, req)
    sub = db.get(User, uid)
    audit.record(
        db, actor, action="sub_outcome", entity="sub_request", entity_id=req.id,
        summary=f"Marked {request_rows.person_name(sub.first_name, sub.last_name, sub.username) if sub else 'the sub'} "
                f"{value.value.lower()} for {req.team} on {timefmt.day(req.date, venues.zone_by_name(db, req.svl))}",
        before={"outcome": before}, after={"outcome": value.value}, subject_user_id=uid,
    )  # fmt: skip
