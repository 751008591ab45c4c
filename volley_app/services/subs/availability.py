"""When a sub can play: the weekdays they usually can, a weekly cap, and the dates they cannot.

Rules:

- Each user changes their own; an admin anyone's (``access_user``). SVLs have no sub info.
- Weekdays are kept as one number (bit 0 Monday ... bit 6 Sunday), so the suggestions' query tests a
  day with one AND; no day ticked means the sub is never suggested.
- The weekly cap is blank (no cap) or a whole number from 1 to ``CAP_MAX`` subs a week (Monday to Sunday).
- Dates they cannot are venue dates, one row each (``sub_unavailable_dates``): at most ``DATES_MAX``
  from today on, none in the past, none twice. Past dates drop out of the list shown.
"""

from __future__ import annotations

import datetime as dt

import sqlalchemy as sa
from sqlmodel import Session, col, select

from volley_app.models import Day, Role, SubUnavailableDate, User, utcnow
from volley_app.services.accounts.accounts import access_user
from volley_app.services.core import timefmt
from volley_app.services.core.actors import Actor
from volley_app.services.core.errors import Forbidden, Invalid, NotFound

EVERY_DAY = 127
DAYS = tuple(d.value for d in Day)  # Monday first, as date.weekday() counts
CAP_MAX = 14
DATES_MAX = 60
AHEAD_DAYS = 730
SAVED = "Availability saved."


def day_bit(weekday: int) -> int:
    """The bit of a weekday (``date.weekday()``: 0 Monday ... 6 Sunday)."""
    return 1 << weekday


def days_of(mask: int | None) -> list[str]:
    """The weekday names a mask holds, Monday first."""
    mask = EVERY_DAY if mask is None else mask
    return [name for i, name in enumerate(DAYS) if mask & day_bit(i)]


def days_text(mask: int | None) -> str:
    """'every day', 'Tuesdays and Thursdays', 'no day'."""
    names = days_of(mask)
    if len(names) == len(DAYS):
        return "every day"
    if not names:
        return "no day"
    plural = [f"{n}s" for n in names]
    return plural[0] if len(plural) == 1 else f"{', '.join(plural[:-1])} and {plural[-1]}"


def _user(db: Session, actor: Actor | None, user_id: object) -> User:
    user = access_user(db, actor, user_id)
    if Role.SVL.value in (user.roles or []) and Role.PLAYER.value not in (user.roles or []):
        raise Forbidden("Venue operators have no sub availability")
    return user


def _today() -> dt.date:
    return timefmt.local(utcnow()).date()


def get(db: Session, actor: Actor | None, user_id: object) -> dict:
    """The user's availability: ``days`` (names), ``cap`` ("" for none), ``dates`` (ISO, today on, in order)."""
    user = _user(db, actor, user_id)
    today = _today()
    found = db.exec(
        select(col(SubUnavailableDate.day))
        .where(SubUnavailableDate.user_id == user.id, col(SubUnavailableDate.day) >= today)
        .order_by(col(SubUnavailableDate.day))
    ).all()
    return {
        "days": days_of(user.sub_days),
        "days_text": days_text(user.sub_days),
        "cap": "" if user.sub_weekly_cap is None else str(user.sub_weekly_cap),
        "dates": [d.isoformat() for d in found],
    }


def _cap(value: object) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise Invalid({"cap": "The weekly cap must be a whole number"})
    try:
        cap = int(value.strip() if isinstance(value, str) else value)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        raise Invalid({"cap": "The weekly cap must be a whole number"}) from None
    if not 1 <= cap <= CAP_MAX:
        raise Invalid({"cap": f"The weekly cap must be between 1 and {CAP_MAX} (blank: no cap)"})
    return cap


def save_week(db: Session, actor: Actor | None, user_id: object, *, days: object, cap: object = None) -> None:
    """Set the weekdays (a list of day names) and the weekly cap (blank: no cap)."""
    user = _user(db, actor, user_id)
    picked = days if isinstance(days, list | tuple) else []
    if any(not isinstance(d, str) or d not in DAYS for d in picked):
        raise Invalid({"days": "Choose days of the week"})
    mask = 0
    for name in picked:
        mask |= day_bit(DAYS.index(name))
    user.sub_weekly_cap = _cap(cap)
    user.sub_days = mask
    user.updated_at = utcnow()
    db.add(user)
    db.flush()


def _day(value: object) -> dt.date:
    text = value.strip() if isinstance(value, str) else ""
    if not text:
        raise Invalid({"day": "Choose a date"})
    try:
        day = dt.date.fromisoformat(text[:10]) if len(text) <= 10 else None
    except ValueError:
        day = None
    if day is None:
        raise Invalid({"day": "Choose a date"})
    today = _today()
    if day < today:
        raise Invalid({"day": "Choose today or a later date"})
    if day > today + dt.timedelta(days=AHEAD_DAYS):
        raise Invalid({"day": "Choose a date within two years"})
    return day


def add_date(db: Session, actor: Actor | None, user_id: object, *, day: object) -> None:
    """Add a date the sub cannot play (once: adding it again changes nothing)."""
    user = _user(db, actor, user_id)
    assert user.id is not None  # a stored user
    when = _day(day)
    mine = SubUnavailableDate.user_id == user.id
    if db.exec(select(SubUnavailableDate.id).where(mine, SubUnavailableDate.day == when)).first() is not None:
        return
    ahead = db.exec(select(sa.func.count()).select_from(SubUnavailableDate).where(mine, SubUnavailableDate.day >= _today())).one()
    if ahead >= DATES_MAX:
        raise Invalid({"day": f"At most {DATES_MAX} dates: remove one first"})
    db.add(SubUnavailableDate(user_id=user.id, day=when))
    try:
        with db.begin_nested():
            db.flush()
    except sa.exc.IntegrityError:  # the same date added at the same moment (a double click): there once
        return


def remove_date(db: Session, actor: Actor | None, user_id: object, *, day: object) -> None:
    """Take a date off the list (NotFound when it is not on it)."""
    user = _user(db, actor, user_id)
    text = day.strip() if isinstance(day, str) else ""
    try:
        when = dt.date.fromisoformat(text) if len(text) == 10 else None
    except ValueError:
        when = None
    row = None
    if when is not None:
        row = db.exec(
            select(SubUnavailableDate).where(SubUnavailableDate.user_id == user.id, SubUnavailableDate.day == when)
        ).first()
    if row is None:
        raise NotFound("That date is not on the list")
    db.delete(row)
    db.flush()
