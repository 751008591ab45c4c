"""The fields a session's form has, shared by the new and edit screens."""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import text_field

FIELDS = ("name", "start", "end")


def session_fields(state, name: rx.Var | str = "", start: rx.Var | str = "", end: rx.Var | str = "") -> list[rx.Component]:
    """Name, Start and End (venue time), with ``state``'s messages; the defaults a loaded session shows."""
    return [
        text_field("Name", "name", state, required=True, max_length=120, default_value=name),
        text_field("Start", "start", state, type="datetime-local", required=True, default_value=start),
        text_field("End", "end", state, type="datetime-local", required=True, default_value=end),
    ]
