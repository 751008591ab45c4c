"""Reminders of an accepted sub request: the day before the game, and the morning after it.

- From the start of the day before the game (the venue's day) until the game starts, the
  requestor and each sub who accepted get a reminder of when and where.
- From 8 am (venue time) the day after the game, for a week, the requestor is asked to mark
  whether the subs played or did not show, with a link to the request's page (not once every
  sub who took a place is marked).

Only requests that are accepted and not cancelled are reminded. Each reminder goes out
once: its row in ``sub_request_reminders`` (unique per request, person and kind) is written
in the transaction that puts the email in the outbox, so sweeps running at the same time
(several instances, the command line) send it once between them. A periodic task of the app
(:func:`run_forever`) and ``python -m volley_app.cli send-reminders`` run the sweep.
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app import routes
from volley_app.models import SubRequest, SubRequestPlace, SubRequestReminder, SubStatus, User, utcnow
from volley_app.services.accounts import venues
from volley_app.services.core import periodic, timefmt
from volley_app.services.mail import mail

log = logging.getLogger(__name__)

DAY_BEFORE = "day_before"
AFTER_GAME = "after_game"
MORNING = dt.time(8)  # the morning after the game, venue time
ASK_FOR = dt.timedelta(days=7)  # after a week, a game's marks are no longer asked for
SWEEP_SECONDS = 60.0
DAY = dt.timedelta(days=1)


@dataclasses.dataclass(frozen=True)
class Due:
    """One reminder to send: a request, the person, the kind."""

    request_id: int
    user_id: int
    kind: str


# -- when ----------------------------------------------------------------------------------------------------------


def _venue_time(day: dt.date, at: dt.time, zone: str | None) -> dt.datetime:
    """``at`` on the venue's ``day`` (in its time zone ``zone``), in UTC."""
    return dt.datetime.combine(day, at, tzinfo=timefmt.zone_of(zone)).astimezone(dt.UTC)


def day_before_window(game: dt.datetime, zone: str | None = None) -> tuple[dt.datetime, dt.datetime]:
    """When the day-before reminder may go: from the start of the venue day before the game until it starts."""
    return _venue_time(timefmt.local(game, zone).date() - DAY, dt.time(), zone), game


def after_game_window(game: dt.datetime, zone: str | None = None) -> tuple[dt.datetime, dt.datetime]:
    """When the after-game email may go: from the venue's morning after the game, for a week."""
    start = _venue_time(timefmt.local(game, zone).date() + DAY, MORNING, zone)
    return start, start + ASK_FOR


def _within(window: tuple[dt.datetime, dt.datetime], now: dt.datetime) -> bool:
    return window[0] <= now < window[1]


# -- who -----------------------------------------------------------------------------------------------------------


def accepted_subs(db: Session, req: SubRequest) -> list[int]:
    """The users who took a place on ``req`` (each is reminded the day before), in the order they accepted."""
    placed = db.exec(
        select(SubRequestPlace.user_id).where(SubRequestPlace.request_id == req.id).order_by(col(SubRequestPlace.id))
    ).all()
    named = [req.recipient_id] if req.status == SubStatus.ACCEPTED and req.recipient_id else []
    return list(dict.fromkeys([*placed, *named]))


def _unmarked() -> sa.ColumnElement[bool]:
    """A sub who took a place on the request has no mark yet."""
    return sa.exists().where(col(SubRequestPlace.request_id) == SubRequest.id, col(SubRequestPlace.outcome).is_(None))


def _remindable() -> list[sa.ColumnElement[bool]]:
    # taken, or a request for several players some of whom have accepted
    return [sa.or_(col(SubRequest.status) == SubStatus.ACCEPTED, col(SubRequest.places_filled) > 0),
            col(SubRequest.archived_at).is_(None)]


