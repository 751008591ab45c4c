"""The sub request form's state, shared by the new request forms and the requestor's edit form.

The form is uncontrolled and submitted whole; the server checks every field. The
service names two fields differently from the form's inputs (``when`` is ``date``,
``sub_format`` is ``format``): messages come back under the inputs' names.
"""

from __future__ import annotations

from volley_app.services.errors import DomainError, Invalid
from volley_app.state.forms import FormState, form_values

FORM_ERROR_ID = "note-form-error"
DETAIL_FIELDS = ("team", "when", "svl", "court", "skill_level", "sub_format", "text")
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
