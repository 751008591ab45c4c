"""The request form's fields, shared by the new request forms and the requestor's edit form.

Team, date and time, location, court, skill level, format and message. The form is
uncontrolled and submitted whole; the server checks every field.
"""

from __future__ import annotations

import reflex as rx

from volley_app.components.forms import field, select_field, text_field
from volley_app.models import SkillLevel, SubFormat
from volley_app.services.errors import DomainError, Invalid
from volley_app.state.forms import FormState, form_values

FORM_ERROR_ID = "note-form-error"
DETAIL_FIELDS = ("team", "when", "svl", "court", "skill_level", "sub_format", "text")
# The service names two fields differently from the form's inputs.
SERVICE_NAMES = {"when": "date", "sub_format": "format"}
FORM_NAMES = {v: k for k, v in SERVICE_NAMES.items()}
EMPTY_RECORD = dict.fromkeys(DETAIL_FIELDS, "")


class RequestFormState(FormState, mixin=True):
    """The request form's submit: the form's values as the service's arguments, its messages by input."""

    _fields = (*DETAIL_FIELDS, "recipient")
    _error_id = FORM_ERROR_ID

    def _request_values(self, form_data: object) -> dict[str, str]:
        values = form_values(form_data, DETAIL_FIELDS)
        return {SERVICE_NAMES.get(k, k): v for k, v in values.items()}

    def _show_failure(self, failure: DomainError) -> None:
        if isinstance(failure, Invalid):
            failure = Invalid({FORM_NAMES.get(k, k): v for k, v in failure.errors.items()})
        super()._show_failure(failure)


def _options(values: list[str]) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


def _message_field(state, default) -> rx.Component:
    error = state.errors.get("text", "")
    has_error = error != ""
    area = rx.text_area(
        id="text", name="text", default_value=default, max_length=2000, width="100%", rows="3",
        aria_invalid=rx.cond(has_error, "true", "false"), aria_describedby=rx.cond(has_error, "text-error", ""),
        on_change=rx.cond(has_error | (state.error != ""), state.fixed("text"), rx.noop()),
    )  # fmt: skip
    return field("Message", area, field_id="text", error=error, hint="Optional")


def request_fields(state, record=None, on_edit=None) -> list[rx.Component]:
    """Team, date, location, court, skill, format, message: labelled, each with its message.

    Args:
        state: the form's state (a ``RequestFormState``).
        record: a Var of the request's values by input name, shown as the defaults (None: empty).
        on_edit: ``f(name)`` giving the change handler of a required field, when the page follows them as typed.
    """

    def default(name: str):
        return record[name] if record is not None else ""

    def edit(name: str) -> dict:
        return {"on_change": on_edit(name)} if on_edit is not None else {}

    return [
        text_field("Team", "team", state, default_value=default("team"), required=True, max_length=100, **edit("team")),
        text_field("Date and Time", "when", state, type="datetime-local", default_value=default("when"),
                   required=True, hint="Venue time (Lexington, KY)", **edit("when")),
        text_field("Location", "svl", state, default_value=default("svl"), required=True, max_length=200,
                   placeholder="Lexington Sportsplex", **edit("svl")),
        text_field("Court", "court", state, default_value=default("court"), max_length=50, hint="Optional"),
        select_field("Skill Level", "skill_level", _options(SkillLevel.values()), state,
                     placeholder="Choose a skill level", default_value=default("skill_level"), **edit("skill_level")),
        select_field("Format", "sub_format", _options(SubFormat.values()), state, placeholder="Choose a format",
                     default_value=default("sub_format"), **edit("sub_format")),
        _message_field(state, default("text")),
    ]  # fmt: skip