def due(db: Session, now: dt.datetime) -> list[Due]:
    """Every reminder whose time has come and that nobody has sent yet."""
    sent = {(r, u, k) for r, u, k in db.exec(
        select(SubRequestReminder.sub_request_id, SubRequestReminder.user_id, SubRequestReminder.kind)
        .join(SubRequest, col(SubRequest.id) == SubRequestReminder.sub_request_id)
        .where(SubRequest.date > now - ASK_FOR - 2 * DAY, SubRequest.date <= now + 2 * DAY)
    ).all()}  # fmt: skip
    found: list[Due] = []
    # the day before: games in the next two days (the venue's day before starts at most 48 hours ahead)
    coming = db.exec(select(SubRequest).where(*_remindable(), SubRequest.date > now, SubRequest.date <= now + 2 * DAY)).all()
    # the morning after (not once the requestor has marked every sub): games of the last week and a bit
    past = db.exec(select(SubRequest).where(*_remindable(), _unmarked(), SubRequest.date <= now,
                                            SubRequest.date > now - ASK_FOR - 2 * DAY)).all()  # fmt: skip
    zones = venues.zones_by_name(db, {r.svl for r in (*coming, *past)})
    for req in coming:
        assert req.id is not None  # a stored request
        if _within(day_before_window(req.date, zones.get(req.svl.strip().casefold())), now):
            subs = accepted_subs(db, req)
            found += [Due(req.id, u, DAY_BEFORE) for u in (req.requestor_id, *subs)] if subs else []
    for req in past:
        assert req.id is not None  # a stored request
        if _within(after_game_window(req.date, zones.get(req.svl.strip().casefold())), now):
            found.append(Due(req.id, req.requestor_id, AFTER_GAME))
    return [d for d in dict.fromkeys(found) if (d.request_id, d.user_id, d.kind) not in sent]


# -- sending -------------------------------------------------------------------------------------------------------


def _name(user: User | None) -> str:
    if user is None:
        return ""
    return f"{user.first_name or ''} {user.last_name or ''}".strip() or user.username


def send_one(db: Session, reminder: Due, now: dt.datetime) -> bool:
    """Queue one reminder and record it, in ``db``'s transaction; False when it is no longer due.

    Raises:
        IntegrityError: another sweep recorded it first (its transaction sent it).
    """
    req = db.get(SubRequest, reminder.request_id)
    if req is None or req.archived_at is not None or (req.status != SubStatus.ACCEPTED and not req.places_filled):
        return False
    if reminder.kind == AFTER_GAME and db.exec(select(SubRequest.id).where(SubRequest.id == req.id, _unmarked())).first() is None:
        return False  # every sub already marked played or no-show
    subs = accepted_subs(db, req)
    zone = venues.zone_by_name(db, req.svl)
    window = day_before_window(req.date, zone) if reminder.kind == DAY_BEFORE else after_game_window(req.date, zone)
    people = (req.requestor_id, *subs) if reminder.kind == DAY_BEFORE else (req.requestor_id,)
    if not subs or not _within(window, now) or reminder.user_id not in people:
        return False
    user = db.get(User, reminder.user_id)
    if user is None or not user.email:
        return False
    assert req.id is not None and user.id is not None  # both stored
    db.add(SubRequestReminder(sub_request_id=req.id, user_id=user.id, kind=reminder.kind, sent_at=now))
    db.flush()  # the unique row: a second sweep stops here
    requestor = db.get(User, req.requestor_id)
    sub_names = ", ".join(_name(db.get(User, s)) for s in subs)
    if reminder.kind == AFTER_GAME:
        template = "sub_reminder_after_game"
    else:
        template = "sub_reminder_requestor" if user.id == req.requestor_id else "sub_reminder_sub"
    values = {
        "first_name": mail.first_name(user), "team": req.team, "sub_names": sub_names, "subs": len(subs),
        "requestor": _name(requestor), "when": timefmt.long(req.date, zone), "day": timefmt.day(req.date, zone),
        "where": f"{req.svl}{f', {req.court}' if req.court else ''}", "skill_level": req.skill_level.value,
        "format": req.format.value, "page": routes.absolute(routes.sub_request_path(req.id)),
    }  # fmt: skip
    mail.queue_email(db, template, values, to=user.email, kind=f"sub_reminder_{reminder.kind}",
                     reply_to=requestor.email if requestor and user.id != requestor.id else None)  # fmt: skip
    return True


def send_reminders(now: dt.datetime | None = None) -> int:
    """Send every reminder that is due, each in its own transaction; returns how many this call sent.

    Safe to run on several instances at once: a reminder another sweep recorded first is skipped.
    """
    return periodic.each_once(due, send_one, now or utcnow(), what="reminder")


async def run_forever(stop_event: asyncio.Event | None = None, interval: float = SWEEP_SECONDS) -> None:
    """Run :func:`send_reminders` every ``interval`` seconds (in a worker thread) until cancelled or stopped."""
    await periodic.every(interval, send_reminders, name="Sub request reminders", stop_event=stop_event)
