"""What the session screens share: a session's form fields, its row in a list, its status badge.

Also two form shapes the team and registration screens have too: a form of fields one under the other,
and the edit form of a loaded record (Update and Delete).
"""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.components.forms import confirm_delete, submit_button, text_field
from volley_app.components.layout import button_row, column
from volley_app.services import timefmt

FIELDS = ("name", "start", "end")


def session_fields(state, name: rx.Var | str = "", start: rx.Var | str = "", end: rx.Var | str = "") -> list[rx.Component]:
    """Name, Start and End (venue time), with ``state``'s messages; the defaults a loaded session shows."""
    return [
        text_field("Name", "name", state, required=True, max_length=120, default_value=name),
        text_field("Start", "start", state, type="datetime-local", required=True, default_value=start),
        text_field("End", "end", state, type="datetime-local", required=True, default_value=end),
    ]


def session_row(s: dict) -> dict[str, str]:
    """A session from the sessions service as the texts and link of its row in a list."""
    return {
        **{k: s[k] for k in ("name", "svl_name", "status")},
        "id": str(s["id"]),
        "dates": timefmt.date_range(s["start_at"], s["end_at"]),
        "href": routes.session_path(s["id"]),
    }


def status_badge(status: rx.Var) -> rx.Component:
    """Active green, anything else blue."""
    return rx.badge(status, color_scheme=rx.cond(status == "Active", "green", "blue"))


def record_form(state, *fields: rx.Component, update: str, delete: str, question: rx.Var | str) -> rx.Component:
    """The edit form of a loaded record: ``fields``, then Update (``state.save``) and Delete (``state.delete``).

    Delete asks ``question`` first. The fields show the record's values, drawn again when ``state.form_key`` changes.
    """
    save = submit_button(update, state, size="2", width="auto")
    buttons = button_row(save, confirm_delete(delete, question, state.delete), spacing="3")
    return stacked_form(*fields, buttons, on_submit=state.save, key=state.form_key)


def stacked_form(*children: rx.Component, on_submit, spacing: str = "4", **props) -> rx.Component:
    """A form across the whole width, its fields and buttons one under the other, sent whole to ``on_submit``."""
    return rx.form(column(*children, spacing=spacing), on_submit=on_submit, width="100%", **props)
