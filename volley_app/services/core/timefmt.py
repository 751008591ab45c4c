"""Showing and reading times in a venue's time zone, never the browser's offset.

Every function takes the venue's ``zone`` (a ``ZoneInfo`` or an IANA name); without one it is
the product's default zone (the ``TIME_ZONE`` setting), for what belongs to no venue.
"""

from __future__ import annotations

import datetime as dt
import functools
from zoneinfo import ZoneInfo

from volley_app.settings import get_settings

Zone = ZoneInfo | str | None

# The zones a venue chooses from (the service accepts any IANA name): the US ones first.
COMMON_ZONES = (
    "America/New_York", "America/Chicago", "America/Denver", "America/Phoenix", "America/Los_Angeles",
    "America/Anchorage", "Pacific/Honolulu", "America/Puerto_Rico", "America/Detroit", "America/Indiana/Indianapolis",
    "America/Boise", "America/Toronto", "America/Winnipeg", "America/Edmonton", "America/Vancouver",
    "America/Halifax", "America/Mexico_City", "Europe/London", "Europe/Dublin", "Europe/Paris", "Europe/Berlin",
    "Europe/Madrid", "Europe/Rome", "Europe/Amsterdam", "Australia/Sydney", "Pacific/Auckland", "Asia/Tokyo", "UTC",
)  # fmt: skip

# Short names people read for the US zones all year ("ET", not "EST" in winter and "EDT" in summer).
_SHORT = {
    "America/New_York": "ET", "America/Detroit": "ET", "America/Toronto": "ET", "America/Indiana/Indianapolis": "ET",
    "America/Kentucky/Louisville": "ET",
    "America/Chicago": "CT", "America/Winnipeg": "CT", "America/Indiana/Knox": "CT",
    "America/Denver": "MT", "America/Phoenix": "MT", "America/Boise": "MT", "America/Edmonton": "MT",
    "America/Los_Angeles": "PT", "America/Vancouver": "PT",
    "America/Anchorage": "AKT", "Pacific/Honolulu": "HT",
}  # fmt: skip


def default_name() -> str:
    return get_settings().time_zone


@functools.lru_cache(maxsize=256)
def _zone_info(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def zone_of(zone: Zone = None) -> ZoneInfo:
    """The ``ZoneInfo`` of ``zone`` (a name or a ZoneInfo); the default zone for None or a name not known."""
    if isinstance(zone, ZoneInfo):
        return zone
    try:
        return _zone_info(zone or default_name())
    except (ValueError, OSError, KeyError):  # a name the zone database does not know (never stored: validated)
        return _zone_info(default_name())


def known(name: str) -> bool:
    """Whether ``name`` is an IANA zone name this machine's zone database has."""
    if not name or len(name) > 64 or name.startswith("/") or ".." in name:
        return False
    try:
        _zone_info(name)
    except (ValueError, OSError, KeyError):
        return False
    return True


def local(value: dt.datetime, zone: Zone = None) -> dt.datetime:
    return value.astimezone(zone_of(zone))


def label(value: dt.datetime, zone: Zone = None) -> str:
    """The zone's short name at ``value``: 'ET', 'CT', 'MT', 'PT' for the US zones, else the abbreviation ('CET')."""
    z = zone_of(zone)
    return _SHORT.get(z.key) or local(value, z).tzname() or z.key


def day_start(day: dt.date, zone: Zone = None) -> dt.datetime:
    """The start of a venue day, in UTC (a list's "from" and "to" days are the venue's)."""
    return dt.datetime.combine(day, dt.time(), tzinfo=zone_of(zone)).astimezone(dt.UTC)


def date_range(start: dt.datetime, end: dt.datetime, zone: Zone = None) -> str:
    """'Sep 8, 2026 – Nov 10, 2026' in the venue's zone."""
    a, b = local(start, zone), local(end, zone)
    return f"{a:%b} {a.day}, {a.year} – {b:%b} {b.day}, {b.year}"


def parse_local(value: object, field: str, label: str, zone: Zone = None) -> dt.datetime:
    """A venue wall-clock time ('2026-09-08T18:30' from a datetime-local input, or a datetime) as UTC.

    Raises:
        Invalid: when the value is missing, not a date-time, or outside the years 2000 to 2100.
    """
    from volley_app.services.core import validation
    from volley_app.services.core.errors import Invalid

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
        parsed = parsed.replace(tzinfo=zone_of(zone))
    return parsed.astimezone(dt.UTC)


def input_value(value: dt.datetime | None, zone: Zone = None) -> str:
    """The value a datetime-local input shows for ``value`` (venue zone)."""
    return local(value, zone).strftime("%Y-%m-%dT%H:%M") if value else ""


def date_time(value: dt.datetime | None, zone: Zone = None, *, labelled: bool = False) -> str:
    """'Mon Sep 8, 2026 6:30 PM' in the venue's zone (``labelled``: '... 6:30 PM CT')."""
    if value is None:
        return ""
    a = local(value, zone)
    text = f"{a:%a %b} {a.day}, {a.year} {a:%I:%M %p}".replace(" 0", " ")
    return f"{text} {label(value, zone)}" if labelled else text


def day(value: dt.datetime, zone: Zone = None) -> str:
    """'Sat, Nov 21, 2026' in the venue's zone."""
    a = local(value, zone)
    return f"{a:%a}, {a:%b} {a.day}, {a.year}"


def clock(value: dt.datetime, zone: Zone = None, *, labelled: bool = False) -> str:
    """'7:20 PM' in the venue's zone (``labelled``: '7:20 PM ET')."""
    a = local(value, zone)
    text = f"{a.hour % 12 or 12}:{a:%M} {a:%p}"
    return f"{text} {label(value, zone)}" if labelled else text


def long(value: dt.datetime, zone: Zone = None) -> str:
    """'Saturday, November 21, 2026 at 7:20 PM ET' in the venue's zone (for emails)."""
    a = local(value, zone)
    return f"{a:%A}, {a:%B} {a.day}, {a.year} at {clock(value, zone, labelled=True)}"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st (a day of the month, a place in the standings)."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def plural(n: int, word: str) -> str:
    """'1 team', '2 teams' (a count and its noun, the noun taking an s but for one)."""
    return f"{n} {word}{'' if n == 1 else 's'}"
