"""What the session screens share: a session's form fields, its row in a list, its status badge."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import reflex as rx

from volley_app import routes
from volley_app.components.forms import text_field
from volley_app.services.core import timefmt

FIELDS = ("name", "start", "end")


def session_fields(state, name: rx.Var | str = "", start: rx.Var | str = "", end: rx.Var | str = "") -> list[rx.Component]:
    """Name, Start and End (venue time), with ``state``'s messages; the defaults a loaded session shows."""
    return [
        text_field("Name", "name", state, required=True, max_length=120, default_value=name),
        text_field("Start", "start", state, type="datetime-local", required=True, default_value=start),
        text_field("End", "end", state, type="datetime-local", required=True, default_value=end),
    ]


def session_row(s: Mapping[str, Any]) -> dict[str, str]:
    """A session from the sessions service as the texts and link of its row in a list."""
    return {
        **{k: s[k] for k in ("name", "svl_name", "status")},
        "id": str(s["id"]),
        "dates": timefmt.date_range(s["start_at"], s["end_at"], s.get("zone")),
        "href": routes.session_path(s["id"]),
    }


def status_badge(status: rx.Var) -> rx.Component:
    """Active green, anything else blue."""
    return rx.badge(status, color_scheme=rx.cond(status == "Active", "green", "blue"))
