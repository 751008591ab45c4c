"""The form state every inquiry form shares (contact, host, promote, franchise): checked, stored, mailed, then /sent."""

from __future__ import annotations

import reflex as rx

from volley_app import routes
from volley_app.services import inquiries
from volley_app.state.forms import TRAP_FIELD, FormState, form_values


class InquiryFormState(FormState, mixin=True):
    """One inquiry form; each subclass names its kind (a key of ``services.inquiries.FORMS``)."""

    _kind: str = "contact"  # with ``_fields`` = that form's fields and ``_error_id`` = "{kind}-error"

    def clear(self):
        """on_load: no message left over from another visit."""
        self._clear_messages()

    @rx.event
    async def submit(self, form_data: dict | None = None):
        fields = self._fields
        data = form_values(form_data, (*fields, TRAP_FIELD))
        async for event in self._submit(
            inquiries.submit,
            as_actor=False,
            done=lambda _r: rx.redirect(routes.SENT),
            kind=self._kind,
            data={name: data[name] for name in fields},
            client=self.router.session.client_ip or "unknown",
            trap=data[TRAP_FIELD],
        ):
            yield event
