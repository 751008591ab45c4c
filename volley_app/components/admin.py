"""Pieces the admin screens share."""

from __future__ import annotations

from volley_app.services import timefmt


def local_time(value) -> str:
    """A stored UTC time in the venue's zone, e.g. 'Nov 21, 2026 9:40 AM'."""
    return timefmt.local(value).strftime("%b %-d, %Y %-I:%M %p")
