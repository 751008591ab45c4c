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
