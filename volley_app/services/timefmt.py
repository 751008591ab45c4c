"""Showing times in the venue's time zone (a setting), never the browser's offset."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from volley_app.settings import get_settings


def local(value: dt.datetime) -> dt.datetime:
    return value.astimezone(ZoneInfo(get_settings().time_zone))


def date_range(start: dt.datetime, end: dt.datetime) -> str:
    """'Sep 8, 2026 – Nov 10, 2026' in the venue's zone."""
    a, b = local(start), local(end)
    return f"{a:%b} {a.day}, {a.year} – {b:%b} {b.day}, {b.year}"


def parse_local(value: object, field: str, label: str) -> dt.datetime:
    """A venue wall-clock time ('2026-09-08T18:30' from a datetime-local input, or a datetime) as UTC.

    Raises:
        Invalid: when the value is missing, not a date-time, or outside the years 2000 to 2100.
    """
    from volley_app.services import validation
    from volley_app.services.errors import Invalid

    if isinstance(value, dt.datetime):
        parsed = value
    else:
        text = value.strip() if isinstance(value, str) else ""
        if not text:
            raise Invalid({field: f"{label} is required"})
        try:
            parsed = dt.datetime.fromisoformat(text)
        except ValueError:
            raise Invalid({field: f"{label} must be a date and time"}) from None
    validation.in_years(parsed, field, label)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=ZoneInfo(get_settings().time_zone))
    return parsed.astimezone(dt.UTC)


def input_value(value: dt.datetime | None) -> str:
    """The value a datetime-local input shows for ``value`` (venue zone)."""
    return local(value).strftime("%Y-%m-%dT%H:%M") if value else ""


def date_time(value: dt.datetime | None) -> str:
    """'Mon Sep 8, 2026 6:30 PM' in the venue's zone."""
    if value is None:
        return ""
    a = local(value)
    return f"{a:%a %b} {a.day}, {a.year} {a:%I:%M %p}".replace(" 0", " ")


def day(value: dt.datetime) -> str:
    """'Sat, Nov 21, 2026' in the venue's zone."""
    a = local(value)
    return f"{a:%a}, {a:%b} {a.day}, {a.year}"


def clock(value: dt.datetime) -> str:
    """'7:20 PM' in the venue's zone."""
    a = local(value)
    return f"{a.hour % 12 or 12}:{a:%M} {a:%p}"


def long(value: dt.datetime) -> str:
    """'Saturday, November 21, 2026 at 7:20 PM EST' in the venue's zone (for emails)."""
    a = local(value)
    return f"{a:%A}, {a:%B} {a.day}, {a.year} at {clock(value)} {a:%Z}"
